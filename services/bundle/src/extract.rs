//! Writing an accepted upload into an empty directory.

use std::collections::HashSet;
use std::fs::{self, DirBuilder, File, OpenOptions, Permissions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use nix::libc::{O_CLOEXEC, O_DIRECTORY, O_NOFOLLOW};

use crate::error::BundleError;
use crate::walk::Sink;

const FILE_MODE: u32 = 0o644;
const EXECUTABLE_MODE: u32 = 0o755;
const DIR_MODE: u32 = 0o755;

/// Fails unless `dest` is an existing, empty directory.
pub(crate) fn check_destination(dest: &Path) -> Result<(), BundleError> {
    let io_error = |source| BundleError::Io {
        path: dest.to_owned(),
        source,
    };
    let not_empty = || BundleError::DestinationNotEmpty {
        dest: dest.to_owned(),
    };
    if !fs::metadata(dest).map_err(io_error)?.is_dir() {
        return Err(not_empty());
    }
    match fs::read_dir(dest).map_err(io_error)?.next() {
        None => Ok(()),
        Some(_) => Err(not_empty()),
    }
}

/// Creates files and directories under `dest`, never through an existing path.
///
/// Every directory is made with `mkdir` (which never follows a link) and every
/// file with `O_CREAT | O_EXCL | O_NOFOLLOW`, so anything already in the way,
/// link or not, makes the extraction fail rather than be followed. Modes are
/// set on the open handle, so the umask does not change them.
pub(crate) struct DiskSink<'a> {
    dest: &'a Path,
    /// Directories made so far, as normalized relative paths.
    made_dirs: HashSet<String>,
    /// Everything created, in order, for [`DiskSink::roll_back`].
    created: Vec<(PathBuf, bool)>,
}

impl<'a> DiskSink<'a> {
    pub(crate) fn new(dest: &'a Path) -> Self {
        DiskSink {
            dest,
            made_dirs: HashSet::new(),
            created: Vec::new(),
        }
    }

    fn io_error(&self, path: &str, source: io::Error) -> BundleError {
        BundleError::Io {
            path: self.dest.join(path),
            source,
        }
    }

    /// Makes `path` and its missing ancestors, all with mode 0755.
    fn ensure_dir(&mut self, path: &str) -> Result<(), BundleError> {
        let ends = path.match_indices('/').map(|(i, _)| i).chain([path.len()]);
        for end in ends {
            let prefix = &path[..end];
            if self.made_dirs.contains(prefix) {
                continue;
            }
            let full = self.dest.join(prefix);
            DirBuilder::new()
                .mode(DIR_MODE)
                .create(&full)
                .map_err(|e| self.io_error(prefix, e))?;
            self.created.push((full.clone(), true));
            self.made_dirs.insert(prefix.to_owned());
            OpenOptions::new()
                .read(true)
                .custom_flags(O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                .open(&full)
                .and_then(|dir| dir.set_permissions(Permissions::from_mode(DIR_MODE)))
                .map_err(|e| self.io_error(prefix, e))?;
        }
        Ok(())
    }

    /// Removes everything this sink created, newest first (best effort).
    pub(crate) fn roll_back(&mut self) {
        for (path, is_dir) in self.created.drain(..).rev() {
            let _ = if is_dir {
                fs::remove_dir(&path)
            } else {
                fs::remove_file(&path)
            };
        }
    }
}

impl Sink for DiskSink<'_> {
    type Out = File;

    fn directory(&mut self, path: &str) -> Result<(), BundleError> {
        self.ensure_dir(path)
    }

    fn create_file(&mut self, path: &str, executable: bool) -> Result<File, BundleError> {
        if let Some((parent, _)) = path.rsplit_once('/') {
            self.ensure_dir(parent)?;
        }
        let mode = if executable {
            EXECUTABLE_MODE
        } else {
            FILE_MODE
        };
        let full = self.dest.join(path);
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .custom_flags(O_NOFOLLOW | O_CLOEXEC)
            .open(&full)
            .map_err(|e| self.io_error(path, e))?;
        self.created.push((full, false));
        file.set_permissions(Permissions::from_mode(mode))
            .map_err(|e| self.io_error(path, e))?;
        Ok(file)
    }

    fn write_error(&self, path: &str, error: io::Error) -> BundleError {
        self.io_error(path, error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_symlink_already_in_place_of_a_file_is_not_followed() {
        let outer = tempfile::tempdir().unwrap();
        let (dest, target) = (outer.path().join("dest"), outer.path().join("target"));
        fs::create_dir(&dest).unwrap();
        fs::write(&target, b"precious").unwrap();
        symlink(&target, dest.join("main.py")).unwrap();
        let mut sink = DiskSink::new(&dest);
        let error = sink.create_file("main.py", false).unwrap_err();
        assert!(matches!(error, BundleError::Io { .. }), "{error}");
        assert_eq!(fs::read(&target).unwrap(), b"precious");
    }

    #[test]
    fn a_symlink_already_in_place_of_a_directory_is_not_followed() {
        let outer = tempfile::tempdir().unwrap();
        let (dest, elsewhere) = (outer.path().join("dest"), outer.path().join("elsewhere"));
        fs::create_dir(&dest).unwrap();
        fs::create_dir(&elsewhere).unwrap();
        symlink(&elsewhere, dest.join("src")).unwrap();
        let mut sink = DiskSink::new(&dest);
        assert!(sink.create_file("src/main.py", false).is_err());
        assert!(sink.directory("src").is_err());
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
    }

    #[test]
    fn rolling_back_removes_everything_written_and_nothing_else() {
        let outer = tempfile::tempdir().unwrap();
        let dest = outer.path().join("dest");
        fs::create_dir(&dest).unwrap();
        let mut sink = DiskSink::new(&dest);
        sink.directory("a/b").unwrap();
        let mut file = sink.create_file("a/b/c.txt", true).unwrap();
        file.write_all(b"data").unwrap();
        sink.create_file("d.txt", false).unwrap();
        sink.roll_back();
        assert_eq!(fs::read_dir(&dest).unwrap().count(), 0);
        assert!(dest.is_dir());
    }
}

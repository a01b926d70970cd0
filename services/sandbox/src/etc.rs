//! The sandbox's `/etc`: one directory, prepared when the [`Sandbox`](crate::Sandbox) starts and
//! bound read-only at `/etc` in every sandbox.
//!
//! A bot needs a few host files there (the dynamic loader's cache, `alternatives` for
//! `/usr/bin/python3`-style links, Python's own configuration) and a `hosts` file that names the
//! match's loopback. Binding each of them on its own cost bubblewrap about 0.25 ms of CPU per
//! bind (it reads the mount table again for every one): 2.4 ms of a 9 ms sandbox start, measured
//! with `bwrap` alone, 200 starts each. So the worker copies them once into
//! `<state dir>/etc` and every sandbox binds that one directory.
//!
//! The copy is a snapshot taken when the worker starts: a host change under `/etc` (a new
//! library's loader cache after installing a package) reaches bots when the workers restart.
//! Several workers on one machine share the directory: every file is written beside its place
//! and renamed into it, and all of them write the same content, so a sandbox starting meanwhile
//! sees either the old file or the new one, never half of one.

use std::fs;
use std::io;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The host's entries under `/etc` a sandbox sees (when the host has them).
pub(crate) const HOST_ENTRIES: &[&str] = &[
    "alternatives",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "nsswitch.conf",
    "python3",
    "python3.11",
];

/// The sandbox's `/etc/hosts`: the match's loopback under the sandbox's host name.
const HOSTS: &str = "127.0.0.1 localhost croupier\n::1 localhost ip6-localhost\n";

/// Fills `dir` (created if missing, mode 0755) with copies of the host's [`HOST_ENTRIES`] and
/// the sandbox's `hosts`.
pub(crate) fn prepare(dir: &Path) -> io::Result<()> {
    prepare_from(Path::new("/etc"), dir)
}

fn prepare_from(host: &Path, dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))?;
    for name in HOST_ENTRIES {
        let source = host.join(name);
        match fs::symlink_metadata(&source) {
            Ok(_) => mirror(&source, &dir.join(name))
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", source.display())))?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    replace(&dir.join("hosts"), |tmp| {
        fs::write(tmp, HOSTS)?;
        fs::set_permissions(tmp, fs::Permissions::from_mode(0o644))
    })
}

/// Copies `source` to `target`: a directory entry by entry, a symbolic link as the same link
/// (relative links resolve alike, since the copy is seen at the host's place), a regular file
/// with its mode. Anything else (a socket, a device) is left out.
fn mirror(source: &Path, target: &Path) -> io::Result<()> {
    let meta = fs::symlink_metadata(source)?;
    let kind = meta.file_type();
    if kind.is_dir() {
        match fs::symlink_metadata(target) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                fs::remove_file(target)?;
                fs::create_dir(target)?;
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::create_dir(target) {
                // Another sandbox (thread or worker) made it meanwhile.
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
                _ => {}
            },
            Err(e) => return Err(e),
        }
        fs::set_permissions(target, meta.permissions())?;
        for entry in fs::read_dir(source)? {
            let entry = entry?;
            mirror(&entry.path(), &target.join(entry.file_name()))?;
        }
        Ok(())
    } else if kind.is_symlink() {
        let points_to = fs::read_link(source)?;
        replace(target, |tmp| symlink(&points_to, tmp))
    } else if kind.is_file() {
        replace(target, |tmp| {
            fs::copy(source, tmp)?;
            fs::set_permissions(tmp, meta.permissions())
        })
    } else {
        Ok(())
    }
}

/// Writes `target` through `write` into a temporary name beside it, then renames it into place.
fn replace(target: &Path, write: impl FnOnce(&Path) -> io::Result<()>) -> io::Result<()> {
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    // Unique per writer: workers share the directory, and so do sandboxes of one process.
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = target.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()));
    let _ = fs::remove_file(&tmp);
    let written = write(&tmp).and_then(|()| {
        if fs::symlink_metadata(target).is_ok_and(|m| m.is_dir()) {
            fs::remove_dir_all(target)?;
        }
        fs::rename(&tmp, target)
    });
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_files_dirs_and_links_and_writes_hosts() {
        let host = tempfile::tempdir().unwrap();
        let h = host.path();
        fs::write(h.join("ld.so.cache"), b"cache").unwrap();
        fs::set_permissions(h.join("ld.so.cache"), fs::Permissions::from_mode(0o600)).unwrap();
        fs::create_dir(h.join("alternatives")).unwrap();
        symlink("/usr/bin/python3.11", h.join("alternatives/python3")).unwrap();
        symlink("../../usr/share/zoneinfo/UTC", h.join("localtime")).unwrap();
        fs::write(h.join("shadow"), b"secret").unwrap(); // not on the list

        let out = tempfile::tempdir().unwrap();
        let etc = out.path().join("etc");
        prepare_from(h, &etc).unwrap();

        assert_eq!(fs::read(etc.join("ld.so.cache")).unwrap(), b"cache");
        let mode = fs::metadata(etc.join("ld.so.cache"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the mode is kept");
        assert_eq!(
            fs::read_link(etc.join("alternatives/python3")).unwrap(),
            Path::new("/usr/bin/python3.11")
        );
        assert_eq!(
            fs::read_link(etc.join("localtime")).unwrap(),
            Path::new("../../usr/share/zoneinfo/UTC"),
            "a relative link stays relative"
        );
        assert_eq!(fs::read_to_string(etc.join("hosts")).unwrap(), HOSTS);
        assert!(!etc.join("shadow").exists(), "only the listed entries");
        assert!(!etc.join("python3").exists(), "a missing entry is skipped");
        let mode = fs::metadata(&etc).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755);

        // Again over the first copy, after the host changed: the new content, no leftovers.
        fs::write(h.join("ld.so.cache"), b"newer").unwrap();
        fs::remove_file(h.join("localtime")).unwrap();
        fs::write(h.join("localtime"), b"TZif").unwrap();
        prepare_from(h, &etc).unwrap();
        assert_eq!(fs::read(etc.join("ld.so.cache")).unwrap(), b"newer");
        assert_eq!(fs::read(etc.join("localtime")).unwrap(), b"TZif");
        let names: Vec<String> = fs::read_dir(&etc)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    }
}

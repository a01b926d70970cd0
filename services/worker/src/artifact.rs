//! Build artifacts: the build directory packed as a deterministic `.tar.gz` (regular files and
//! directories only, normalised modes, no owners or times), and the on-disk cache of unpacked
//! artifacts keyed by SHA-256 that match seats run from.

use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};

use croupier_store::{blobs, PgPool};
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;

/// Why [`pack`] made no artifact.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PackError {
    /// The build's files add up to more than `cap` bytes: the team's fault.
    #[error("the build output is larger than {} MiB", cap >> 20)]
    TooLarge { cap: u64 },
    /// Reading the build directory or writing the archive failed: the worker's fault.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Packs `dir` (not following links; links, devices and sockets are left out). Fails when the
/// archive grows over `cap` bytes of content.
pub(crate) fn pack(dir: &Path, cap: u64) -> Result<Vec<u8>, PackError> {
    let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), flate2::Compression::default()));
    let mut total = 0_u64;
    add_dir(&mut builder, dir, Path::new(""), cap, &mut total)?;
    Ok(builder.into_inner()?.finish()?)
}

fn add_dir(
    b: &mut tar::Builder<GzEncoder<Vec<u8>>>,
    root: &Path,
    rel: &Path,
    cap: u64,
    total: &mut u64,
) -> Result<(), PackError> {
    let mut entries: Vec<_> = fs::read_dir(root.join(rel))?.collect::<Result<_, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let path = rel.join(e.file_name());
        let meta = fs::symlink_metadata(root.join(&path))?;
        let mut h = tar::Header::new_gnu();
        h.set_mtime(0);
        if meta.is_dir() {
            h.set_entry_type(tar::EntryType::Directory);
            h.set_mode(0o755);
            h.set_size(0);
            b.append_data(&mut h, &path, io::empty())?;
            add_dir(b, root, &path, cap, total)?;
        } else if meta.is_file() {
            *total += meta.len();
            if *total > cap {
                return Err(PackError::TooLarge { cap });
            }
            h.set_entry_type(tar::EntryType::Regular);
            h.set_mode(if meta.mode() & 0o111 != 0 {
                0o755
            } else {
                0o644
            });
            h.set_size(meta.len());
            // The build's processes are all dead by now, so the file cannot be swapped for a link.
            let f = File::open(root.join(&path))?;
            b.append_data(&mut h, &path, f.take(meta.len()))?;
        }
    }
    Ok(())
}

/// Unpacks an artifact made by [`pack`] into the empty directory `dest` (0755 directories,
/// 0644/0755 files). Anything but regular files and directories with plain relative paths is
/// refused.
pub(crate) fn unpack(bytes: &[u8], dest: &Path) -> io::Result<()> {
    let mut archive = tar::Archive::new(GzDecoder::new(bytes));
    for entry in archive.entries()? {
        let mut entry = entry?;
        let rel = entry.path()?.into_owned();
        if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(io::Error::other(format!(
                "bad path in artifact: {}",
                rel.display()
            )));
        }
        let target = dest.join(&rel);
        match entry.header().entry_type() {
            tar::EntryType::Directory => DirBuilder::new()
                .mode(0o755)
                .recursive(true)
                .create(&target)?,
            tar::EntryType::Regular => {
                if let Some(parent) = target.parent() {
                    DirBuilder::new()
                        .mode(0o755)
                        .recursive(true)
                        .create(parent)?;
                }
                let mode = if entry.header().mode()? & 0o111 != 0 {
                    0o755
                } else {
                    0o644
                };
                // Closed before any sandbox forks (it may be executed): see `forklock`.
                let _writing = croupier_sandbox::forklock::writing();
                let mut f = OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(mode)
                    .open(&target)?;
                io::copy(&mut entry, &mut f)?;
                f.set_permissions(fs::Permissions::from_mode(mode))?;
                f.flush()?;
                drop(f);
            }
            other => {
                return Err(io::Error::other(format!(
                    "unexpected {other:?} entry in artifact"
                )))
            }
        }
    }
    Ok(())
}

/// Creates `dir` (and its parents) and makes it 0755.
pub(crate) fn open_dir(dir: &Path) -> io::Result<()> {
    DirBuilder::new().mode(0o755).recursive(true).create(dir)?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))
}

/// Unpacked artifacts under `root/<sha256 hex>`, shared by every match that needs them.
#[derive(Debug)]
pub(crate) struct Cache {
    root: PathBuf,
}

impl Cache {
    pub(crate) fn new(root: PathBuf) -> Self {
        Cache { root }
    }

    /// The directory holding the artifact `sha256`, unpacked on first use (atomically: into a
    /// temporary directory, then renamed).
    pub(crate) async fn dir(&self, pool: &PgPool, sha256: &[u8]) -> Result<PathBuf, String> {
        let dir = self.root.join(hex::encode(sha256));
        if dir.is_dir() {
            return Ok(dir);
        }
        let bytes = blobs::get(pool, sha256)
            .await
            .map_err(|e| format!("loading artifact {}: {e}", hex::encode(sha256)))?;
        if blobs::digest(&bytes)[..] != *sha256 {
            return Err(format!("artifact {} is corrupt", hex::encode(sha256)));
        }
        let (root, target) = (self.root.clone(), dir.clone());
        tokio::task::spawn_blocking(move || {
            open_dir(&root)?;
            let tmp = root.join(format!(".tmp-{}", uuid::Uuid::new_v4()));
            open_dir(&tmp)?;
            let unpacked = unpack(&bytes, &tmp).and_then(|()| match fs::rename(&tmp, &target) {
                Err(_) if target.is_dir() => fs::remove_dir_all(&tmp), // another worker won
                other => other,
            });
            if unpacked.is_err() {
                let _ = fs::remove_dir_all(&tmp);
            }
            unpacked
        })
        .await
        .map_err(|e| format!("unpacking artifact: {e}"))?
        .map_err(|e| format!("unpacking artifact {}: {e}", hex::encode(sha256)))?;
        Ok(dir)
    }
}

/// Reads at most `cap` bytes of the end of `text` (on a character boundary).
pub(crate) fn tail(text: &str, cap: usize) -> &str {
    if text.len() <= cap {
        return text;
    }
    let mut start = text.len() - cap;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// Whether `path` exists as a regular file, read without following a final link.
pub(crate) fn is_plain_file(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_dir(files: &[(&str, usize)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("a temporary directory");
        fs::create_dir(dir.path().join("sub")).expect("a subdirectory");
        for (name, len) in files {
            fs::write(dir.path().join(name), vec![b'x'; *len]).expect("a file");
        }
        dir
    }

    #[test]
    fn a_build_over_the_cap_is_too_large_and_says_the_cap() {
        let dir = build_dir(&[("a.bin", 600 << 10), ("sub/b.bin", 600 << 10)]);
        let cap = 1 << 20;
        match pack(dir.path(), cap) {
            Err(e @ PackError::TooLarge { cap: 1_048_576 }) => {
                assert_eq!(e.to_string(), "the build output is larger than 1 MiB");
            }
            other => panic!("expected TooLarge, got {other:?}"),
        }
    }

    #[test]
    fn a_build_within_the_cap_packs_and_unpacks_to_the_same_files() {
        let dir = build_dir(&[("a.bin", 1000), ("sub/b.bin", 10)]);
        let bytes = pack(dir.path(), 1010).expect("exactly the cap fits");
        let dest = tempfile::tempdir().expect("a temporary directory");
        let out = dest.path().join("out");
        fs::create_dir(&out).expect("the destination");
        unpack(&bytes, &out).expect("unpacks");
        assert_eq!(fs::read(out.join("a.bin")).expect("a.bin").len(), 1000);
        assert_eq!(fs::read(out.join("sub/b.bin")).expect("b.bin").len(), 10);
    }

    #[test]
    fn a_missing_build_directory_is_an_io_error() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let missing = dir.path().join("not-there");
        assert!(matches!(pack(&missing, 1 << 20), Err(PackError::Io(_))));
    }
}

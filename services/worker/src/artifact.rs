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

/// Packs `dir` (not following links; links, devices and sockets are left out). Fails when the
/// archive grows over `cap` bytes of content.
pub(crate) fn pack(dir: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), flate2::Compression::default()));
    let mut total = 0_u64;
    add_dir(&mut builder, dir, Path::new(""), cap, &mut total)?;
    builder.into_inner()?.finish()
}

fn add_dir(
    b: &mut tar::Builder<GzEncoder<Vec<u8>>>,
    root: &Path,
    rel: &Path,
    cap: u64,
    total: &mut u64,
) -> io::Result<()> {
    let mut entries: Vec<_> = fs::read_dir(root.join(rel))?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
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
                return Err(io::Error::other(format!(
                    "the build output is larger than {} MiB",
                    cap >> 20
                )));
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
                let mut f = OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(mode)
                    .open(&target)?;
                io::copy(&mut entry, &mut f)?;
                f.set_permissions(fs::Permissions::from_mode(mode))?;
                f.flush()?;
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

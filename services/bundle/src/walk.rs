//! The one walk over an upload's entries, shared by inspection and extraction.
//!
//! Format readers ([`crate::zip`], [`crate::tar`]) report each entry to a
//! [`Walker`], which applies every check (names, counts, duplicates, sizes)
//! and streams file bodies into a [`Sink`]: nothing for `inspect`, the disk
//! for `extract`. So extraction re-applies exactly the checks of inspection.

use std::io::{self, Read, Write};

use crate::error::{shown, BundleError};
use crate::kind::Kind;
use crate::limits::Limits;
use crate::path::{self, PathSet};
use crate::{Entry, Manifest};

/// Where accepted entries go.
pub(crate) trait Sink {
    type Out: Write;
    /// Called once per directory entry, with its normalized path.
    fn directory(&mut self, path: &str) -> Result<(), BundleError>;
    /// Opens a new file for the body of the entry at the normalized `path`.
    fn create_file(&mut self, path: &str, executable: bool) -> Result<Self::Out, BundleError>;
    /// Turns an error writing to `path` into the error to report.
    fn write_error(&self, path: &str, error: io::Error) -> BundleError;
}

/// Inspection: bodies are read (decompressed and counted) and dropped.
pub(crate) struct Discard;

impl Sink for Discard {
    type Out = io::Sink;
    fn directory(&mut self, _path: &str) -> Result<(), BundleError> {
        Ok(())
    }
    fn create_file(&mut self, _path: &str, _executable: bool) -> Result<io::Sink, BundleError> {
        Ok(io::sink())
    }
    fn write_error(&self, path: &str, error: io::Error) -> BundleError {
        unreachable!("io::sink failed on {path}: {error}")
    }
}

/// The marker inside the `io::Error` of a [`Capped`] reader that ran over.
#[derive(Debug, thiserror::Error)]
#[error("decompressed stream over its limit")]
pub(crate) struct StreamLimit;

/// A reader that fails with [`StreamLimit`] once more than `left` bytes came out.
pub(crate) struct Capped<R> {
    inner: R,
    left: u64,
}

impl<R> Capped<R> {
    pub(crate) fn new(inner: R, cap: u64) -> Self {
        Capped { inner, left: cap }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.left = self
            .left
            .checked_sub(n as u64)
            .ok_or_else(|| io::Error::other(StreamLimit))?;
        Ok(n)
    }
}

/// Checks entries one by one and collects the manifest.
pub(crate) struct Walker<'a, S> {
    kind: Kind,
    limits: &'a Limits,
    sink: &'a mut S,
    paths: PathSet,
    entries: Vec<Entry>,
    directories: Vec<String>,
    total_bytes: u64,
}

/// An entry name as UTF-8, or the error that refuses it.
pub(crate) fn utf8(raw: &[u8]) -> Result<&str, BundleError> {
    std::str::from_utf8(raw).map_err(|_| BundleError::NonUtf8Name {
        lossy: shown(&String::from_utf8_lossy(raw)),
    })
}

impl<'a, S: Sink> Walker<'a, S> {
    pub(crate) fn new(kind: Kind, limits: &'a Limits, sink: &'a mut S) -> Self {
        Walker {
            kind,
            limits,
            sink,
            paths: PathSet::default(),
            entries: Vec::new(),
            directories: Vec::new(),
            total_bytes: 0,
        }
    }

    pub(crate) fn limits(&self) -> &Limits {
        self.limits
    }

    pub(crate) fn corrupt(&self, detail: impl std::fmt::Display) -> BundleError {
        BundleError::corrupt(self.kind, detail)
    }

    /// Maps an error from reading the upload (at `path`, if in a file body):
    /// over a cap, or corrupt.
    pub(crate) fn read_error(&self, path: Option<&str>, error: io::Error) -> BundleError {
        let over = error
            .get_ref()
            .is_some_and(|inner| inner.downcast_ref::<StreamLimit>().is_some());
        if over {
            BundleError::UnpackedTooLarge {
                path: shown(path.unwrap_or("(archive headers)")),
                limit: self.limits.max_unpacked_bytes,
            }
        } else if let Some(path) = path {
            self.corrupt(format_args!("{path:?}: {error}"))
        } else {
            self.corrupt(error)
        }
    }

    /// Refuses a non-regular entry (link, device, ...) described by `what`.
    pub(crate) fn refuse(&self, raw: &str, what: &'static str) -> BundleError {
        BundleError::NotRegular {
            path: shown(raw),
            what,
        }
    }

    /// A directory entry; `declared_size` must be zero (no data is ignored).
    pub(crate) fn directory(&mut self, raw: &str, declared_size: u64) -> Result<(), BundleError> {
        let Some(path) = path::normalize(raw, true, self.limits)? else {
            return Ok(());
        };
        if declared_size != 0 {
            return Err(self.corrupt(format_args!("directory entry {path:?} has contents")));
        }
        if self.directories.len() >= self.limits.max_dirs() {
            return Err(BundleError::TooManyDirectories {
                limit: self.limits.max_dirs(),
            });
        }
        self.paths.add(&path, true)?;
        self.sink.directory(&path)?;
        self.directories.push(path);
        Ok(())
    }

    /// A regular file entry named `raw` in the archive.
    pub(crate) fn file(
        &mut self,
        raw: &str,
        executable: bool,
        body: &mut dyn Read,
        declared_size: u64,
    ) -> Result<(), BundleError> {
        match path::normalize(raw, false, self.limits)? {
            Some(path) => self.file_at(path, executable, body, declared_size),
            None => Err(self.corrupt(format_args!("file entry {raw:?} has no name"))),
        }
    }

    /// A regular file at an already checked `path`.
    pub(crate) fn file_at(
        &mut self,
        path: String,
        executable: bool,
        body: &mut dyn Read,
        declared_size: u64,
    ) -> Result<(), BundleError> {
        if self.entries.len() >= self.limits.max_files {
            return Err(BundleError::TooManyFiles {
                limit: self.limits.max_files,
            });
        }
        self.paths.add(&path, false)?;
        let mut out = self.sink.create_file(&path, executable)?;
        let size = self.copy(&path, body, &mut out)?;
        out.flush().map_err(|e| self.sink.write_error(&path, e))?;
        if size != declared_size {
            return Err(self.corrupt(format_args!(
                "{path:?} is cut short or overlong: it holds {size} bytes but its header says {declared_size}"
            )));
        }
        self.total_bytes += size;
        self.entries.push(Entry {
            path,
            size,
            executable,
        });
        Ok(())
    }

    /// Streams `body` into `out`, stopping one byte past the unpacked budget.
    fn copy(&self, path: &str, body: &mut dyn Read, out: &mut S::Out) -> Result<u64, BundleError> {
        let budget = self
            .limits
            .max_unpacked_bytes
            .saturating_sub(self.total_bytes);
        let mut body = body.take(budget.saturating_add(1));
        let mut buf = vec![0u8; 64 * 1024];
        let mut copied = 0u64;
        loop {
            let n = match body.read(&mut buf) {
                Ok(0) => return Ok(copied),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.read_error(Some(path), e)),
            };
            copied += n as u64;
            if copied > budget {
                return Err(BundleError::UnpackedTooLarge {
                    path: shown(path),
                    limit: self.limits.max_unpacked_bytes,
                });
            }
            out.write_all(&buf[..n])
                .map_err(|e| self.sink.write_error(path, e))?;
        }
    }

    /// The manifest, once the format reader has seen every entry.
    pub(crate) fn finish(self) -> Result<Manifest, BundleError> {
        if self.entries.is_empty() {
            return Err(BundleError::EmptyArchive { kind: self.kind });
        }
        Ok(Manifest {
            kind: self.kind,
            entries: self.entries,
            directories: self.directories,
            total_bytes: self.total_bytes,
        })
    }
}

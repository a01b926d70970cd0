//! Safe inspection and extraction of uploaded bot bundles.
//!
//! Teams upload a bot as a single file, a `.zip` or a `.tar.gz` / `.tgz`.
//! The web server calls [`inspect`] before storing an upload; the compile
//! worker later calls [`extract`] to unpack it into an empty directory.
//! Uploads are hostile, so both:
//!
//! - decompress every byte while counting it, and stop as soon as a
//!   [`Limits`] value is crossed (sizes declared in headers are never
//!   trusted, only compared with what was actually read);
//! - accept only regular files and directories with normalized, relative,
//!   UTF-8 paths: no absolute paths, no `..`, no links, devices or FIFOs,
//!   no duplicates, no encrypted zip entries;
//! - ignore nothing silently, except directory entries (which only create
//!   directories), a single leading `./`, the archive root `./` itself and
//!   tar pax global headers (metadata that `git archive` writes).
//!
//! Backslashes in archive paths are treated as separators, so a Windows-made
//! `src\main.rs` lands as `src/main.rs` and `..\x` is refused like `../x`.
//!
//! Every [`BundleError`] message can be shown to the student as it is.
//!
//! [`Language`] is the one list of the languages a bot may be written in (the upload form, the
//! API, the compile worker and the starter kits all read it).
//!
//! ```
//! use croupier_bundle::{inspect, Kind, Limits};
//!
//! let manifest = inspect("bot.py", b"print('hi')", &Limits::default()).unwrap();
//! assert_eq!(manifest.kind, Kind::File);
//! assert_eq!(manifest.entries[0].path, "bot.py");
//! assert_eq!(manifest.total_bytes, 11);
//! ```

use std::path::Path;

mod entry_point;
mod error;
mod extract;
mod kind;
mod language;
mod limits;
mod path;
mod tar;
mod walk;
mod zip;

pub use entry_point::{python_entry, EntryPoint, MAX_ENTRY_POINT, PYTHON_ENTRY_POINTS};
pub use error::BundleError;
pub use kind::{detect_kind, Kind, ParseKindError};
pub use language::{Language, UnknownLanguage};
pub use limits::{Limits, MIB};

use walk::{Discard, Sink, Walker};

/// One regular file of an upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Normalized relative path, `/`-separated, without `./`, `..` or empty parts.
    pub path: String,
    /// Size in bytes, as counted while decompressing.
    pub size: u64,
    /// Whether the archive marks the file executable (any `x` bit in its mode).
    pub executable: bool,
}

/// What an accepted upload contains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// How the upload was read.
    pub kind: Kind,
    /// The regular files, in archive order; never empty.
    pub entries: Vec<Entry>,
    /// Directories the archive lists explicitly (normalized), in archive order.
    /// Parents of files are created by [`extract`] whether listed or not.
    pub directories: Vec<String>,
    /// The sum of the sizes of `entries`.
    pub total_bytes: u64,
}

/// Checks an upload completely, without writing anything.
///
/// `filename` is the name the upload came with; it decides the [`Kind`] along
/// with the first bytes (see [`detect_kind`]) and, for a single file, becomes
/// its entry's name. Every entry is decompressed and counted.
pub fn inspect(filename: &str, bytes: &[u8], limits: &Limits) -> Result<Manifest, BundleError> {
    walk(filename, bytes, limits, &mut Discard)
}

/// Checks an upload and writes its files and directories under `dest`.
///
/// `dest` must be an existing, empty directory. The upload is first inspected
/// in full, so a refused upload writes nothing; extraction then re-applies
/// every check as it writes. Files are created new (`O_EXCL | O_NOFOLLOW`)
/// with mode 0644, or 0755 when the archive marks them executable;
/// directories get 0755. If writing fails, what was written is removed.
pub fn extract(
    filename: &str,
    bytes: &[u8],
    limits: &Limits,
    dest: &Path,
) -> Result<Manifest, BundleError> {
    extract::check_destination(dest)?;
    inspect(filename, bytes, limits)?;
    let mut sink = extract::DiskSink::new(dest);
    let result = walk(filename, bytes, limits, &mut sink);
    if result.is_err() {
        sink.roll_back();
    }
    result
}

fn walk<S: Sink>(
    filename: &str,
    bytes: &[u8],
    limits: &Limits,
    sink: &mut S,
) -> Result<Manifest, BundleError> {
    let size = bytes.len() as u64;
    if size > limits.max_upload_bytes {
        return Err(BundleError::TooLarge {
            size,
            limit: limits.max_upload_bytes,
        });
    }
    if bytes.is_empty() {
        return Err(BundleError::EmptyUpload);
    }
    let kind = detect_kind(filename, bytes);
    let mut walker = Walker::new(kind, limits, sink);
    match kind {
        Kind::File => {
            let name = path::file_name(filename, limits)?;
            walker.file_at(name, false, &mut &bytes[..], size)?;
        }
        Kind::Zip => zip::walk(bytes, &mut walker)?,
        Kind::TarGz => tar::walk(bytes, &mut walker)?,
    }
    walker.finish()
}

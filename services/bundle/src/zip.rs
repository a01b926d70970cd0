//! Reading `.zip` uploads.
//!
//! Names come from the central directory, as raw bytes that must be UTF-8.
//! Types come from the Unix mode when the archive has one: anything but a
//! regular file or a directory is refused. Only stored and deflated entries
//! are read, never encrypted ones.

use std::io::Cursor;

use zip::{CompressionMethod, ZipArchive};

use crate::error::{shown, BundleError};
use crate::walk::{utf8, Sink, Walker};

const S_IFMT: u32 = 0o170_000;
const S_IFREG: u32 = 0o100_000;
const S_IFDIR: u32 = 0o040_000;

/// What an entry is, from its name and Unix mode.
enum Class {
    Dir,
    File { executable: bool },
    Special(&'static str),
}

fn classify(mode: Option<u32>, dir_name: bool) -> Class {
    let mode = mode.unwrap_or(0);
    match mode & S_IFMT {
        0 | S_IFREG if !dir_name => Class::File {
            executable: mode & 0o111 != 0,
        },
        0 | S_IFREG | S_IFDIR => Class::Dir,
        0o120_000 => Class::Special("symbolic link"),
        0o020_000 => Class::Special("character device"),
        0o060_000 => Class::Special("block device"),
        0o010_000 => Class::Special("FIFO (named pipe)"),
        0o140_000 => Class::Special("socket"),
        _ => Class::Special("special file"),
    }
}

/// The metadata of one entry, copied out so the archive can be borrowed again.
struct Meta {
    name: Vec<u8>,
    mode: Option<u32>,
    encrypted: bool,
    method: CompressionMethod,
    size: u64,
}

pub(crate) fn walk<S: Sink>(bytes: &[u8], walker: &mut Walker<'_, S>) -> Result<(), BundleError> {
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(|e| walker.corrupt(e))?;
    if archive.offset() != 0 {
        return Err(walker.corrupt("unexpected data before the start of the archive"));
    }
    check_entry_count(bytes, &archive, walker)?;
    for index in 0..archive.len() {
        let meta = {
            let file = archive.by_index_raw(index).map_err(|e| walker.corrupt(e))?;
            Meta {
                name: file.name_raw().to_vec(),
                mode: file.unix_mode(),
                encrypted: file.encrypted(),
                method: file.compression(),
                size: file.size(),
            }
        };
        let name = utf8(&meta.name)?;
        let dir_name = name.ends_with('/') || name.ends_with('\\');
        match classify(meta.mode, dir_name) {
            Class::Dir => walker.directory(name, meta.size)?,
            Class::Special(what) => return Err(walker.refuse(name, what)),
            Class::File { executable } => {
                if meta.encrypted {
                    return Err(BundleError::Encrypted { path: shown(name) });
                }
                if !matches!(
                    meta.method,
                    CompressionMethod::Stored | CompressionMethod::Deflated
                ) {
                    return Err(BundleError::UnsupportedCompression {
                        path: shown(name),
                        method: method_name(meta.method),
                    });
                }
                let mut file = archive
                    .by_index(index)
                    .map_err(|e| walker.corrupt(format_args!("{name:?}: {e}")))?;
                walker.file(name, executable, &mut file, meta.size)?;
            }
        }
    }
    Ok(())
}

/// Names the compression methods students are likely to meet.
#[allow(deprecated)] // `Unsupported` is the only way to get an unknown method's number
fn method_name(method: CompressionMethod) -> String {
    let name = match method {
        CompressionMethod::Unsupported(9) => "deflate64",
        CompressionMethod::Unsupported(12) => "bzip2",
        CompressionMethod::Unsupported(14) => "LZMA",
        CompressionMethod::Unsupported(93) => "zstd",
        CompressionMethod::Unsupported(95) => "xz",
        CompressionMethod::Unsupported(98) => "PPMd",
        CompressionMethod::Unsupported(99) => "AES",
        CompressionMethod::Unsupported(n) => return format!("number {n}"),
        other => return other.to_string(),
    };
    name.to_owned()
}

/// The zip reader keeps one entry per name and silently drops repeats, so count
/// the central directory records ourselves: a mismatch means hidden entries.
fn check_entry_count<S: Sink>(
    bytes: &[u8],
    archive: &ZipArchive<Cursor<&[u8]>>,
    walker: &Walker<'_, S>,
) -> Result<(), BundleError> {
    let start = usize::try_from(archive.central_directory_start()).unwrap_or(usize::MAX);
    let names = central_names(bytes.get(start..).unwrap_or_default());
    if names.len() == archive.len() {
        return Ok(());
    }
    let mut seen = std::collections::HashSet::new();
    match names.iter().find(|name| !seen.insert(*name)) {
        Some(name) => Err(BundleError::DuplicatePath {
            path: shown(&String::from_utf8_lossy(name)),
        }),
        None => Err(walker.corrupt(format_args!(
            "the central directory holds {} entries but lists {}",
            names.len(),
            archive.len()
        ))),
    }
}

/// The raw names of the consecutive central directory records at the start of `cd`.
fn central_names(mut cd: &[u8]) -> Vec<&[u8]> {
    const FIXED: usize = 46;
    let u16_at = |b: &[u8], at: usize| usize::from(u16::from_le_bytes([b[at], b[at + 1]]));
    let mut names = Vec::new();
    while cd.len() >= FIXED && cd.starts_with(b"PK\x01\x02") {
        let (name_len, extra_len, comment_len) = (u16_at(cd, 28), u16_at(cd, 30), u16_at(cd, 32));
        let Some(name) = cd.get(FIXED..FIXED + name_len) else {
            break;
        };
        names.push(name);
        cd = cd
            .get(FIXED + name_len + extra_len + comment_len..)
            .unwrap_or_default();
    }
    names
}

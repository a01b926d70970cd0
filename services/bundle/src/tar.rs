//! Reading `.tar.gz` / `.tgz` uploads.
//!
//! Every gzip member is decompressed (so nothing after the first is ignored),
//! through a cap on the whole decompressed stream: headers, long names and
//! padding count too, so a bomb made of metadata stops as well. GNU long names
//! and pax headers are understood (by the `tar` crate); pax global headers,
//! which `git archive` writes, carry no file and are skipped. After the
//! end-of-archive marker only zero padding may follow.

use std::io::Read;

use flate2::read::MultiGzDecoder;
use tar::{Archive, EntryType};

use crate::error::BundleError;
use crate::walk::{utf8, Capped, Sink, Walker};

/// Allowance per entry, on top of file bodies, for its headers and padding.
const OVERHEAD_PER_ENTRY: u64 = 4096;
/// Allowance for the end-of-archive blocks and record padding (tar pads to 10 KiB).
const OVERHEAD_FIXED: u64 = 64 * 1024;

pub(crate) fn walk<S: Sink>(bytes: &[u8], walker: &mut Walker<'_, S>) -> Result<(), BundleError> {
    let limits = walker.limits();
    let entries_allowed = (limits.max_files as u64).saturating_add(limits.max_dirs() as u64);
    let cap = limits
        .max_unpacked_bytes
        .saturating_add(entries_allowed.saturating_mul(OVERHEAD_PER_ENTRY))
        .saturating_add(OVERHEAD_FIXED);
    let mut archive = Archive::new(Capped::new(MultiGzDecoder::new(bytes), cap));
    let entries = archive.entries().map_err(|e| walker.read_error(None, e))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| walker.read_error(None, e))?;
        let raw = entry.path_bytes().into_owned();
        let name = utf8(&raw)?;
        let header = entry.header();
        let size = entry.size();
        match header.entry_type() {
            EntryType::Regular | EntryType::Continuous => {
                let mode = header
                    .mode()
                    .map_err(|e| walker.read_error(Some(name), e))?;
                walker.file(name, mode & 0o111 != 0, &mut entry, size)?;
            }
            EntryType::Directory => walker.directory(name, size)?,
            EntryType::XGlobalHeader => {}
            other => return Err(walker.refuse(name, describe(other))),
        }
    }
    let mut rest = archive.into_inner();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match rest.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(walker.read_error(None, e)),
        };
        if buf[..n].iter().any(|&b| b != 0) {
            return Err(walker.corrupt("unexpected data after the end of the tar archive"));
        }
    }
}

fn describe(entry_type: EntryType) -> &'static str {
    match entry_type {
        EntryType::Symlink => "symbolic link",
        EntryType::Link => "hard link",
        EntryType::Char => "character device",
        EntryType::Block => "block device",
        EntryType::Fifo => "FIFO (named pipe)",
        EntryType::GNUSparse => "sparse file",
        EntryType::GNULongName | EntryType::GNULongLink | EntryType::XHeader => {
            "stray extension header"
        }
        _ => "special entry",
    }
}

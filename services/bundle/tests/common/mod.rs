//! Builders for test uploads: real archives from the `zip` and `tar` writers,
//! plus byte patches for what those writers refuse to produce.
#![allow(dead_code)]

use std::io::{Cursor, Write};

use croupier_bundle::{BundleError, Manifest};
use flate2::write::GzEncoder;
use flate2::Compression;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

pub type Zip = ZipWriter<Cursor<Vec<u8>>>;

/// A zip archive written by `build`.
pub fn zip(build: impl FnOnce(&mut Zip)) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    build(&mut writer);
    writer.finish().unwrap().into_inner()
}

/// Adds a deflated file with the given Unix permission bits.
pub fn zip_file(writer: &mut Zip, name: &str, data: &[u8], mode: u32) {
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .unix_permissions(mode);
    writer.start_file(name, options).unwrap();
    writer.write_all(data).unwrap();
}

pub fn zip_dir(writer: &mut Zip, name: &str) {
    writer
        .add_directory(name, SimpleFileOptions::default())
        .unwrap();
}

/// Runs `patch` on the local header (from its signature) of the entry named `name`.
pub fn patch_local(bytes: &mut [u8], name: &str, patch: impl FnMut(&mut [u8])) {
    patch_headers(bytes, b"PK\x03\x04", 26, 30, name, patch);
}

/// Runs `patch` on the central directory record of the entry named `name`.
pub fn patch_central(bytes: &mut [u8], name: &str, patch: impl FnMut(&mut [u8])) {
    patch_headers(bytes, b"PK\x01\x02", 28, 46, name, patch);
}

fn patch_headers(
    bytes: &mut [u8],
    signature: &[u8],
    name_len_at: usize,
    name_at: usize,
    name: &str,
    mut patch: impl FnMut(&mut [u8]),
) {
    let mut found = false;
    for pos in 0..bytes.len().saturating_sub(name_at) {
        let header = &bytes[pos..];
        if !header.starts_with(signature) {
            continue;
        }
        let len = u16::from_le_bytes([header[name_len_at], header[name_len_at + 1]]) as usize;
        if header.get(name_at..name_at + len) == Some(name.as_bytes()) {
            patch(&mut bytes[pos..]);
            found = true;
        }
    }
    assert!(found, "no header for {name}");
}

/// Replaces every occurrence of `from` by `to` (same length) in `bytes`.
pub fn replace_bytes(bytes: &mut [u8], from: &[u8], to: &[u8]) {
    assert_eq!(from.len(), to.len());
    let mut pos = 0;
    while let Some(at) = bytes[pos..].windows(from.len()).position(|w| w == from) {
        bytes[pos + at..pos + at + to.len()].copy_from_slice(to);
        pos += at + to.len();
    }
}

pub fn put_u16(bytes: &mut [u8], at: usize, value: u16) {
    bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
}

pub fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

pub type Tar = tar::Builder<Vec<u8>>;

/// An uncompressed tar archive written by `build` (with its end marker).
pub fn tar(build: impl FnOnce(&mut Tar)) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    build(&mut builder);
    builder.into_inner().unwrap()
}

/// A `.tar.gz` written by `build`.
pub fn tar_gz(build: impl FnOnce(&mut Tar)) -> Vec<u8> {
    gzip(&tar(build))
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// Appends an entry whose name bytes are written as given, unchecked, so that
/// names the `tar` writer refuses (`..`, absolute, non-UTF-8) can be made.
pub fn tar_raw(builder: &mut Tar, name: &[u8], kind: tar::EntryType, data: &[u8], mode: u32) {
    let mut header = tar::Header::new_ustar();
    header.as_old_mut().name[..name.len()].copy_from_slice(name);
    header.set_entry_type(kind);
    header.set_size(data.len() as u64);
    header.set_mode(mode);
    header.set_mtime(0);
    header.set_cksum();
    builder.append(&header, data).unwrap();
}

/// Appends a regular file through the writer's own (checked) path handling.
pub fn tar_file(builder: &mut Tar, path: &str, data: &[u8], mode: u32) {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(tar::EntryType::Regular);
    header.set_size(data.len() as u64);
    header.set_mode(mode);
    builder.append_data(&mut header, path, data).unwrap();
}

pub fn tar_dir(builder: &mut Tar, path: &str) {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(tar::EntryType::Directory);
    header.set_size(0);
    header.set_mode(0o755);
    builder.append_data(&mut header, path, &[][..]).unwrap();
}

/// The error of a refused upload; panics (showing the manifest) if it was accepted.
pub fn refused(result: Result<Manifest, BundleError>) -> BundleError {
    match result {
        Ok(manifest) => panic!("expected a refusal, got {manifest:#?}"),
        Err(error) => error,
    }
}

/// The (path, size, executable) triples of a manifest, for short assertions.
pub fn listing(manifest: &Manifest) -> Vec<(&str, u64, bool)> {
    manifest
        .entries
        .iter()
        .map(|e| (e.path.as_str(), e.size, e.executable))
        .collect()
}

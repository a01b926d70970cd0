//! Uploads as students (and attackers) make them: real zip and tar.gz archives, plus
//! hostile ones (absolute paths, `..`, links, too many files, a zip bomb).

use std::io::{Cursor, Write};
use std::sync::OnceLock;

use flate2::write::GzEncoder;
use flate2::Compression;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

fn deflated() -> SimpleFileOptions {
    SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .unix_permissions(0o644)
}

/// A zip of `files` (path, contents), deflated; directories are implied by the paths.
pub fn zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for (path, bytes) in files {
        writer.start_file(*path, deflated()).expect("zip entry");
        writer.write_all(bytes).expect("zip write");
    }
    writer.finish().expect("zip finish").into_inner()
}

/// A zip holding `main.py` and a symbolic link `link.py` to `/etc/passwd`.
pub fn zip_with_symlink() -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    writer.start_file("main.py", deflated()).expect("zip entry");
    writer.write_all(b"print('hi')\n").expect("zip write");
    writer
        .add_symlink("link.py", "/etc/passwd", SimpleFileOptions::default())
        .expect("zip symlink");
    writer.finish().expect("zip finish").into_inner()
}

/// A zip with `count` small Python files.
pub fn zip_with_files(count: usize) -> Vec<u8> {
    // `pkg/bot.py` first: the upload has a clear entry point.
    let names: Vec<String> = (0..count)
        .map(|i| match i {
            0 => "pkg/bot.py".to_owned(),
            _ => format!("pkg/m{i:03}.py"),
        })
        .collect();
    let files: Vec<(&str, &[u8])> = names
        .iter()
        .map(|n| (n.as_str(), &b"x = 1\n"[..]))
        .collect();
    zip(&files)
}

/// A small zip (tens of KiB) whose one entry, `bot.py`, unpacks to 65 MiB of spaces:
/// past the default 64 MiB unpacked limit. Built once per test run.
pub fn zip_bomb() -> &'static [u8] {
    static BOMB: OnceLock<Vec<u8>> = OnceLock::new();
    BOMB.get_or_init(|| {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        writer
            .start_file("bot.py", deflated().compression_level(Some(9)))
            .expect("zip entry");
        let chunk = vec![b' '; 1024 * 1024];
        for _ in 0..65 {
            writer.write_all(&chunk).expect("zip write");
        }
        writer.finish().expect("zip finish").into_inner()
    })
}

/// A `.tar.gz` of `files` (path, contents, executable).
pub fn tar_gz(files: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (path, bytes, executable) in files {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(bytes.len() as u64);
        header.set_mode(if *executable { 0o755 } else { 0o644 });
        builder
            .append_data(&mut header, path, *bytes)
            .expect("tar entry");
    }
    gzip(&builder.into_inner().expect("tar finish"))
}

/// A `.tar.gz` with `main.py` and one entry whose name bytes are written unchecked
/// (the `tar` writer itself refuses absolute and `..` names).
pub fn tar_gz_with_raw_name(name: &str) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    let mut main = tar::Header::new_gnu();
    main.set_entry_type(tar::EntryType::Regular);
    main.set_size(3);
    main.set_mode(0o644);
    builder
        .append_data(&mut main, "main.py", &b"x=1"[..])
        .expect("tar entry");
    let data = b"print('pwned')\n";
    let mut header = tar::Header::new_ustar();
    header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
    header.set_entry_type(tar::EntryType::Regular);
    header.set_size(data.len() as u64);
    header.set_mode(0o644);
    header.set_mtime(0);
    header.set_cksum();
    builder.append(&header, &data[..]).expect("tar raw entry");
    gzip(&builder.into_inner().expect("tar finish"))
}

/// A `.tar.gz` holding `main.py` and a symbolic link `link.py` to `/etc/passwd`.
pub fn tar_gz_with_symlink() -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    let mut main = tar::Header::new_gnu();
    main.set_entry_type(tar::EntryType::Regular);
    main.set_size(3);
    main.set_mode(0o644);
    builder
        .append_data(&mut main, "main.py", &b"x=1"[..])
        .expect("tar entry");
    let mut link = tar::Header::new_gnu();
    link.set_entry_type(tar::EntryType::Symlink);
    link.set_size(0);
    link.set_mode(0o777);
    builder
        .append_link(&mut link, "link.py", "/etc/passwd")
        .expect("tar link");
    gzip(&builder.into_inner().expect("tar finish"))
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(data).expect("gzip");
    encoder.finish().expect("gzip finish")
}

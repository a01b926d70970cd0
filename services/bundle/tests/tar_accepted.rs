//! Tar.gz uploads that are accepted, and tar.gz bombs, which are not.

mod common;

use common::{gzip, listing, refused, tar, tar_dir, tar_file, tar_gz, tar_raw};
use croupier_bundle::{inspect, BundleError, Kind, Limits, MIB};
use tar::EntryType;

#[test]
fn a_good_tar_gz_with_subdirectories_and_an_executable_is_listed_in_order() {
    let bytes = tar_gz(|b| {
        tar_dir(b, "src");
        tar_file(b, "src/main.rs", b"fn main() {}\n", 0o644);
        tar_file(b, "run.sh", b"#!/bin/sh\n", 0o755);
        tar_file(b, "assets/maps/small.txt", b"....\n", 0o600);
    });
    let manifest = inspect("bot.tar.gz", &bytes, &Limits::default()).unwrap();
    assert_eq!(manifest.kind, Kind::TarGz);
    assert_eq!(
        listing(&manifest),
        [
            ("src/main.rs", 13, false),
            ("run.sh", 10, true),
            ("assets/maps/small.txt", 5, false),
        ]
    );
    assert_eq!(manifest.directories, ["src"]);
    assert_eq!(manifest.total_bytes, 28);
}

#[test]
fn a_tarball_made_from_the_current_directory_is_accepted() {
    // What `tar czf bot.tgz .` writes: the root as "./", then "./"-prefixed paths.
    let bytes = tar_gz(|b| {
        tar_raw(b, b"./", EntryType::Directory, b"", 0o755);
        tar_raw(b, b"./src/", EntryType::Directory, b"", 0o755);
        tar_raw(b, b"./src/main.py", EntryType::Regular, b"x", 0o644);
    });
    let manifest = inspect("bot.tgz", &bytes, &Limits::default()).unwrap();
    assert_eq!(listing(&manifest), [("src/main.py", 1, false)]);
    assert_eq!(manifest.directories, ["src"]);
}

#[test]
fn a_pax_global_header_like_git_archive_writes_is_skipped() {
    let bytes = tar_gz(|b| {
        let comment = b"52 comment=0123456789abcdef0123456789abcdef01234567\n";
        tar_raw(
            b,
            b"pax_global_header",
            EntryType::XGlobalHeader,
            comment,
            0o666,
        );
        tar_raw(b, b"bot/main.py", EntryType::Regular, b"x", 0o644);
    });
    let manifest = inspect("bot.tar.gz", &bytes, &Limits::default()).unwrap();
    assert_eq!(listing(&manifest), [("bot/main.py", 1, false)]);
}

#[test]
fn long_paths_stored_as_gnu_long_names_are_read_in_full() {
    let path = format!("{}/main.py", "d".repeat(150));
    let bytes = tar_gz(|b| tar_file(b, &path, b"x", 0o644));
    let manifest = inspect("bot.tgz", &bytes, &Limits::default()).unwrap();
    assert_eq!(manifest.entries[0].path, path);
}

#[test]
fn concatenated_gzip_members_are_all_read() {
    let archive = tar(|b| tar_file(b, "main.py", b"x", 0o644));
    let (head, tail) = archive.split_at(512);
    let mut bytes = gzip(head);
    bytes.extend(gzip(tail));
    let manifest = inspect("bot.tgz", &bytes, &Limits::default()).unwrap();
    assert_eq!(listing(&manifest), [("main.py", 1, false)]);
}

#[test]
fn a_tar_gz_whose_unpacked_total_exceeds_the_cap_is_refused() {
    let chunk = vec![0u8; (22 * MIB) as usize];
    let bytes = tar_gz(|b| {
        for i in 0..3 {
            tar_file(b, &format!("data{i}.bin"), &chunk, 0o644);
        }
    });
    assert!(bytes.len() < 500 * 1024, "payload is {} bytes", bytes.len());
    let error = refused(inspect("bot.tgz", &bytes, &Limits::default()));
    assert!(
        matches!(&error, BundleError::UnpackedTooLarge { path, limit } if path == "data2.bin" && *limit == 64 * MIB),
        "{error}"
    );
}

#[test]
fn a_tar_gz_bomb_hidden_in_a_long_name_header_is_refused() {
    let mut archive = Vec::new();
    let name = vec![b'a'; (8 * MIB) as usize];
    let mut header = tar::Header::new_gnu();
    header.as_gnu_mut().unwrap().name[..13].copy_from_slice(b"././@LongLink");
    header.set_entry_type(EntryType::GNULongName);
    header.set_size(name.len() as u64);
    header.set_cksum();
    archive.extend_from_slice(header.as_bytes());
    archive.extend_from_slice(&name);
    archive.extend(tar(|b| tar_file(b, "main.py", b"x", 0o644)));
    let limits = Limits {
        max_unpacked_bytes: MIB,
        ..Limits::default()
    };
    let error = refused(inspect("bot.tgz", &gzip(&archive), &limits));
    assert!(
        matches!(error, BundleError::UnpackedTooLarge { .. }),
        "{error}"
    );
}

//! Zip uploads that are accepted, and zip bombs, which are not.

mod common;

use common::{listing, patch_central, patch_local, put_u32, refused, zip, zip_dir, zip_file};
use croupier_bundle::{inspect, BundleError, Kind, Limits, MIB};

#[test]
fn a_good_zip_with_subdirectories_and_an_executable_is_listed_in_order() {
    let bytes = zip(|w| {
        zip_dir(w, "src/");
        zip_file(w, "src/main.py", b"print('hi')\n", 0o644);
        zip_file(w, "run.sh", b"#!/bin/sh\nexec python3 src/main.py\n", 0o755);
        zip_file(w, "lib/util/helpers.py", b"", 0o644);
    });
    let manifest = inspect("bot.zip", &bytes, &Limits::default()).unwrap();
    assert_eq!(manifest.kind, Kind::Zip);
    assert_eq!(
        listing(&manifest),
        [
            ("src/main.py", 12, false),
            ("run.sh", 35, true),
            ("lib/util/helpers.py", 0, false),
        ]
    );
    assert_eq!(manifest.directories, ["src"]);
    assert_eq!(manifest.total_bytes, 47);
}

#[test]
fn a_zip_is_recognized_by_its_magic_bytes_whatever_its_name() {
    let bytes = zip(|w| zip_file(w, "main.py", b"x", 0o644));
    let manifest = inspect("upload.bin", &bytes, &Limits::default()).unwrap();
    assert_eq!(manifest.kind, Kind::Zip);
}

#[test]
fn a_leading_dot_slash_and_windows_separators_are_normalized() {
    let bytes = zip(|w| {
        zip_file(w, "./main.py", b"x", 0o644);
        zip_file(w, "src\\util.py", b"y", 0o644);
    });
    let manifest = inspect("bot.zip", &bytes, &Limits::default()).unwrap();
    assert_eq!(
        listing(&manifest),
        [("main.py", 1, false), ("src/util.py", 1, false)]
    );
}

#[test]
fn a_zip_with_files_up_to_every_limit_is_accepted() {
    let limits = Limits {
        max_files: 3,
        max_unpacked_bytes: 30,
        max_depth: 2,
        max_path_len: 9,
        ..Limits::default()
    };
    let bytes = zip(|w| {
        zip_file(w, "a/b.txt", &[b'x'; 10], 0o644);
        zip_file(w, "a/c.txt", &[b'x'; 10], 0o644);
        zip_file(w, "abcde.txt", &[b'x'; 10], 0o644);
    });
    let manifest = inspect("bot.zip", &bytes, &limits).unwrap();
    assert_eq!(manifest.total_bytes, 30);
}

#[test]
fn a_zip_bomb_that_inflates_past_the_unpacked_cap_is_refused() {
    let bytes = zip(|w| zip_file(w, "bomb.bin", &vec![0u8; (65 * MIB) as usize], 0o644));
    assert!(bytes.len() < 200 * 1024, "payload is {} bytes", bytes.len());
    let error = refused(inspect("bomb.zip", &bytes, &Limits::default()));
    assert!(
        matches!(error, BundleError::UnpackedTooLarge { .. }),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("64 MiB") && message.contains("bomb.bin"),
        "{message}"
    );
}

#[test]
fn a_zip_bomb_whose_headers_claim_a_tiny_size_is_still_refused() {
    let mut bytes = zip(|w| zip_file(w, "bomb.bin", &vec![0u8; (3 * MIB) as usize], 0o644));
    patch_local(&mut bytes, "bomb.bin", |h| put_u32(h, 22, 10));
    patch_central(&mut bytes, "bomb.bin", |h| put_u32(h, 24, 10));
    let limits = Limits {
        max_unpacked_bytes: 2 * MIB,
        ..Limits::default()
    };
    let error = refused(inspect("bomb.zip", &bytes, &limits));
    assert!(
        matches!(error, BundleError::UnpackedTooLarge { .. }),
        "{error}"
    );
}

#[test]
fn many_small_entries_that_together_pass_the_unpacked_cap_are_refused() {
    let bytes = zip(|w| {
        for i in 0..5 {
            zip_file(w, &format!("part{i}.bin"), &[7u8; 1000], 0o644);
        }
    });
    let limits = Limits {
        max_unpacked_bytes: 4500,
        ..Limits::default()
    };
    let error = refused(inspect("bot.zip", &bytes, &limits));
    assert!(
        matches!(&error, BundleError::UnpackedTooLarge { path, .. } if path == "part4.bin"),
        "{error}"
    );
}

#[test]
fn a_zip_entry_whose_size_differs_from_its_header_is_refused_as_corrupt() {
    let mut bytes = zip(|w| zip_file(w, "main.py", &[b'x'; 20], 0o644));
    patch_local(&mut bytes, "main.py", |h| put_u32(h, 22, 10));
    patch_central(&mut bytes, "main.py", |h| put_u32(h, 24, 10));
    let error = refused(inspect("bot.zip", &bytes, &Limits::default()));
    assert!(matches!(error, BundleError::Corrupt { .. }), "{error}");
}

//! Zip uploads that must be refused.

mod common;

use common::{
    patch_central, patch_local, put_u16, put_u32, refused, replace_bytes, zip, zip_dir, zip_file,
};
use croupier_bundle::{inspect, BundleError, Kind, Limits};
use zip::write::SimpleFileOptions;

fn inspect_zip(bytes: &[u8]) -> BundleError {
    refused(inspect("bot.zip", bytes, &Limits::default()))
}

#[test]
fn a_zip_with_a_parent_directory_entry_is_refused() {
    for name in ["../evil.txt", "src/../../evil.txt", "..\\evil.txt"] {
        let bytes = zip(|w| zip_file(w, name, b"x", 0o644));
        let error = inspect_zip(&bytes);
        assert!(
            matches!(error, BundleError::ParentComponent { .. }),
            "{name}: {error}"
        );
        assert!(error.to_string().contains("\"..\""), "{error}");
    }
    let bytes = zip(|w| {
        zip_file(w, "main.py", b"x", 0o644);
        zip_dir(w, "../");
    });
    assert!(matches!(
        inspect_zip(&bytes),
        BundleError::ParentComponent { .. }
    ));
}

#[test]
fn a_zip_with_an_absolute_path_is_refused_in_unix_and_windows_spellings() {
    for name in [
        "/etc/cron.d/evil",
        "C:\\Windows\\evil.dll",
        "\\\\server\\share\\evil",
    ] {
        let bytes = zip(|w| zip_file(w, name, b"x", 0o644));
        let error = inspect_zip(&bytes);
        assert!(
            matches!(error, BundleError::AbsolutePath { .. }),
            "{name}: {error}"
        );
    }
}

#[test]
fn a_zip_with_a_symlink_is_refused() {
    let bytes = zip(|w| {
        zip_file(w, "main.py", b"x", 0o644);
        w.add_symlink("passwd", "/etc/passwd", SimpleFileOptions::default())
            .unwrap();
    });
    let error = inspect_zip(&bytes);
    assert!(
        matches!(&error, BundleError::NotRegular { path, what: "symbolic link" } if path == "passwd"),
        "{error}"
    );
}

#[test]
fn a_zip_with_a_fifo_or_a_device_is_refused() {
    for (mode, what) in [
        (0o010_644, "FIFO (named pipe)"),
        (0o020_644, "character device"),
    ] {
        let mut bytes = zip(|w| zip_file(w, "node", b"", 0o644));
        patch_central(&mut bytes, "node", |h| put_u32(h, 38, mode << 16));
        let error = inspect_zip(&bytes);
        assert!(
            matches!(&error, BundleError::NotRegular { what: w, .. } if *w == what),
            "{error}"
        );
    }
}

#[test]
fn a_zip_with_more_files_than_the_limit_is_refused() {
    let bytes = zip(|w| {
        for i in 0..4 {
            zip_file(w, &format!("f{i}.py"), b"x", 0o644);
        }
    });
    let limits = Limits {
        max_files: 3,
        ..Limits::default()
    };
    let error = refused(inspect("bot.zip", &bytes, &limits));
    assert!(
        matches!(error, BundleError::TooManyFiles { limit: 3 }),
        "{error}"
    );
    assert_eq!(error.to_string(), "the archive contains more than 3 files");
}

#[test]
fn directory_entries_do_not_count_as_files_but_are_capped_too() {
    let bytes = zip(|w| {
        for i in 0..3 {
            zip_dir(w, &format!("d{i}/"));
        }
        zip_file(w, "main.py", b"x", 0o644);
    });
    let limits = Limits {
        max_files: 3,
        ..Limits::default()
    };
    assert!(inspect("bot.zip", &bytes, &limits).is_ok());
    let limits = Limits {
        max_files: 2,
        ..Limits::default()
    };
    let error = refused(inspect("bot.zip", &bytes, &limits));
    assert!(
        matches!(error, BundleError::TooManyDirectories { limit: 2 }),
        "{error}"
    );
}

#[test]
fn a_zip_with_a_path_too_long_or_too_deep_is_refused() {
    let long = format!("{}.py", "a".repeat(256));
    let error = inspect_zip(&zip(|w| zip_file(w, &long, b"x", 0o644)));
    assert!(
        matches!(error, BundleError::PathTooLong { limit: 255, .. }),
        "{error}"
    );
    let deep = format!("{}main.py", "d/".repeat(16));
    let error = inspect_zip(&zip(|w| zip_file(w, &deep, b"x", 0o644)));
    assert!(
        matches!(
            error,
            BundleError::TooDeep {
                depth: 17,
                limit: 16,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_zip_listing_the_same_name_twice_is_refused() {
    let mut bytes = zip(|w| {
        zip_file(w, "main.py", b"good", 0o644);
        zip_file(w, "mbin.py", b"evil", 0o644);
    });
    replace_bytes(&mut bytes, b"mbin.py", b"main.py");
    let error = inspect_zip(&bytes);
    assert!(
        matches!(&error, BundleError::DuplicatePath { path } if path == "main.py"),
        "{error}"
    );
}

#[test]
fn a_zip_with_two_spellings_of_one_path_is_refused() {
    let bytes = zip(|w| {
        zip_file(w, "main.py", b"good", 0o644);
        zip_file(w, "./main.py", b"evil", 0o644);
    });
    assert!(matches!(
        inspect_zip(&bytes),
        BundleError::DuplicatePath { .. }
    ));
}

#[test]
fn a_zip_using_one_path_as_both_file_and_directory_is_refused() {
    let bytes = zip(|w| {
        zip_file(w, "lib", b"x", 0o644);
        zip_file(w, "lib/util.py", b"y", 0o644);
    });
    let error = inspect_zip(&bytes);
    assert!(
        matches!(&error, BundleError::FileDirectoryConflict { path } if path == "lib"),
        "{error}"
    );
    let bytes = zip(|w| {
        zip_dir(w, "lib/");
        zip_file(w, "lib", b"x", 0o644);
    });
    assert!(matches!(
        inspect_zip(&bytes),
        BundleError::FileDirectoryConflict { .. }
    ));
}

#[test]
fn an_encrypted_zip_entry_is_refused() {
    let mut bytes = zip(|w| zip_file(w, "secret.py", b"x", 0o644));
    patch_local(&mut bytes, "secret.py", |h| put_u16(h, 6, 1));
    patch_central(&mut bytes, "secret.py", |h| put_u16(h, 8, 1));
    let error = inspect_zip(&bytes);
    assert!(matches!(error, BundleError::Encrypted { .. }), "{error}");
}

#[test]
fn a_zip_entry_with_an_unsupported_compression_method_is_refused() {
    let mut bytes = zip(|w| zip_file(w, "main.py", b"x", 0o644));
    patch_local(&mut bytes, "main.py", |h| put_u16(h, 8, 12));
    patch_central(&mut bytes, "main.py", |h| put_u16(h, 10, 12));
    let error = inspect_zip(&bytes);
    assert!(
        matches!(error, BundleError::UnsupportedCompression { .. }),
        "{error}"
    );
}

#[test]
fn a_zip_entry_with_a_non_utf8_name_is_refused() {
    let mut bytes = zip(|w| zip_file(w, "caf#.py", b"x", 0o644));
    replace_bytes(&mut bytes, b"caf#.py", b"caf\xe9.py");
    assert!(matches!(
        inspect_zip(&bytes),
        BundleError::NonUtf8Name { .. }
    ));
}

#[test]
fn a_zip_entry_with_a_control_character_in_its_name_is_refused() {
    let bytes = zip(|w| zip_file(w, "evil\u{1b}[2J.py", b"x", 0o644));
    let error = inspect_zip(&bytes);
    assert!(matches!(error, BundleError::BadPath { .. }), "{error}");
    assert!(!error.to_string().contains('\u{1b}'));
}

#[test]
fn a_zip_with_no_files_is_refused_as_empty() {
    for bytes in [zip(|_| {}), zip(|w| zip_dir(w, "src/"))] {
        let error = inspect_zip(&bytes);
        assert!(
            matches!(error, BundleError::EmptyArchive { kind: Kind::Zip }),
            "{error}"
        );
    }
}

#[test]
fn a_truncated_zip_is_refused_as_corrupt() {
    let bytes = zip(|w| zip_file(w, "main.py", &[b'x'; 1000], 0o644));
    let error = inspect_zip(&bytes[..bytes.len() / 2]);
    assert!(
        matches!(
            error,
            BundleError::Corrupt {
                kind: Kind::Zip,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_zip_with_data_before_it_is_refused_as_corrupt() {
    let mut bytes = b"#!/bin/sh\nexit 0\n".to_vec();
    bytes.extend(zip(|w| zip_file(w, "main.py", b"x", 0o644)));
    let error = inspect_zip(&bytes);
    assert!(
        matches!(
            error,
            BundleError::Corrupt {
                kind: Kind::Zip,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_zip_whose_data_fails_its_checksum_is_refused_as_corrupt() {
    let mut bytes = zip(|w| {
        let options =
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
        w.start_file("main.py", options).unwrap();
        std::io::Write::write_all(w, b"print('original')").unwrap();
    });
    replace_bytes(&mut bytes, b"original", b"tampered");
    assert!(matches!(inspect_zip(&bytes), BundleError::Corrupt { .. }));
}

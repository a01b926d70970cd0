//! Single-file uploads.

mod common;

use common::{listing, refused};
use croupier_bundle::{inspect, BundleError, Kind, Limits, MIB};

#[test]
fn a_single_file_becomes_one_entry_named_after_the_upload() {
    let manifest = inspect("bot.py", b"print('hello')\n", &Limits::default()).unwrap();
    assert_eq!(manifest.kind, Kind::File);
    assert_eq!(listing(&manifest), [("bot.py", 15, false)]);
    assert_eq!(manifest.total_bytes, 15);
    assert!(manifest.directories.is_empty());
}

#[test]
fn an_empty_upload_is_refused() {
    let error = refused(inspect("bot.py", b"", &Limits::default()));
    assert!(matches!(error, BundleError::EmptyUpload));
    assert_eq!(error.to_string(), "the upload is empty");
}

#[test]
fn an_upload_over_the_size_cap_is_refused_naming_the_cap_in_mib() {
    let bytes = vec![b'x'; (10 * MIB + 1) as usize];
    let error = refused(inspect("bot.py", &bytes, &Limits::default()));
    assert!(matches!(error, BundleError::TooLarge { .. }));
    assert!(error.to_string().contains("10 MiB limit"), "{error}");
}

#[test]
fn an_upload_exactly_at_the_size_cap_is_accepted() {
    let limits = Limits {
        max_upload_bytes: 1000,
        ..Limits::default()
    };
    assert!(inspect("bot.py", &[b'x'; 1000], &limits).is_ok());
}

#[test]
fn file_names_that_are_not_bare_names_are_refused() {
    for name in [
        "",
        ".",
        "..",
        "src/bot.py",
        "/etc/passwd",
        "C:\\bot.py",
        "bot\0.py",
        "bot\n.py",
    ] {
        let error = refused(inspect(name, b"x", &Limits::default()));
        assert!(
            matches!(error, BundleError::BadFileName { .. }),
            "{name:?}: {error}"
        );
    }
}

#[test]
fn a_single_file_name_longer_than_the_limit_is_refused() {
    let name = format!("{}.py", "a".repeat(300));
    let error = refused(inspect(&name, b"x", &Limits::default()));
    assert!(
        matches!(
            error,
            BundleError::PathTooLong {
                len: 303,
                limit: 255,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_file_named_like_a_zip_that_is_not_a_zip_is_refused_as_corrupt() {
    let error = refused(inspect("bot.zip", b"just some text", &Limits::default()));
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
    assert!(error
        .to_string()
        .starts_with("the upload is not a valid zip archive"));
}

#[test]
fn a_file_named_like_a_tarball_that_is_not_gzip_is_refused_as_corrupt() {
    for name in ["bot.tar.gz", "bot.tgz"] {
        let error = refused(inspect(name, b"just some text", &Limits::default()));
        assert!(
            matches!(
                error,
                BundleError::Corrupt {
                    kind: Kind::TarGz,
                    ..
                }
            ),
            "{name}: {error}"
        );
    }
}

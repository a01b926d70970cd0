//! Extraction writes exactly the accepted files, under the destination only.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{refused, tar_dir, tar_file, tar_gz, tar_raw, zip, zip_dir, zip_file};
use croupier_bundle::{extract, inspect, BundleError, Limits};
use nix::sys::stat::{umask, Mode};

/// Everything under `root`: (relative path, "dir" or "file", mode bits, contents).
fn tree(root: &Path) -> Vec<(String, &'static str, u32, Vec<u8>)> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned();
            let mode = meta.permissions().mode() & 0o7777;
            if meta.is_dir() {
                found.push((rel, "dir", mode, Vec::new()));
                stack.push(path);
            } else {
                assert!(meta.is_file(), "{rel} is neither file nor directory");
                found.push((rel, "file", mode, fs::read(&path).unwrap()));
            }
        }
    }
    found.sort();
    found
}

fn sample_zip() -> Vec<u8> {
    zip(|w| {
        zip_dir(w, "empty/");
        zip_file(w, "src/main.py", b"print('hi')\n", 0o600);
        zip_file(w, "run.sh", b"#!/bin/sh\n", 0o700);
    })
}

#[test]
fn extraction_writes_exactly_the_listed_files_with_fixed_modes() {
    let dest = tempfile::tempdir().unwrap();
    let manifest = extract("bot.zip", &sample_zip(), &Limits::default(), dest.path()).unwrap();
    assert_eq!(
        manifest,
        inspect("bot.zip", &sample_zip(), &Limits::default()).unwrap()
    );
    assert_eq!(
        tree(dest.path()),
        [
            ("empty".to_owned(), "dir", 0o755, vec![]),
            ("run.sh".to_owned(), "file", 0o755, b"#!/bin/sh\n".to_vec()),
            ("src".to_owned(), "dir", 0o755, vec![]),
            (
                "src/main.py".to_owned(),
                "file",
                0o644,
                b"print('hi')\n".to_vec()
            ),
        ]
    );
}

#[test]
fn extraction_of_a_tar_gz_writes_exactly_the_listed_files() {
    let bytes = tar_gz(|b| {
        tar_raw(b, b"./", tar::EntryType::Directory, b"", 0o755);
        tar_dir(b, "lib");
        tar_file(b, "lib/a.rs", b"a", 0o664);
        tar_file(b, "bin/start", b"b", 0o775);
    });
    let dest = tempfile::tempdir().unwrap();
    let manifest = extract("bot.tgz", &bytes, &Limits::default(), dest.path()).unwrap();
    assert_eq!(manifest.entries.len(), 2);
    assert_eq!(
        tree(dest.path()),
        [
            ("bin".to_owned(), "dir", 0o755, vec![]),
            ("bin/start".to_owned(), "file", 0o755, b"b".to_vec()),
            ("lib".to_owned(), "dir", 0o755, vec![]),
            ("lib/a.rs".to_owned(), "file", 0o644, b"a".to_vec()),
        ]
    );
}

#[test]
fn extraction_of_a_single_file_writes_it_under_its_name() {
    let dest = tempfile::tempdir().unwrap();
    extract("bot.py", b"print(1)", &Limits::default(), dest.path()).unwrap();
    assert_eq!(
        tree(dest.path()),
        [("bot.py".to_owned(), "file", 0o644, b"print(1)".to_vec())]
    );
}

#[test]
fn a_refused_archive_writes_nothing_inside_or_outside_the_destination() {
    let outer = tempfile::tempdir().unwrap();
    let dest = outer.path().join("dest");
    fs::create_dir(&dest).unwrap();
    fs::set_permissions(&dest, fs::Permissions::from_mode(0o755)).unwrap();
    let bytes = tar_gz(|b| {
        tar_file(b, "main.py", b"x", 0o644);
        tar_raw(
            b,
            b"../escaped.txt",
            tar::EntryType::Regular,
            b"evil",
            0o644,
        );
    });
    let error = refused(extract("bot.tgz", &bytes, &Limits::default(), &dest));
    assert!(
        matches!(error, BundleError::ParentComponent { .. }),
        "{error}"
    );
    assert_eq!(
        tree(outer.path()),
        [("dest".to_owned(), "dir", 0o755, vec![])]
    );
}

#[test]
fn extraction_refuses_a_destination_that_is_not_an_empty_directory() {
    let dest = tempfile::tempdir().unwrap();
    fs::write(dest.path().join("old.txt"), b"old").unwrap();
    let error = refused(extract("bot.py", b"x", &Limits::default(), dest.path()));
    assert!(
        matches!(error, BundleError::DestinationNotEmpty { .. }),
        "{error}"
    );

    let file = dest.path().join("old.txt");
    let error = refused(extract("bot.py", b"x", &Limits::default(), &file));
    assert!(
        matches!(error, BundleError::DestinationNotEmpty { .. }),
        "{error}"
    );

    let missing = dest.path().join("missing");
    let error = refused(extract("bot.py", b"x", &Limits::default(), &missing));
    assert!(matches!(error, BundleError::Io { .. }), "{error}");
    assert!(!missing.exists());
}

#[test]
fn extracted_modes_do_not_depend_on_the_umask() {
    let previous = umask(Mode::from_bits_truncate(0o077));
    let dest = tempfile::tempdir().unwrap();
    let result = extract("bot.zip", &sample_zip(), &Limits::default(), dest.path());
    umask(previous);
    result.unwrap();
    let modes: Vec<(String, u32)> = tree(dest.path())
        .into_iter()
        .map(|(path, _, mode, _)| (path, mode))
        .collect();
    assert_eq!(
        modes,
        [
            ("empty".to_owned(), 0o755),
            ("run.sh".to_owned(), 0o755),
            ("src".to_owned(), 0o755),
            ("src/main.py".to_owned(), 0o644),
        ]
    );
}

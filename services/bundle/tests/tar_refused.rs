//! Tar.gz uploads that must be refused.

mod common;

use common::{gzip, refused, tar, tar_dir, tar_file, tar_gz, tar_raw};
use croupier_bundle::{inspect, BundleError, Kind, Limits};
use tar::EntryType;

fn inspect_tgz(bytes: &[u8]) -> BundleError {
    refused(inspect("bot.tar.gz", bytes, &Limits::default()))
}

fn one_entry(name: &[u8], kind: EntryType) -> Vec<u8> {
    tar_gz(|b| {
        tar_file(b, "main.py", b"x", 0o644);
        tar_raw(b, name, kind, b"", 0o644);
    })
}

#[test]
fn a_tar_gz_with_a_parent_directory_entry_is_refused() {
    for name in [&b"../evil.txt"[..], b"src/../../evil.txt", b"./.."] {
        let error = inspect_tgz(&one_entry(name, EntryType::Regular));
        assert!(
            matches!(error, BundleError::ParentComponent { .. }),
            "{error}"
        );
    }
    let error = inspect_tgz(&one_entry(b"../", EntryType::Directory));
    assert!(
        matches!(error, BundleError::ParentComponent { .. }),
        "{error}"
    );
}

#[test]
fn a_tar_gz_with_an_absolute_path_is_refused() {
    for name in [&b"/etc/passwd"[..], b"C:\\evil.dll", b"\\\\server\\evil"] {
        let error = inspect_tgz(&one_entry(name, EntryType::Regular));
        assert!(matches!(error, BundleError::AbsolutePath { .. }), "{error}");
    }
}

#[test]
fn a_tar_gz_with_links_devices_or_fifos_is_refused() {
    let cases = [
        (EntryType::Symlink, "symbolic link"),
        (EntryType::Link, "hard link"),
        (EntryType::Char, "character device"),
        (EntryType::Block, "block device"),
        (EntryType::Fifo, "FIFO (named pipe)"),
        (EntryType::new(b'X'), "special entry"),
    ];
    for (kind, what) in cases {
        let bytes = tar_gz(|b| {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(kind);
            header.set_size(0);
            header.set_mode(0o644);
            header.set_link_name("/etc/passwd").unwrap();
            b.append_data(&mut header, "node", &[][..]).unwrap();
        });
        let error = inspect_tgz(&bytes);
        assert!(
            matches!(&error, BundleError::NotRegular { path, what: w } if path == "node" && *w == what),
            "{what}: {error}"
        );
        assert!(error
            .to_string()
            .contains("only regular files and directories"));
    }
}

#[test]
fn a_tar_gz_with_a_sparse_file_is_refused() {
    // One real byte at the end of a 1 TiB hole: a bomb if it were ever read.
    let bytes = tar_gz(|b| {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(EntryType::GNUSparse);
        header.set_size(1);
        let gnu = header.as_gnu_mut().unwrap();
        gnu.set_real_size(1 << 40);
        gnu.sparse[0].set_offset((1 << 40) - 1);
        gnu.sparse[0].set_length(1);
        b.append_data(&mut header, "huge.bin", &b"x"[..]).unwrap();
    });
    let error = inspect_tgz(&bytes);
    assert!(
        matches!(
            error,
            BundleError::NotRegular {
                what: "sparse file",
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_tar_gz_with_more_files_than_the_limit_is_refused() {
    let bytes = tar_gz(|b| {
        for i in 0..201 {
            tar_file(b, &format!("f{i}.py"), b"x", 0o644);
        }
    });
    let error = inspect_tgz(&bytes);
    assert!(
        matches!(error, BundleError::TooManyFiles { limit: 200 }),
        "{error}"
    );
}

#[test]
fn a_tar_gz_with_a_path_too_long_or_too_deep_is_refused() {
    let long = format!("{}/main.py", "d".repeat(300));
    let error = inspect_tgz(&tar_gz(|b| tar_file(b, &long, b"x", 0o644)));
    assert!(
        matches!(
            error,
            BundleError::PathTooLong {
                len: 308,
                limit: 255,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains('…'), "{error}");
    let deep = format!("{}main.py", "d/".repeat(20));
    let error = inspect_tgz(&tar_gz(|b| tar_file(b, &deep, b"x", 0o644)));
    assert!(
        matches!(
            error,
            BundleError::TooDeep {
                depth: 21,
                limit: 16,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_tar_gz_with_the_same_path_twice_is_refused() {
    let bytes = tar_gz(|b| {
        tar_file(b, "main.py", b"good", 0o644);
        tar_file(b, "main.py", b"evil", 0o644);
    });
    let error = inspect_tgz(&bytes);
    assert!(
        matches!(error, BundleError::DuplicatePath { .. }),
        "{error}"
    );
    let bytes = tar_gz(|b| {
        tar_dir(b, "src");
        tar_dir(b, "src");
        tar_file(b, "src/main.py", b"x", 0o644);
    });
    assert!(matches!(
        inspect_tgz(&bytes),
        BundleError::DuplicatePath { .. }
    ));
}

#[test]
fn a_tar_gz_using_one_path_as_both_file_and_directory_is_refused() {
    let bytes = tar_gz(|b| {
        tar_file(b, "lib/util.py", b"x", 0o644);
        tar_file(b, "lib", b"x", 0o644);
    });
    let error = inspect_tgz(&bytes);
    assert!(
        matches!(&error, BundleError::FileDirectoryConflict { path } if path == "lib"),
        "{error}"
    );
}

#[test]
fn a_tar_gz_entry_with_a_non_utf8_name_is_refused() {
    let error = inspect_tgz(&one_entry(b"caf\xe9.py", EntryType::Regular));
    assert!(matches!(error, BundleError::NonUtf8Name { .. }), "{error}");
}

#[test]
fn a_tar_gz_with_no_files_is_refused_as_empty() {
    let only_dirs = tar_gz(|b| tar_dir(b, "src"));
    for bytes in [tar_gz(|_| {}), only_dirs, gzip(b"")] {
        let error = inspect_tgz(&bytes);
        assert!(
            matches!(error, BundleError::EmptyArchive { kind: Kind::TarGz }),
            "{error}"
        );
    }
}

#[test]
fn a_gzip_that_is_not_a_tar_is_refused_as_corrupt() {
    let error = inspect_tgz(&gzip(&[b'x'; 2000]));
    assert!(
        matches!(
            error,
            BundleError::Corrupt {
                kind: Kind::TarGz,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_truncated_tar_gz_is_refused_as_corrupt() {
    let bytes = tar_gz(|b| tar_file(b, "main.py", &[7u8; 5000], 0o644));
    let error = inspect_tgz(&bytes[..bytes.len() - 10]);
    assert!(
        matches!(
            error,
            BundleError::Corrupt {
                kind: Kind::TarGz,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_tar_whose_last_file_is_cut_short_is_refused_as_corrupt() {
    let archive = tar(|b| tar_file(b, "main.py", &[7u8; 5000], 0o644));
    let error = inspect_tgz(&gzip(&archive[..512 + 1000]));
    assert!(
        matches!(
            error,
            BundleError::Corrupt {
                kind: Kind::TarGz,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn data_after_the_end_of_the_tar_or_the_gzip_is_refused_as_corrupt() {
    let mut archive = tar(|b| tar_file(b, "main.py", b"x", 0o644));
    archive.extend_from_slice(b"hidden payload");
    let error = inspect_tgz(&gzip(&archive));
    assert!(matches!(error, BundleError::Corrupt { .. }), "{error}");

    let mut bytes = tar_gz(|b| tar_file(b, "main.py", b"x", 0o644));
    bytes.extend_from_slice(b"hidden payload");
    let error = inspect_tgz(&bytes);
    assert!(matches!(error, BundleError::Corrupt { .. }), "{error}");
}

#[test]
fn a_tar_header_with_a_bad_checksum_is_refused_as_corrupt() {
    let mut archive = tar(|b| tar_file(b, "main.py", b"x", 0o644));
    archive[0] = b'n';
    let error = inspect_tgz(&gzip(&archive));
    assert!(matches!(error, BundleError::Corrupt { .. }), "{error}");
}

#[test]
fn a_tar_gz_directory_entry_carrying_data_is_refused_as_corrupt() {
    let bytes = tar_gz(|b| {
        tar_raw(b, b"src/", EntryType::Directory, b"hidden", 0o755);
        tar_file(b, "src/main.py", b"x", 0o644);
    });
    let error = inspect_tgz(&bytes);
    assert!(matches!(error, BundleError::Corrupt { .. }), "{error}");
}

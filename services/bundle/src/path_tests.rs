use super::*;

fn file(raw: &str) -> Result<Option<String>, BundleError> {
    normalize(raw, false, &Limits::default())
}

fn dir(raw: &str) -> Result<Option<String>, BundleError> {
    normalize(raw, true, &Limits::default())
}

#[test]
fn a_single_leading_dot_slash_is_stripped() {
    assert_eq!(
        file("./src/main.rs").unwrap().as_deref(),
        Some("src/main.rs")
    );
    assert_eq!(dir("./src/").unwrap().as_deref(), Some("src"));
}

#[test]
fn the_archive_root_directory_is_skipped() {
    assert_eq!(dir("./").unwrap(), None);
    assert_eq!(dir(".").unwrap(), None);
}

#[test]
fn backslashes_are_separators() {
    assert_eq!(
        file("src\\main.rs").unwrap().as_deref(),
        Some("src/main.rs")
    );
}

#[test]
fn absolute_paths_are_refused_in_every_spelling() {
    for raw in [
        "/etc/x",
        "\\\\server\\share\\x",
        "C:\\x",
        "c:/x",
        "C:x",
        "\\x",
    ] {
        assert!(
            matches!(file(raw), Err(BundleError::AbsolutePath { .. })),
            "{raw}"
        );
    }
}

#[test]
fn parent_components_are_refused_anywhere() {
    for raw in ["..", "../x", "a/../b", "a/..", "a\\..\\..\\b", "./../x"] {
        assert!(
            matches!(file(raw), Err(BundleError::ParentComponent { .. })),
            "{raw}"
        );
    }
}

#[test]
fn empty_and_dot_components_are_refused() {
    for raw in ["a//b", "a/./b", "", ".", "././a", "dir/"] {
        assert!(
            matches!(file(raw), Err(BundleError::BadPath { .. })),
            "{raw:?}"
        );
    }
}

#[test]
fn control_characters_and_nul_are_refused() {
    for raw in ["a\0b", "a\nb", "a\u{7f}"] {
        assert!(
            matches!(file(raw), Err(BundleError::BadPath { .. })),
            "{raw:?}"
        );
    }
}

#[test]
fn path_length_and_depth_are_limited() {
    let limits = Limits {
        max_path_len: 10,
        max_depth: 3,
        ..Limits::default()
    };
    assert!(normalize("0123456789", false, &limits).is_ok());
    assert!(matches!(
        normalize("0123456789a", false, &limits),
        Err(BundleError::PathTooLong {
            len: 11,
            limit: 10,
            ..
        })
    ));
    assert!(normalize("a/b/c", false, &limits).is_ok());
    assert!(matches!(
        normalize("a/b/c/d", false, &limits),
        Err(BundleError::TooDeep {
            depth: 4,
            limit: 3,
            ..
        })
    ));
}

#[test]
fn single_file_names_must_be_bare() {
    let limits = Limits::default();
    assert_eq!(file_name("bot.py", &limits).unwrap(), "bot.py");
    for name in ["", ".", "..", "a/b", "a\\b", "a\0b", "tab\there"] {
        assert!(
            matches!(
                file_name(name, &limits),
                Err(BundleError::BadFileName { .. })
            ),
            "{name:?}"
        );
    }
}

#[test]
fn the_path_set_refuses_duplicates_and_file_directory_clashes() {
    let mut set = PathSet::default();
    set.add("a/b.txt", false).unwrap();
    set.add("a", true).unwrap(); // implicit directory named later: fine
    assert!(matches!(
        set.add("a", true),
        Err(BundleError::DuplicatePath { .. })
    ));
    assert!(matches!(
        set.add("a/b.txt", false),
        Err(BundleError::DuplicatePath { .. })
    ));
    assert!(matches!(
        set.add("a/b.txt/c", false),
        Err(BundleError::FileDirectoryConflict { .. })
    ));
    assert!(matches!(
        set.add("a", false),
        Err(BundleError::FileDirectoryConflict { .. })
    ));
    assert!(matches!(
        set.add("a/b.txt", true),
        Err(BundleError::FileDirectoryConflict { .. })
    ));
}

//! Nothing in the repository reaches for files beside the checkout.
//!
//! The reference data, rules and protocol notes Croupier was built from lived in a `shared`
//! folder next to the repository; their in-repo copies (`services/games/data/`, `docs/`) are the
//! source now, and a fresh clone has no such folder. This test fails when any source, script,
//! build file or document names a path into it (see [`needles`]), listing each as `file:line`.

use std::fs;
use std::path::Path;

use croupier_tests::{files, repo_root, write_fixture};

/// Files scanned: these extensions, and every file under `scripts/` and `.ci/` (shell scripts
/// without one).
const EXTENSIONS: [&str; 12] = [
    "rs", "toml", "sh", "py", "c", "cpp", "h", "sql", "md", "yml", "yaml", "html",
];

/// The paths that lead out of the checkout, spelled in pieces so this file does not match.
fn needles() -> Vec<String> {
    let shared = ["shared", "/"].concat();
    let mut out = vec![format!("../{shared}")];
    for folder in ["data", "spec", "research", "seeds"] {
        out.push(format!("{shared}{folder}/"));
    }
    out
}

fn scanned(path: &Path, root: &Path) -> bool {
    let by_extension = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e));
    let rel = path.strip_prefix(root).unwrap_or(path);
    by_extension || rel.starts_with("scripts") || rel.starts_with(".ci")
}

/// `file:line: text` for every line under `root` that names a path beside the checkout.
fn outside_paths(root: &Path) -> Vec<String> {
    let needles = needles();
    let all = files(root, &|p| scanned(p, root));
    let mut found = Vec::new();
    for file in all {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let shown = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (i, line) in text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n.as_str())) {
                found.push(format!("{shown}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_file_names_a_path_beside_the_checkout() {
    let root = repo_root();
    assert!(
        root.join("services").is_dir(),
        "the scan must start at the repository (root {})",
        root.display()
    );
    let found = outside_paths(&root);
    assert!(
        found.is_empty(),
        "{} line(s) name files outside the repository; use the in-repo copies \
         (services/games/data/, docs/):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn paths_beside_the_checkout_are_found_in_code_scripts_and_docs() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path();
    let write = |path: &str, text: &str| write_fixture(root, path, text);
    let climb = ["../../../", "shared", "/data/bridge/imp_table.csv"].concat();
    write(
        "services/x/src/lib.rs",
        &format!("const T: &str = include_str!(\"{climb}\");\n"),
    );
    write(
        "scripts/check",
        &["#!/bin/sh\ncat ../sha", "red/spec/x\n"].concat(),
    );
    write(
        "docs/a.md",
        &["See shared", "/research/notes.md.\n"].concat(),
    );
    write("target/debug/ignored.rs", &climb);
    write(
        "services/x/src/fine.rs",
        "// shared by every seat; ../kits/\n",
    );
    let found = outside_paths(root);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].starts_with("docs/a.md:1: "), "{found:#?}");
    assert!(found[1].starts_with("scripts/check:2: "), "{found:#?}");
    assert!(
        found[2].starts_with("services/x/src/lib.rs:1: "),
        "{found:#?}"
    );
}

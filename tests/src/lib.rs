//! Shared helpers for the end-to-end tests live in `e2e/`; this library holds what the
//! repository-wide checks (`docs_links.rs`, `in_repo.rs`) share: walking the checkout.

use std::fs;
use std::path::{Path, PathBuf};

/// Folders never scanned: build output, git's own, fuzzer inputs and findings, local data.
pub const SKIPPED_DIRS: [&str; 6] = [
    "target",
    ".git",
    "corpus",
    "artifacts",
    ".croupier",
    "node_modules",
];

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf)
}

/// Every file under `dir` for which `keep` holds, sorted, skipping [`SKIPPED_DIRS`].
pub fn files(dir: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, keep, &mut out);
    out
}

fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !SKIPPED_DIRS.contains(&name) {
                walk(&path, keep, out);
            }
        } else if keep(&path) {
            out.push(path);
        }
    }
}

/// Whether `path`'s name ends with one of `endings` (`[".md"]`).
pub fn ends_with_any(path: &Path, endings: &[&str]) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    endings.iter().any(|e| name.ends_with(e))
}

/// Writes `text` to `root/path`, making its folders (a fixture for the checks' own tests).
pub fn write_fixture(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

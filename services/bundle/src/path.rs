//! Path checks: every name from an upload goes through here before use.

use std::collections::HashMap;

use crate::error::{shown, BundleError};
use crate::limits::Limits;

/// Checks and normalizes one archive entry name.
///
/// Backslashes count as separators (old Windows zip tools write them), a single
/// leading `./` and, for directories, a single trailing `/` are dropped.
/// Returns `None` for the archive root itself (`./` or `.`, which `tar czf x.tgz .`
/// writes), which callers skip. Refuses control characters, absolute paths
/// (`/x`, `\\x`, `C:\x`, `C:x`), `..`, `.` or empty components, and paths
/// that are too long or too deep.
pub(crate) fn normalize(
    raw: &str,
    is_dir: bool,
    limits: &Limits,
) -> Result<Option<String>, BundleError> {
    let bad = |reason| BundleError::BadPath {
        path: shown(raw),
        reason,
    };
    if raw.chars().any(char::is_control) {
        return Err(bad("it contains a control character"));
    }
    let unified = raw.replace('\\', "/");
    if unified.starts_with('/') || has_drive_prefix(&unified) {
        return Err(BundleError::AbsolutePath { path: shown(raw) });
    }
    let mut rest = unified.strip_prefix("./").unwrap_or(&unified);
    if is_dir {
        rest = rest.strip_suffix('/').unwrap_or(rest);
    }
    if rest.is_empty() || rest == "." {
        return if is_dir {
            Ok(None)
        } else {
            Err(bad("it names no file"))
        };
    }
    if rest.split('/').any(|c| c == "..") {
        return Err(BundleError::ParentComponent { path: shown(raw) });
    }
    for component in rest.split('/') {
        match component {
            "" if !is_dir && rest.ends_with('/') => {
                return Err(bad("a file name cannot end with \"/\""))
            }
            "" => return Err(bad("it contains an empty component (\"//\")")),
            "." => return Err(bad("it contains a \".\" component")),
            _ => {}
        }
    }
    check_length(rest, limits)?;
    let depth = rest.split('/').count();
    if depth > limits.max_depth {
        return Err(BundleError::TooDeep {
            path: shown(rest),
            depth,
            limit: limits.max_depth,
        });
    }
    Ok(Some(rest.to_owned()))
}

/// Checks the name of a single-file upload: it must be a bare file name.
pub(crate) fn file_name(name: &str, limits: &Limits) -> Result<String, BundleError> {
    let bad = |reason| BundleError::BadFileName {
        name: shown(name),
        reason,
    };
    if name.is_empty() {
        return Err(bad("it is empty"));
    }
    if name.chars().any(char::is_control) {
        return Err(bad("it contains a control character"));
    }
    if name.contains(['/', '\\']) {
        return Err(bad("it must be a bare file name, without directories"));
    }
    if name == "." || name == ".." {
        return Err(bad("it is not a file name"));
    }
    check_length(name, limits)?;
    Ok(name.to_owned())
}

fn check_length(path: &str, limits: &Limits) -> Result<(), BundleError> {
    if path.len() > limits.max_path_len {
        return Err(BundleError::PathTooLong {
            path: shown(path),
            len: path.len(),
            limit: limits.max_path_len,
        });
    }
    Ok(())
}

/// `C:` at the start: a Windows drive, absolute (`C:\x`) or drive-relative (`C:x`).
fn has_drive_prefix(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    File,
    /// A directory; `explicit` once an entry named it (not just a file inside it).
    Dir {
        explicit: bool,
    },
}

/// The normalized paths seen so far, to refuse duplicates and file/directory clashes.
#[derive(Debug, Default)]
pub(crate) struct PathSet {
    nodes: HashMap<String, Node>,
}

impl PathSet {
    /// Records `path` (already normalized) as a file or an explicit directory.
    pub(crate) fn add(&mut self, path: &str, is_dir: bool) -> Result<(), BundleError> {
        let conflict = |p: &str| BundleError::FileDirectoryConflict { path: shown(p) };
        let ancestors: Vec<&str> = path.match_indices('/').map(|(i, _)| &path[..i]).collect();
        if let Some(file) = ancestors
            .iter()
            .find(|a| self.nodes.get(**a) == Some(&Node::File))
        {
            return Err(conflict(file));
        }
        match (self.nodes.get(path).copied(), is_dir) {
            (None, _) => {}
            (Some(Node::Dir { explicit: false }), true) => {}
            (Some(Node::File), false) | (Some(Node::Dir { explicit: true }), true) => {
                return Err(BundleError::DuplicatePath { path: shown(path) })
            }
            (Some(_), _) => return Err(conflict(path)),
        }
        let node = if is_dir {
            Node::Dir { explicit: true }
        } else {
            Node::File
        };
        self.nodes.insert(path.to_owned(), node);
        for ancestor in ancestors {
            self.nodes
                .entry(ancestor.to_owned())
                .or_insert(Node::Dir { explicit: false });
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;

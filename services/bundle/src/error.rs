//! Why an upload was refused, in words a student can act on.

use std::io;
use std::path::PathBuf;

use crate::kind::Kind;
use crate::limits::mib;

/// Every way an upload can be refused (and the few ways extraction can fail).
///
/// The `Display` text of each variant is meant to be shown to the student
/// verbatim: it names the offending path (quoted and escaped, so a hostile
/// name cannot inject control characters) and the limit that was crossed.
/// Paths stored here are shortened to at most 120 characters.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BundleError {
    #[error("the upload is empty")]
    EmptyUpload,
    #[error("the {kind} archive contains no files")]
    EmptyArchive { kind: Kind },
    #[error("the upload is {}, larger than the {} limit", mib(*size), mib(*limit))]
    TooLarge { size: u64, limit: u64 },
    #[error("the upload is not a valid {kind} archive: {detail}")]
    Corrupt { kind: Kind, detail: String },
    #[error("the file name {name:?} is not acceptable: {reason}")]
    BadFileName { name: String, reason: &'static str },
    #[error("{path:?} is not an acceptable path: {reason}")]
    BadPath { path: String, reason: &'static str },
    #[error("{path:?} is an absolute path; archive paths must be relative")]
    AbsolutePath { path: String },
    #[error("{path:?} contains a \"..\" component; archive paths must stay inside the archive")]
    ParentComponent { path: String },
    #[error("{path:?} is a {what}; only regular files and directories are allowed")]
    NotRegular { path: String, what: &'static str },
    #[error("the archive contains more than {limit} files")]
    TooManyFiles { limit: usize },
    #[error("the archive contains more than {limit} directories")]
    TooManyDirectories { limit: usize },
    #[error("the archive unpacks to more than {} (the limit was crossed at {path:?})", mib(*limit))]
    UnpackedTooLarge { path: String, limit: u64 },
    #[error("{path:?} is {len} bytes long, longer than the {limit}-byte limit for paths")]
    PathTooLong {
        path: String,
        len: usize,
        limit: usize,
    },
    #[error("{path:?} is nested {depth} levels deep, deeper than the limit of {limit}")]
    TooDeep {
        path: String,
        depth: usize,
        limit: usize,
    },
    #[error("{path:?} appears more than once in the archive")]
    DuplicatePath { path: String },
    #[error("{path:?} is used both as a file and as a directory")]
    FileDirectoryConflict { path: String },
    #[error("{path:?} is encrypted; upload an archive without a password")]
    Encrypted { path: String },
    #[error(
        "{path:?} uses compression method {method}, which is not supported; use deflate or store"
    )]
    UnsupportedCompression { path: String, method: String },
    #[error("an entry name is not valid UTF-8: {lossy:?}")]
    NonUtf8Name { lossy: String },
    #[error("the destination {} is not an empty directory", dest.display())]
    DestinationNotEmpty { dest: PathBuf },
    #[error("extraction failed at {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// Longest path kept in an error message, in characters.
const SHOWN_CHARS: usize = 120;

/// Shortens a path for an error message, marking the cut with an ellipsis.
pub(crate) fn shown(path: &str) -> String {
    match path.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &path[..cut]),
        None => path.to_owned(),
    }
}

impl BundleError {
    /// A `Corrupt` error; the detail (often a library message quoting archive
    /// bytes) is shortened and stripped of control characters.
    pub(crate) fn corrupt(kind: Kind, detail: impl std::fmt::Display) -> Self {
        let detail: String = detail
            .to_string()
            .chars()
            .map(|c| if c.is_control() { '\u{fffd}' } else { c })
            .collect();
        BundleError::Corrupt {
            kind,
            detail: shown(&detail),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_paths_are_shortened_in_messages() {
        let long = "a".repeat(500);
        let shown = shown(&long);
        assert_eq!(shown.chars().count(), SHOWN_CHARS + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(super::shown("short"), "short");
    }

    #[test]
    fn control_characters_are_escaped_in_messages() {
        let error = BundleError::DuplicatePath {
            path: "evil\u{1b}[2Jname".into(),
        };
        assert!(!error.to_string().contains('\u{1b}'));
    }
}

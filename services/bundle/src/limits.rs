//! Size and shape limits applied to every upload.

/// One mebibyte, the unit used in every size message shown to students.
pub const MIB: u64 = 1024 * 1024;

/// The limits an upload must respect; every check in this crate reads them.
///
/// The defaults suit source bundles of game-playing bots: see [`Limits::default`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted upload, in bytes, as received (compressed).
    pub max_upload_bytes: u64,
    /// Most regular files an archive may hold. Directory entries do not count
    /// here; they are capped separately at the same number.
    pub max_files: usize,
    /// Largest total size of all files once decompressed, in bytes. Counted
    /// while decompressing, never taken from archive headers.
    pub max_unpacked_bytes: u64,
    /// Longest normalized path, in bytes of UTF-8 (characters, for ASCII names).
    pub max_path_len: usize,
    /// Most components in a path: `a/b/c.txt` has depth 3.
    pub max_depth: usize,
}

impl Default for Limits {
    /// 10 MiB upload, 200 files, 64 MiB unpacked, 255-byte paths, depth 16.
    fn default() -> Self {
        Limits {
            max_upload_bytes: 10 * MIB,
            max_files: 200,
            max_unpacked_bytes: 64 * MIB,
            max_path_len: 255,
            max_depth: 16,
        }
    }
}

impl Limits {
    /// Most directory entries an archive may hold (the same as `max_files`).
    pub(crate) fn max_dirs(&self) -> usize {
        self.max_files
    }
}

/// Formats a byte count in MiB for messages: `10 MiB`, `0.5 MiB`, `12.34 MiB`.
pub(crate) fn mib(bytes: u64) -> String {
    let text = format!("{:.2}", bytes as f64 / MIB as f64);
    match text.trim_end_matches('0').trim_end_matches('.') {
        "0" => format!("{bytes} bytes"),
        text => format!("{text} MiB"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_match_the_documented_values() {
        let limits = Limits::default();
        assert_eq!(limits.max_upload_bytes, 10 * MIB);
        assert_eq!(limits.max_files, 200);
        assert_eq!(limits.max_unpacked_bytes, 64 * MIB);
        assert_eq!(limits.max_path_len, 255);
        assert_eq!(limits.max_depth, 16);
    }

    #[test]
    fn sizes_are_shown_in_mebibytes_without_useless_decimals() {
        assert_eq!(mib(10 * MIB), "10 MiB");
        assert_eq!(mib(MIB / 2), "0.5 MiB");
        assert_eq!(mib(MIB + MIB / 4), "1.25 MiB");
        assert_eq!(mib(0), "0 bytes");
        assert_eq!(mib(100), "100 bytes");
    }
}

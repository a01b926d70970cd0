//! The three shapes an upload can take, and how to tell them apart.

use std::fmt;
use std::str::FromStr;

/// What an upload is: a single source file, a zip archive or a gzipped tarball.
///
/// With the `serde` and `sqlx` features it is a JSON string and a `text` column holding its
/// [`Kind::as_str`] name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(
    feature = "sqlx",
    derive(sqlx::Type),
    sqlx(type_name = "text", rename_all = "snake_case")
)]
pub enum Kind {
    /// One file, stored under its own (sanitized) name.
    File,
    /// A `.zip` archive (stored or deflated entries only).
    Zip,
    /// A `.tar.gz` / `.tgz` archive.
    #[cfg_attr(feature = "serde", serde(rename = "tar.gz"))]
    #[cfg_attr(feature = "sqlx", sqlx(rename = "tar.gz"))]
    TarGz,
}

impl Kind {
    /// The stable name of the kind: `"file"`, `"zip"` or `"tar.gz"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Zip => "zip",
            Kind::TarGz => "tar.gz",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of [`Kind::from_str`]: the text is none of `file`, `zip`, `tar.gz`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown bundle kind {0:?} (expected \"file\", \"zip\" or \"tar.gz\")")]
pub struct ParseKindError(pub String);

impl FromStr for Kind {
    type Err = ParseKindError;

    /// Parses exactly what [`Kind::as_str`] prints.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "file" => Ok(Kind::File),
            "zip" => Ok(Kind::Zip),
            "tar.gz" => Ok(Kind::TarGz),
            other => Err(ParseKindError(other.to_owned())),
        }
    }
}

/// Local file header, and end of central directory (an empty zip starts with it).
const ZIP_MAGICS: [&[u8]; 2] = [b"PK\x03\x04", b"PK\x05\x06"];
const GZIP_MAGIC: &[u8] = b"\x1f\x8b";

/// Decides what an upload is, from its first bytes and then its file name.
///
/// Magic bytes win: zip (`PK\x03\x04`, or `PK\x05\x06` for an empty zip) and
/// gzip (`1f 8b`). Otherwise a name ending in `.zip`, `.tar.gz` or `.tgz`
/// (any case) still selects that archive kind, so that a corrupt archive is
/// reported as such by [`inspect`](crate::inspect) instead of being accepted
/// as an opaque single file. Everything else is a [`Kind::File`].
pub fn detect_kind(filename: &str, bytes: &[u8]) -> Kind {
    if ZIP_MAGICS.iter().any(|magic| bytes.starts_with(magic)) {
        return Kind::Zip;
    }
    if bytes.starts_with(GZIP_MAGIC) {
        return Kind::TarGz;
    }
    let name = filename.to_ascii_lowercase();
    if name.ends_with(".zip") {
        Kind::Zip
    } else if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        Kind::TarGz
    } else {
        Kind::File
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes_decide_before_the_file_name() {
        assert_eq!(detect_kind("bot.py", b"PK\x03\x04rest"), Kind::Zip);
        assert_eq!(detect_kind("bot.py", b"\x1f\x8b\x08"), Kind::TarGz);
        assert_eq!(detect_kind("empty.zip", b"PK\x05\x06"), Kind::Zip);
    }

    #[test]
    fn an_archive_extension_without_magic_still_selects_the_archive_kind() {
        assert_eq!(detect_kind("bot.ZIP", b"hello"), Kind::Zip);
        assert_eq!(detect_kind("bot.tar.gz", b"hello"), Kind::TarGz);
        assert_eq!(detect_kind("bot.tgz", b"hello"), Kind::TarGz);
        assert_eq!(detect_kind("bot.py", b"print(1)"), Kind::File);
    }

    #[test]
    fn kinds_round_trip_through_their_names() {
        for kind in [Kind::File, Kind::Zip, Kind::TarGz] {
            assert_eq!(kind.as_str().parse::<Kind>(), Ok(kind));
            assert_eq!(kind.to_string(), kind.as_str());
        }
        assert!("rar".parse::<Kind>().is_err());
    }
}

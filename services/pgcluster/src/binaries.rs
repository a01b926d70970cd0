//! Finding the system's PostgreSQL server programs (`initdb`, `pg_ctl`, `postgres`).

use std::path::{Path, PathBuf};

use crate::ClusterError;

/// The programs a directory must hold to be usable.
const PROGRAMS: [&str; 3] = ["initdb", "pg_ctl", "postgres"];

/// Where Debian and Ubuntu install each major version's server programs
/// (`/usr/lib/postgresql/<major>/bin`).
const DEBIAN_ROOT: &str = "/usr/lib/postgresql";

/// Finds the directory holding PostgreSQL's server programs.
///
/// Looks first in `PATH` (a directory holding `initdb`, `pg_ctl` and `postgres`; symlinks
/// such as `/usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb` are resolved to the
/// real directory), then in `/usr/lib/postgresql/*/bin`, taking the highest major version.
/// The error lists every directory looked in and says how to install PostgreSQL.
pub fn find_server_binaries() -> Result<PathBuf, ClusterError> {
    let (found, searched) = candidates();
    found
        .into_iter()
        .next()
        .ok_or(ClusterError::BinariesNotFound { searched })
}

/// Like [`find_server_binaries`], but prefers a directory whose major version is `major`
/// (the version of an existing cluster). Returns the chosen directory and its major version;
/// if none has that version, returns the first found with its own version, so the caller
/// can report the mismatch.
pub(crate) async fn find_for_version(
    major: Option<&str>,
) -> Result<(PathBuf, String), ClusterError> {
    let (found, searched) = candidates();
    let mut first = None;
    for dir in found {
        let version = major_version(&dir).await?;
        if major.is_none_or(|m| m == version) {
            return Ok((dir, version));
        }
        first.get_or_insert((dir, version));
    }
    first.ok_or(ClusterError::BinariesNotFound { searched })
}

/// The major version (`"15"`, or `"9.6"` before 10) of the `postgres` in `bin_dir`.
pub(crate) async fn major_version(bin_dir: &Path) -> Result<String, ClusterError> {
    let program = bin_dir.join("postgres");
    let out = tokio::process::Command::new(&program)
        .arg("--version")
        .output()
        .await
        .map_err(|e| ClusterError::io(format!("running {} --version", program.display()), e))?;
    let text = String::from_utf8_lossy(&out.stdout);
    // "postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)"
    let full = text.split_whitespace().nth(2).unwrap_or_default();
    parse_major(full).ok_or_else(|| {
        ClusterError::io(
            format!("reading the version of {}", program.display()),
            std::io::Error::other(format!("unexpected output {:?}", text.trim())),
        )
    })
}

/// `"15.14"` → `"15"`, `"16beta1"` → `"16"`, `"9.6.24"` → `"9.6"`.
fn parse_major(full: &str) -> Option<String> {
    let digits = |s: &str| {
        s.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
    };
    let first = digits(full);
    let n: u32 = first.parse().ok()?;
    if n >= 10 {
        return Some(first);
    }
    let second = digits(full.get(first.len() + 1..)?);
    (!second.is_empty()).then(|| format!("{first}.{second}"))
}

/// Usable directories in order of preference, and every directory looked in.
fn candidates() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut found = Vec::new();
    let mut searched = Vec::new();
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
        if dir.as_os_str().is_empty() || searched.contains(&dir) {
            continue;
        }
        searched.push(dir.clone());
        if has_programs(&dir) {
            // Resolve symlinked programs to their real directory: pg_ctl finds `postgres`
            // next to its own real path anyway, and the real path names the version.
            let real = std::fs::canonicalize(dir.join("initdb"))
                .ok()
                .and_then(|p| p.parent().map(Path::to_path_buf))
                .filter(|d| has_programs(d))
                .unwrap_or(dir);
            if !found.contains(&real) {
                found.push(real);
            }
        }
    }
    let mut versioned: Vec<(Vec<u32>, PathBuf)> = std::fs::read_dir(DEBIAN_ROOT)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let key = name
                .split('.')
                .map(str::parse)
                .collect::<Result<Vec<u32>, _>>()
                .ok()?;
            Some((key, entry.path().join("bin")))
        })
        .collect();
    versioned.sort_by(|a, b| b.0.cmp(&a.0));
    if versioned.is_empty() {
        searched.push(PathBuf::from(DEBIAN_ROOT).join("*/bin"));
    }
    for (_, dir) in versioned {
        searched.push(dir.clone());
        if has_programs(&dir) && !found.contains(&dir) {
            found.push(dir);
        }
    }
    (found, searched)
}

fn has_programs(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    PROGRAMS.iter().all(|p| {
        std::fs::metadata(dir.join(p))
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

#[cfg(test)]
mod tests {
    use super::parse_major;

    #[test]
    fn major_versions_are_parsed_old_and_new_style() {
        assert_eq!(parse_major("15.14").as_deref(), Some("15"));
        assert_eq!(parse_major("16beta1").as_deref(), Some("16"));
        assert_eq!(parse_major("9.6.24").as_deref(), Some("9.6"));
        assert_eq!(parse_major("banana"), None);
    }
}

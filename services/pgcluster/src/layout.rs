//! Where the cluster's files live, and the connection settings croupier gives it.
//!
//! Inside croupier's data dir:
//! * `postgres/` — the cluster (PostgreSQL's own data directory, mode 0700);
//! * `postgres/croupier.conf` — the settings below, included from `postgresql.conf`
//!   (`include = 'croupier.conf'`, so the server refuses to start without them);
//! * `postgres.log` — the server's log; `postgres.lock` — held while a croupier uses the
//!   cluster; `postgres-socket/` — the directory of the server's unix socket (mode 0700).
//!
//! The server listens on no TCP address at all (`listen_addresses = ''`), only on the unix
//! socket `<socket dir>/.s.PGSQL.<port>`. The port only names the socket; it is chosen once
//! (the first one from 5433 up that no local server uses on 127.0.0.1 or in the usual
//! socket directories, so `psql -p` can't confuse the two) and kept in `croupier.conf`.
//!
//! A unix socket's path may not exceed 107 bytes, and `unix_socket_directories` can't hold
//! some characters. When `<data dir>/postgres-socket` is too long or awkward, the socket
//! lives in a private directory `/tmp/croupier-pg-XXXXXX` (made with mkdtemp, mode 0700,
//! owned by the server's user), whose name is kept in `croupier.conf` too, and which is
//! made again after a reboot empties `/tmp`. It is left in place on stop, to be reused.

use std::fs::DirBuilder;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::account::ServerUser;
use crate::ClusterError;

/// The settings file croupier writes into the cluster.
const CONF_FILE: &str = "croupier.conf";
/// The line that makes `postgresql.conf` include it.
const INCLUDE_LINE: &str = "include = 'croupier.conf'";
/// The longest socket path the kernel accepts (`sun_path` is 108 bytes with its NUL).
const MAX_SOCKET_PATH: usize = 107;
/// The shared directory the socket falls back to.
const FALLBACK_PARENT: &str = "/tmp";
/// First port tried for the socket name.
const FIRST_PORT: u16 = 5433;

/// The paths of one cluster, all absolute.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub data_dir: PathBuf,
    pub cluster_dir: PathBuf,
    pub log: PathBuf,
    pub lock: PathBuf,
}

impl Layout {
    /// The layout under `data_dir`, which must be absolute.
    pub(crate) fn new(data_dir: &Path) -> Self {
        Self {
            data_dir: data_dir.to_path_buf(),
            cluster_dir: data_dir.join("postgres"),
            log: data_dir.join("postgres.log"),
            lock: data_dir.join("postgres.lock"),
        }
    }

    fn conf(&self) -> PathBuf {
        self.cluster_dir.join(CONF_FILE)
    }
}

/// The port that names the socket, and the socket's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Settings {
    pub port: u16,
    pub socket_dir: PathBuf,
}

impl Settings {
    /// Decides the settings for an initialized cluster: the recorded port (or a fresh one),
    /// and `<data dir>/postgres-socket` if usable, else the recorded or a new `/tmp` dir.
    /// Makes sure the socket directory exists, is private and belongs to `user`.
    pub(crate) fn settle(layout: &Layout, user: &ServerUser) -> Result<Self, ClusterError> {
        let recorded = read_recorded(&layout.conf());
        let port = recorded.as_ref().map_or_else(pick_port, |r| r.port);
        let preferred = layout.data_dir.join("postgres-socket");
        let socket_dir = if usable_socket_dir(&preferred, port) {
            make_private_dir(&preferred, user, true)?;
            preferred
        } else if let Some(dir) = recorded
            .map(|r| r.socket_dir)
            .filter(|d| d.starts_with(FALLBACK_PARENT))
        {
            make_private_dir(&dir, user, false)?;
            dir
        } else {
            let template = format!("{FALLBACK_PARENT}/croupier-pg-XXXXXX");
            let dir = nix::unistd::mkdtemp(template.as_str()).map_err(|e| {
                ClusterError::io(
                    format!("creating a socket directory in {FALLBACK_PARENT}"),
                    e.into(),
                )
            })?;
            make_private_dir(&dir, user, true)?;
            dir
        };
        tracing::debug!(port, socket_dir = %socket_dir.display(), "PostgreSQL socket");
        Ok(Self { port, socket_dir })
    }

    /// Writes `croupier.conf` and makes sure `postgresql.conf` includes it.
    pub(crate) fn write(&self, layout: &Layout, user: &ServerUser) -> Result<(), ClusterError> {
        let text = format!(
            "# Written by croupier on every start of this cluster: edits here are overwritten.\n\
             listen_addresses = ''\n\
             port = {}\n\
             unix_socket_directories = '{}'\n\
             unix_socket_permissions = 0700\n",
            self.port,
            self.socket_dir.display()
        );
        write_file(&layout.conf(), &text, user)?;
        let main = layout.cluster_dir.join("postgresql.conf");
        let current = std::fs::read_to_string(&main)
            .map_err(|e| ClusterError::io(format!("reading {}", main.display()), e))?;
        if !current.lines().any(|l| l.trim() == INCLUDE_LINE) {
            let sep = if current.ends_with('\n') { "" } else { "\n" };
            let text = format!(
                "{current}{sep}\n# croupier's settings (socket only, no TCP)\n{INCLUDE_LINE}\n"
            );
            write_file(&main, &text, user)?;
        }
        Ok(())
    }
}

/// The settings recorded in `croupier.conf`, if it exists and is complete.
fn read_recorded(conf: &Path) -> Option<Settings> {
    let text = std::fs::read_to_string(conf).ok()?;
    let value = |key: &str| {
        text.lines().find_map(|line| {
            let (k, v) = line.split_once('=')?;
            (k.trim() == key).then(|| v.trim().trim_matches('\'').to_string())
        })
    };
    Some(Settings {
        port: value("port")?.parse().ok()?,
        socket_dir: value("unix_socket_directories")?.into(),
    })
}

/// Whether `dir` can hold the socket: short enough, and free of characters that
/// `unix_socket_directories` (a quoted, comma-separated list) would misread.
fn usable_socket_dir(dir: &Path, port: u16) -> bool {
    let Some(text) = dir.to_str() else {
        return false;
    };
    let socket_len = text.len() + format!("/.s.PGSQL.{port}").len();
    socket_len <= MAX_SOCKET_PATH
        && !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || ",'\"\\".contains(c))
}

/// The first port from [`FIRST_PORT`] that no local server seems to use: not bound on
/// 127.0.0.1, and with no socket of that number in the usual directories.
fn pick_port() -> u16 {
    let taken = |port: u16| {
        ["/var/run/postgresql", "/run/postgresql", "/tmp"]
            .iter()
            .any(|d| Path::new(d).join(format!(".s.PGSQL.{port}")).exists())
            || std::net::TcpListener::bind(("127.0.0.1", port)).is_err()
    };
    (FIRST_PORT..FIRST_PORT + 1000)
        .find(|&p| !taken(p))
        .unwrap_or(FIRST_PORT)
}

/// Makes `dir` exist as a private (0700) directory of `user`. A directory croupier owns
/// (`ours`) is fixed up if needed; a shared-`/tmp` one that already exists must already be
/// a real directory of `user` with mode 0700, or it is refused (someone else made it).
fn make_private_dir(dir: &Path, user: &ServerUser, ours: bool) -> Result<(), ClusterError> {
    match DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(ClusterError::io(format!("creating {}", dir.display()), e)),
    }
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| ClusterError::io(format!("inspecting {}", dir.display()), e))?;
    let private = meta.is_dir() && user.owns(&meta) && meta.mode() & 0o077 == 0;
    if private {
        return Ok(());
    }
    let refused = || {
        let why = format!("not a private directory of user {}; remove it", user.name());
        ClusterError::io(
            format!("using {} for PostgreSQL's socket", dir.display()),
            std::io::Error::other(why),
        )
    };
    if !meta.is_dir() {
        return Err(refused());
    }
    // A new directory made by root belongs to root until handed over; anything else that
    // isn't private is only fixed up if it is croupier's own.
    let just_made_by_root = meta.uid() == 0 && meta.mode() & 0o077 == 0;
    if !(ours || just_made_by_root) {
        return Err(refused());
    }
    user.chown(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
        .map_err(|e| ClusterError::io(format!("making {} private", dir.display()), e))
}

/// Writes `text` to `path` (replacing it) and gives it to `user`.
pub(crate) fn write_file(path: &Path, text: &str, user: &ServerUser) -> Result<(), ClusterError> {
    std::fs::write(path, text)
        .map_err(|e| ClusterError::io(format!("writing {}", path.display()), e))?;
    user.chown(path)
}

/// Percent-encodes `text` for a URL, keeping unreserved characters and `/`.
pub(crate) fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn socket_dirs_longer_than_the_kernel_allows_are_not_usable() {
        let long = PathBuf::from(format!("/{}", "d".repeat(93)));
        assert!(!usable_socket_dir(&long, 5433));
        assert!(usable_socket_dir(
            &PathBuf::from(format!("/{}", "d".repeat(92))),
            5433
        ));
        assert!(!usable_socket_dir(Path::new("/data/with,comma"), 5433));
        assert!(!usable_socket_dir(Path::new("/data/with space"), 5433));
    }

    #[test]
    fn recorded_settings_are_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let conf = dir.path().join(CONF_FILE);
        std::fs::write(
            &conf,
            "listen_addresses = ''\nport = 5440\nunix_socket_directories = '/tmp/x y'\n",
        )
        .unwrap();
        let got = read_recorded(&conf).unwrap();
        assert_eq!(
            got,
            Settings {
                port: 5440,
                socket_dir: "/tmp/x y".into()
            }
        );
    }

    #[test]
    fn urls_encode_everything_but_plain_path_characters() {
        assert_eq!(url_encode("/a b/ü%?"), "/a%20b/%C3%BC%25%3F");
    }
}

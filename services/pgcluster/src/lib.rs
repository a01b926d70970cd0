//! A private PostgreSQL cluster under croupier's data dir, for `croupier up` when
//! `DATABASE_URL` is unset.
//!
//! [`Cluster::start`] creates the cluster on first use (`initdb`, with the system's
//! PostgreSQL server programs: see [`find_server_binaries`]), starts it, waits until it
//! accepts connections and creates the database if missing; [`Cluster::database_url`] is
//! then a sqlx/libpq URL for it; [`Cluster::stop`] stops it (and dropping a running
//! [`Cluster`] stops it too, best-effort). Data survives restarts: later starts reuse the
//! cluster.
//!
//! # Files, in croupier's data dir
//! * `postgres/` — the cluster, mode 0700; `postgres/croupier.conf` holds croupier's
//!   settings (rewritten on every start, included from `postgresql.conf`);
//! * `postgres.log` — the server's log;
//! * `postgres.lock` — locked while a croupier uses the cluster;
//! * `postgres-socket/` — the server's unix socket, mode 0700.
//!
//! # Never disturbing another PostgreSQL
//! The server listens on no TCP address (`listen_addresses = ''`), only on the socket
//! `<socket dir>/.s.PGSQL.<port>`; the port only names the socket, is chosen once (the
//! first from 5433 that no local server seems to use) and kept in `croupier.conf`. Local
//! connections are trusted: only users who can enter the 0700 socket directory connect.
//! The superuser is [`SUPERUSER`]. A socket path may not exceed 107 bytes: when
//! `<data dir>/postgres-socket` would be too long (or holds characters such as `,` or a
//! space, which `unix_socket_directories` would misread), the socket lives in a private
//! `/tmp/croupier-pg-XXXXXX` instead, recorded in `croupier.conf` and made again if a
//! reboot emptied `/tmp`.
//!
//! # Root
//! PostgreSQL refuses to run as root. When croupier is root the programs run as the owner
//! of an existing cluster if that isn't root, and otherwise as the [`SERVER_USER`]
//! (`postgres`) system user, to whom the cluster's files are given; that user must be
//! able to reach the data dir ([`ClusterError::Unreachable`] otherwise). As an ordinary
//! user they run as that user.
//!
//! # A server that dies
//! [`Cluster::is_alive`] tells whether the postmaster still runs and [`Cluster::restart`]
//! starts it again (with crash recovery); `croupier up` checks every second and restarts it
//! with back-off.
//!
//! # A server left running
//! A server still running on the cluster when `start` is called was left by a croupier
//! that died without stopping it (a live one would hold the lock, giving
//! [`ClusterError::InUse`]): it is stopped (`pg_ctl stop -m fast`) and started again, so
//! that it runs with the programs and settings of this start.

mod account;
mod binaries;
mod error;
mod layout;
mod server;

use std::fs::File;
use std::path::{Path, PathBuf};

use nix::fcntl::Flock;

use account::ServerUser;
pub use account::SERVER_USER;
pub use binaries::find_server_binaries;
pub use error::ClusterError;
use layout::{Layout, Settings};
use server::{lock, output_text};

/// The cluster's superuser role, given to `initdb -U`; the user in [`Cluster::database_url`].
pub const SUPERUSER: &str = "croupier";

/// What [`Cluster::start`] needs.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// Croupier's data dir; the cluster lives in `<data_dir>/postgres`. Created if missing.
    pub data_dir: PathBuf,
    /// The database to create if missing and to name in the URL (default `croupier`).
    pub database: String,
    /// The directory of `initdb`, `pg_ctl` and `postgres`; found by
    /// [`find_server_binaries`] when `None` (the default), preferring the version of an
    /// existing cluster when several are installed.
    pub bin_dir: Option<PathBuf>,
}

impl ClusterOptions {
    /// Options for a cluster under `data_dir`, with database `croupier`.
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            data_dir: data_dir.into(),
            database: "croupier".into(),
            bin_dir: None,
        }
    }
}

/// A running private PostgreSQL server. Stop it with [`Cluster::stop`]; if it is dropped
/// instead (say, by a panic), the server is stopped best-effort, blocking.
#[derive(Debug)]
pub struct Cluster {
    layout: Layout,
    settings: Settings,
    database: String,
    bin_dir: PathBuf,
    user: ServerUser,
    running: bool,
    _lock: Flock<File>,
}

impl Cluster {
    /// Creates the cluster if needed, starts it, waits until it accepts connections and
    /// creates the database if it doesn't exist.
    pub async fn start(opts: ClusterOptions) -> Result<Cluster, ClusterError> {
        let data_dir = std::path::absolute(&opts.data_dir)
            .and_then(|d| std::fs::create_dir_all(&d).and_then(|()| std::fs::canonicalize(d)))
            .map_err(|e| {
                ClusterError::io(
                    format!("creating the data dir {}", opts.data_dir.display()),
                    e,
                )
            })?;
        let layout = Layout::new(&data_dir);
        let lock = lock(&layout)?;
        let user = ServerUser::choose(&layout.cluster_dir)?;
        user.check_reachable(&data_dir)?;

        let existing = std::fs::read_to_string(layout.cluster_dir.join("PG_VERSION")).ok();
        let existing = existing.as_deref().map(str::trim);
        let (bin_dir, version) = match opts.bin_dir {
            Some(dir) => {
                let version = binaries::major_version(&dir).await?;
                (dir, version)
            }
            None => binaries::find_for_version(existing).await?,
        };
        let mut cluster = Cluster {
            layout,
            settings: Settings {
                port: 0,
                socket_dir: PathBuf::new(),
            },
            database: opts.database,
            bin_dir,
            user,
            running: false,
            _lock: lock,
        };
        match existing {
            Some(cluster_version) => {
                cluster.user.check_owns(&cluster.layout.cluster_dir)?;
                if cluster_version != version {
                    return Err(ClusterError::VersionMismatch {
                        dir: cluster.layout.cluster_dir.clone(),
                        cluster: cluster_version.into(),
                        binaries: version,
                        bin_dir: cluster.bin_dir.clone(),
                    });
                }
            }
            None => cluster.init().await?,
        }
        cluster.settings = Settings::settle(&cluster.layout, &cluster.user)?;
        cluster.settings.write(&cluster.layout, &cluster.user)?;
        cluster.launch().await?;
        cluster.create_database().await?;
        Ok(cluster)
    }

    /// A URL for the database, usable by sqlx 0.8 and libpq (`psql`), e.g.
    /// `postgresql://croupier@localhost:5433/croupier?host=/srv/croupier/postgres-socket&sslmode=disable`
    /// (the `host` parameter names the socket directory, so `localhost` is not used; the
    /// port names the socket; `sslmode` keeps a `PGSSLMODE` in the environment out of it).
    pub fn database_url(&self) -> String {
        format!(
            "postgresql://{SUPERUSER}@localhost:{}/{}?host={}&sslmode=disable",
            self.settings.port,
            layout::url_encode(&self.database),
            layout::url_encode(&self.settings.socket_dir.to_string_lossy()),
        )
    }

    /// The directory holding the server's unix socket.
    pub fn socket_dir(&self) -> &Path {
        &self.settings.socket_dir
    }

    /// The port number in the socket's name (`.s.PGSQL.<port>`); no TCP port is open.
    pub fn port(&self) -> u16 {
        self.settings.port
    }

    /// The cluster directory, `<data_dir>/postgres`.
    pub fn cluster_dir(&self) -> &Path {
        &self.layout.cluster_dir
    }

    /// The server's log file, `<data_dir>/postgres.log`.
    pub fn log_file(&self) -> &Path {
        &self.layout.log
    }

    /// The postmaster's process id, from `postmaster.pid`, if that file exists.
    pub fn postmaster_pid(&self) -> Option<i32> {
        let text = std::fs::read_to_string(self.layout.cluster_dir.join("postmaster.pid")).ok()?;
        text.lines().next()?.trim().parse().ok()
    }

    /// Whether the server is still there: `postmaster.pid` names a live process. Cheap (no
    /// program is run), for a supervisor to call every second.
    pub fn is_alive(&self) -> bool {
        let Some(pid) = self.postmaster_pid().filter(|pid| *pid > 0) else {
            return false;
        };
        match nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) {
            Ok(()) | Err(nix::errno::Errno::EPERM) => true,
            Err(_) => false,
        }
    }

    /// Starts the server again after it died (killed, crashed): PostgreSQL recovers from its
    /// write-ahead log as it starts, so every committed transaction is kept. A server still
    /// running is stopped first. Fails while the dead server's last backends are still
    /// exiting (their shared memory is in use): call it again a moment later.
    pub async fn restart(&mut self) -> Result<(), ClusterError> {
        self.running = false;
        self.launch().await
    }

    /// Stops the server (`pg_ctl stop -m fast`: sessions are disconnected, data is
    /// flushed) and waits until it has exited.
    pub async fn stop(mut self) -> Result<(), ClusterError> {
        self.running = false;
        let out = self.pg_ctl(&["stop", "-w", "-m", "fast"]).await?;
        if out.status.success() || !self.server_running().await? {
            return Ok(());
        }
        Err(ClusterError::StopFailed {
            dir: self.layout.cluster_dir.clone(),
            output: output_text(&out),
        })
    }
}

impl Drop for Cluster {
    /// Stops a server that [`Cluster::stop`] didn't, so a panic doesn't leave it running.
    /// Blocks: `pg_ctl stop -m fast` for up to 20 s (a clean stop spares the next start a
    /// crash recovery, which fsyncs the whole cluster and takes seconds), then
    /// `-m immediate` if that failed.
    fn drop(&mut self) {
        if !self.running {
            return;
        }
        tracing::warn!(dir = %self.layout.cluster_dir.display(), "PostgreSQL not stopped; stopping it now");
        for mode in ["fast", "immediate"] {
            let mut cmd = self
                .user
                .command(&self.bin_dir.join("pg_ctl"), &self.layout.data_dir);
            cmd.args(["stop", "-w", "-t", "20", "-m", mode, "-D"])
                .arg(&self.layout.cluster_dir);
            match cmd.output() {
                Ok(out) if out.status.success() => return,
                Ok(out) => {
                    tracing::warn!(mode, output = %output_text(&out).trim(), "pg_ctl stop failed");
                }
                Err(e) => tracing::error!(error = %e, "could not run pg_ctl to stop PostgreSQL"),
            }
        }
    }
}

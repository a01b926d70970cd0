//! Running the server programs: `initdb`, `pg_ctl start/stop/status`, and creating the
//! database once the server accepts connections.

use std::ffi::OsStr;
use std::fs::File;
use std::process::Output;

use nix::fcntl::{Flock, FlockArg};
use sqlx::postgres::{PgConnectOptions, PgSslMode};
use sqlx::{ConnectOptions, Connection};

use crate::error::tail;
use crate::layout::Layout;
use crate::{Cluster, ClusterError, SUPERUSER};

impl Cluster {
    /// Runs `initdb` on a missing or empty cluster directory.
    pub(crate) async fn init(&self) -> Result<(), ClusterError> {
        let dir = &self.layout.cluster_dir;
        tracing::info!(dir = %dir.display(), "creating a PostgreSQL cluster");
        std::fs::create_dir_all(dir)
            .map_err(|e| ClusterError::io(format!("creating {}", dir.display()), e))?;
        self.user.chown(dir)?;
        let args = [
            "-D".as_ref(),
            dir.as_os_str(),
            "-U".as_ref(),
            SUPERUSER.as_ref(),
            "--auth-local=trust".as_ref(),
            "--auth-host=reject".as_ref(),
            "--encoding=UTF8".as_ref(),
            "--no-locale".as_ref(),
        ];
        let out = self.run("initdb", &args).await?;
        if out.status.success() {
            return Ok(());
        }
        Err(ClusterError::InitdbFailed {
            dir: dir.clone(),
            status: out.status.to_string(),
            output: tail(&output_text(&out), 20),
        })
    }

    /// Starts the server (stopping one left running first) and waits until it is ready.
    pub(crate) async fn launch(&mut self) -> Result<(), ClusterError> {
        if self.server_running().await? {
            tracing::warn!(dir = %self.layout.cluster_dir.display(), "stopping a PostgreSQL server left running");
            self.pg_ctl(&["stop", "-w", "-m", "fast"]).await?;
        }
        let log = &self.layout.log;
        let logged_before = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .and_then(|f| f.metadata())
            .map_err(|e| ClusterError::io(format!("creating {}", log.display()), e))?
            .len();
        self.user.chown(log)?;
        let args = ["start", "-w", "-t", "120", "-l"].map(OsStr::new);
        let out = self
            .pg_ctl(&[&args[..], &[log.as_os_str()]].concat())
            .await?;
        self.running = out.status.success();
        if self.running {
            tracing::info!(socket = %self.settings.socket_dir.display(), port = self.settings.port, "PostgreSQL started");
            return Ok(());
        }
        // Only what this start logged.
        let log_bytes = std::fs::read(log).unwrap_or_default();
        let from = usize::try_from(logged_before).unwrap_or(0);
        let log_text = String::from_utf8_lossy(log_bytes.get(from..).unwrap_or_default());
        let output = format!("{}\n{}", tail(&log_text, 20), tail(&output_text(&out), 5));
        Err(ClusterError::StartFailed {
            log: log.clone(),
            output: output.trim().into(),
        })
    }

    /// Creates the database unless it exists, connected to `postgres` as the superuser.
    pub(crate) async fn create_database(&self) -> Result<(), ClusterError> {
        let failed = |source| ClusterError::Database {
            database: self.database.clone(),
            source,
        };
        let opts = PgConnectOptions::new()
            .socket(&self.settings.socket_dir)
            .port(self.settings.port)
            .username(SUPERUSER)
            .database("postgres")
            .ssl_mode(PgSslMode::Disable)
            .application_name("croupier-pgcluster")
            .disable_statement_logging();
        let mut conn = opts.connect().await.map_err(failed)?;
        let exists: bool =
            sqlx::query_scalar("select exists(select 1 from pg_database where datname = $1)")
                .bind(&self.database)
                .fetch_one(&mut conn)
                .await
                .map_err(failed)?;
        if !exists {
            tracing::info!(database = %self.database, "creating the database");
            let sql = format!("create database \"{}\"", self.database.replace('"', "\"\""));
            sqlx::raw_sql(&sql)
                .execute(&mut conn)
                .await
                .map_err(failed)?;
        }
        conn.close().await.map_err(failed)
    }

    /// Whether a server runs on the cluster (`pg_ctl status` exits 0).
    pub(crate) async fn server_running(&self) -> Result<bool, ClusterError> {
        Ok(self.pg_ctl(&["status"]).await?.status.success())
    }

    /// Runs `pg_ctl <args> -D <cluster dir>`.
    pub(crate) async fn pg_ctl<S: AsRef<OsStr>>(&self, args: &[S]) -> Result<Output, ClusterError> {
        let mut all: Vec<&OsStr> = args.iter().map(AsRef::as_ref).collect();
        all.extend(["-D".as_ref(), self.layout.cluster_dir.as_os_str()]);
        self.run("pg_ctl", &all).await
    }

    /// Runs one of the server programs as the server's user, collecting its output.
    pub(crate) async fn run(&self, program: &str, args: &[&OsStr]) -> Result<Output, ClusterError> {
        let path = self.bin_dir.join(program);
        let mut cmd = self.user.command(&path, &self.layout.data_dir);
        cmd.args(args);
        tracing::debug!(?cmd, "running");
        tokio::process::Command::from(cmd)
            .output()
            .await
            .map_err(|e| ClusterError::io(format!("running {}", path.display()), e))
    }
}

/// Takes the cluster's lock, held for the [`Cluster`]'s life.
pub(crate) fn lock(layout: &Layout) -> Result<Flock<File>, ClusterError> {
    // Read-only will do for a lock file made by another user (say, root): the checks
    // after it then say what is wrong.
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&layout.lock)
        .or_else(|_| File::open(&layout.lock))
        .map_err(|e| ClusterError::io(format!("opening {}", layout.lock.display()), e))?;
    Flock::lock(file, FlockArg::LockExclusiveNonblock).map_err(|(_, errno)| match errno {
        nix::errno::Errno::EWOULDBLOCK => ClusterError::InUse {
            dir: layout.cluster_dir.clone(),
        },
        e => ClusterError::io(format!("locking {}", layout.lock.display()), e.into()),
    })
}

/// A program's stdout and stderr together.
pub(crate) fn output_text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

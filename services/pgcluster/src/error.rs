//! [`ClusterError`]: everything that can go wrong while setting up, starting or stopping
//! the private cluster. The messages are shown to users verbatim, so each one says what
//! happened, where, and what to do about it.

use std::path::PathBuf;

/// Why the private PostgreSQL cluster could not be set up, started or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// No directory holding `initdb`, `pg_ctl` and `postgres` was found.
    #[error(
        "PostgreSQL server programs (initdb, pg_ctl, postgres) not found; looked in: {}. \
         Install them (Debian/Ubuntu: `apt-get install postgresql`), or set DATABASE_URL \
         to use an existing PostgreSQL server",
        list(searched)
    )]
    BinariesNotFound {
        /// Every directory that was looked in.
        searched: Vec<PathBuf>,
    },

    /// Running as root and the account to run PostgreSQL as does not exist.
    #[error(
        "croupier runs as root, and PostgreSQL refuses to run as root, but there is no `{user}` \
         user to run it as. Create it (Debian/Ubuntu: `apt-get install postgresql` does, or \
         `useradd --system --home-dir /var/lib/postgresql {user}`), run croupier as an ordinary \
         user, or set DATABASE_URL"
    )]
    NoServerUser {
        /// The missing user's name.
        user: String,
    },

    /// The user PostgreSQL runs as cannot enter a directory on the way to the data dir.
    #[error(
        "PostgreSQL runs as user `{user}`, who cannot enter {dir} (on the way to the data dir \
         {data_dir}). Run `chmod o+x {dir}`, choose a --data-dir that user can reach, or set \
         DATABASE_URL to use an existing PostgreSQL server",
        dir = dir.display(),
        data_dir = data_dir.display()
    )]
    Unreachable {
        /// The first directory that cannot be searched.
        dir: PathBuf,
        /// Croupier's data dir.
        data_dir: PathBuf,
        /// The user PostgreSQL runs as.
        user: String,
    },

    /// The existing cluster belongs to another user than the one the server would run as.
    #[error(
        "the PostgreSQL cluster in {dir} belongs to user `{owner}`, but croupier would run \
         PostgreSQL as `{user}`. Run croupier as `{owner}`, choose another --data-dir, or set \
         DATABASE_URL",
        dir = dir.display()
    )]
    WrongOwner {
        /// The cluster directory.
        dir: PathBuf,
        /// Its owner (name, or uid when it has none).
        owner: String,
        /// The user the server would run as.
        user: String,
    },

    /// The cluster was created by another major version than the binaries found.
    #[error(
        "the PostgreSQL cluster in {dir} was created by PostgreSQL {cluster}, but the server \
         programs found are version {binaries} (in {bin_dir}). Install PostgreSQL {cluster} \
         (Debian/Ubuntu: `apt-get install postgresql-{cluster}`), upgrade the cluster with \
         pg_upgrade, or move {dir} away to start afresh (its data is then lost to croupier)",
        dir = dir.display(),
        bin_dir = bin_dir.display()
    )]
    VersionMismatch {
        /// The cluster directory.
        dir: PathBuf,
        /// The cluster's major version (its `PG_VERSION`).
        cluster: String,
        /// The major version of the binaries found.
        binaries: String,
        /// Where those binaries are.
        bin_dir: PathBuf,
    },

    /// Another process (another croupier) holds the cluster's lock.
    #[error(
        "the PostgreSQL cluster in {dir} is in use by another croupier process; stop it first, \
         or choose another --data-dir",
        dir = dir.display()
    )]
    InUse {
        /// The cluster directory.
        dir: PathBuf,
    },

    /// `initdb` failed.
    #[error("creating the PostgreSQL cluster in {dir} failed (initdb {status}):\n{output}", dir = dir.display())]
    InitdbFailed {
        /// The cluster directory.
        dir: PathBuf,
        /// initdb's exit status.
        status: String,
        /// The last lines of initdb's output.
        output: String,
    },

    /// `pg_ctl start` failed.
    #[error("starting PostgreSQL failed; the end of its log {log}:\n{output}", log = log.display())]
    StartFailed {
        /// The server log.
        log: PathBuf,
        /// The last lines of the server log and of pg_ctl's output.
        output: String,
    },

    /// `pg_ctl stop` failed.
    #[error("stopping PostgreSQL in {dir} failed:\n{output}", dir = dir.display())]
    StopFailed {
        /// The cluster directory.
        dir: PathBuf,
        /// pg_ctl's output.
        output: String,
    },

    /// The server started but creating or checking the database failed.
    #[error("PostgreSQL started, but setting up database `{database}` failed: {source}")]
    Database {
        /// The database name.
        database: String,
        /// What sqlx reported.
        source: sqlx::Error,
    },

    /// Any other I/O error, with what was being done.
    #[error("{context}: {source}")]
    Io {
        /// What was being done, naming the file or program.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl ClusterError {
    /// An [`ClusterError::Io`] saying what was being done.
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Self::Io {
            context: context.into(),
            source,
        }
    }
}

fn list(dirs: &[PathBuf]) -> String {
    let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    if names.is_empty() {
        "nowhere (PATH is empty and /usr/lib/postgresql has no versions)".into()
    } else {
        names.join(", ")
    }
}

/// The last `lines` lines of `text`, for error messages.
pub(crate) fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.trim_end().lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

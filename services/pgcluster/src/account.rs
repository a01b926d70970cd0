//! Which system user the PostgreSQL programs run as, and what that user must be able to do.
//!
//! `initdb`, `pg_ctl` and `postgres` refuse to run as root. When croupier runs as an
//! ordinary user they run as that user. When it runs as root they run as the owner of an
//! existing cluster directory if that is not root (so a cluster made by an ordinary user
//! keeps working), and otherwise as the `postgres` system user that Debian's packages
//! create; the cluster's files are then chowned to that user.

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use nix::unistd::{Gid, Uid, User};

use crate::ClusterError;

/// The account PostgreSQL runs as when croupier runs as root.
pub const SERVER_USER: &str = "postgres";

/// Environment variables that would make the PostgreSQL programs look elsewhere.
const PG_ENV: [&str; 8] = [
    "PGDATA",
    "PGHOST",
    "PGHOSTADDR",
    "PGPORT",
    "PGUSER",
    "PGDATABASE",
    "PGOPTIONS",
    "PGSERVICE",
];

/// The user the PostgreSQL programs run as.
#[derive(Debug, Clone)]
pub(crate) struct ServerUser {
    name: String,
    uid: Uid,
    gid: Gid,
    home: PathBuf,
    /// Whether commands must switch to this user (croupier runs as root).
    switch: bool,
}

impl ServerUser {
    /// Chooses the user for the cluster in `cluster_dir` (see the module docs).
    pub(crate) fn choose(cluster_dir: &Path) -> Result<Self, ClusterError> {
        let euid = Uid::effective();
        if !euid.is_root() {
            let user = User::from_uid(euid).ok().flatten();
            return Ok(Self {
                name: user
                    .as_ref()
                    .map_or_else(|| euid.to_string(), |u| u.name.clone()),
                uid: euid,
                gid: Gid::effective(),
                home: user.map(|u| u.dir).unwrap_or_default(),
                switch: false,
            });
        }
        let owner = std::fs::metadata(cluster_dir)
            .ok()
            .map(|m| Uid::from_raw(m.uid()));
        let user = match owner.filter(|o| !o.is_root()) {
            Some(uid) => User::from_uid(uid).ok().flatten(),
            None => User::from_name(SERVER_USER).ok().flatten(),
        };
        let user = user.ok_or_else(|| ClusterError::NoServerUser {
            user: SERVER_USER.into(),
        })?;
        Ok(Self {
            name: user.name,
            uid: user.uid,
            gid: user.gid,
            home: user.dir,
            switch: true,
        })
    }

    /// The user's name, for messages.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Checks that this user can search every directory from `/` down to `data_dir`
    /// (which must exist), judging by the permission bits with the user's primary group
    /// (the programs run without supplementary groups; ACLs are not consulted).
    pub(crate) fn check_reachable(&self, data_dir: &Path) -> Result<(), ClusterError> {
        if !self.switch {
            return Ok(());
        }
        let data_dir = std::fs::canonicalize(data_dir)
            .map_err(|e| ClusterError::io(format!("resolving {}", data_dir.display()), e))?;
        let mut ancestors: Vec<&Path> = data_dir.ancestors().collect();
        ancestors.reverse();
        for dir in ancestors {
            let meta = std::fs::metadata(dir)
                .map_err(|e| ClusterError::io(format!("inspecting {}", dir.display()), e))?;
            let mode = meta.mode();
            let bit = if meta.uid() == self.uid.as_raw() {
                0o100
            } else if meta.gid() == self.gid.as_raw() {
                0o010
            } else {
                0o001
            };
            if mode & bit == 0 {
                return Err(ClusterError::Unreachable {
                    dir: dir.to_path_buf(),
                    data_dir: data_dir.clone(),
                    user: self.name.clone(),
                });
            }
        }
        Ok(())
    }

    /// Checks that an existing cluster directory belongs to this user.
    pub(crate) fn check_owns(&self, cluster_dir: &Path) -> Result<(), ClusterError> {
        let meta = std::fs::metadata(cluster_dir)
            .map_err(|e| ClusterError::io(format!("inspecting {}", cluster_dir.display()), e))?;
        if meta.uid() == self.uid.as_raw() {
            return Ok(());
        }
        let owner = User::from_uid(Uid::from_raw(meta.uid())).ok().flatten();
        Err(ClusterError::WrongOwner {
            dir: cluster_dir.to_path_buf(),
            owner: owner.map_or_else(|| meta.uid().to_string(), |u| u.name),
            user: self.name.clone(),
        })
    }

    /// Whether `path` belongs to this user.
    pub(crate) fn owns(&self, meta: &std::fs::Metadata) -> bool {
        meta.uid() == self.uid.as_raw()
    }

    /// Gives `path` to this user (a no-op unless croupier runs as root).
    pub(crate) fn chown(&self, path: &Path) -> Result<(), ClusterError> {
        if !self.switch {
            return Ok(());
        }
        nix::unistd::chown(path, Some(self.uid), Some(self.gid)).map_err(|e| {
            ClusterError::io(
                format!("giving {} to user {}", path.display(), self.name),
                e.into(),
            )
        })
    }

    /// A command running `program` as this user, in directory `cwd`, with no stdin and
    /// without the `PG*` variables that would redirect it.
    pub(crate) fn command(&self, program: &Path, cwd: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(cwd).stdin(Stdio::null());
        for var in PG_ENV {
            cmd.env_remove(var);
        }
        if self.switch {
            // std also drops root's supplementary groups (setgroups) before switching.
            cmd.uid(self.uid.as_raw())
                .gid(self.gid.as_raw())
                .env("HOME", &self.home)
                .env("USER", &self.name)
                .env("LOGNAME", &self.name);
        }
        cmd
    }
}

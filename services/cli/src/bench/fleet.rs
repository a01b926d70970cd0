//! `croupier bench hosted --processes`: the worker loops as separate `croupier work` processes
//! (one loop each), as a deployment runs them on one machine, instead of loops in this process.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result};
use tokio::process::{Child, Command};

use crate::isolation::SandboxTuning;

/// What each `croupier work` child is told: the scratch database and this bench's sandbox.
pub struct FleetSpec<'a> {
    pub database_url: &'a str,
    pub blob_store: &'a str,
    pub sandbox: &'a str,
    pub tuning: &'a SandboxTuning,
}

/// The running `croupier work` processes.
pub struct Fleet {
    children: Vec<Child>,
}

impl Fleet {
    /// Starts `n` processes of this binary's `work` with one loop each; their output is
    /// discarded (a failing child shows as a queue that does not drain).
    pub fn start(n: usize, spec: &FleetSpec<'_>) -> Result<Fleet> {
        let exe: PathBuf = std::env::current_exe().context("cannot find this program")?;
        let mut children = Vec::with_capacity(n);
        for _ in 0..n {
            let mut cmd = Command::new(&exe);
            cmd.arg("work")
                .args(["--workers", "1", "--sandbox", spec.sandbox])
                .args(["--sandbox-first-uid", &spec.tuning.sandbox_first_uid])
                .args(["--sandbox-slots", &spec.tuning.sandbox_slots])
                .arg("--sandbox-state-dir")
                .arg(&spec.tuning.sandbox_state_dir)
                .env("DATABASE_URL", spec.database_url)
                .env("CROUPIER_BLOB_STORE", spec.blob_store)
                .env("RUST_LOG", "warn")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .kill_on_drop(true);
            if let Some(init) = &spec.tuning.sandbox_init {
                cmd.arg("--sandbox-init").arg(init);
            }
            children.push(cmd.spawn().context("cannot start `croupier work`")?);
        }
        Ok(Fleet { children })
    }

    /// Asks every process to stop (SIGTERM: it finishes its job) and waits up to 30 s for each;
    /// one that is still running then is killed.
    pub async fn stop(mut self) {
        for child in &self.children {
            if let Some(pid) = child.id().and_then(|p| i32::try_from(p).ok()) {
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGTERM,
                );
            }
        }
        for child in &mut self.children {
            if tokio::time::timeout(Duration::from_secs(30), child.wait())
                .await
                .is_err()
            {
                let _ = child.kill().await;
            }
        }
    }
}

/// `url` with its database replaced by `name` (`postgres://u@h:5432/x?sslmode=…` keeps its
/// user, host and parameters).
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let authority_from = base.find("://").map_or(0, |i| i + 3);
    let root = match base[authority_from..].find('/') {
        Some(slash) => &base[..authority_from + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{root}/{name}?{q}"),
        None => format!("{root}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn the_database_of_a_url_is_replaced_and_the_rest_kept() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/postgres", "b"),
            "postgres://postgres@127.0.0.1:5432/b"
        );
        assert_eq!(
            with_database("postgres://u:p@h/db?sslmode=disable", "b"),
            "postgres://u:p@h/b?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "b"), "postgres://h/b");
        assert_eq!(
            with_database("postgresql:///x?host=/run/postgresql", "b"),
            "postgresql:///b?host=/run/postgresql"
        );
    }
}

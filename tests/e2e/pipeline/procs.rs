//! Running `croupier db`, `serve`, `up` and `work` as separate processes, as an operator would.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::binary::process::croupier;

/// A temporary directory the sandbox and the private PostgreSQL can reach (mode 0755).
pub fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .expect("chmod");
    dir
}

/// One running `croupier` program; stopped (SIGTERM, then SIGKILL) when dropped.
pub struct Proc {
    child: Child,
    /// The stdout line that told us it was ready, if we waited for one.
    pub ready_line: String,
    /// Every stdout line before it.
    pub banner: Vec<String>,
    log: PathBuf,
}

impl Proc {
    /// `croupier up` on a private PostgreSQL under `dir`, on a free port, with 2 worker loops;
    /// returns once it serves.
    pub async fn up(dir: &Path) -> Proc {
        Proc::up_with(dir, "2", &[]).await
    }

    /// [`Proc::up`] with `workers` worker loops and `extra` arguments (`--lease-secs 4`, …);
    /// the data directory is `dir/data`, the log `dir/up.log`.
    pub async fn up_with(dir: &Path, workers: &str, extra: &[&str]) -> Proc {
        let data = dir.join("data");
        let mut args = vec![
            "up",
            "--data-dir",
            data.to_str().expect("utf-8"),
            "--bind",
            "127.0.0.1:0",
            "--workers",
            workers,
        ];
        args.extend_from_slice(extra);
        let log = dir.join("up.log");
        Proc::start(&args, &[], &log, Some("Croupier is running at ")).await
    }

    /// Starts `croupier <args>`, logging stderr to `log`; when `ready_prefix` is given, waits
    /// (at most 120 s) for a stdout line starting with it.
    pub async fn start(
        args: &[&str],
        env: &[(&str, &str)],
        log: &Path,
        ready_prefix: Option<&str>,
    ) -> Proc {
        Proc::spawn(Command::from(croupier()), args, env, log, ready_prefix).await
    }

    /// [`Proc::start`] for another program (`nsenter … croupier work`, say).
    pub async fn start_program(
        program: &str,
        args: &[&str],
        env: &[(&str, &str)],
        log: &Path,
        ready_prefix: Option<&str>,
    ) -> Proc {
        Proc::spawn(Command::new(program), args, env, log, ready_prefix).await
    }

    async fn spawn(
        mut command: Command,
        args: &[&str],
        env: &[(&str, &str)],
        log: &Path,
        ready_prefix: Option<&str>,
    ) -> Proc {
        let log_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .expect("log");
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log_file);
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("spawn croupier");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut proc = Proc {
            child,
            ready_line: String::new(),
            banner: Vec::new(),
            log: log.to_owned(),
        };
        if let Some(prefix) = ready_prefix {
            let banner = &mut proc.banner;
            let found = tokio::time::timeout(Duration::from_secs(120), async {
                while let Ok(Some(line)) = lines.next_line().await {
                    if line.starts_with(prefix) {
                        return Some(line);
                    }
                    banner.push(line);
                }
                None
            })
            .await;
            match found {
                Ok(Some(line)) => proc.ready_line = line,
                _ => panic!(
                    "croupier {args:?} did not print {prefix:?}:\n{}",
                    proc.log_text()
                ),
            }
        }
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        proc
    }

    /// The first-start administrator password `croupier up` printed.
    pub fn admin_password(&self) -> String {
        self.banner
            .iter()
            .find_map(|l| l.split("password: ").nth(1))
            .map(|p| p.trim().to_owned())
            .expect("croupier up printed the administrator's password")
    }

    /// The base URL from a `Croupier is running at http://…` line.
    pub fn url(&self) -> String {
        self.ready_line
            .split_whitespace()
            .nth(4)
            .expect("url")
            .to_owned()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The process id (0 once it has exited).
    pub fn pid(&self) -> u32 {
        self.child.id().unwrap_or(0)
    }

    pub fn signal(&self, signal: Signal) {
        if let Some(pid) = self.child.id() {
            let _ = kill(Pid::from_raw(i32::try_from(pid).expect("pid")), signal);
        }
    }

    /// SIGTERM and wait for the exit (at most 60 s).
    pub async fn stop(mut self) {
        self.signal(Signal::SIGTERM);
        let _ = tokio::time::timeout(Duration::from_secs(60), self.child.wait()).await;
    }

    /// SIGKILL, as when a machine dies: no clean-up of any kind.
    pub async fn kill_hard(mut self) {
        self.signal(Signal::SIGKILL);
        let _ = self.child.wait().await;
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(None)) {
            return;
        }
        self.signal(Signal::SIGTERM);
        for _ in 0..300 {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.signal(Signal::SIGKILL);
    }
}

/// Polls `check` every 250 ms until it returns `Some`, or panics after `limit` with `what`.
pub async fn eventually<T, F, Fut>(limit: Duration, what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out after {limit:?} waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

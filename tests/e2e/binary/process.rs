//! Starting and stopping the `croupier` binary built by `cargo build -p croupier-cli`.

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// `target/<profile>/croupier`, next to the `deps` folder this test binary lives in.
pub fn croupier_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>");
    let bin = profile_dir.join("croupier");
    assert!(
        bin.is_file(),
        "{} is missing: run `cargo build -p croupier-cli` first",
        bin.display()
    );
    bin
}

/// The variables the binary reads, removed so the developer's environment cannot leak in.
const SETTINGS: [&str; 19] = [
    "DATABASE_URL",
    "CROUPIER_BIND",
    "CROUPIER_DATA_DIR",
    "CROUPIER_MAX_UPLOAD_MIB",
    "CROUPIER_SECURE_COOKIES",
    "CROUPIER_TRUST_PROXY",
    "CROUPIER_METRICS_BIND",
    "CROUPIER_METRICS_TOKEN",
    "CROUPIER_STATIC_DIR",
    "CROUPIER_DOWNLOADS_DIR",
    "CROUPIER_WORKERS",
    "CROUPIER_SANDBOX",
    "CROUPIER_SCRATCH_DIR",
    "CROUPIER_SHUTDOWN_GRACE",
    "CROUPIER_LEASE_SECS",
    "CROUPIER_SANDBOX_INIT",
    "CROUPIER_SANDBOX_FIRST_UID",
    "CROUPIER_SANDBOX_SLOTS",
    "CROUPIER_SANDBOX_STATE_DIR",
];

/// A `croupier` command with none of its settings in the environment.
pub fn croupier() -> std::process::Command {
    let mut command = std::process::Command::new(croupier_bin());
    for var in SETTINGS {
        command.env_remove(var);
    }
    command
}

/// A running `croupier up`.
pub struct Running {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// What it printed on stdout before it was ready.
    pub banner: Vec<String>,
    log: PathBuf,
}

impl Running {
    /// Starts `croupier up` on `data_dir` (a private PostgreSQL: no `DATABASE_URL`) on a free
    /// port, logging to `log`, and waits (at most 120 s) until it says it is running.
    pub async fn up(data_dir: &Path, log: &Path) -> Running {
        let log_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .expect("log file");
        let mut command = Command::from(croupier());
        command
            .arg("up")
            .arg("--data-dir")
            .arg(data_dir)
            .arg("--bind")
            .arg("127.0.0.1:0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log_file);
        let mut child = command.spawn().expect("spawn croupier up");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut banner = Vec::new();
        let ready = tokio::time::timeout(Duration::from_secs(120), async {
            while let Some(line) = lines.next_line().await.expect("read stdout") {
                let url = line
                    .strip_prefix("Croupier is running at ")
                    .and_then(|rest| rest.split_whitespace().next())
                    .map(str::to_owned);
                banner.push(line);
                if url.is_some() {
                    return url;
                }
            }
            None
        })
        .await;
        let mut running = Running {
            child,
            url: String::new(),
            banner,
            log: log.to_owned(),
        };
        match ready {
            Ok(Some(url)) => running.url = url,
            Ok(None) => panic!(
                "croupier up exited before it was ready:\n{}",
                running.diagnostics()
            ),
            Err(_) => panic!(
                "croupier up was not ready within 120 s:\n{}",
                running.diagnostics()
            ),
        }
        // Keep draining stdout so the program never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        running
    }

    /// The first-start administrator password from the banner, if one was printed.
    pub fn admin_password(&self) -> Option<String> {
        self.banner
            .iter()
            .find_map(|l| l.split("password: ").nth(1))
            .map(|p| p.trim().to_owned())
    }

    /// Sends SIGTERM and waits (at most 60 s) for the exit.
    pub async fn stop(mut self) -> ExitStatus {
        self.signal(Signal::SIGTERM);
        match tokio::time::timeout(Duration::from_secs(60), self.child.wait()).await {
            Ok(status) => status.expect("wait"),
            Err(_) => panic!(
                "croupier did not stop within 60 s of SIGTERM:\n{}",
                self.diagnostics()
            ),
        }
    }

    fn signal(&self, signal: Signal) {
        if let Some(pid) = self.child.id() {
            let _ = kill(Pid::from_raw(i32::try_from(pid).expect("pid")), signal);
        }
    }

    /// The banner and the log, for failure messages.
    pub fn diagnostics(&self) -> String {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        format!(
            "--- stdout ---\n{}\n--- log ---\n{log}",
            self.banner.join("\n")
        )
    }
}

impl Drop for Running {
    /// A failed test still stops the program (and so its PostgreSQL): SIGTERM, then SIGKILL.
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(None)) {
            return;
        }
        self.signal(Signal::SIGTERM);
        for _ in 0..600 {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.signal(Signal::SIGKILL);
    }
}

//! Configuration and the description of one run.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{CgroupLayout, Limits, MatchNet, SeatDir};

/// Isolation level. There is no silent fallback: `None` must be chosen explicitly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// bubblewrap + slot uid + cgroups + rlimits (production).
    Isolated,
    /// Plain child processes, for local development only; warns on every spawn.
    None,
}

/// Sandbox configuration, one per worker process.
#[derive(Debug, Clone)]
pub struct Config {
    pub mode: Mode,
    /// First slot uid (= gid); slots are `first_uid .. first_uid + slots`.
    pub first_uid: u32,
    pub slots: u32,
    /// Slot lock files (`slots/`, mode 0700), the seat dirs' mount points (`seats/<uid>`) and the
    /// sandboxes' `/etc` (`etc/`) live here.
    pub state_dir: PathBuf,
    pub bwrap: PathBuf,
    /// The `croupier-sandbox-init` binary; must be readable and executable by the slot uids.
    pub init: PathBuf,
    /// `None`: detect from `/proc/self/mounts`.
    pub cgroups: Option<CgroupLayout>,
    /// How long `spawn` waits for a free slot before it is a setup error.
    pub slot_patience: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            mode: Mode::Isolated,
            first_uid: 60001,
            slots: 64,
            state_dir: PathBuf::from("/run/croupier"),
            bwrap: PathBuf::from("/usr/bin/bwrap"),
            init: default_init_path(),
            cgroups: None,
            slot_patience: Duration::from_secs(30),
        }
    }
}

/// `croupier-sandbox-init` next to the running executable (or one directory up, for test binaries
/// that live in `target/*/deps`).
pub fn default_init_path() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let dir = exe.parent().unwrap_or(Path::new("/"));
    let here = dir.join("croupier-sandbox-init");
    match dir.parent() {
        Some(up) if !here.exists() => up.join("croupier-sandbox-init"),
        _ => here,
    }
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Path inside the sandbox (`/bot/bot`, `/usr/bin/python3`) or a name looked up in the sandbox PATH.
    pub program: String,
    pub args: Vec<String>,
    /// Host directory mounted read-only at `/bot` (unless [`Spec::seat_dir`] is mounted there); it
    /// and its ancestors must be readable by others.
    pub bot_dir: PathBuf,
    /// The seat's private writable directory ([`crate::Sandbox::seat_dir`]): its copy of the bot
    /// read-write at [`SeatDir::inside`], its `/tmp` and `/dev/shm`; the process runs as the
    /// seat's slot uid. `None`: nothing but a private `/tmp` and `/dev/shm` is writable.
    pub seat_dir: Option<SeatDir>,
    /// Extra platform files (a runtime), mounted **read-only** at `/work` (unless the seat dir is
    /// mounted there); readable by others like `bot_dir`.
    pub work_dir: Option<PathBuf>,
    /// Working directory inside the sandbox.
    pub cwd: String,
    pub env: Vec<(String, String)>,
    /// The match's network namespace; `None` means no network at all.
    pub net: Option<Arc<MatchNet>>,
    pub limits: Limits,
}

impl Spec {
    /// `program` in `bot_dir`, cwd `/bot`, default limits, no network.
    pub fn new(program: impl Into<String>, bot_dir: impl Into<PathBuf>) -> Self {
        Self {
            program: program.into(),
            args: Vec::new(),
            bot_dir: bot_dir.into(),
            seat_dir: None,
            work_dir: None,
            cwd: "/bot".into(),
            env: Vec::new(),
            net: None,
            limits: Limits::default(),
        }
    }
}

/// The sandbox could not be started: a platform fault (`setup_error`), never the bot's.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("no free sandbox slot: {0}")]
    NoSlot(io::Error),
    #[error("sandbox cgroup: {0}")]
    Cgroup(io::Error),
    #[error("preparing the seat dir: {0}")]
    SeatDir(io::Error),
    #[error("starting the sandbox: {0}")]
    Spawn(io::Error),
}

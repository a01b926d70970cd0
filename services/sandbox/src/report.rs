//! Limits going in, classified reports coming out.
//!
//! [`classify`] is the single place that turns what was observed about a finished sandbox (who killed
//! it and why, the init's report of the bot's wait status, cgroup counters) into an [`EndState`].

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Resource limits for one sandboxed process tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Server-side wall-clock deadline, measured from the spawn. The authoritative time limit.
    pub wall: Duration,
    /// CPU time backstop (RLIMIT_CPU, whole seconds, rounded up); the tree's CPU time is also compared
    /// with it when classifying a signal death.
    pub cpu: Duration,
    /// Memory cgroup limit for the whole tree (RSS + page cache + the private `/tmp`), no swap.
    pub memory_bytes: u64,
    /// CPU bandwidth of the tree in thousandths of a core (cgroup `cpu.max` / CFS quota over a
    /// 100 ms period): 1000 = one core however many processes or threads it runs; 0 = no quota.
    pub cpu_millicores: u32,
    /// Process/thread cap for the tree (pids cgroup; RLIMIT_NPROC on the slot uid as a backstop).
    pub pids: u32,
    /// RLIMIT_FSIZE: the largest file the bot may write (SIGXFSZ beyond it).
    pub file_size_bytes: u64,
    /// RLIMIT_NOFILE.
    pub open_files: u64,
    /// Size cap of every place the bot can write. With a [`crate::SeatDir`]: the free space of the
    /// seat's tmpfs beyond its copied files, shared by its `/bot`, `/tmp` and `/dev/shm`, for the
    /// seat's whole match. Without one: the size of each of the run's private `/tmp` and
    /// `/dev/shm`. Writing more fails with `ENOSPC`.
    pub disk_bytes: u64,
    /// Cap on collected stdout ([`crate::Sandbox::run`]); more is `output_limit`.
    pub stdout_bytes: usize,
    /// Cap on collected stderr; more is silently truncated.
    pub stderr_bytes: usize,
}

impl Default for Limits {
    /// A per-move default: 5 s wall, 5 s CPU, one core, 256 MiB, 64 pids, 16 MiB files, 64 fds,
    /// 64 MiB of disk.
    fn default() -> Self {
        Self {
            wall: Duration::from_secs(5),
            cpu: Duration::from_secs(5),
            cpu_millicores: 1000,
            memory_bytes: 256 << 20,
            pids: 64,
            file_size_bytes: 16 << 20,
            open_files: 64,
            disk_bytes: 64 << 20,
            stdout_bytes: 1 << 20,
            stderr_bytes: 64 << 10,
        }
    }
}

/// How a sandboxed run ended. `invalid_output` and `illegal_action` are decided by the referee;
/// `setup_error` is a platform fault and never the bot's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndState {
    Ok,
    TimeLimit,
    MemoryLimit,
    Crashed {
        signal: Option<i32>,
        code: Option<i32>,
    },
    OutputLimit,
    InvalidOutput,
    IllegalAction,
    SetupError(String),
}

impl EndState {
    /// The stable name (`ok`, `time_limit`, …, `setup_error`), as stored in `seat_result.end_state`.
    pub fn as_str(&self) -> &'static str {
        match self {
            EndState::Ok => "ok",
            EndState::TimeLimit => "time_limit",
            EndState::MemoryLimit => "memory_limit",
            EndState::Crashed { .. } => "crashed",
            EndState::OutputLimit => "output_limit",
            EndState::InvalidOutput => "invalid_output",
            EndState::IllegalAction => "illegal_action",
            EndState::SetupError(_) => "setup_error",
        }
    }
}

/// As a person reads it: the stable name, with a crash's exit code or signal
/// (`crashed (exit code 1)`, `crashed (signal 9)`) and a setup error's reason.
impl std::fmt::Display for EndState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndState::Crashed {
                code: Some(code), ..
            } => write!(f, "crashed (exit code {code})"),
            EndState::Crashed {
                signal: Some(signal),
                ..
            } => write!(f, "crashed (signal {signal})"),
            EndState::SetupError(reason) => write!(f, "setup_error ({reason})"),
            other => f.write_str(other.as_str()),
        }
    }
}

/// Whether this process runs as root (the isolated sandbox needs it).
pub fn running_as_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// Why the platform killed a sandbox. Passed to [`crate::Process::kill`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KillReason {
    /// The caller's own per-move deadline fired: `time_limit`.
    Deadline,
    /// The caller saw too much output: `output_limit`.
    OutputLimit,
    /// The match is over and the seat is no longer needed: `ok` unless a limit was already exceeded.
    MatchEnded,
    /// Shutdown or cancellation: the run is a `setup_error` (not the bot's fault).
    Cancelled,
}

/// The bot's own exit as reported by the sandbox init (or by the direct child in mode `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ExitInfo {
    /// Exit code, when the bot exited.
    pub code: Option<i32>,
    /// Signal number, when the bot was killed by a signal.
    pub signal: Option<i32>,
}

impl ExitInfo {
    /// Decodes a raw `wait` status.
    pub fn from_wait_status(status: i32) -> Self {
        if status & 0x7f == 0 {
            Self {
                code: Some((status >> 8) & 0xff),
                signal: None,
            }
        } else {
            Self {
                code: None,
                signal: Some(status & 0x7f),
            }
        }
    }
}

/// Everything known about one finished sandbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    pub end_state: EndState,
    pub exit: ExitInfo,
    pub wall: Duration,
    /// CPU time of the whole tree (cgroup accounting; rusage of reaped processes without cgroups).
    pub cpu: Duration,
    pub max_rss_bytes: u64,
    /// Collected stdout (only by [`crate::Sandbox::run`]; empty when the caller read the pipe).
    pub stdout: Vec<u8>,
    /// Collected stderr, capped at [`Limits::stderr_bytes`].
    pub stderr: Vec<u8>,
}

impl RunReport {
    /// A report for a run that never started.
    pub fn setup_error(reason: impl Into<String>) -> Self {
        Self {
            end_state: EndState::SetupError(reason.into()),
            exit: ExitInfo::default(),
            wall: Duration::ZERO,
            cpu: Duration::ZERO,
            max_rss_bytes: 0,
            stdout: Vec::new(),
            stderr: Vec::new(),
        }
    }
}

/// What the supervisor observed; input of [`classify`].
#[derive(Debug, Clone, Default)]
pub(crate) struct Observed {
    /// The sandbox reached the bot's `exec` (the init said `started`).
    pub started: bool,
    /// The bot's exit, if the init reported it.
    pub exit: Option<ExitInfo>,
    /// Why the platform killed the tree, if it did.
    pub killed: Option<KillReason>,
    /// The wall deadline fired.
    pub wall_expired: bool,
    /// The memory cgroup's OOM-kill counter went up.
    pub oom_killed: bool,
    /// stdout went over its cap.
    pub output_exceeded: bool,
    pub cpu: Duration,
    /// From the spawn to the bot's exit (or the kill).
    pub wall: Duration,
    /// Setup failure message (bwrap's stderr or our own).
    pub setup_failure: Option<String>,
}

const SIGKILL: i32 = 9;
const SIGXCPU: i32 = 24;
const SIGXFSZ: i32 = 25;

/// Turns observations into an end state. Order: setup error, wall deadline, output cap, memory,
/// CPU, file size, the referee's match-end kill, exit status.
pub(crate) fn classify(o: &Observed, limits: &Limits) -> EndState {
    if let Some(reason) = &o.setup_failure {
        return EndState::SetupError(reason.clone());
    }
    if o.killed == Some(KillReason::Cancelled) {
        return EndState::SetupError("cancelled by the platform".into());
    }
    if o.wall_expired || o.killed == Some(KillReason::Deadline) {
        return EndState::TimeLimit;
    }
    if o.output_exceeded || o.killed == Some(KillReason::OutputLimit) {
        return EndState::OutputLimit;
    }
    if !o.started && o.killed.is_none() {
        return EndState::SetupError("the sandbox exited before starting the bot".into());
    }
    if o.oom_killed {
        return EndState::MemoryLimit;
    }
    let exit = o.exit.unwrap_or_default();
    match exit.signal {
        Some(SIGXCPU) => return EndState::TimeLimit,
        Some(SIGKILL) if o.cpu >= limits.cpu => return EndState::TimeLimit,
        Some(SIGXFSZ) => return EndState::OutputLimit,
        _ => {}
    }
    if o.killed == Some(KillReason::MatchEnded) {
        return EndState::Ok;
    }
    match (exit.code, exit.signal) {
        (Some(0), None) => EndState::Ok,
        (code, signal) => EndState::Crashed { signal, code },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_states_serialize_in_snake_case() {
        let s = serde_json::to_string(&EndState::MemoryLimit).unwrap();
        assert_eq!(s, "\"memory_limit\"");
        let c = EndState::Crashed {
            signal: None,
            code: Some(3),
        };
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            r#"{"crashed":{"signal":null,"code":3}}"#
        );
    }

    #[test]
    fn a_seat_killed_at_match_end_is_ok_unless_it_ran_out_of_memory() {
        let limits = Limits::default();
        let mut o = Observed {
            started: true,
            killed: Some(KillReason::MatchEnded),
            ..Default::default()
        };
        o.exit = Some(ExitInfo {
            code: None,
            signal: Some(9),
        });
        assert_eq!(classify(&o, &limits), EndState::Ok);
        o.oom_killed = true;
        assert_eq!(classify(&o, &limits), EndState::MemoryLimit);
    }

    #[test]
    fn wait_statuses_decode_codes_and_signals() {
        assert_eq!(ExitInfo::from_wait_status(3 << 8).code, Some(3));
        assert_eq!(ExitInfo::from_wait_status(25).signal, Some(25));
    }
}

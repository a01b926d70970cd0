//! [`WorkerConfig`]: the worker's identity, queue timings, scratch space and job limits.

use std::path::PathBuf;
use std::time::Duration;

use croupier_referee::MatchLimits;
use croupier_sandbox::Limits;

/// How many tables with a person a worker runs at once unless told otherwise.
pub const DEFAULT_TABLES: usize = 8;

/// Everything a [`Worker`](crate::Worker) needs besides the pool and the sandbox.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Written into `job.worker_id` (host name + pid is a good choice).
    pub id: String,
    /// How long a claim is valid without a heartbeat.
    pub lease: Duration,
    pub heartbeat_every: Duration,
    /// Poll fallback when no notification arrives.
    pub poll_every: Duration,
    pub reap_every: Duration,
    /// How often the running ladders are topped up with matches (`ladder::tick`).
    pub ladder_every: Duration,
    /// On shutdown, how long the current job may still run before it is abandoned.
    pub shutdown_grace: Duration,
    /// Build directories and the artifact cache live here. It and its ancestors must be
    /// traversable by others (the sandbox's slot uids read the bots from it).
    pub scratch_dir: PathBuf,
    /// Sandbox limits of a build (wall 60 s, 1 GiB, 128 pids).
    pub build: Limits,
    /// Cap on the compile log kept for the team.
    pub log_bytes: usize,
    /// Cap on a build's artifact (the packed build directory).
    pub artifact_bytes: u64,
    /// Limits of the validation game (short: 2 s per move).
    pub validation: MatchLimits,
    /// Tables with a person that this worker runs at once, beside its bot matches (0: none).
    /// A person's table waits on the person most of the time, so it never takes the loop that
    /// plays bots' matches; see [`Worker::run_tables`](crate::Worker::run_tables).
    pub tables: usize,
    /// Limits of competition matches. The time per move is replaced by the game's own
    /// ([`croupier_referee::default_move_time`]) or the competition's `move_time_ms`.
    pub matches: MatchLimits,
}

impl WorkerConfig {
    /// The defaults: 60 s lease, 15 s heartbeat, 5 s poll, 30 s reaper, 30 s shutdown grace,
    /// [`DEFAULT_TABLES`] tables.
    pub fn new(id: impl Into<String>, scratch_dir: impl Into<PathBuf>) -> Self {
        let validation = MatchLimits {
            move_time: Duration::from_secs(2),
            join_time: Duration::from_secs(10),
            seat: Limits {
                wall: Duration::from_secs(120),
                cpu: Duration::from_secs(60),
                memory_bytes: 512 << 20,
                ..Limits::default()
            },
            ..MatchLimits::default()
        };
        WorkerConfig {
            id: id.into(),
            lease: Duration::from_secs(60),
            heartbeat_every: Duration::from_secs(15),
            poll_every: Duration::from_secs(5),
            reap_every: Duration::from_secs(30),
            ladder_every: Duration::from_secs(2),
            shutdown_grace: Duration::from_secs(30),
            scratch_dir: scratch_dir.into(),
            build: Limits {
                wall: Duration::from_secs(60),
                cpu: Duration::from_secs(60),
                cpu_millicores: 1000,
                memory_bytes: 1 << 30,
                pids: 128,
                file_size_bytes: 64 << 20,
                open_files: 256,
                disk_bytes: 256 << 20,
                stdout_bytes: 64 << 10,
                stderr_bytes: 64 << 10,
            },
            log_bytes: 64 << 10,
            artifact_bytes: 128 << 20,
            validation,
            tables: DEFAULT_TABLES,
            matches: MatchLimits::default(),
        }
    }
}

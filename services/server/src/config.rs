//! The web server's settings. The binary fills them from flags and environment variables;
//! tests build them directly.

use crate::auth::rate_limit::{LoginLimits, DEFAULT_LIMITS};

/// How many password hashes (Argon2, ~19 MiB each) run at once, and how many more may wait;
/// beyond that a login or sign-up is answered 503 with `Retry-After`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashingLimits {
    pub running: usize,
    pub queued: usize,
}

impl Default for HashingLimits {
    /// One per core running, sixteen per core waiting.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self {
            running: cores,
            queued: 16 * cores,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest accepted upload (the file or archive as sent), in bytes.
    pub max_upload_bytes: u64,
    /// Archive limits: files, unpacked bytes, path length.
    pub bundle_limits: croupier_bundle::Limits,
    /// Mark the session cookie `Secure` and send `Strict-Transport-Security` (set when served
    /// over HTTPS).
    pub secure_cookies: bool,
    /// Take the client address from `X-Forwarded-For` (only behind a trusted proxy).
    pub trust_proxy_headers: bool,
    /// Sessions end after this many days without a request.
    pub session_idle_days: i64,
    pub login_limits: LoginLimits,
    pub hashing: HashingLimits,
    /// The bearer token that opens `/metrics` on the web app's own address; `None`: the web
    /// app has no `/metrics` (serve it on a separate operator address instead, see
    /// [`crate::ops::metrics_app`]).
    pub metrics_token: Option<String>,
    /// Replay retention ([`croupier_store::retention`]): expire the replays and seat logs of
    /// matches older than this many days, once an hour. `None`: keep them.
    pub replay_retention_days: Option<u32>,
    /// A request's headers must arrive within this time, and its body may not stall longer
    /// between two chunks; a slower client is disconnected, so slow connections cannot hold
    /// the server's file descriptors.
    pub slow_client_timeout: std::time::Duration,
    /// Where `scripts/build-runner` put the runner for bot authors (the static `croupier`
    /// binary, the wheel and their `.sha256` files), served under `/download`
    /// ([`crate::pages`]' runner page). `None`: the page says how to build them.
    pub downloads_dir: Option<std::path::PathBuf>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        let bundle_limits = croupier_bundle::Limits::default();
        Self {
            max_upload_bytes: bundle_limits.max_upload_bytes,
            bundle_limits,
            secure_cookies: false,
            trust_proxy_headers: false,
            session_idle_days: 14,
            login_limits: DEFAULT_LIMITS,
            hashing: HashingLimits::default(),
            metrics_token: None,
            replay_retention_days: None,
            slow_client_timeout: std::time::Duration::from_secs(15),
            downloads_dir: None,
        }
    }
}

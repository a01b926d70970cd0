//! The web server's settings. The binary fills them from flags and environment variables;
//! tests build them directly.

use crate::auth::rate_limit::LoginLimits;

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest accepted upload (the file or archive as sent), in bytes.
    pub max_upload_bytes: u64,
    /// Archive limits: files, unpacked bytes, path length.
    pub bundle_limits: croupier_bundle::Limits,
    /// Mark the session cookie `Secure` (set when served over HTTPS).
    pub secure_cookies: bool,
    /// Take the client address from `X-Forwarded-For` (only behind a trusted proxy).
    pub trust_proxy_headers: bool,
    /// Sessions end after this many days without a request.
    pub session_idle_days: i64,
    pub login_limits: LoginLimits,
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
            login_limits: LoginLimits::default(),
        }
    }
}

//! Login rate limit: failed attempts are counted in PostgreSQL per username and per client
//! address over a sliding window, so the limit holds across restarts and server processes.

use croupier_store::{logins, PgPool};

use crate::error::Error;

/// Limits for [`check`].
#[derive(Debug, Clone, Copy)]
pub struct LoginLimits {
    pub window_secs: u32,
    pub per_username: i64,
    pub per_ip: i64,
}

impl Default for LoginLimits {
    fn default() -> Self {
        Self {
            window_secs: 15 * 60,
            per_username: 10,
            per_ip: 50,
        }
    }
}

/// Refuses with 429 when this username or address has failed too often recently.
pub async fn check(
    pool: &PgPool,
    limits: &LoginLimits,
    username: &str,
    ip: &str,
) -> Result<(), Error> {
    let (by_name, by_ip) =
        logins::recent_failures(pool, username, ip, f64::from(limits.window_secs)).await?;
    if by_name >= limits.per_username || by_ip >= limits.per_ip {
        return Err(Error::TooManyRequests(format!(
            "too many failed logins; wait {} minutes and try again",
            limits.window_secs / 60
        )));
    }
    Ok(())
}

//! Login rate limit: attempts are recorded in PostgreSQL **before** the password is checked
//! and counted per username and per client address over a sliding window
//! ([`croupier_store::logins::admit`]), so the limit holds across restarts and server
//! processes, and a burst of concurrent guesses cannot slip past it.

use croupier_store::logins::{self, Admission};
use croupier_store::PgPool;

pub use croupier_store::logins::Limits as LoginLimits;

use crate::error::Error;

/// The default limits: 10 failures per username and 50 per address in 15 minutes.
pub const DEFAULT_LIMITS: LoginLimits = LoginLimits {
    window_secs: 15 * 60,
    per_username: 10,
    per_ip: 50,
};

/// Records the attempt and returns its id, or refuses with 429 (nothing recorded) when this
/// username or address has failed too often recently.
pub async fn admit(
    pool: &PgPool,
    limits: &LoginLimits,
    username: &str,
    ip: &str,
) -> Result<i64, Error> {
    match logins::admit(pool, username, ip, limits).await? {
        Admission::Admitted(id) => Ok(id),
        Admission::Refused => {
            metrics::counter!("logins_refused_total").increment(1);
            let minutes = limits.window_secs.div_ceil(60);
            Err(Error::TooManyRequests {
                message: crate::i18n::t_with("login-too-many", &[("minutes", &minutes)]),
                retry_after_secs: u64::from(limits.window_secs),
            })
        }
    }
}

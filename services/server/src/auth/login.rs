//! Checking a username and password: the login form and `POST /api/v1/tokens` both go through
//! [`authenticate`], so both are rate limited, constant-time for unknown names, and recorded.

use croupier_store::{logins, users};
use uuid::Uuid;

use super::{password, rate_limit};
use crate::error::Error;
use crate::AppState;

/// The user whose password this is. [`Error::TooManyRequests`] when this name or address failed
/// too often recently, [`Error::Busy`] when too many passwords are being checked already,
/// [`Error::WrongCredentials`] for a wrong name or password. The attempt is recorded (as a
/// failure until it succeeds) before the password is checked.
pub async fn authenticate(
    state: &AppState,
    username: &str,
    password: String,
    ip: &str,
) -> Result<Uuid, Error> {
    let attempt = rate_limit::admit(&state.pool, &state.config.login_limits, username, ip).await?;
    let checked = async {
        let gate = &state.hashing;
        Ok::<_, Error>(match users::credentials(&state.pool, username).await? {
            Some(c) => password::verify(gate, password, c.password_hash)
                .await?
                .then_some(c.user_id),
            None => {
                password::dummy_verify(gate, password).await?;
                None
            }
        })
    };
    let user_id = match checked.await {
        Ok(user_id) => user_id,
        Err(e) => {
            // Not checked (too busy, or an internal error): not the user's failure.
            if let Err(forget) = logins::forget(&state.pool, attempt).await {
                tracing::warn!(error = %forget, "could not forget an unchecked login attempt");
            }
            return Err(e);
        }
    };
    metrics::counter!("logins_checked_total", "result" => if user_id.is_some() { "ok" } else { "wrong" })
        .increment(1);
    logins::settle(&state.pool, attempt, user_id.is_some()).await?;
    user_id.ok_or_else(|| {
        tracing::info!(%ip, "failed login");
        Error::WrongCredentials
    })
}

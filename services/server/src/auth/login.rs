//! Checking a username and password: the login form and `POST /api/v1/tokens` both go through
//! [`authenticate`], so both are rate limited, constant-time for unknown names, and recorded.

use croupier_store::{logins, users};
use uuid::Uuid;

use super::{password, rate_limit};
use crate::error::Error;
use crate::AppState;

/// The user whose password this is. [`Error::TooManyRequests`] when this name or address failed
/// too often recently, [`Error::WrongCredentials`] for a wrong name or password (recorded).
pub async fn authenticate(
    state: &AppState,
    username: &str,
    password: String,
    ip: &str,
) -> Result<Uuid, Error> {
    rate_limit::check(&state.pool, &state.config.login_limits, username, ip).await?;
    let user_id = match users::credentials(&state.pool, username).await? {
        Some(c) => password::verify(password, c.password_hash)
            .await?
            .then_some(c.user_id),
        None => {
            password::dummy_verify(password).await;
            None
        }
    };
    logins::record(&state.pool, username, ip, user_id.is_some()).await?;
    user_id.ok_or_else(|| {
        tracing::info!(%ip, "failed login");
        Error::WrongCredentials
    })
}

//! Who is asking: passwords, browser sessions, CSRF tokens, API tokens and login rate limits.

pub mod csrf;
pub mod extract;
pub mod login;
pub mod password;
pub mod rate_limit;
pub mod session_store;
pub mod sessions;
pub mod token;

pub use extract::{AdminUser, ApiUser, ClientIp, CurrentUser, MaybeApiUser, MaybeUser};

/// Session keys.
pub(crate) const USER_KEY: &str = "user_id";
/// The user's session epoch when this session signed in (`auth::sessions`).
pub(crate) const EPOCH_KEY: &str = "epoch";
pub(crate) const CSRF_KEY: &str = "csrf";
pub(crate) const FLASH_KEY: &str = "flash";

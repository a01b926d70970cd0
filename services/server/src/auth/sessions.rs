//! Signing a browser in, and ending a person's other ways in when their password changes.
//!
//! A session holds its user's id and the user's *session epoch* at sign-in. Changing the
//! password (here or through the API), a reset link, or "sign out everywhere else" moves the
//! epoch on ([`users::set_password`], [`users::end_sessions`]): [`super::MaybeUser`] signs out
//! any session of an older epoch, even one that a request still in flight saves again. The
//! rows are deleted too, so the account page lists only what still works.

use croupier_store::users::User;
use croupier_store::{sessions, tokens, users, PgPool};
use tower_sessions::Session;
use uuid::Uuid;

use super::{EPOCH_KEY, USER_KEY};
use crate::error::Result;

/// Signs `user` in on this browser, with a new session id (defeating session fixation).
pub async fn sign_in(session: &Session, user: &User) -> Result<()> {
    session.cycle_id().await?;
    session.insert(USER_KEY, user.user_id).await?;
    session.insert(EPOCH_KEY, user.session_epoch).await?;
    Ok(())
}

/// Whether this session began in the user's current epoch (sessions from before epochs
/// existed count as epoch 0).
pub async fn is_current(session: &Session, user: &User) -> Result<bool> {
    let epoch = session.get::<i32>(EPOCH_KEY).await?.unwrap_or(0);
    Ok(epoch == user.session_epoch)
}

/// What happens to a person's API tokens when their password changes.
#[derive(Debug, Clone, Copy)]
pub enum Tokens {
    /// Every token keeps working (the person asked for it).
    Keep,
    /// Every token is revoked but this one (the token changing the password, if any).
    RevokeBut(Option<Uuid>),
}

impl Tokens {
    /// [`Tokens::Keep`] when the person asked to keep them, else revoke all but `current`.
    pub fn asked(keep: bool, current: Option<Uuid>) -> Self {
        if keep {
            Tokens::Keep
        } else {
            Tokens::RevokeBut(current)
        }
    }
}

/// What [`end_other_access`] ended.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Ended {
    pub sessions: u64,
    pub tokens: u64,
}

/// After the user's epoch moved on: deletes every other session of theirs and revokes their
/// tokens as asked. `keep`, when given, is this browser's session and the new epoch: it stays
/// signed in, in the new epoch, with a new id.
pub async fn end_other_access(
    pool: &PgPool,
    user_id: Uuid,
    keep: Option<(&Session, i32)>,
    api: Tokens,
) -> Result<Ended> {
    let keep_id = keep
        .and_then(|(session, _)| session.id())
        .map(|id| id.to_string());
    let sessions = sessions::delete_for_user(pool, user_id, keep_id.as_deref()).await?;
    if let Some((session, epoch)) = keep {
        session.insert(EPOCH_KEY, epoch).await?;
        session.cycle_id().await?;
    }
    let tokens = match api {
        Tokens::Keep => 0,
        Tokens::RevokeBut(except) => tokens::revoke_all(pool, user_id, except).await?,
    };
    tracing::info!(%user_id, sessions, tokens, "other sessions ended");
    Ok(Ended { sessions, tokens })
}

/// "Sign out everywhere else": a new epoch, every other session ended, tokens kept.
pub async fn end_others(pool: &PgPool, user_id: Uuid, current: &Session) -> Result<Ended> {
    let epoch = users::end_sessions(pool, user_id).await?;
    end_other_access(pool, user_id, Some((current, epoch)), Tokens::Keep).await
}

//! Browser sessions: the rows behind the server's `tower-sessions` store, and what their owner
//! sees of them on the account page (when each began and was last used, from which browser and
//! address) to sign them out one by one.

use sqlx::PgExecutor;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::StoreError;

/// One of a person's live sessions as the account page lists it. `handle` names it there; the
/// session id (the cookie's secret) is never read out.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SessionInfo {
    pub handle: Uuid,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub last_seen_at: OffsetDateTime,
    pub user_agent: Option<String>,
    pub address: Option<String>,
    /// The session asking.
    pub current: bool,
}

/// Inserts a new session; `false` when the id already exists (the caller picks another).
pub async fn insert(
    db: impl PgExecutor<'_>,
    id: &str,
    user_id: Option<Uuid>,
    data: &[u8],
    expiry: OffsetDateTime,
) -> Result<bool, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"
        insert into session (session_id, user_id, data, expiry_date) values ($1, $2, $3, $4)
        on conflict do nothing
        "#,
        id,
        user_id,
        data,
        expiry
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Saves a loaded session's data (and whose it is), keeping when it began and was last seen.
/// A session deleted meanwhile (signed out from the account page, or by a password change)
/// stays deleted: saving never brings a row back.
pub async fn update(
    db: impl PgExecutor<'_>,
    id: &str,
    user_id: Option<Uuid>,
    data: &[u8],
    expiry: OffsetDateTime,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"update session set user_id = $2, data = $3, expiry_date = $4 where session_id = $1"#,
        id,
        user_id,
        data,
        expiry
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Notes that the session was used now, from this browser and address. Writes at most once a
/// minute per session (and at once when the browser or address changes), so a busy page costs
/// no write per request.
pub async fn touch(
    db: impl PgExecutor<'_>,
    id: &str,
    user_agent: Option<&str>,
    address: &str,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"
        update session set last_seen_at = now(), user_agent = $2, address = $3
        where session_id = $1
          and (last_seen_at < now() - interval '1 minute'
               or user_agent is distinct from $2 or address is distinct from $3)
        "#,
        id,
        user_agent,
        address
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The session's data, unless it is missing or expired.
pub async fn load(db: impl PgExecutor<'_>, id: &str) -> Result<Option<Vec<u8>>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"select data from session where session_id = $1 and expiry_date > now()"#,
        id
    )
    .fetch_optional(db)
    .await?)
}

/// The person's live sessions, the one asking (`current`, by its id) first, then the most
/// recently used.
pub async fn list_for_user(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    current: Option<&str>,
) -> Result<Vec<SessionInfo>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        SessionInfo,
        r#"
        select handle, created_at, last_seen_at, user_agent, address,
               session_id is not distinct from $2 as "current!"
        from session
        where user_id = $1 and expiry_date > now()
        order by session_id is not distinct from $2 desc, last_seen_at desc
        "#,
        user_id,
        current
    )
    .fetch_all(db)
    .await?)
}

pub async fn delete(db: impl PgExecutor<'_>, id: &str) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(r#"delete from session where session_id = $1"#, id)
        .execute(db)
        .await?;
    Ok(())
}

/// Ends one of the person's sessions, named by its handle; someone else's (or a gone one) is
/// [`StoreError::NotFound`].
pub async fn delete_by_handle(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    handle: Uuid,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"delete from session where user_id = $1 and handle = $2"#,
        user_id,
        handle
    )
    .execute(db)
    .await?;
    if done.rows_affected() == 0 {
        return Err(StoreError::NotFound);
    }
    Ok(())
}

/// Ends every session of the person but `keep` (by id); returns how many ended.
pub async fn delete_for_user(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    keep: Option<&str>,
) -> Result<u64, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"delete from session where user_id = $1 and session_id is distinct from $2"#,
        user_id,
        keep
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// Removes expired sessions; returns how many.
pub async fn delete_expired(db: impl PgExecutor<'_>) -> Result<u64, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(r#"delete from session where expiry_date <= now()"#)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

//! Browser sessions: the rows behind the server's `tower-sessions` store.

use sqlx::PgExecutor;
use time::OffsetDateTime;

use crate::StoreError;

/// Inserts a new session; `false` when the id already exists (the caller picks another).
pub async fn insert(
    db: impl PgExecutor<'_>,
    id: &str,
    data: &[u8],
    expiry: OffsetDateTime,
) -> Result<bool, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"insert into session (session_id, data, expiry_date) values ($1, $2, $3) on conflict do nothing"#,
        id,
        data,
        expiry
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn upsert(
    db: impl PgExecutor<'_>,
    id: &str,
    data: &[u8],
    expiry: OffsetDateTime,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"
        insert into session (session_id, data, expiry_date) values ($1, $2, $3)
        on conflict (session_id) do update set data = excluded.data, expiry_date = excluded.expiry_date
        "#,
        id,
        data,
        expiry
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

pub async fn delete(db: impl PgExecutor<'_>, id: &str) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(r#"delete from session where session_id = $1"#, id)
        .execute(db)
        .await?;
    Ok(())
}

/// Removes expired sessions; returns how many.
pub async fn delete_expired(db: impl PgExecutor<'_>) -> Result<u64, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(r#"delete from session where expiry_date <= now()"#)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

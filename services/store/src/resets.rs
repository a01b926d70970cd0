//! Password reset links made by an admin: one live link per person, used once, expiring.

use sqlx::{PgExecutor, PgPool};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::StoreError;

/// A new link for `user_id` (its secret's hash), valid for `valid`; earlier unused links of the
/// person stop working. Returns when it expires.
pub async fn create(
    pool: &PgPool,
    user_id: Uuid,
    created_by: Uuid,
    token_hash: &[u8],
    valid: Duration,
) -> Result<OffsetDateTime, StoreError> {
    let mut tx = pool.begin().await?;
    // language=PostgreSQL
    sqlx::query!(
        r#"update password_reset set used_at = now() where user_id = $1 and used_at is null"#,
        user_id
    )
    .execute(&mut *tx)
    .await?;
    let expires_at = OffsetDateTime::now_utc() + valid;
    // language=PostgreSQL
    sqlx::query!(
        r#"
        insert into password_reset (user_id, token_hash, created_by, expires_at)
        values ($1, $2, $3, $4)
        "#,
        user_id,
        token_hash,
        created_by,
        expires_at
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(expires_at)
}

/// The person a live link (unused, unexpired) is for: `(user_id, username)`.
pub async fn holder(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
) -> Result<Option<(Uuid, String)>, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        select u.user_id, u.username
        from password_reset r join app_user u using (user_id)
        where r.token_hash = $1 and r.used_at is null and r.expires_at > now()
        "#,
        token_hash
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| (r.user_id, r.username)))
}

/// Uses a live link: sets the person's password hash (ending their sessions, as
/// [`crate::users::set_password`] does) and marks the link used, in one
/// statement (a link used twice at once sets it once). [`StoreError::NotFound`] when the link is
/// not live.
pub async fn redeem(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
    password_hash: &str,
) -> Result<Uuid, StoreError> {
    // language=PostgreSQL
    sqlx::query_scalar!(
        r#"
        with used as (
            update password_reset set used_at = now()
            where token_hash = $1 and used_at is null and expires_at > now()
            returning user_id
        )
        update app_user u set password_hash = $2, session_epoch = u.session_epoch + 1
        from used where u.user_id = used.user_id
        returning u.user_id
        "#,
        token_hash,
        password_hash
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

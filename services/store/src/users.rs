//! Accounts.

use sqlx::PgExecutor;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::{ResultExt, StoreError};

/// A user as the application sees it (the password hash stays in [`Credentials`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct User {
    pub user_id: Uuid,
    pub username: String,
    pub email: Option<String>,
    pub is_admin: bool,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Which sessions are still good: a session begun in an earlier epoch is signed out
    /// ([`set_password`] and [`end_sessions`] move it on).
    #[serde(skip)]
    pub session_epoch: i32,
}

/// What a login needs.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub user_id: Uuid,
    pub password_hash: String,
}

/// Creates a user. A taken name (in any case) is a [`StoreError::Conflict`].
pub async fn create(
    db: impl PgExecutor<'_>,
    username: &str,
    email: Option<&str>,
    password_hash: &str,
    is_admin: bool,
) -> Result<User, StoreError> {
    // language=PostgreSQL
    sqlx::query_as!(
        User,
        r#"
        insert into app_user (username, email, password_hash, is_admin)
        values ($1, $2, $3, $4)
        returning user_id, username, email, is_admin, created_at, session_epoch
        "#,
        username,
        email,
        password_hash,
        is_admin
    )
    .fetch_one(db)
    .await
    .on_constraint("app_user_username_key", |_| {
        StoreError::Conflict(format!("the username {username:?} is already taken"))
    })
}

pub async fn get(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<User, StoreError> {
    // language=PostgreSQL
    sqlx::query_as!(
        User,
        r#"select user_id, username, email, is_admin, created_at, session_epoch from app_user where user_id = $1"#,
        user_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

/// Looks up the password hash for a login (case-insensitive name).
pub async fn credentials(
    db: impl PgExecutor<'_>,
    username: &str,
) -> Result<Option<Credentials>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Credentials,
        r#"select user_id, password_hash from app_user where lower(username) = lower($1)"#,
        username
    )
    .fetch_optional(db)
    .await?)
}

pub async fn list(db: impl PgExecutor<'_>) -> Result<Vec<User>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        User,
        r#"select user_id, username, email, is_admin, created_at, session_epoch from app_user order by created_at"#
    )
    .fetch_all(db)
    .await?)
}

pub async fn set_admin(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    is_admin: bool,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"update app_user set is_admin = $2 where user_id = $1"#,
        user_id,
        is_admin
    )
    .execute(db)
    .await?;
    if done.rows_affected() == 0 {
        return Err(StoreError::NotFound);
    }
    Ok(())
}

/// Stores a new password hash and moves the person's session epoch on (their sessions end);
/// returns the new epoch.
pub async fn set_password(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    password_hash: &str,
) -> Result<i32, StoreError> {
    // language=PostgreSQL
    sqlx::query_scalar!(
        r#"
        update app_user set password_hash = $2, session_epoch = session_epoch + 1
        where user_id = $1 returning session_epoch
        "#,
        user_id,
        password_hash
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

/// Moves the person's session epoch on, so every session begun before ends; returns the new
/// epoch.
pub async fn end_sessions(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<i32, StoreError> {
    // language=PostgreSQL
    sqlx::query_scalar!(
        r#"update app_user set session_epoch = session_epoch + 1 where user_id = $1 returning session_epoch"#,
        user_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

/// How many administrators exist (0 on a fresh install: `croupier up` then creates one).
pub async fn count_admins(db: impl PgExecutor<'_>) -> Result<i64, StoreError> {
    // language=PostgreSQL
    Ok(
        sqlx::query_scalar!(r#"select count(*) as "n!" from app_user where is_admin"#)
            .fetch_one(db)
            .await?,
    )
}

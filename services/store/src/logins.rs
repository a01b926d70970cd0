//! Login attempts, kept for rate limiting across every server process.
//!
//! An attempt is **recorded before its password is checked** ([`admit`]), as a pending
//! failure until [`settle`] says how it went, and the count that decides whether it may go
//! ahead is taken in the same transaction, under per-username and per-address advisory locks.
//! So concurrent attempts for one account are admitted one at a time against an up-to-date
//! count (pending ones included), and no more than the limit are ever checked, however many
//! arrive at once. An address's count has only checked failures: a burst of right logins from
//! one address is not taken for failures (it may exceed the address's limit by the attempts in
//! flight, which the password hashing queue bounds).

use sqlx::{PgExecutor, PgPool};

use crate::StoreError;

/// The limits [`admit`] enforces: failed attempts within `window_secs`, per username
/// (case-insensitive) and per client address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub window_secs: u32,
    pub per_username: i64,
    pub per_ip: i64,
}

/// What [`admit`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// The attempt was recorded (as failed, until [`succeeded`] marks it); check the password.
    Admitted(i64),
    /// Too many recent failures for this username or address: nothing was recorded.
    Refused,
}

/// Advisory lock classes (the two-key form, apart from any single-key lock).
const LOCK_USERNAME: i32 = 0x6c6f_6731; // "log1"
const LOCK_ADDRESS: i32 = 0x6c6f_6732; // "log2"

/// Counts this username's and this address's recent failures and, when both are under the
/// limits, records the attempt as failed; one transaction, serialized per username and per
/// address (the username's lock is always taken first, so two attempts never deadlock).
pub async fn admit(
    pool: &PgPool,
    username: &str,
    client_ip: &str,
    limits: &Limits,
) -> Result<Admission, StoreError> {
    let mut tx = pool.begin().await?;
    // language=PostgreSQL
    sqlx::query("select pg_advisory_xact_lock($1, hashtext(lower($2))), pg_advisory_xact_lock($3, hashtext($4))")
        .bind(LOCK_USERNAME)
        .bind(username)
        .bind(LOCK_ADDRESS)
        .bind(client_ip)
        .execute(&mut *tx)
        .await?;
    let (by_name, by_ip) =
        recent_failures(&mut *tx, username, client_ip, f64::from(limits.window_secs)).await?;
    if by_name >= limits.per_username || by_ip >= limits.per_ip {
        tx.rollback().await?;
        return Ok(Admission::Refused);
    }
    // language=PostgreSQL
    let id = sqlx::query_scalar!(
        r#"insert into login_attempt (username, client_ip, succeeded, pending) values ($1, $2, false, true) returning login_attempt_id"#,
        username,
        client_ip
    )
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Admission::Admitted(id))
}

/// Settles an admitted attempt once its password was checked: a success no longer counts as
/// a failure; a failure now counts against the address too.
pub async fn settle(
    db: impl PgExecutor<'_>,
    attempt_id: i64,
    succeeded: bool,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"update login_attempt set succeeded = $2, pending = false where login_attempt_id = $1"#,
        attempt_id,
        succeeded
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Forgets an admitted attempt whose password was never checked (the server was too busy,
/// or failed), so that it does not count against the user.
pub async fn forget(db: impl PgExecutor<'_>, attempt_id: i64) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"delete from login_attempt where login_attempt_id = $1"#,
        attempt_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Failed attempts in the last `window_secs` seconds, for this username (with the ones still
/// being checked) and for this client address (checked ones only).
pub async fn recent_failures(
    db: impl PgExecutor<'_>,
    username: &str,
    client_ip: &str,
    window_secs: f64,
) -> Result<(i64, i64), StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        select
          count(*) filter (where lower(username) = lower($1)) as "by_name!",
          count(*) filter (where client_ip = $2 and not pending) as "by_ip!"
        from login_attempt
        where not succeeded
          and created_at > now() - make_interval(secs => $3)
          and (lower(username) = lower($1) or client_ip = $2)
        "#,
        username,
        client_ip,
        window_secs
    )
    .fetch_one(db)
    .await?;
    Ok((row.by_name, row.by_ip))
}

/// Drops attempts older than a day.
pub async fn prune(db: impl PgExecutor<'_>) -> Result<u64, StoreError> {
    // language=PostgreSQL
    let done =
        sqlx::query!(r#"delete from login_attempt where created_at < now() - interval '1 day'"#)
            .execute(db)
            .await?;
    Ok(done.rows_affected())
}

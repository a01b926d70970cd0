//! Login attempts, kept for rate limiting across every server process.

use sqlx::PgExecutor;

use crate::StoreError;

pub async fn record(
    db: impl PgExecutor<'_>,
    username: &str,
    client_ip: &str,
    succeeded: bool,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"insert into login_attempt (username, client_ip, succeeded) values ($1, $2, $3)"#,
        username,
        client_ip,
        succeeded
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Failed attempts in the last `window_secs` seconds, for this username and for this client address.
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
          count(*) filter (where client_ip = $2) as "by_ip!"
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

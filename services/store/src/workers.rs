//! The worker fleet: each worker process's heartbeat, and what the organiser's page shows.

use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::StoreError;

/// Who a worker process is.
#[derive(Debug, Clone)]
pub struct WorkerIdentity {
    pub worker_id: String,
    pub host: String,
    pub pid: i32,
    pub version: String,
}

/// A row of the fleet page.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FleetRow {
    pub worker_id: String,
    pub host: String,
    pub pid: i32,
    pub version: String,
    #[serde(with = "time::serde::rfc3339")]
    pub started_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub heartbeat_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub stopped_at: Option<OffsetDateTime>,
    /// Seconds since the last heartbeat, as the database's clock says.
    pub silent_secs: f64,
    /// The job it holds now, if any: its kind, and its match or submission.
    pub job_kind: Option<String>,
    pub job_match: Option<Uuid>,
    pub job_submission: Option<Uuid>,
}

/// Says the worker is alive (and who it is). Its start is the first heartbeat of the process (a
/// new pid, or after a stop, starts anew).
pub async fn beat(db: impl PgExecutor<'_>, me: &WorkerIdentity) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"
        insert into worker (worker_id, host, pid, version, started_at, heartbeat_at)
        values ($1, $2, $3, $4, now(), now())
        on conflict (worker_id) do update
            set host = excluded.host, pid = excluded.pid, version = excluded.version,
                started_at = case
                    when worker.pid <> excluded.pid or worker.stopped_at is not null then now()
                    else worker.started_at end,
                heartbeat_at = now(), stopped_at = null
        "#,
        me.worker_id,
        me.host,
        me.pid,
        me.version
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Says the worker stopped on purpose (a shutdown, not a crash).
pub async fn stopped(db: impl PgExecutor<'_>, worker_id: &str) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"update worker set stopped_at = now(), heartbeat_at = now() where worker_id = $1"#,
        worker_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Every worker heard of in the last day, the most recently heard first, each with its running
/// job.
pub async fn fleet(pool: &PgPool) -> Result<Vec<FleetRow>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        FleetRow,
        r#"
        select w.worker_id, w.host, w.pid, w.version, w.started_at, w.heartbeat_at, w.stopped_at,
               extract(epoch from now() - w.heartbeat_at)::float8 as "silent_secs!",
               j.kind as "job_kind?", j.match_id as "job_match?",
               j.submission_id as "job_submission?"
        from worker w
        left join lateral (
            select kind, match_id, submission_id from job
            where job.worker_id = w.worker_id and job.status = 'running'
            order by job.updated_at desc limit 1
        ) j on true
        where w.heartbeat_at > now() - interval '1 day'
        order by w.stopped_at is not null, w.heartbeat_at desc, w.worker_id
        "#
    )
    .fetch_all(pool)
    .await?)
}

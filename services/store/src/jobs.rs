//! The work queue: compile jobs and match jobs, pulled by workers.
//!
//! * [`claim`] takes the oldest runnable job with one statement (`for update skip locked`),
//!   sets a lease, bumps `attempt` and commits at once: no transaction is held while a match
//!   runs. [`claim_in`] takes only the jobs of one [`Lane`]: matches with a person at the
//!   table, or everything else.
//! * The worker renews the lease with [`heartbeat`]; every write after the claim is fenced
//!   with `attempt = $n and status = 'running'`, and zero rows affected means "the lease was
//!   lost (the reaper gave the job to someone else): stop and write nothing".
//! * [`reap_expired`] re-queues jobs whose lease ran out (a worker died) and fails them, with
//!   the reason, once they have used three times `max_attempts` (a dead worker is not the
//!   job's fault; a platform fault the worker reports counts against `max_attempts` itself).
//! * Inserting or re-queuing a job fires `pg_notify('croupier_job', kind)` (a trigger), which
//!   wakes idle workers listening on [`CHANNEL`].

use std::time::Duration;

use sqlx::{PgExecutor, PgPool, Postgres, Transaction};
use uuid::Uuid;

use crate::state::{JobKind, JobStatus};
use crate::StoreError;

/// The LISTEN/NOTIFY channel that announces queued jobs.
pub const CHANNEL: &str = "croupier_job";

/// A job a worker holds a lease on.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub job_id: Uuid,
    pub kind: JobKind,
    pub submission_id: Option<Uuid>,
    pub match_id: Option<Uuid>,
    /// The fencing token: every later write must present it.
    pub attempt: i32,
    pub max_attempts: i32,
}

/// What the reaper did with one expired job.
#[derive(Debug, Clone)]
pub struct Reaped {
    pub job_id: Uuid,
    pub kind: JobKind,
    pub attempt: i32,
    pub failed: bool,
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// Claims the next runnable job for `worker_id`, or `None` when the queue is empty.
pub async fn claim(
    pool: &PgPool,
    worker_id: &str,
    lease: Duration,
) -> Result<Option<Claimed>, StoreError> {
    claim_in(pool, worker_id, lease, Lane::Any).await
}

/// Which jobs a claim may take: a person's table waits on the person most of the time, so
/// workers run tables in a lane of their own, beside the loops that play bots' matches and
/// compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Any job.
    Any,
    /// Compile jobs and matches without a person at the table.
    Bots,
    /// Matches with a person at the table.
    Tables,
}

impl Lane {
    const fn as_str(self) -> &'static str {
        match self {
            Lane::Any => "any",
            Lane::Bots => "bots",
            Lane::Tables => "tables",
        }
    }
}

/// [`claim`], taking only the jobs of `lane`.
pub async fn claim_in(
    pool: &PgPool,
    worker_id: &str,
    lease: Duration,
    lane: Lane,
) -> Result<Option<Claimed>, StoreError> {
    let mut tx = pool.begin().await?;
    // language=PostgreSQL
    let claimed = sqlx::query_as!(
        Claimed,
        r#"
        with next as (
            select job_id from job
            where status = 'queued' and run_after <= now()
              and ($3 = 'any' or ($3 = 'tables') = exists (
                    select 1 from match_seat s
                    where s.match_id = job.match_id and s.user_id is not null))
            order by priority desc, run_after, created_at
            for update skip locked
            limit 1
        )
        update job set status = 'running', attempt = job.attempt + 1, worker_id = $1,
                       lease_until = now() + make_interval(secs => $2), heartbeat_at = now()
        from next
        where job.job_id = next.job_id
        returning job.job_id, job.kind as "kind: JobKind", job.submission_id, job.match_id, job.attempt,
                  job.max_attempts
        "#,
        worker_id,
        secs(lease),
        lane.as_str()
    )
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(job) = &claimed {
        mark_started(&mut tx, job).await?;
    }
    tx.commit().await?;
    Ok(claimed)
}

async fn mark_started(tx: &mut Transaction<'_, Postgres>, job: &Claimed) -> Result<(), StoreError> {
    if let Some(match_id) = job.match_id {
        // language=PostgreSQL
        sqlx::query!(
            r#"update match set status = 'running', started_at = coalesce(started_at, now()) where match_id = $1 and status in ('queued', 'running')"#,
            match_id
        )
        .execute(&mut **tx)
        .await?;
    }
    if let Some(submission_id) = job.submission_id {
        // language=PostgreSQL
        sqlx::query!(
            r#"update submission set status = 'compiling' where submission_id = $1 and status in ('pending', 'compiling', 'validating')"#,
            submission_id
        )
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Renews the lease. `false`: the lease is lost; the worker must stop the job and write nothing.
pub async fn heartbeat(
    db: impl PgExecutor<'_>,
    job_id: Uuid,
    attempt: i32,
    lease: Duration,
) -> Result<bool, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"
        update job set heartbeat_at = now(), lease_until = now() + make_interval(secs => $3)
        where job_id = $1 and attempt = $2 and status = 'running'
        "#,
        job_id,
        attempt,
        secs(lease)
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks the job done inside the caller's result transaction. `false`: the lease was lost,
/// so the caller must roll back.
pub async fn complete(
    tx: &mut Transaction<'_, Postgres>,
    job_id: Uuid,
    attempt: i32,
) -> Result<bool, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"
        update job set status = 'done', finished_at = now(), lease_until = null
        where job_id = $1 and attempt = $2 and status = 'running'
        "#,
        job_id,
        attempt
    )
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Whether a platform fault may be retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Another attempt may succeed (the sandbox, the worker, I/O): re-queue while attempts last.
    WhileAttemptsLast,
    /// Running it again cannot help (an invalid match spec, an unknown kind): fail it now.
    Never,
}

/// What [`give_up_attempt`] did with the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GaveUp {
    /// Queued again, after a back-off.
    Requeued,
    /// Failed for good, with its match or submission.
    Failed,
    /// The lease was lost meanwhile: nothing was written.
    LeaseLost,
}

/// A platform fault (not the bot's): re-queue with a back-off when `retry` allows it and
/// attempts are left, else fail for good.
pub async fn give_up_attempt(
    pool: &PgPool,
    job_id: Uuid,
    attempt: i32,
    reason: &str,
    retry: Retry,
) -> Result<GaveUp, StoreError> {
    let retry = match retry {
        Retry::WhileAttemptsLast => true,
        Retry::Never => false,
    };
    let mut tx = pool.begin().await?;
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        update job set
            status = case when attempt >= max_attempts or not $4 then 'failed' else 'queued' end,
            last_error = $3,
            lease_until = null,
            worker_id = null,
            run_after = now() + make_interval(secs => least(60, 2 ^ attempt)),
            finished_at = case when attempt >= max_attempts or not $4 then now() end
        where job_id = $1 and attempt = $2 and status = 'running'
        returning status as "status: JobStatus", match_id, submission_id
        "#,
        job_id,
        attempt,
        reason,
        retry
    )
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else {
        return Ok(GaveUp::LeaseLost);
    };
    let gave_up = match row.status {
        JobStatus::Failed => {
            record_final_failure(&mut tx, row.match_id, row.submission_id, reason).await?;
            GaveUp::Failed
        }
        JobStatus::Queued => GaveUp::Requeued,
        // The update above sets one of the two; anything else is a broken database.
        other @ (JobStatus::Running | JobStatus::Done | JobStatus::Cancelled) => {
            return Err(StoreError::Database(sqlx::Error::Protocol(format!(
                "giving up job {job_id} left it {other}, not failed or queued"
            ))))
        }
    };
    tx.commit().await?;
    Ok(gave_up)
}

async fn record_final_failure(
    tx: &mut Transaction<'_, Postgres>,
    match_id: Option<Uuid>,
    submission_id: Option<Uuid>,
    reason: &str,
) -> Result<(), StoreError> {
    if let Some(match_id) = match_id {
        // language=PostgreSQL
        sqlx::query!(
            r#"update match set status = 'failed', failure_reason = $2, finished_at = now() where match_id = $1 and status <> 'cancelled'"#,
            match_id,
            reason
        )
        .execute(&mut **tx)
        .await?;
    }
    if let Some(submission_id) = submission_id {
        // language=PostgreSQL
        sqlx::query!(
            r#"update submission set status = 'failed', failure_reason = $2 where submission_id = $1"#,
            submission_id,
            format!("platform error, not your bot's fault: {reason}")
        )
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Re-queues running jobs whose lease expired; fails those out of attempts, saying why.
///
/// A worker that dies (SIGKILL, a lost machine, a lost database) is not the job's fault, so
/// lease expiries get three times the job's `max_attempts` before the job is given up: a match
/// whose workers keep dying is still retried, while one that kills every worker it meets is
/// not retried forever.
pub async fn reap_expired(pool: &PgPool) -> Result<Vec<Reaped>, StoreError> {
    let mut tx = pool.begin().await?;
    // language=PostgreSQL
    let rows = sqlx::query!(
        r#"
        with expired as (
            select job_id from job
            where status = 'running' and lease_until < now()
            for update skip locked
        )
        update job set
            status = case when job.attempt >= job.max_attempts * 3 then 'failed' else 'queued' end,
            last_error = format('lease expired on worker %s during attempt %s (worker died or lost the database)',
                                coalesce(job.worker_id, '?'), job.attempt),
            lease_until = null,
            worker_id = null,
            finished_at = case when job.attempt >= job.max_attempts * 3 then now() end
        from expired
        where job.job_id = expired.job_id
        returning job.job_id, job.kind as "kind: JobKind", job.attempt, job.status as "status: JobStatus",
                  job.match_id, job.submission_id, job.last_error
        "#
    )
    .fetch_all(&mut *tx)
    .await?;
    let mut reaped = Vec::with_capacity(rows.len());
    for r in rows {
        let failed = r.status == JobStatus::Failed;
        if failed {
            let reason = format!(
                "gave up after {} attempts; last: {}",
                r.attempt,
                r.last_error.as_deref().unwrap_or("lease expired")
            );
            record_final_failure(&mut tx, r.match_id, r.submission_id, &reason).await?;
        } else if let Some(match_id) = r.match_id {
            // language=PostgreSQL
            sqlx::query!(
                r#"update match set status = 'queued' where match_id = $1 and status = 'running'"#,
                match_id
            )
            .execute(&mut *tx)
            .await?;
        }
        reaped.push(Reaped {
            job_id: r.job_id,
            kind: r.kind,
            attempt: r.attempt,
            failed,
        });
    }
    tx.commit().await?;
    Ok(reaped)
}

/// Queue depth per kind and status, for `/metrics` and the admin pages.
pub async fn counts(db: impl PgExecutor<'_>) -> Result<Vec<(JobKind, JobStatus, i64)>, StoreError> {
    // language=PostgreSQL
    let rows = sqlx::query!(r#"select kind as "kind: JobKind", status as "status: JobStatus", count(*) as "n!" from job group by kind, status order by kind, status"#)
        .fetch_all(db)
        .await?;
    Ok(rows.into_iter().map(|r| (r.kind, r.status, r.n)).collect())
}

/// The live part of the queue for one job kind: what `/metrics` exports as
/// `croupier_jobs_queued`, `croupier_jobs_delayed` and `croupier_jobs_running`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueDepth {
    pub kind: JobKind,
    /// Queued and runnable now (`run_after` has come): what an idle worker would claim.
    pub queued: i64,
    /// Queued but waiting out a retry back-off (`run_after` still ahead).
    pub delayed: i64,
    /// Claimed by a worker (leased).
    pub running: i64,
}

/// The queue's depth for every job kind (zeros included), in one statement that reads only
/// queued and running jobs (the partial indexes' rows), never the finished history.
pub async fn queue_depth(db: impl PgExecutor<'_>) -> Result<Vec<QueueDepth>, StoreError> {
    // language=PostgreSQL
    let rows = sqlx::query!(
        r#"
        select kind as "kind: JobKind",
               count(*) filter (where status = 'queued' and run_after <= now()) as "queued!",
               count(*) filter (where status = 'queued' and run_after > now()) as "delayed!",
               count(*) filter (where status = 'running') as "running!"
        from job
        where status in ('queued', 'running')
        group by kind
        "#
    )
    .fetch_all(db)
    .await?;
    Ok(JobKind::ALL
        .iter()
        .map(|&kind| {
            let row = rows.iter().find(|r| r.kind == kind);
            QueueDepth {
                kind,
                queued: row.map_or(0, |r| r.queued),
                delayed: row.map_or(0, |r| r.delayed),
                running: row.map_or(0, |r| r.running),
            }
        })
        .collect())
}

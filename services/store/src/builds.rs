//! Compile jobs' writes: a submission goes `compiling` → `validating` → `ready` | `failed`.
//!
//! Every write is fenced by the compile job's attempt ([`Fence`]): it only lands while that job
//! is still `running` under that attempt, so a worker whose lease was taken over writes nothing.
//! [`finish`] runs inside the caller's result transaction, next to `jobs::complete`.

use sqlx::{PgExecutor, PgPool, Postgres, Transaction};
use uuid::Uuid;

use sqlx::types::Json;

use crate::state::SubmissionStatus;
use crate::submissions::ValidationWarning;
use crate::{blobs, StoreError};

/// The compile job a write belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fence {
    pub job_id: Uuid,
    pub attempt: i32,
}

/// How a submission is started once built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    pub sha256: Vec<u8>,
    /// `{/usr/bin/python3,/bot/bot.py}`, `{/bot/bot}`.
    pub run_command: Vec<String>,
}

/// The end of a compile job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Usable; with the faults it made in its validation game, if any.
    Ready(Option<ValidationWarning>),
    /// The reason is shown to the team.
    Failed(String),
}

/// Stores the built artifact and moves the submission to `validating`. `false`: the lease was
/// lost, nothing was written.
pub async fn mark_validating(
    pool: &PgPool,
    fence: Fence,
    artifact: &[u8],
    run_command: &[String],
    compile_log: &str,
) -> Result<bool, StoreError> {
    let mut tx = pool.begin().await?;
    let sha = blobs::put(&mut *tx, artifact).await?;
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"
        update submission set status = 'validating', artifact_sha256 = $3, run_command = $4,
                              compile_log = $5, failure_reason = null, validation_warning = null
        where submission_id = (select submission_id from job
                               where job_id = $1 and attempt = $2 and status = 'running')
        "#,
        fence.job_id,
        fence.attempt,
        &sha[..],
        run_command,
        compile_log
    )
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() != 1 {
        tx.rollback().await?;
        return Ok(false);
    }
    tx.commit().await?;
    Ok(true)
}

/// Writes the verdict and the final log in the caller's result transaction. `false`: the lease
/// was lost; the caller must roll back.
pub async fn finish(
    tx: &mut Transaction<'_, Postgres>,
    fence: Fence,
    verdict: &Verdict,
    compile_log: &str,
) -> Result<bool, StoreError> {
    let (status, reason, warning) = match verdict {
        Verdict::Ready(warning) => (SubmissionStatus::Ready, None, warning.as_ref()),
        Verdict::Failed(reason) => (SubmissionStatus::Failed, Some(reason.as_str()), None),
    };
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"
        update submission set status = $3, failure_reason = $4, compile_log = $5,
                              validation_warning = $6
        where submission_id = (select submission_id from job
                               where job_id = $1 and attempt = $2 and status = 'running')
        "#,
        fence.job_id,
        fence.attempt,
        status as SubmissionStatus,
        reason,
        compile_log,
        warning.map(Json) as Option<Json<&ValidationWarning>>
    )
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The built artifact of a submission, once it has one.
pub async fn artifact(
    db: impl PgExecutor<'_>,
    submission_id: Uuid,
) -> Result<Option<Artifact>, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"select artifact_sha256, run_command from submission where submission_id = $1"#,
        submission_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)?;
    Ok(match (row.artifact_sha256, row.run_command) {
        (Some(sha256), Some(run_command)) => Some(Artifact {
            sha256,
            run_command,
        }),
        _ => None,
    })
}

//! The admin's levers on a running competition: cancel and re-run failed matches.

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::state::{CompetitionKind, CompetitionStatus};
use crate::StoreError;

/// Cancels the queued matches and their queued jobs, and records the competition as
/// `cancelled`. Running matches finish and count. Returns how many matches were cancelled.
///
/// The jobs go first: a job a worker claimed meanwhile is `running` (and so is its match, in
/// the same claim transaction), so it is skipped, and no match is cancelled under a worker.
pub async fn cancel(pool: &PgPool, competition_id: Uuid) -> Result<u64, StoreError> {
    let mut tx = pool.begin().await?;
    let (kind, status) = crate::competition_admin::lock(&mut tx, competition_id).await?;
    if is_over(&mut tx, competition_id, kind, status).await? {
        return Err(StoreError::Conflict(FINISHED.into()));
    }
    // language=PostgreSQL
    let stored = sqlx::query!(
        r#"update competition set status = 'cancelled' where competition_id = $1"#,
        competition_id
    )
    .execute(&mut *tx)
    .await?;
    if stored.rows_affected() == 0 {
        return Err(StoreError::NotFound);
    }
    let cancelled = cancel_queued(&mut tx, competition_id).await?;
    tx.commit().await?;
    Ok(cancelled)
}

/// Why a finished competition refuses to be paused or cancelled (a button left on an open page
/// must not turn a finished competition into a paused or cancelled one).
pub(crate) const FINISHED: &str = "the competition has finished: every match is played";

/// Whether a competition of `kind` with the stored `status` will play nothing more: a
/// round-robin when no match is left to play; a Swiss or adaptive one when its plan is done
/// (between two rounds nothing is queued, yet more is to come). A ladder ends only by its
/// organiser's Finish, so it is never over here.
pub(crate) async fn is_over(
    conn: &mut PgConnection,
    competition_id: Uuid,
    kind: CompetitionKind,
    status: CompetitionStatus,
) -> Result<bool, StoreError> {
    match kind {
        CompetitionKind::Ladder => Ok(false),
        CompetitionKind::Swiss | CompetitionKind::Adaptive => {
            Ok(status == CompetitionStatus::Finished)
        }
        _ => Ok(!has_matches_to_play(conn, competition_id).await?),
    }
}

/// Whether any of the competition's matches is still queued (held ones included) or running.
pub(crate) async fn has_matches_to_play(
    conn: &mut PgConnection,
    competition_id: Uuid,
) -> Result<bool, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"
        select exists(select 1 from match where competition_id = $1 and status in ('queued', 'running')) as "active!"
        "#,
        competition_id
    )
    .fetch_one(&mut *conn)
    .await?)
}

/// Cancels the competition's queued matches and their queued jobs (see [`cancel`] for why
/// the jobs go first), in the caller's transaction. Returns how many matches were cancelled.
pub async fn cancel_queued(
    conn: &mut PgConnection,
    competition_id: Uuid,
) -> Result<u64, StoreError> {
    // language=PostgreSQL
    let jobs = sqlx::query_scalar!(
        r#"
        update job set status = 'cancelled', finished_at = now(), last_error = 'cancelled by an administrator'
        where status = 'queued' and kind = 'match'
          and match_id in (select match_id from match where competition_id = $1 and status = 'queued')
        returning match_id as "match_id!"
        "#,
        competition_id
    )
    .fetch_all(&mut *conn)
    .await?;
    // language=PostgreSQL
    let cancelled = sqlx::query!(
        r#"
        update match set status = 'cancelled', finished_at = now(), failure_reason = 'cancelled by an administrator'
        where competition_id = $1 and status = 'queued'
          and (match_id = any($2) or not exists (select 1 from job j where j.match_id = match.match_id
                                                  and j.status in ('queued', 'running')))
        "#,
        competition_id,
        &jobs
    )
    .execute(&mut *conn)
    .await?;
    Ok(cancelled.rows_affected())
}

/// Puts the failed matches back in the queue, each with a new job (attempts from 0), and the
/// competition back to `running`. Returns how many matches were re-queued.
pub async fn rerun_failed(pool: &PgPool, competition_id: Uuid) -> Result<u64, StoreError> {
    let mut tx = pool.begin().await?;
    // language=PostgreSQL
    let stored = sqlx::query!(
        r#"select competition_id from competition where competition_id = $1 for update"#,
        competition_id
    )
    .fetch_optional(&mut *tx)
    .await?;
    if stored.is_none() {
        return Err(StoreError::NotFound);
    }
    // language=PostgreSQL
    let requeued = sqlx::query_scalar!(
        r#"
        update match set status = 'queued', failure_reason = null, started_at = null, finished_at = null
        where competition_id = $1 and status = 'failed'
        returning match_id
        "#,
        competition_id
    )
    .fetch_all(&mut *tx)
    .await?;
    if !requeued.is_empty() {
        // A failed match has no results, but clear any partial write so it starts clean.
        // language=PostgreSQL
        sqlx::query!(
            r#"delete from seat_result where match_id = any($1)"#,
            &requeued
        )
        .execute(&mut *tx)
        .await?;
        // language=PostgreSQL
        sqlx::query!(r#"delete from replay where match_id = any($1)"#, &requeued)
            .execute(&mut *tx)
            .await?;
        // language=PostgreSQL
        sqlx::query!(
            r#"insert into job (kind, match_id) select 'match', unnest($1::uuid[])"#,
            &requeued
        )
        .execute(&mut *tx)
        .await?;
        // language=PostgreSQL
        sqlx::query!(
            r#"update competition set status = 'running' where competition_id = $1"#,
            competition_id
        )
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(requeued.len() as u64)
}

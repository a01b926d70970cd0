//! An organiser's everyday changes to a competition: rename it, change its settings, pause and
//! resume a round-robin, delete one nothing was played in, archive one that is over. (Cancel and re-run are in
//! [`crate::competitions`]; a ladder's pause and resume in [`crate::ladders`].)
//!
//! **Pausing a round-robin** holds its queued match jobs (`run_after = 'infinity'`, so no worker
//! claims them) and shows it `paused`; running matches finish and count. Resuming releases them
//! and wakes the workers.

use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use crate::competitions::{is_over, FINISHED};
use crate::state::{CompetitionKind, CompetitionStatus};
use crate::StoreError;

/// Renames a competition (the caller checks the name).
pub async fn rename(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
    name: &str,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"update competition set name = $2 where competition_id = $1"#,
        competition_id,
        name
    )
    .execute(db)
    .await?;
    match done.rows_affected() {
        0 => Err(StoreError::NotFound),
        _ => Ok(()),
    }
}

/// Replaces a competition's settings (the caller checks them). With `before_play`, only while
/// none of its matches has started — what a match is played with must be the same for every
/// match — else [`StoreError::Conflict`] saying how many have.
pub async fn set_settings(
    pool: &PgPool,
    competition_id: Uuid,
    settings: &serde_json::Value,
    before_play: bool,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    lock(&mut tx, competition_id).await?;
    if before_play {
        let started = played(&mut tx, competition_id).await?;
        if started > 0 {
            tx.rollback().await?;
            return Err(StoreError::Conflict(format!(
                "{started} of its matches {} started: time and limits stay as they were played",
                if started == 1 { "has" } else { "have" }
            )));
        }
    }
    // language=PostgreSQL
    sqlx::query!(
        r#"update competition set settings = $2 where competition_id = $1"#,
        competition_id,
        settings
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// How many of the competition's matches were played or are being played (running, finished
/// or failed; queued and cancelled ones never started).
async fn played(conn: &mut sqlx::PgConnection, competition_id: Uuid) -> Result<i64, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"
        select count(*) as "n!" from match
        where competition_id = $1 and status in ('running', 'finished', 'failed')
        "#,
        competition_id
    )
    .fetch_one(conn)
    .await?)
}

/// The competition's kind and stored status, its row locked for the change.
pub(crate) async fn lock(
    conn: &mut sqlx::PgConnection,
    competition_id: Uuid,
) -> Result<(CompetitionKind, CompetitionStatus), StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        select kind as "kind: CompetitionKind", status as "status: CompetitionStatus"
        from competition where competition_id = $1 for update
        "#,
        competition_id
    )
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(StoreError::NotFound)?;
    Ok((row.kind, row.status))
}

/// Pauses a round-robin: its queued matches wait. Returns how many were held.
pub async fn pause(pool: &PgPool, competition_id: Uuid) -> Result<u64, StoreError> {
    hold(pool, competition_id, true).await
}

/// Resumes a paused round-robin: its held matches are queued again and the workers woken.
/// Returns how many were released.
pub async fn resume(pool: &PgPool, competition_id: Uuid) -> Result<u64, StoreError> {
    hold(pool, competition_id, false).await
}

/// Holds (`pause`) or releases the queued match jobs of a round-robin, and shows it `paused`
/// or `running`; how many jobs moved.
async fn hold(pool: &PgPool, competition_id: Uuid, pause: bool) -> Result<u64, StoreError> {
    let mut tx = pool.begin().await?;
    let (kind, status) = lock(&mut tx, competition_id).await?;
    let refusal = match ((kind, status), pause) {
        ((CompetitionKind::Ladder, _), true) => {
            Some("a ladder is paused with its own Pause (it stops making matches)")
        }
        ((CompetitionKind::Ladder, _), false) => Some("a ladder is resumed with its own Resume"),
        ((_, CompetitionStatus::Cancelled), true) => Some("the competition is cancelled"),
        ((_, CompetitionStatus::Paused), false) | (_, true) => None,
        (_, false) => Some("the competition is not paused"),
    };
    let refusal = match refusal {
        None if pause && is_over(&mut tx, competition_id, kind, status).await? => Some(FINISHED),
        refusal => refusal,
    };
    if let Some(reason) = refusal {
        tx.rollback().await?;
        return Err(StoreError::Conflict(reason.into()));
    }
    // language=PostgreSQL
    let moved = sqlx::query!(
        r#"
        update job set run_after = case when $2 then 'infinity'::timestamptz else now() end
        where kind = 'match' and status = 'queued'
          and ($2 or run_after = 'infinity')
          and match_id in (select match_id from match where competition_id = $1)
        "#,
        competition_id,
        pause
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    // language=PostgreSQL
    sqlx::query!(
        r#"
        update competition set status = case when $2 then 'paused' else 'running' end
        where competition_id = $1
        "#,
        competition_id,
        pause
    )
    .execute(&mut *tx)
    .await?;
    if !pause {
        // language=PostgreSQL
        sqlx::query!(r#"select pg_notify('croupier_job', 'resumed')"#)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(moved)
}

/// Deletes a competition no match of which has started (with its schedule and entries). One
/// with a match running, finished or failed keeps its history: [`StoreError::Conflict`].
pub async fn delete_unplayed(pool: &PgPool, competition_id: Uuid) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    lock(&mut tx, competition_id).await?;
    let started = played(&mut tx, competition_id).await?;
    if started > 0 {
        tx.rollback().await?;
        return Err(StoreError::Conflict(format!(
            "{started} of its matches {} played or being played; a competition with results is \
             archived, not deleted",
            if started == 1 { "was" } else { "were" }
        )));
    }
    // language=PostgreSQL
    sqlx::query!(
        r#"delete from competition where competition_id = $1"#,
        competition_id
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Archives (or brings back) a competition.
pub async fn set_archived(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
    archived: bool,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"
        update competition set archived_at = case when $2 then coalesce(archived_at, now()) end
        where competition_id = $1
        "#,
        competition_id,
        archived
    )
    .execute(db)
    .await?;
    match done.rows_affected() {
        0 => Err(StoreError::NotFound),
        _ => Ok(()),
    }
}

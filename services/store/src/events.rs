//! The reads behind the live event streams (`croupier_server::live`): a competition's match
//! counts by status, and one match's status. Both are cheap (one indexed count, one row) and
//! public: no seat, hand or log is ever read here.

use sqlx::PgExecutor;
use uuid::Uuid;

use crate::competitions::Progress;
use crate::{MatchStatus, StoreError};

/// The competition's matches per status (all zero for an unknown competition).
pub async fn progress(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<Progress, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        select count(*) filter (where status = 'queued') as "queued!",
               count(*) filter (where status = 'running') as "running!",
               count(*) filter (where status = 'finished') as "finished!",
               count(*) filter (where status = 'failed') as "failed!",
               count(*) filter (where status = 'cancelled') as "cancelled!"
        from match
        where competition_id = $1
        "#,
        competition_id
    )
    .fetch_one(db)
    .await?;
    Ok(Progress {
        queued: row.queued,
        running: row.running,
        finished: row.finished,
        failed: row.failed,
        cancelled: row.cancelled,
    })
}

/// The match's status; [`StoreError::NotFound`] for an unknown match.
pub async fn match_status(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
) -> Result<MatchStatus, StoreError> {
    // language=PostgreSQL
    sqlx::query_scalar!(
        r#"select status as "status: MatchStatus" from match where match_id = $1"#,
        match_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

//! The reads behind the live event streams (`croupier_server::live`): a competition's match
//! counts by status (and so its shown status), and one match's status. Both are cheap (one
//! indexed count, one row) and public: no seat, hand or log is ever read here.

use sqlx::PgExecutor;
use uuid::Uuid;

use crate::competitions::Progress;
use crate::{CompetitionStatus, MatchStatus, StoreError};

/// The competition's matches per status and the status to show ([`Progress::status`]);
/// [`StoreError::NotFound`] for an unknown competition.
pub async fn progress(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<(Progress, CompetitionStatus), StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        select c.status as "status: CompetitionStatus",
               count(m.match_id) filter (where m.status = 'queued') as "queued!",
               count(m.match_id) filter (where m.status = 'running') as "running!",
               count(m.match_id) filter (where m.status = 'finished') as "finished!",
               count(m.match_id) filter (where m.status = 'failed') as "failed!",
               count(m.match_id) filter (where m.status = 'cancelled') as "cancelled!"
        from competition c
             left join match m on m.competition_id = c.competition_id
        where c.competition_id = $1
        group by c.competition_id
        "#,
        competition_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)?;
    let progress = Progress {
        queued: row.queued,
        running: row.running,
        finished: row.finished,
        failed: row.failed,
        cancelled: row.cancelled,
    };
    Ok((progress, progress.status(row.status)))
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

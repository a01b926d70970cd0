//! The reads behind the live event streams (`croupier_server::live`): a competition's match
//! counts by status (and so its shown status), and one match's status. Both are cheap (a few
//! rows) and public: no seat, hand or log is ever read here.

use sqlx::PgExecutor;
use uuid::Uuid;

use crate::competitions::Progress;
use crate::{CompetitionStatus, MatchStatus, StoreError};

/// The competition's matches per status (kept in `competition_progress`) and the status to
/// show, as its page shows them; [`StoreError::NotFound`] for an unknown competition.
pub async fn progress(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<(Progress, CompetitionStatus), StoreError> {
    let c = crate::competitions::get(db, competition_id).await?;
    Ok((c.progress, c.status))
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

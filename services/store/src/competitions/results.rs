//! Reads over a competition's matches: the finished seats the leaderboard is computed from, and
//! a page of the match list with each match's seats.

use serde::Serialize;
use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::state::{EndState, MatchStatus};
use crate::StoreError;

/// One seat of a finished match, as standings and ratings read it.
#[derive(Debug, Clone, Serialize)]
pub struct SeatScore {
    pub match_id: Uuid,
    pub ordinal: i32,
    pub seed: i64,
    /// The league's duplicate set (`None` for matches older than the column).
    pub duplicate_set: Option<i32>,
    pub seat: i32,
    pub submission_id: Option<Uuid>,
    pub rank: i32,
    pub score: f64,
    pub end_state: EndState,
    /// The seat's score in each game of the match (Bridge: each board).
    pub game_scores: Vec<i64>,
}

/// The seats of every finished match, in schedule order, then seat order.
pub async fn seat_scores(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<Vec<SeatScore>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        SeatScore,
        r#"
        select m.match_id, m.ordinal, m.seed, m.duplicate_set, r.seat, ms.submission_id, r.rank, r.score,
               r.end_state as "end_state: EndState", r.game_scores
        from match m
             join seat_result r using (match_id)
             join match_seat ms using (match_id, seat)
        where m.competition_id = $1 and m.status = 'finished'
        order by m.ordinal, m.match_id, r.seat
        "#,
        competition_id
    )
    .fetch_all(db)
    .await?)
}

/// A match in the competition's match list.
#[derive(Debug, Clone, Serialize)]
pub struct MatchLine {
    pub match_id: Uuid,
    pub ordinal: i32,
    pub status: MatchStatus,
    pub failure_reason: Option<String>,
    #[serde(with = "time::serde::rfc3339::option")]
    pub finished_at: Option<OffsetDateTime>,
    pub seats: Vec<SeatLine>,
}

/// Who sat in a seat and, once finished, how it went.
#[derive(Debug, Clone, Serialize)]
pub struct SeatLine {
    pub seat: i32,
    pub team_name: Option<String>,
    pub version: Option<i32>,
    pub builtin: Option<String>,
    pub rank: Option<i32>,
    pub score: Option<f64>,
    pub end_state: Option<EndState>,
}

struct MatchRow {
    match_id: Uuid,
    ordinal: i32,
    status: MatchStatus,
    failure_reason: Option<String>,
    finished_at: Option<OffsetDateTime>,
}

/// Up to `limit` matches in schedule order from `offset`, each with its seats.
pub async fn match_lines(
    pool: &PgPool,
    competition_id: Uuid,
    limit: i64,
    offset: i64,
) -> Result<Vec<MatchLine>, StoreError> {
    // language=PostgreSQL
    let rows = sqlx::query_as!(
        MatchRow,
        r#"
        select match_id, ordinal, status as "status: MatchStatus", failure_reason, finished_at
        from match where competition_id = $1
        order by ordinal, match_id
        limit $2 offset $3
        "#,
        competition_id,
        limit,
        offset
    )
    .fetch_all(pool)
    .await?;
    let ids: Vec<Uuid> = rows.iter().map(|m| m.match_id).collect();
    let seats = crate::matches::listing::seats_of(pool, &ids).await?;
    Ok(rows
        .into_iter()
        .map(|m| MatchLine {
            seats: seats
                .iter()
                .filter(|s| s.match_id == m.match_id)
                .map(|s| SeatLine {
                    seat: s.seat,
                    team_name: s.team_name.clone(),
                    version: s.version,
                    builtin: s.builtin.clone(),
                    rank: s.rank,
                    score: s.score,
                    end_state: s.end_state,
                })
                .collect(),
            match_id: m.match_id,
            ordinal: m.ordinal,
            status: m.status,
            failure_reason: m.failure_reason,
            finished_at: m.finished_at,
        })
        .collect())
}

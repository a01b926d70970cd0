//! Lists of matches, newest first and paged: a competition's, a submission's (optionally only
//! its wins, losses or faults) or a team's, with the seats of each page in one more query. The
//! API's `GET /api/v1/matches` and the submission page read these.

use sqlx::PgExecutor;
use uuid::Uuid;

use super::Match;
use crate::state::{EndState, MatchStatus};
use crate::StoreError;

/// Which matches: every filter given must hold (at least one should be given; the caller
/// checks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchFilter {
    pub competition: Option<Uuid>,
    pub submission: Option<Uuid>,
    pub team: Option<Uuid>,
    /// Only the matches where the seat of `submission` had this result (ignored without
    /// `submission`).
    pub result: Option<SeatOutcome>,
    /// Who asks (a user; `None`: signed out): only the matches they may see are listed and
    /// counted (the `match_visible` rule: a challenge's matches are its team's and admins').
    pub viewer: Option<Uuid>,
}

/// A seat's result, as a filter: a win is rank 1 (ties included), a loss any lower rank, a
/// fault any end other than playing to the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatOutcome {
    Wins,
    Losses,
    Faults,
}

impl SeatOutcome {
    pub const ALL: [SeatOutcome; 3] = [SeatOutcome::Wins, SeatOutcome::Losses, SeatOutcome::Faults];

    pub fn as_str(self) -> &'static str {
        match self {
            SeatOutcome::Wins => "wins",
            SeatOutcome::Losses => "losses",
            SeatOutcome::Faults => "faults",
        }
    }
}

/// A seat of a listed match, with its result once the match is finished.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ListedSeat {
    #[serde(skip)]
    pub match_id: Uuid,
    pub seat: i32,
    pub submission_id: Option<Uuid>,
    pub builtin: Option<String>,
    /// A person's seat: their user name.
    pub person: Option<String>,
    pub team_id: Option<Uuid>,
    pub team_name: Option<String>,
    pub version: Option<i32>,
    pub rank: Option<i32>,
    pub score: Option<f64>,
    pub end_state: Option<EndState>,
    pub end_detail: Option<String>,
}

/// One page of the matches `filter` selects, newest first (by creation, then schedule order
/// descending), and how many there are in all.
pub async fn page(
    db: impl PgExecutor<'_> + Copy,
    filter: MatchFilter,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Match>, i64), StoreError> {
    let result = filter.result.map(SeatOutcome::as_str);
    // language=PostgreSQL
    let total = sqlx::query_scalar!(
        r#"
        select count(*) as "n!"
        from match m
        where ($1::uuid is null or m.competition_id = $1)
          and ($2::uuid is null or exists (
                select 1 from match_seat ms left join seat_result r using (match_id, seat)
                where ms.match_id = m.match_id and ms.submission_id = $2
                  and ($4::text is null
                       or ($4 = 'wins' and r.rank = 1)
                       or ($4 = 'losses' and r.rank > 1)
                       or ($4 = 'faults' and r.end_state <> 'ok'))))
          and ($3::uuid is null or exists (
                select 1 from match_seat ms join submission s using (submission_id)
                where ms.match_id = m.match_id and s.team_id = $3))
          and match_visible(m.challenge_id, $5)
        "#,
        filter.competition,
        filter.submission,
        filter.team,
        result,
        filter.viewer
    )
    .fetch_one(db)
    .await?;
    // language=PostgreSQL
    let matches = sqlx::query_as!(
        Match,
        r#"
        select m.match_id, m.competition_id, m.challenge_id, m.game, m.rules, m.seed,
               seeds_out(m.competition_id, m.challenge_id) as "seed_out!",
               deal_out(m.game, m.seed) as "deal_out!", m.settings, m.ordinal,
               m.status as "status: MatchStatus", m.failure_reason, m.started_at, m.finished_at
        from match m
        where ($1::uuid is null or m.competition_id = $1)
          and ($2::uuid is null or exists (
                select 1 from match_seat ms left join seat_result r using (match_id, seat)
                where ms.match_id = m.match_id and ms.submission_id = $2
                  and ($4::text is null
                       or ($4 = 'wins' and r.rank = 1)
                       or ($4 = 'losses' and r.rank > 1)
                       or ($4 = 'faults' and r.end_state <> 'ok'))))
          and ($3::uuid is null or exists (
                select 1 from match_seat ms join submission s using (submission_id)
                where ms.match_id = m.match_id and s.team_id = $3))
          and match_visible(m.challenge_id, $7)
        order by m.created_at desc, m.ordinal desc, m.match_id desc
        limit $5 offset $6
        "#,
        filter.competition,
        filter.submission,
        filter.team,
        result,
        limit,
        offset,
        filter.viewer
    )
    .fetch_all(db)
    .await?;
    Ok((matches, total))
}

/// The seats of the matches `match_ids`, by match then seat.
pub async fn seats_of(
    db: impl PgExecutor<'_>,
    match_ids: &[Uuid],
) -> Result<Vec<ListedSeat>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        ListedSeat,
        r#"
        select ms.match_id, ms.seat, ms.submission_id, ms.builtin, u.username as "person?",
               s.team_id as "team_id?", t.name as "team_name?", s.version as "version?",
               r.rank as "rank?", r.score as "score?", r.end_state as "end_state?: EndState",
               r.end_detail
        from match_seat ms
             left join submission s using (submission_id)
             left join team t using (team_id)
             left join app_user u on u.user_id = ms.user_id
             left join seat_result r using (match_id, seat)
        where ms.match_id = any($1)
        order by ms.match_id, ms.seat
        "#,
        match_ids
    )
    .fetch_all(db)
    .await?)
}

//! The rounds tick: every worker process plans the next round of each Swiss or adaptive
//! competition whose round has ended, so such a competition needs no scheduler of its own.
//!
//! For each competition between rounds that it can hold (`rounds::take` skips one another
//! worker is planning), in one transaction: read the entries and every finished result, ask
//! the league for the next round (`croupier_league::next_round`, pure), insert its matches and
//! record the progress; when the plan is done, mark the competition finished and, if the
//! organiser asked for a final stage, create it (`croupier_board::stages`).

use croupier_board::to_results;
use croupier_games::GameId;
use croupier_league::{CompetitionSettings, MatchResult, RoundStart, RoundsState};
use croupier_store::competitions;
use croupier_store::rounds::{self, Held};
use croupier_store::{matches, PgPool, StoreError};
use sqlx::PgConnection;
use uuid::Uuid;

/// Runs one tick over every competition between rounds; returns how many matches it queued.
pub async fn tick(pool: &PgPool) -> Result<usize, StoreError> {
    let mut queued = 0;
    for competition_id in rounds::due(pool).await? {
        let mut tx = pool.begin().await?;
        let Some(held) = rounds::take(&mut tx, competition_id).await? else {
            continue;
        };
        match plan_next(&mut tx, &held).await {
            Ok(n) => {
                tx.commit().await?;
                queued += n;
            }
            Err(Unplanned::Store(e)) => return Err(e),
            Err(Unplanned::Refused(reason)) => {
                tracing::warn!(%competition_id, %reason, "round cannot be planned");
            }
        }
    }
    Ok(queued)
}

enum Unplanned {
    Store(StoreError),
    /// The stored game, settings or plan are refused (never for one created through the API);
    /// logged, and the competition is skipped.
    Refused(String),
}

impl From<StoreError> for Unplanned {
    fn from(e: StoreError) -> Self {
        Unplanned::Store(e)
    }
}

fn refused(e: impl std::fmt::Display) -> Unplanned {
    Unplanned::Refused(e.to_string())
}

async fn plan_next(conn: &mut PgConnection, held: &Held) -> Result<usize, Unplanned> {
    let game: GameId = held.game.parse().map_err(refused)?;
    let settings = CompetitionSettings::from_stored(&held.settings).map_err(refused)?;
    let plan = settings
        .plan
        .ok_or_else(|| refused("a round-by-round competition without a plan"))?;
    let entrants: Vec<Uuid> = competitions::entries(&mut *conn, held.competition_id)
        .await?
        .into_iter()
        .map(|e| e.submission_id)
        .collect();
    let results = results_of(conn, game, &settings, held.competition_id).await?;
    let (ordinal, group) = rounds::next_ids(conn, held.competition_id).await?;
    let start = RoundStart {
        round: u32::try_from(held.rounds_started).unwrap_or(0),
        ordinal: u32::try_from(ordinal).unwrap_or(u32::MAX),
        group: u32::try_from(group).unwrap_or(u32::MAX),
    };
    let spec = settings.schedule_spec(&held.rules);
    let next = croupier_league::next_round(game, &spec, &plan, &entrants, &results, start)
        .map_err(refused)?;
    let finished = next.matches.is_empty();
    let state = RoundsState {
        planned: start.round + u32::from(!finished),
        round_matches: u32::try_from(next.matches.len()).unwrap_or(u32::MAX),
        byes: next.byes,
        progress: next.progress,
    };
    let queued = next.matches.len();
    let new = croupier_board::new_matches(game, &held.rules, next.matches);
    matches::create_many(conn, held.competition_id, &new).await?;
    let json = serde_json::to_value(&state).map_err(refused)?;
    rounds::planned(conn, held.competition_id, &json, finished).await?;
    if finished {
        croupier_board::stages::create_final(conn, held.competition_id)
            .await
            .map_err(|e| match e {
                croupier_board::BoardError::Store(e) => Unplanned::Store(e),
                other @ croupier_board::BoardError::Corrupt { .. } => refused(other),
            })?;
    }
    Ok(queued)
}

/// Every finished match of the competition, as the league reads it.
async fn results_of(
    conn: &mut PgConnection,
    game: GameId,
    settings: &CompetitionSettings,
    competition_id: Uuid,
) -> Result<Vec<MatchResult<Uuid>>, StoreError> {
    let seats = competitions::seat_scores(&mut *conn, competition_id).await?;
    Ok(to_results(game, settings.format_of(game), &seats))
}

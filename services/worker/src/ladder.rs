//! The ladder tick: every worker process keeps its running ladders fed, so a ladder needs no
//! scheduler of its own and no organiser action after it is created.
//!
//! Each tick, for each running ladder it can hold (`ladders::take` skips a ladder another worker
//! is ticking, or whose result is being recorded), in one transaction: enter each team's newest
//! ready submission (when entries are open), read the field (ratings from the board, pending
//! matches), and queue the next duplicate groups `croupier_league::next_groups` picks, within
//! the ladder's budget: at most `matches_per_hour` created in the last hour and `max_pending`
//! queued or running. Matches then flow through the ordinary job queue; each result updates the
//! board (`croupier_board::record`), which changes the next tick's choice.

use croupier_games::GameId;
use croupier_league::{CompetitionSettings, Contender, NextIds, Record};
use croupier_store::ladders::{self, Ladder};
use croupier_store::matches;
use croupier_store::{PgPool, StoreError};
use uuid::Uuid;

/// Runs one tick over every running ladder; returns how many matches it queued.
pub async fn tick(pool: &PgPool) -> Result<usize, StoreError> {
    let mut queued = 0;
    for competition_id in ladders::due(pool).await? {
        let mut tx = pool.begin().await?;
        let Some(ladder) = ladders::take(&mut tx, competition_id).await? else {
            continue;
        };
        match feed(&mut tx, &ladder).await {
            Ok(n) => {
                tx.commit().await?;
                queued += n;
            }
            Err(Unfed::Store(e)) => return Err(e),
            Err(Unfed::Refused(reason)) => {
                tracing::warn!(%competition_id, %reason, "ladder cannot schedule");
            }
        }
    }
    Ok(queued)
}

enum Unfed {
    Store(StoreError),
    /// The ladder's stored game or settings are refused (never for one created through the
    /// API); logged, and the ladder is skipped.
    Refused(String),
}

impl From<StoreError> for Unfed {
    fn from(e: StoreError) -> Self {
        Unfed::Store(e)
    }
}

async fn feed(conn: &mut sqlx::PgConnection, ladder: &Ladder) -> Result<usize, Unfed> {
    let game: GameId = ladder
        .game
        .parse()
        .map_err(|e| Unfed::Refused(format!("{e}")))?;
    let settings = CompetitionSettings::from_stored(&ladder.settings)
        .map_err(|e| Unfed::Refused(e.to_string()))?;
    if ladder.entries_open {
        ladders::sync_entries(conn, ladder).await?;
    }
    let format = settings.format_of(game);
    let size = croupier_league::matches_per_group(format);
    let budget = settings.ladder;
    let usage = ladders::usage(conn, ladder.competition_id).await?;
    let room = (i64::from(budget.matches_per_hour) - usage.last_hour)
        .min(i64::from(budget.max_pending) - usage.pending);
    let want_groups = usize::try_from(room / i64::from(size)).unwrap_or(0);
    if want_groups == 0 {
        return Ok(0);
    }
    let field: Vec<Contender<Uuid>> = ladders::field(conn, ladder.competition_id)
        .await?
        .into_iter()
        .map(|c| {
            let record: Record = c
                .record
                .and_then(|r| serde_json::from_value(r).ok())
                .unwrap_or_default();
            let mut contender = Contender::new(c.submission_id);
            if let Some(skill) = record.skill {
                contender.mu = skill.mu;
                contender.sigma = skill.sigma;
            }
            contender.played = record.tally.games() / size;
            contender.pending = u32::try_from(c.pending).unwrap_or(u32::MAX).div_ceil(size);
            contender
        })
        .collect();
    let next = NextIds {
        ordinal: u32::try_from(usage.next_ordinal).unwrap_or(u32::MAX),
        group: u32::try_from(usage.next_set).unwrap_or(u32::MAX),
        seed_base: settings.base_seed,
    };
    let spec = settings.schedule_spec(&ladder.rules);
    let planned =
        croupier_league::next_groups(game, &spec, &budget.pick, &field, want_groups, next)
            .map_err(|e| Unfed::Refused(e.to_string()))?;
    let new = croupier_board::new_matches(game, &ladder.rules, planned);
    matches::create_many(conn, ladder.competition_id, &new).await?;
    Ok(new.len())
}

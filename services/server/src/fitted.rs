//! A competition's fitted ranking, shown under its leaderboard and in the API: one model fitted
//! over all its finished matches at once (`croupier_league::fitted`: Plackett–Luce for three or
//! more seats, Bradley–Terry for pairs and Bridge's duplicate sets, the mean score in Hanabi),
//! with each entrant's 95% interval and, for neighbours, whether their order is significant.
//! Unlike the online rating it does not depend on the order results landed in.
//!
//! **Cost.** The fit reads every finished match, so unlike the rest of the board it grows with
//! the competition. It is built with the board (`crate::leaderboard::build`, kept by
//! `crate::board_cache`) and kept on its own between board builds ([`Kept`]): a board rebuilt
//! because a match finished refits only when the last fit is older than [`REFIT_FACTOR`] times
//! what that fit took (a fit of a few hundred matches takes milliseconds and is redone every
//! time; one of 100,000 matches takes about 1.4 s and is redone at most every 28 s while the
//! contest runs), and always once nothing is queued or running, so a finished competition
//! shows the fit of all its matches. A fit that took [`FIT_IN_BACKGROUND`] or more is redone
//! in the background while readers get the last one (the board, kept at most
//! `board_cache::TTL`, shows the new fit soon after it lands), so no reader waits for it but
//! the very first. The fit runs on a blocking thread, off the server's request threads.
//!
//! Only the listed (active) entries are ranked: a ladder's replaced versions are fitted, as
//! their matches count for their opponents, but not shown, and positions count the rows shown.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use croupier_games::GameId;
use croupier_league::{CompetitionSettings, FitModel, FittedRanking};
use croupier_store::competitions::{self, Competition, Entrant};
use croupier_store::PgPool;
use serde::Serialize;
use uuid::Uuid;

use crate::error::{Error, Result};

/// The fitted ranking as the API and the page show it.
#[derive(Debug, Clone, Serialize)]
pub struct FittedView {
    /// `bradley_terry`, `plackett_luce` or `mean_score`.
    pub model: FitModel,
    pub rows: Vec<FittedLine>,
    /// Runs of positions `(first, last)` whose order is not significant at 95%.
    pub ties: Vec<(u32, u32)>,
}

/// One entrant of the fitted ranking.
#[derive(Debug, Clone, Serialize)]
pub struct FittedLine {
    pub position: u32,
    pub submission_id: Uuid,
    pub team_name: String,
    pub version: i32,
    pub label: String,
    /// Log-strength (0 is the average entrant) or, in Hanabi, the mean score.
    pub strength: f64,
    /// The 95% interval of `strength`.
    pub low: f64,
    pub high: f64,
    /// Observations: matches (Bridge: duplicate sets; Hanabi: games).
    pub games: u32,
    /// Significantly (95%) ahead of the next row; `false` on the last row.
    pub ahead_of_next: bool,
}

impl FittedLine {
    /// `1.23 [0.85, 1.61]`.
    pub fn strength_text(&self) -> String {
        format!("{:.2} [{:.2}, {:.2}]", self.strength, self.low, self.high)
    }
}

/// A fit is redone, while matches still run, once it is older than this many times what it
/// took (a fit that took 2 s is kept for 40 s).
pub const REFIT_FACTOR: u32 = 20;

/// A fit that took this long or more is redone in the background, readers getting the last.
pub const FIT_IN_BACKGROUND: Duration = Duration::from_millis(100);

/// Competitions whose last fit is kept, at most; beyond it the oldest is dropped.
const MAX_KEPT: usize = 512;

/// A competition's last fit: the ranking of every entrant ever in it, the number of matches
/// it counted, when it was made and how long it took; and whether a new one is being made.
#[derive(Clone)]
struct Kept {
    ranking: Arc<FittedRanking<Uuid>>,
    counted: usize,
    at: Instant,
    took: Duration,
    refitting: bool,
}

impl Kept {
    /// Whether this fit still serves a board that counts `counted` matches (`over`: nothing
    /// is queued or running, so none will land before the next change of plan).
    fn serves(&self, counted: usize, over: bool) -> bool {
        counted == self.counted || (!over && self.at.elapsed() < self.took * REFIT_FACTOR)
    }
}

/// The kept fits (a panic while one was held leaves nothing half-written: take them as they are).
fn kept() -> MutexGuard<'static, HashMap<Uuid, Kept>> {
    static KEPT: OnceLock<Mutex<HashMap<Uuid, Kept>>> = OnceLock::new();
    let kept = KEPT.get_or_init(Mutex::default);
    kept.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The fitted ranking of competition `c` (of `game`) over its finished matches, for the listed
/// `entries`; `None` before any counted match has finished (`counted`: how many the board
/// counts, those with an uploaded bot in every seat).
pub async fn build(
    pool: &PgPool,
    c: &Competition,
    game: GameId,
    counted: usize,
    entries: &[Entrant],
) -> Result<Option<FittedView>> {
    if counted == 0 {
        return Ok(None);
    }
    let over = c.progress.queued == 0 && c.progress.running == 0;
    let last = kept().get(&c.competition_id).cloned();
    let ranking = match last {
        Some(k) if k.serves(counted, over) => k.ranking,
        Some(k) if k.took >= FIT_IN_BACKGROUND => {
            refit_in_background(pool, c, game);
            k.ranking
        }
        _ => fit(pool, c, game).await?,
    };
    Ok(Some(view(&ranking, entries)))
}

/// Starts a fit of `c` in the background, unless one is already running.
fn refit_in_background(pool: &PgPool, c: &Competition, game: GameId) {
    match kept().get_mut(&c.competition_id) {
        Some(k) if !k.refitting => k.refitting = true,
        _ => return,
    }
    let (pool, c) = (pool.clone(), c.clone());
    tokio::spawn(async move {
        if let Err(e) = fit(&pool, &c, game).await {
            tracing::warn!(competition_id = %c.competition_id, error = %e, "refitting the fitted ranking");
            if let Some(k) = kept().get_mut(&c.competition_id) {
                k.refitting = false;
            }
        }
    });
}

/// Fits every finished match of `c` afresh and keeps the fit.
async fn fit(pool: &PgPool, c: &Competition, game: GameId) -> Result<Arc<FittedRanking<Uuid>>> {
    let t0 = Instant::now();
    let format = CompetitionSettings::from_stored(&c.settings)
        .map_err(Error::internal)?
        .format_of(game);
    let seats = competitions::seat_scores(pool, c.competition_id).await?;
    let (ranking, counted) = tokio::task::spawn_blocking(move || {
        let results = croupier_board::to_results(game, format, &seats);
        (croupier_league::fitted(game, &results), results.len())
    })
    .await
    .map_err(Error::internal)?;
    let took = t0.elapsed();
    tracing::debug!(competition_id = %c.competition_id, counted, ?took, "fitted ranking refitted");
    let ranking = Arc::new(ranking);
    let mut kept = kept();
    if kept.len() >= MAX_KEPT && !kept.contains_key(&c.competition_id) {
        if let Some(oldest) = kept.iter().min_by_key(|(_, k)| k.at).map(|(id, _)| *id) {
            kept.remove(&oldest);
        }
    }
    kept.insert(
        c.competition_id,
        Kept {
            ranking: Arc::clone(&ranking),
            counted,
            at: Instant::now(),
            took,
            refitting: false,
        },
    );
    Ok(ranking)
}

/// The fit as shown: only the listed `entries`, numbered without gaps.
fn view(ranking: &FittedRanking<Uuid>, entries: &[Entrant]) -> FittedView {
    // A replaced version is fitted (its matches count for its opponents) but not shown; the
    // row above it becomes the listed neighbour of the row below.
    let mut ranking = ranking.clone();
    ranking
        .rows
        .retain(|r| entries.iter().any(|e| e.submission_id == r.entrant));
    let listed = ranking.rows.len();
    for (i, r) in ranking.rows.iter_mut().enumerate() {
        r.position = u32::try_from(i + 1).unwrap_or(u32::MAX);
        r.ahead_of_next &= i + 1 < listed;
    }
    let ties = ranking.ties();
    let rows = ranking
        .rows
        .into_iter()
        .filter_map(|r| {
            let e = entries.iter().find(|e| e.submission_id == r.entrant)?;
            Some(FittedLine {
                position: r.position,
                submission_id: e.submission_id,
                team_name: e.team_name.clone(),
                version: e.version,
                label: e.label.clone(),
                strength: r.strength,
                low: r.low,
                high: r.high,
                games: r.games,
                ahead_of_next: r.ahead_of_next,
            })
        })
        .collect();
    FittedView {
        model: ranking.model,
        rows,
        ties,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(counted: usize, took_ms: u64) -> Kept {
        Kept {
            ranking: Arc::new(FittedRanking {
                model: FitModel::BradleyTerry,
                rows: Vec::new(),
            }),
            counted,
            at: Instant::now(),
            took: Duration::from_millis(took_ms),
            refitting: false,
        }
    }

    #[test]
    fn a_fit_is_kept_while_it_is_young_for_its_cost_and_redone_at_the_end() {
        let slow = kept(100, 60_000);
        assert!(slow.serves(100, true), "nothing new: always kept");
        assert!(slow.serves(101, false), "young for what it cost: kept");
        assert!(!slow.serves(101, true), "over: the fit of every match");
        let quick = kept(100, 0);
        assert!(!quick.serves(101, false), "a quick fit is redone at once");
        assert!(quick.serves(100, false));
    }

    #[test]
    fn a_strength_is_shown_with_its_interval() {
        let line = super::FittedLine {
            position: 1,
            submission_id: uuid::Uuid::nil(),
            team_name: String::new(),
            version: 1,
            label: String::new(),
            strength: 0.0,
            low: -1.0,
            high: 1.254,
            games: 3,
            ahead_of_next: false,
        };
        assert_eq!(line.strength_text(), "0.00 [-1.00, 1.25]");
    }
}

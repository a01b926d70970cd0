//! Standings: finished matches summed per entrant with the game's [`Scoring`], sorted best
//! first (the rules are on [`standings`]).

mod tally;

pub(crate) use tally::{add_match, add_set, per_entrant, sides_apart};
pub use tally::{rank_points, Tally};

use std::cmp::Ordering;
use std::collections::BTreeMap;

use croupier_games::GameId;
use serde::{Deserialize, Serialize};

use crate::record::Record;
use crate::results::MatchResult;
use crate::stats::Interval;
use crate::{Scheme, Scoring};

/// One row of a standings table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing<E> {
    /// From 1; equal metrics share a position.
    pub position: u32,
    pub entrant: E,
    /// Games played (Bridge: tables of completed duplicate sets).
    pub games: u32,
    /// The sort key of the game's [`Scoring`] (see the module table).
    pub metric: f64,
    /// The 95% confidence interval of the metric per game (Bridge: IMPs per board).
    pub interval: Interval,
    /// 4/2/1 points for 1st/2nd/3rd (rank-point games; 0 elsewhere).
    pub rank_points: u32,
    pub total_score: f64,
    pub mean_score: f64,
    /// Games ranked 1st (shared 1st included); Guandan: games won; Bridge: duplicate sets won
    /// on IMPs; Hanabi: 0 (cooperative).
    pub wins: u32,
    /// Games in which one of the entrant's seats broke a limit, crashed or misbehaved.
    pub faults: u32,
    pub extra: Extra,
}

/// Columns only one game shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Extra {
    None,
    Splendor {
        battle_score: u32,
    },
    Guandan {
        /// Draws count half.
        games_won: f64,
        draws: u32,
    },
    Bridge {
        imps: i64,
        boards: u32,
        imps_per_board: f64,
        /// Total Bridge points over both tables of every set.
        points: i64,
    },
}

/// Splendor's battle score for a final position: 1–7 → 10, 9, …, 4; later → 3.
pub fn battle_score(position: u32) -> u32 {
    match position {
        1..=7 => 11 - position,
        _ => 3,
    }
}

/// The standings of `game` from its finished matches, best first.
///
/// | scoring | metric (sort key) | per-game sample for the interval |
/// |---|---|---|
/// | rank points (No Thanks, Splendor) | total rank points, 4/2/1 for ranks 1/2/3, 0 below | rank points |
/// | games won (Guandan) | games won by the entrant's team, draws ½ | 1, ½ or 0 |
/// | IMPs (Bridge) | total IMPs over completed duplicate sets | IMPs per board |
/// | mean score (Hanabi) | mean game score | game score |
///
/// A shared rank takes that rank's points: ranks 1, 1, 3 score 4, 4, 1 and ranks 1, 2, 2 score
/// 4, 2, 2. Rows with equal metrics share a position (1, 2, 2, 4) and are then ordered by mean
/// game score (better first, per [`Scheme::score_order`]) and by entrant id, so the order is
/// total and reproducible. Matches with a platform fault (`setup_error`) are left out. Splendor's
/// battle score maps positions 1–7 to 10, 9, …, 4 and later positions to 3.
///
/// Every scheme counts an entrant once per match, however many seats it holds (self-play,
/// partners, a field that repeats an entrant): its seats' rank points and scores are averaged,
/// it wins when its best seat ranks 1st, and one faulty seat makes the game a fault. (Schedules
/// never seat an entrant twice in a rank-point game; the rule keeps hand-made fields fair too.)
pub fn standings<E: Clone + Ord>(game: GameId, results: &[MatchResult<E>]) -> Vec<Standing<E>> {
    ranked(game, &crate::records(game, results).0)
}

/// The standings held in `records` (a live board's), ranked as [`standings`] ranks them.
/// Entrants that have not completed a game yet are left out.
pub fn ranked<E: Clone + Ord>(game: GameId, records: &BTreeMap<E, Record>) -> Vec<Standing<E>> {
    let scheme = Scheme::of(game);
    let mut rows: Vec<Standing<E>> = records
        .iter()
        .filter(|(_, r)| r.tally.games() > 0)
        .map(|(entrant, r)| r.tally.row(entrant.clone(), scheme.scoring))
        .collect();
    rows.sort_by(|a, b| {
        b.metric
            .total_cmp(&a.metric)
            .then_with(|| compare_scores(&scheme, a.mean_score, b.mean_score))
            .then_with(|| a.entrant.cmp(&b.entrant))
    });
    let mut position = 1;
    let mut previous: Option<f64> = None;
    for (i, row) in rows.iter_mut().enumerate() {
        if previous != Some(row.metric) {
            position = u32::try_from(i + 1).unwrap_or(u32::MAX);
        }
        previous = Some(row.metric);
        row.position = position;
        if scheme.scoring == (Scoring::RankPoints { battle_score: true }) {
            row.extra = Extra::Splendor {
                battle_score: battle_score(position),
            };
        }
    }
    rows
}

/// `Less` when mean score `a` is the better one.
fn compare_scores(scheme: &Scheme, a: f64, b: f64) -> Ordering {
    match scheme.score_order {
        croupier_games::ScoreOrder::HigherIsBetter => b.total_cmp(&a),
        croupier_games::ScoreOrder::LowerIsBetter => a.total_cmp(&b),
    }
}

#[cfg(test)]
mod tests;

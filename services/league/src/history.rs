//! Rating and score history: where each entrant stood after each of its matches, for plots.
//! The rules are on [`history`].

use std::collections::BTreeMap;

use croupier_games::GameId;
use serde::{Deserialize, Serialize};

use crate::results::MatchResult;

/// An entrant's standing right after one of its matches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HistoryPoint {
    /// The match's ordinal (Bridge: the duplicate set's second table).
    pub ordinal: u32,
    #[serde(flatten)]
    pub step: HistoryStep,
}

/// What a [`HistoryPoint`] holds: a rating (rated games) or a score (unrated games).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HistoryStep {
    /// The Weng-Lin rating after the match, as the leaderboard shows it.
    Rating {
        /// μ, the estimated skill.
        mu: f64,
        /// σ, how unsure that estimate is.
        sigma: f64,
        /// μ − 3σ, the value the leaderboard ranks and shows.
        display: f64,
    },
    /// Unrated games (Hanabi): the native score.
    Score {
        /// This match's score (the mean over the entrant's seats).
        score: f64,
        /// The mean score over the entrant's matches so far.
        mean: f64,
        /// The half-width of that mean's 95% confidence interval; `None` under two matches.
        half_width: Option<f64>,
    },
}

impl HistoryPoint {
    /// The number the leaderboard shows at this point: the rating μ − 3σ, or the mean score.
    pub fn shown(&self) -> f64 {
        match self.step {
            HistoryStep::Rating { display, .. } => display,
            HistoryStep::Score { mean, .. } => mean,
        }
    }

    /// The centre of the estimate: μ, or the mean score.
    pub fn centre(&self) -> f64 {
        match self.step {
            HistoryStep::Rating { mu, .. } => mu,
            HistoryStep::Score { mean, .. } => mean,
        }
    }

    /// The uncertainty band: μ ± 3σ (its low end is the shown rating), or the 95% confidence
    /// interval of the mean score (the mean itself under two matches).
    pub fn band(&self) -> (f64, f64) {
        match self.step {
            HistoryStep::Rating { mu, sigma, .. } => (mu - 3.0 * sigma, mu + 3.0 * sigma),
            HistoryStep::Score {
                mean, half_width, ..
            } => {
                let h = half_width.unwrap_or(0.0);
                (mean - h, mean + h)
            }
        }
    }
}

/// A whole history in at most [`Outline::CAP`] points, kept as points arrive: every
/// `stride`-th point is kept and, when the list is full, every other one is dropped and the
/// stride doubles, so the outline spans the whole history evenly; the latest point is always
/// kept too. The leaderboard draws its sparklines from it without reading every match.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Outline {
    stride: u32,
    seen: u32,
    kept: Vec<HistoryPoint>,
    last: Option<HistoryPoint>,
}

impl Outline {
    pub const CAP: usize = 64;

    pub fn push(&mut self, point: HistoryPoint) {
        self.stride = self.stride.max(1);
        if self.seen % self.stride == 0 {
            self.kept.push(point);
            if self.kept.len() > Self::CAP {
                self.kept = self.kept.iter().step_by(2).copied().collect();
                self.stride *= 2;
            }
        }
        self.seen += 1;
        self.last = Some(point);
    }

    /// How many points were pushed: the whole history's length.
    pub fn len(&self) -> usize {
        self.seen as usize
    }

    pub fn is_empty(&self) -> bool {
        self.seen == 0
    }

    /// The kept points in order, ending with the latest.
    pub fn points(&self) -> Vec<HistoryPoint> {
        let mut points = self.kept.clone();
        if let Some(last) = self.last {
            if points.last() != Some(&last) {
                points.push(last);
            }
        }
        points
    }
}

/// Every entrant's history in `game`, its points in match order.
///
/// * Rated games: the rating after each match that rated the entrant, computed exactly as
///   [`ratings`](crate::ratings) computes the final ones (same matches, same order, same
///   model), so the last point is the entrant's rating on the leaderboard.
/// * Unrated games (Hanabi): each match's score (the entrant's seats averaged, as standings
///   count it) with the running mean and its 95% confidence interval, so the last point's mean
///   is the leaderboard's mean score.
///
/// Matches with a platform fault are left out, as everywhere.
pub fn history<E: Clone + Ord>(
    game: GameId,
    results: &[MatchResult<E>],
) -> BTreeMap<E, Vec<HistoryPoint>> {
    crate::records(game, results).1
}

#[cfg(test)]
mod tests;

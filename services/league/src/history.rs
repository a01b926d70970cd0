//! Rating and score history: where each entrant stood after each of its matches, for plots.
//! The rules are on [`history`].

use std::collections::BTreeMap;

use croupier_games::GameId;
use serde::{Deserialize, Serialize};

use crate::ratings::{rate, Table};
use crate::results::MatchResult;
use crate::standings::per_entrant;
use crate::stats::t_975;
use crate::{RatingForm, Scheme};

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
    if Scheme::of(game).rating == RatingForm::Unrated {
        return scores(results);
    }
    let mut table = Table::recording();
    rate(game, results, &mut table);
    table
        .into_history()
        .into_iter()
        .map(|(entrant, steps)| {
            let points = steps.into_iter().map(|(ordinal, mu, sigma)| HistoryPoint {
                ordinal,
                step: HistoryStep::Rating {
                    mu,
                    sigma,
                    display: mu - 3.0 * sigma,
                },
            });
            (entrant, points.collect())
        })
        .collect()
}

/// Score histories: per entrant, each match's score and the running mean with its interval.
fn scores<E: Clone + Ord>(results: &[MatchResult<E>]) -> BTreeMap<E, Vec<HistoryPoint>> {
    let mut ordered: Vec<&MatchResult<E>> = results.iter().filter(|r| r.counts()).collect();
    ordered.sort_by_key(|r| r.ordinal);
    let mut sums: BTreeMap<E, Running> = BTreeMap::new();
    let mut out: BTreeMap<E, Vec<HistoryPoint>> = BTreeMap::new();
    for result in ordered {
        for game in per_entrant(result.seats.iter()) {
            let running = sums.entry(game.entrant.clone()).or_default();
            running.add(game.score);
            let point = HistoryPoint {
                ordinal: result.ordinal,
                step: HistoryStep::Score {
                    score: game.score,
                    mean: running.mean(),
                    half_width: running.half_width(),
                },
            };
            out.entry(game.entrant.clone()).or_default().push(point);
        }
    }
    out
}

/// A running mean and 95% Student-t interval (the same formula as [`Interval`](crate::Interval),
/// kept in O(1) per value; Welford's update keeps it exact enough for long runs).
#[derive(Default)]
struct Running {
    n: u32,
    mean: f64,
    /// Sum of squared deviations from the mean.
    m2: f64,
}

impl Running {
    fn add(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / f64::from(self.n);
        self.m2 += delta * (x - self.mean);
    }

    fn mean(&self) -> f64 {
        self.mean
    }

    fn half_width(&self) -> Option<f64> {
        (self.n >= 2).then(|| {
            let n = f64::from(self.n);
            let sd = (self.m2.max(0.0) / (n - 1.0)).sqrt();
            t_975(self.n - 1) * sd / n.sqrt()
        })
    }
}

#[cfg(test)]
mod tests;

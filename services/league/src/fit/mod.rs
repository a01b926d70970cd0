//! The fitted final ranking: one model fitted over all of a competition's matches at once,
//! with a 95% interval per entrant and, for each pair of neighbours, whether their order is
//! significant. Unlike the online rating it does not depend on the order matches landed in.
//!
//! | game | model ([`FitModel`]) | one observation |
//! |---|---|---|
//! | No Thanks, Splendor (and any free-for-all) | Plackett–Luce | a match's finishing order (shared ranks are ties) |
//! | Guandan | Bradley–Terry | a match: the two sides' ranks (a draw is half a win each) |
//! | Bridge | Bradley–Terry | a duplicate set, won on total IMPs (0 IMPs is a draw) |
//! | Hanabi (cooperative) | mean score | a game's score: the mean with its Student-t interval |
//!
//! Bradley–Terry is Plackett–Luce with two entrants, so one fit serves both (the details, the
//! prior and the interval are in the `luce` module's docs). Strengths are log-odds: an entrant
//! 1.0 stronger than another beats it with probability e/(1+e) ≈ 73% in a pair, and the
//! prior's average entrant is 0. The interval is θ ± 1.96·se from the observed information;
//! neighbours are significantly ordered when their difference is 1.96 standard errors of the
//! difference (their covariance counted) or more. In Hanabi the strength is the mean score
//! with its Student-t interval, and neighbours are compared by the normal test on the two means.
//! Matches with a platform fault are left out, as in the standings.

mod luce;
mod matrix;

use std::collections::BTreeMap;

use croupier_games::GameId;
use serde::{Deserialize, Serialize};

use crate::bridge::duplicates;
use crate::results::MatchResult;
use crate::standings::sides_apart;
use crate::stats::Moments;
use crate::{RatingForm, Scheme};

pub(crate) use luce::Fit;
use matrix::Square;

/// The 97.5% quantile of the normal distribution: 95% two-sided.
pub(crate) const Z_95: f64 = 1.959_963_984_540_054;

/// Which model a fitted ranking uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FitModel {
    /// Pairwise wins (Guandan matches, Bridge duplicate sets).
    BradleyTerry,
    /// Finishing orders of three or more (No Thanks, Splendor).
    PlackettLuce,
    /// Cooperative: the mean game score (Hanabi).
    MeanScore,
}

impl FitModel {
    /// The model of `game`'s scheme.
    pub fn of(game: GameId) -> FitModel {
        match Scheme::of(game).rating {
            RatingForm::FreeForAll => FitModel::PlackettLuce,
            RatingForm::Teams | RatingForm::Duplicate => FitModel::BradleyTerry,
            RatingForm::Unrated => FitModel::MeanScore,
        }
    }
}

/// A fitted ranking, strongest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FittedRanking<E> {
    pub model: FitModel,
    pub rows: Vec<FittedRow<E>>,
}

/// One entrant of a fitted ranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FittedRow<E> {
    /// From 1, by strength (then entrant).
    pub position: u32,
    pub entrant: E,
    /// Log-strength (Bradley–Terry, Plackett–Luce; 0 is the prior's average entrant) or mean
    /// score (Hanabi).
    pub strength: f64,
    /// The 95% interval of `strength`.
    pub low: f64,
    pub high: f64,
    /// Observations it is in: matches (Bridge: duplicate sets; Hanabi: games).
    pub games: u32,
    /// Whether it is significantly (95%) ahead of the next row; `false` on the last row.
    pub ahead_of_next: bool,
}

impl<E> FittedRanking<E> {
    /// The runs of positions whose order is not decided: neighbours not significantly apart,
    /// as `(first, last)` positions, only runs of two or more.
    pub fn ties(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut start: Option<u32> = None;
        for row in &self.rows {
            let first = *start.get_or_insert(row.position);
            if row.ahead_of_next || row.position as usize == self.rows.len() {
                if row.position > first {
                    out.push((first, row.position));
                }
                start = None;
            }
        }
        out
    }
}

/// The fitted ranking of `game` over `results` (every entrant that has an observation).
pub fn fitted<E: Clone + Ord>(game: GameId, results: &[MatchResult<E>]) -> FittedRanking<E> {
    let mut entrants: Vec<E> = results
        .iter()
        .filter(|r| r.counts())
        .flat_map(|r| r.seats.iter().map(|s| s.entrant.clone()))
        .collect();
    entrants.sort();
    entrants.dedup();
    let field = FieldFit::new(game, &entrants, results);
    let mut order: Vec<usize> = (0..entrants.len())
        .filter(|&i| field.games[i] > 0)
        .collect();
    order.sort_by(|&a, &b| {
        field.fit.theta[b]
            .total_cmp(&field.fit.theta[a])
            .then_with(|| entrants[a].cmp(&entrants[b]))
    });
    let rows = order
        .iter()
        .enumerate()
        .map(|(place, &i)| {
            let half = field.half_width(i);
            let theta = field.fit.theta[i];
            FittedRow {
                position: u32::try_from(place + 1).unwrap_or(u32::MAX),
                entrant: entrants[i].clone(),
                strength: theta,
                low: theta - half,
                high: theta + half,
                games: field.games[i],
                ahead_of_next: order
                    .get(place + 1)
                    .is_some_and(|&next| field.fit.z(i, next) >= Z_95),
            }
        })
        .collect();
    FittedRanking {
        model: field.model,
        rows,
    }
}

/// A field fitted by index: entrant `i` of the list it was made from.
pub(crate) struct FieldFit {
    pub(crate) model: FitModel,
    pub(crate) fit: Fit,
    /// Observations per entrant.
    pub(crate) games: Vec<u32>,
    /// Mean score only: the Student-t half-width per entrant (the normal one elsewhere).
    t_half: Option<Vec<f64>>,
}

impl FieldFit {
    /// Fits `entrants` (listed once each) over `results`; seats of anyone else are ignored,
    /// and an observation needs two listed entrants (one in Hanabi).
    pub(crate) fn new<E: Ord>(
        game: GameId,
        entrants: &[E],
        results: &[MatchResult<E>],
    ) -> FieldFit {
        let index: BTreeMap<&E, usize> = entrants.iter().enumerate().map(|(i, e)| (e, i)).collect();
        let model = FitModel::of(game);
        let n = entrants.len();
        if model == FitModel::MeanScore {
            return mean_scores(n, &index, results);
        }
        let rankings = observations(game, &index, results);
        let mut games = vec![0_u32; n];
        for ranking in &rankings {
            for &(i, _) in ranking {
                games[i] += 1;
            }
        }
        FieldFit {
            model,
            fit: luce::fit(n, &rankings, luce::PRIOR),
            games,
            t_half: None,
        }
    }

    /// The 95% half-width of entrant `i`'s strength.
    pub(crate) fn half_width(&self, i: usize) -> f64 {
        match &self.t_half {
            Some(t) => t.get(i).copied().unwrap_or(f64::INFINITY),
            None => Z_95 * self.fit.cov.get(i, i).max(0.0).sqrt(),
        }
    }
}

/// Each counting result as a ranking of listed entrants (index, rank).
fn observations<E: Ord>(
    game: GameId,
    index: &BTreeMap<&E, usize>,
    results: &[MatchResult<E>],
) -> Vec<Vec<(usize, u32)>> {
    let at = |e: &E| index.get(e).copied();
    let scheme = Scheme::of(game);
    let mut out = Vec::new();
    match scheme.rating {
        RatingForm::FreeForAll => {
            for result in results.iter().filter(|r| r.counts()) {
                let places: Option<Vec<(usize, u32)>> = result
                    .seats
                    .iter()
                    .map(|s| at(&s.entrant).map(|i| (i, s.rank)))
                    .collect();
                let Some(places) = places else { continue };
                let mut seen: Vec<usize> = places.iter().map(|p| p.0).collect();
                seen.sort_unstable();
                seen.dedup();
                if seen.len() == places.len() && places.len() >= 2 {
                    out.push(places);
                }
            }
        }
        RatingForm::Teams => {
            for result in results.iter().filter(|r| r.counts() && sides_apart(r)) {
                let side = |n: usize| {
                    let mut members: Vec<&E> = result.side(n).map(|s| &s.entrant).collect();
                    members.dedup();
                    match members.as_slice() {
                        [only] => at(only).map(|i| (i, result.side_rank(n))),
                        _ => None,
                    }
                };
                if let (Some(a), Some(b)) = (side(0), side(1)) {
                    out.push(vec![a, b]);
                }
            }
        }
        RatingForm::Duplicate => {
            for set in duplicates(results) {
                let imps = set.imps();
                if let (Some(a), Some(b)) = (at(set.first), at(set.second)) {
                    out.push(vec![
                        (a, u32::from(imps < 0) + 1),
                        (b, u32::from(imps > 0) + 1),
                    ]);
                }
            }
        }
        RatingForm::Unrated => {}
    }
    out
}

/// Hanabi: each entrant's mean score per game (an entrant's seats in one game averaged), its
/// Student-t interval, and a diagonal covariance of the means. An entrant with one game gets
/// the field's pooled spread; one with none gets the field's mean and an unbounded variance.
fn mean_scores<E: Ord>(
    n: usize,
    index: &BTreeMap<&E, usize>,
    results: &[MatchResult<E>],
) -> FieldFit {
    let mut moments = vec![Moments::default(); n];
    let mut everyone = Moments::default();
    for result in results.iter().filter(|r| r.counts()) {
        let mut by_entrant: BTreeMap<usize, (f64, u32)> = BTreeMap::new();
        for seat in &result.seats {
            if let Some(&i) = index.get(&seat.entrant) {
                let slot = by_entrant.entry(i).or_insert((0.0, 0));
                slot.0 += seat.score;
                slot.1 += 1;
            }
        }
        for (i, (sum, seats)) in by_entrant {
            let score = sum / f64::from(seats);
            moments[i].push(score);
            everyone.push(score);
        }
    }
    let pooled_var = if everyone.n >= 2 {
        everyone.m2 / f64::from(everyone.n - 1)
    } else {
        1.0
    };
    let mut cov = Square::zero(n);
    let mut theta = vec![everyone.mean(); n];
    let mut t_half = vec![f64::INFINITY; n];
    for (i, m) in moments.iter().enumerate() {
        let interval = m.interval();
        let var = match (m.n, interval.half_width) {
            (0, _) => 1e12,
            (_, Some(h)) if h > 0.0 => {
                t_half[i] = h;
                (h / crate::t_975(m.n - 1)).powi(2)
            }
            (k, _) => {
                let v = pooled_var / f64::from(k);
                t_half[i] = Z_95 * v.sqrt();
                v
            }
        };
        if m.n > 0 {
            theta[i] = interval.mean;
        }
        cov.add(i, i, var);
    }
    FieldFit {
        model: FitModel::MeanScore,
        fit: Fit { theta, cov },
        games: moments.iter().map(|m| m.n).collect(),
        t_half: Some(t_half),
    }
}

#[cfg(test)]
mod tests;

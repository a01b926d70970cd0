//! Summing finished matches per entrant, one way per [`Scoring`].

use std::collections::BTreeMap;

use crate::bridge::duplicates;
use crate::results::{MatchResult, SeatOutcome};
use crate::stats::Interval;
use crate::Scoring;

use super::{Extra, Standing};

/// Rank points for a rank: 1st 4, 2nd 2, 3rd 1, anything else 0.
pub fn rank_points(rank: u32) -> u32 {
    match rank {
        1 => 4,
        2 => 2,
        3 => 1,
        _ => 0,
    }
}

#[derive(Default)]
pub(super) struct Tally {
    games: u32,
    /// One value per game (Bridge: per board) for the interval.
    samples: Vec<f64>,
    /// Rank points, an entrant's seats in one match averaged.
    rank_point_sum: f64,
    score: f64,
    wins: u32,
    draws: u32,
    faults: u32,
    imps: i64,
}

impl Tally {
    fn game(&mut self, sample: f64, score: f64, faulted: bool) {
        self.games += 1;
        self.samples.push(sample);
        self.score += score;
        self.faults += u32::from(faulted);
    }

    pub(super) fn into_row<E>(self, entrant: E, scoring: Scoring) -> Standing<E> {
        let interval = Interval::of(&self.samples);
        let sum: f64 = self.samples.iter().sum();
        let mean_score = if self.games == 0 {
            0.0
        } else {
            self.score / f64::from(self.games)
        };
        let (metric, extra) = match scoring {
            Scoring::RankPoints { .. } => (self.rank_point_sum, Extra::None),
            Scoring::GamesWon => (
                sum,
                Extra::Guandan {
                    games_won: sum,
                    draws: self.draws,
                },
            ),
            Scoring::Imps => (
                self.imps as f64,
                Extra::Bridge {
                    imps: self.imps,
                    boards: interval.n,
                    imps_per_board: interval.mean,
                    points: self.score.round() as i64,
                },
            ),
            Scoring::MeanScore => (interval.mean, Extra::None),
        };
        Standing {
            position: 0,
            entrant,
            games: self.games,
            metric,
            interval,
            rank_points: self.rank_point_sum.round() as u32,
            total_score: self.score,
            mean_score,
            wins: self.wins,
            faults: self.faults,
            extra,
        }
    }
}

pub(super) fn collect<E: Clone + Ord>(
    scoring: Scoring,
    results: &[MatchResult<E>],
) -> BTreeMap<E, Tally> {
    let mut tallies: BTreeMap<E, Tally> = BTreeMap::new();
    let counted = results.iter().filter(|r| r.counts());
    match scoring {
        Scoring::RankPoints { .. } => {
            for result in counted {
                for e in per_entrant(result.seats.iter()) {
                    let tally = tallies.entry(e.entrant.clone()).or_default();
                    tally.game(e.rank_points, e.score, e.faulted);
                    tally.rank_point_sum += e.rank_points;
                    tally.wins += u32::from(e.best_rank == 1);
                }
            }
        }
        Scoring::GamesWon => {
            for result in counted.filter(|r| sides_apart(r)) {
                for side in 0..2 {
                    let won = match result.side_rank(side).cmp(&result.side_rank(1 - side)) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    };
                    for e in per_entrant(result.side(side)) {
                        let tally = tallies.entry(e.entrant.clone()).or_default();
                        tally.game(won, e.score, e.faulted);
                        tally.wins += u32::from(won == 1.0);
                        tally.draws += u32::from(won == 0.5);
                    }
                }
            }
        }
        Scoring::Imps => {
            for set in duplicates(results) {
                let faults = |e: &E| {
                    let faulted = |t: &MatchResult<E>| {
                        t.seats
                            .iter()
                            .any(|s| &s.entrant == e && s.end_state.is_fault())
                    };
                    set.tables.iter().filter(|t| faulted(t)).count() as u32
                };
                let imps = set.imps();
                for (entrant, sign) in [(set.first, 1), (set.second, -1)] {
                    let tally = tallies.entry(entrant.clone()).or_default();
                    tally.games += 2;
                    tally
                        .samples
                        .extend(set.board_imps.iter().map(|&i| (i * sign) as f64));
                    tally.score += (set.points * sign) as f64;
                    tally.imps += imps * sign;
                    tally.wins += u32::from(imps * sign > 0);
                    tally.draws += u32::from(imps == 0);
                    tally.faults += faults(entrant);
                }
            }
        }
        Scoring::MeanScore => {
            for result in counted {
                for e in per_entrant(result.seats.iter()) {
                    tallies
                        .entry(e.entrant.clone())
                        .or_default()
                        .game(e.score, e.score, e.faulted);
                }
            }
        }
    }
    tallies
}

/// Whether no entrant sits on both sides (otherwise a two-sided game says nothing about it).
pub(crate) fn sides_apart<E: PartialEq>(result: &MatchResult<E>) -> bool {
    result
        .side(0)
        .all(|a| result.side(1).all(|b| a.entrant != b.entrant))
}

/// One entrant's seats in one match, taken together: a submission counts once per match
/// however many seats it holds (self-play, partners, or a field with a repeated entrant).
pub(crate) struct EntrantGame<'a, E> {
    pub(crate) entrant: &'a E,
    /// Mean over its seats.
    pub(crate) score: f64,
    /// Mean over its seats of the rank points (4/2/1).
    rank_points: f64,
    best_rank: u32,
    /// Whether any of its seats faulted.
    faulted: bool,
}

/// Each distinct entrant among `seats` once, in first-seat order.
pub(crate) fn per_entrant<'a, E: PartialEq + 'a>(
    seats: impl Iterator<Item = &'a SeatOutcome<E>>,
) -> Vec<EntrantGame<'a, E>> {
    let mut out: Vec<(EntrantGame<'a, E>, u32)> = Vec::new();
    for seat in seats {
        let points = f64::from(rank_points(seat.rank));
        match out.iter_mut().find(|(e, _)| e.entrant == &seat.entrant) {
            Some((e, n)) => {
                e.score += seat.score;
                e.rank_points += points;
                e.best_rank = e.best_rank.min(seat.rank);
                e.faulted |= seat.end_state.is_fault();
                *n += 1;
            }
            None => out.push((
                EntrantGame {
                    entrant: &seat.entrant,
                    score: seat.score,
                    rank_points: points,
                    best_rank: seat.rank,
                    faulted: seat.end_state.is_fault(),
                },
                1,
            )),
        }
    }
    out.into_iter()
        .map(|(mut e, n)| {
            e.score /= f64::from(n);
            e.rank_points /= f64::from(n);
            e
        })
        .collect()
}

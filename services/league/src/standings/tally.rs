//! Summing finished matches per entrant, one way per [`Scoring`], one result at a time.

use std::collections::BTreeMap;

use croupier_games::ScoreOrder;
use serde::{Deserialize, Serialize};

use crate::bridge::Duplicate;
use crate::results::{MatchResult, SeatOutcome};
use crate::stats::Moments;
use crate::{Scheme, Scoring};

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

/// What the standings keep of one entrant: running sums updated as each result lands
/// ([`add_match`], [`add_set`]), so a board never re-reads old matches.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    games: u32,
    /// One value per game (Bridge: per board) for the interval.
    samples: Moments,
    /// Games won, draws ½ (Guandan's metric).
    won: f64,
    /// Rank points, an entrant's seats in one match averaged.
    rank_point_sum: f64,
    score: f64,
    /// The best score of one seat in one match (per the game's score order).
    best: Option<f64>,
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

    fn seat_score(&mut self, score: f64, order: ScoreOrder) {
        let better = match (self.best, order) {
            (None, _) => true,
            (Some(old), ScoreOrder::HigherIsBetter) => score > old,
            (Some(old), ScoreOrder::LowerIsBetter) => score < old,
        };
        if better {
            self.best = Some(score);
        }
    }

    /// Games counted (Bridge: tables of completed duplicate sets).
    pub fn games(&self) -> u32 {
        self.games
    }

    /// The best score of one seat in one match so far.
    pub fn best_score(&self) -> Option<f64> {
        self.best
    }

    /// The metric's samples so far (the mean score's, in unrated games).
    pub(crate) fn samples(&self) -> &Moments {
        &self.samples
    }

    pub(super) fn row<E>(&self, entrant: E, scoring: Scoring) -> Standing<E> {
        let interval = self.samples.interval();
        let mean_score = if self.games == 0 {
            0.0
        } else {
            self.score / f64::from(self.games)
        };
        let (metric, extra) = match scoring {
            Scoring::RankPoints { .. } => (self.rank_point_sum, Extra::None),
            Scoring::GamesWon => (
                self.won,
                Extra::Guandan {
                    games_won: self.won,
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

/// Adds one finished match to its entrants' tallies (every scoring but IMPs, whose unit is the
/// duplicate set: [`add_set`]). Returns whether it counted.
pub(crate) fn add_match<E: Clone + Ord>(
    scheme: &Scheme,
    result: &MatchResult<E>,
    tallies: &mut BTreeMap<E, Tally>,
) -> bool {
    if !result.counts() {
        return false;
    }
    match scheme.scoring {
        Scoring::RankPoints { .. } | Scoring::MeanScore => {
            let rank_points = matches!(scheme.scoring, Scoring::RankPoints { .. });
            for e in per_entrant(result.seats.iter()) {
                let t = entry(tallies, e.entrant);
                match rank_points {
                    true => {
                        t.game(e.rank_points, e.score, e.faulted);
                        t.rank_point_sum += e.rank_points;
                        t.wins += u32::from(e.best_rank == 1);
                    }
                    false => t.game(e.score, e.score, e.faulted),
                }
            }
        }
        Scoring::GamesWon => {
            if !sides_apart(result) {
                return false;
            }
            for side in 0..2 {
                let won = match result.side_rank(side).cmp(&result.side_rank(1 - side)) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                for e in per_entrant(result.side(side)) {
                    let t = entry(tallies, e.entrant);
                    t.game(won, e.score, e.faulted);
                    t.won += won;
                    t.wins += u32::from(won == 1.0);
                    t.draws += u32::from(won == 0.5);
                }
            }
        }
        Scoring::Imps => return false,
    }
    for seat in &result.seats {
        entry(tallies, &seat.entrant).seat_score(seat.score, scheme.score_order);
    }
    true
}

/// Adds one completed Bridge duplicate set to its two entrants' tallies.
pub(crate) fn add_set<E: Clone + Ord>(
    scheme: &Scheme,
    set: &Duplicate<'_, E>,
    tallies: &mut BTreeMap<E, Tally>,
) {
    let faults = |e: &E| {
        let faulted = |t: &&&MatchResult<E>| {
            t.seats
                .iter()
                .any(|s| &s.entrant == e && s.end_state.is_fault())
        };
        set.tables.iter().filter(faulted).count() as u32
    };
    let imps = set.imps();
    for (entrant, sign) in [(set.first, 1), (set.second, -1)] {
        let tally = entry(tallies, entrant);
        tally.games += 2;
        for &i in &set.board_imps {
            tally.samples.push((i * sign) as f64);
        }
        tally.score += (set.points * sign) as f64;
        tally.imps += imps * sign;
        tally.wins += u32::from(imps * sign > 0);
        tally.draws += u32::from(imps == 0);
        tally.faults += faults(entrant);
    }
    for seat in set.tables.iter().flat_map(|t| &t.seats) {
        entry(tallies, &seat.entrant).seat_score(seat.score, scheme.score_order);
    }
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

fn entry<'a, E: Clone + Ord>(tallies: &'a mut BTreeMap<E, Tally>, entrant: &E) -> &'a mut Tally {
    tallies.entry(entrant.clone()).or_default()
}

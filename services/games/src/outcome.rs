//! The result of a finished game: a score and a rank per seat.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::api::Seat;

/// Which way scores point. Each game decides (No Thanks: lower; Splendor, Hanabi: higher).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreOrder {
    LowerIsBetter,
    HigherIsBetter,
}

impl ScoreOrder {
    /// `Less` when score `a` is better than score `b`.
    pub fn compare(self, a: i64, b: i64) -> Ordering {
        match self {
            ScoreOrder::LowerIsBetter => a.cmp(&b),
            ScoreOrder::HigherIsBetter => b.cmp(&a),
        }
    }
}

/// One seat's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatResult {
    pub seat: Seat,
    pub score: i64,
    /// 1 = best. Tied seats share a rank and the next rank is skipped (1, 1, 3).
    pub rank: u32,
}

/// Score and rank for every seat of a finished game, seat order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub order: ScoreOrder,
    pub seats: Vec<SeatResult>,
    /// Seats that were due to move but never made a legal move, ranked last by
    /// [`Outcome::demote_idle`] (the platform's rule, see [`crate::fair`]). Empty in an engine's
    /// own outcome.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub idle: Vec<Seat>,
}

impl Outcome {
    /// Ranks by score alone; equal scores share a rank. `scores[i]` is seat `i`'s.
    pub fn from_scores(order: ScoreOrder, scores: &[i64]) -> Self {
        let no_tiebreak = vec![(); scores.len()];
        Self::from_scores_then(order, scores, &no_tiebreak)
    }

    /// Ranks by score, then by `tiebreak` (lower key is better: Splendor passes the number of
    /// purchased cards). Seats equal on both share a rank. A missing key counts as equal.
    pub fn from_scores_then<K: Ord>(order: ScoreOrder, scores: &[i64], tiebreak: &[K]) -> Self {
        let better = |a: usize, b: usize, score_a: i64, score_b: i64| {
            order
                .compare(score_a, score_b)
                .then_with(|| match (tiebreak.get(a), tiebreak.get(b)) {
                    (Some(ka), Some(kb)) => ka.cmp(kb),
                    _ => Ordering::Equal,
                })
                .is_lt()
        };
        let seats = scores
            .iter()
            .enumerate()
            .map(|(i, &score)| {
                let ahead = scores
                    .iter()
                    .enumerate()
                    .filter(|&(j, &other)| better(j, i, other, score))
                    .count();
                SeatResult {
                    seat: Seat(i),
                    score,
                    rank: u32::try_from(ahead).unwrap_or(u32::MAX).saturating_add(1),
                }
            })
            .collect();
        Outcome {
            order,
            seats,
            idle: Vec::new(),
        }
    }

    /// Ranks the seats with `idle[s] == true` last: below every other seat, all sharing one
    /// rank whatever their scores. The other seats keep their order among themselves (so their
    /// ties and tie-breaks stand). Scores are unchanged.
    pub fn demote_idle(mut self, idle: &[bool]) -> Self {
        let is_idle = |s: &SeatResult| idle.get(s.seat.index()).copied().unwrap_or(false);
        let before: Vec<(u32, bool)> = self.seats.iter().map(|s| (s.rank, is_idle(s))).collect();
        let playing = before.iter().filter(|(_, idle)| !idle).count();
        let last = u32::try_from(playing).unwrap_or(u32::MAX).saturating_add(1);
        for (seat, &(rank, idle)) in self.seats.iter_mut().zip(&before) {
            seat.rank = if idle {
                last
            } else {
                let ahead = before.iter().filter(|&&(r, i)| !i && r < rank).count();
                u32::try_from(ahead).unwrap_or(u32::MAX).saturating_add(1)
            };
        }
        self.idle = (self.seats.iter())
            .zip(&before)
            .filter(|(_, (_, idle))| *idle)
            .map(|(s, _)| s.seat)
            .collect();
        self
    }

    /// Whether `seat` is one of [`Outcome::idle`].
    pub fn is_idle(&self, seat: Seat) -> bool {
        self.idle.contains(&seat)
    }

    pub fn get(&self, seat: Seat) -> Option<&SeatResult> {
        self.seats.get(seat.index())
    }

    /// The seats ranked 1.
    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats.iter().filter(|r| r.rank == 1).map(|r| r.seat)
    }

    /// Checks the invariants every outcome keeps, saying which one fails: one entry per seat in
    /// seat order; each rank is 1 + the number of seats ranked strictly better; idle seats share
    /// the last rank, below every other seat; among the other seats a strictly better score
    /// never ranks worse and equal ranks have equal scores.
    pub fn check(&self, seats: usize) -> Result<(), String> {
        if self.seats.len() != seats {
            return Err(format!("{} results for {seats} seats", self.seats.len()));
        }
        if let Some(bad) = self.idle.iter().find(|s| s.index() >= seats) {
            return Err(format!("idle seat {bad} does not exist"));
        }
        for a in self.seats.iter().filter(|a| self.is_idle(a.seat)) {
            if let Some(b) = (self.seats.iter())
                .find(|b| b.rank > a.rank || (b.rank == a.rank && !self.is_idle(b.seat)))
            {
                return Err(format!(
                    "seat {} never made a legal move but does not rank below seat {}",
                    a.seat, b.seat
                ));
            }
        }
        for (i, a) in self.seats.iter().enumerate() {
            if a.seat != Seat(i) {
                return Err(format!("result {i} is for seat {}", a.seat));
            }
            let ahead = self.seats.iter().filter(|b| b.rank < a.rank).count();
            if usize::try_from(a.rank).ok() != Some(ahead + 1) {
                return Err(format!(
                    "seat {i} has rank {} with {ahead} seats ahead",
                    a.rank
                ));
            }
            if self.is_idle(a.seat) {
                continue;
            }
            for b in self.seats.iter().filter(|b| !self.is_idle(b.seat)) {
                let by_score = self.order.compare(a.score, b.score);
                if by_score.is_lt() && a.rank >= b.rank {
                    return Err(format!(
                        "seat {} scores better than seat {} but does not rank better",
                        a.seat, b.seat
                    ));
                }
                if a.rank == b.rank && by_score.is_ne() {
                    return Err(format!(
                        "seats {} and {} share rank {} with different scores",
                        a.seat, b.seat, a.rank
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(outcome: &Outcome) -> Vec<u32> {
        outcome.seats.iter().map(|r| r.rank).collect()
    }

    #[test]
    fn lower_scores_rank_first_when_lower_is_better() {
        let outcome = Outcome::from_scores(ScoreOrder::LowerIsBetter, &[30, -5, 12]);
        assert_eq!(ranks(&outcome), [3, 1, 2]);
        assert_eq!(outcome.check(3), Ok(()));
    }

    #[test]
    fn tied_scores_share_a_rank_and_the_next_rank_is_skipped() {
        let outcome = Outcome::from_scores(ScoreOrder::HigherIsBetter, &[15, 15, 9, 20]);
        assert_eq!(ranks(&outcome), [2, 2, 4, 1]);
        assert_eq!(outcome.winners().collect::<Vec<_>>(), [Seat(3)]);
        assert_eq!(outcome.check(4), Ok(()));
    }

    #[test]
    fn a_tiebreak_separates_equal_scores_and_the_outcome_stays_consistent() {
        let outcome =
            Outcome::from_scores_then(ScoreOrder::HigherIsBetter, &[15, 15, 15], &[7, 5, 7]);
        assert_eq!(ranks(&outcome), [2, 1, 2]);
        assert_eq!(outcome.check(3), Ok(()));
    }

    #[test]
    fn idle_seats_rank_last_and_tie_while_the_others_keep_their_order() {
        // Splendor-like: all on 0 points, the tie-break (fewer cards) favours seats 0 and 2.
        let engine = Outcome::from_scores_then(ScoreOrder::HigherIsBetter, &[0, 0, 0], &[0, 1, 0]);
        assert_eq!(ranks(&engine), [1, 3, 1]);
        let fair = engine.demote_idle(&[true, false, true]);
        assert_eq!(ranks(&fair), [2, 1, 2]);
        assert_eq!(fair.idle, [Seat(0), Seat(2)]);
        assert_eq!(fair.check(3), Ok(()));
        let four = Outcome::from_scores(ScoreOrder::LowerIsBetter, &[5, 9, 9, 1]);
        let fair = four.demote_idle(&[false, false, false, true]);
        assert_eq!(ranks(&fair), [1, 2, 2, 4]);
        assert_eq!(fair.check(4), Ok(()));
    }

    #[test]
    fn nobody_idle_or_everybody_idle_leaves_the_ranks_as_they_were_or_all_tied() {
        let engine = Outcome::from_scores(ScoreOrder::HigherIsBetter, &[3, 7, 5]);
        assert_eq!(engine.clone().demote_idle(&[false; 3]), engine);
        let all = engine.demote_idle(&[true; 3]);
        assert_eq!(ranks(&all), [1, 1, 1]);
        assert_eq!(all.check(3), Ok(()));
    }

    #[test]
    fn check_refuses_an_idle_seat_ranked_level_with_a_playing_one() {
        let mut outcome = Outcome::from_scores(ScoreOrder::HigherIsBetter, &[0, 0]);
        outcome.idle = vec![Seat(1)];
        assert!(outcome.check(2).is_err());
    }

    #[test]
    fn check_refuses_ranks_that_contradict_scores() {
        let mut outcome = Outcome::from_scores(ScoreOrder::LowerIsBetter, &[1, 2]);
        outcome.seats[0].rank = 2;
        outcome.seats[1].rank = 1;
        assert!(outcome.check(2).is_err());
    }
}

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
        Outcome { order, seats }
    }

    pub fn get(&self, seat: Seat) -> Option<&SeatResult> {
        self.seats.get(seat.index())
    }

    /// The seats ranked 1.
    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats.iter().filter(|r| r.rank == 1).map(|r| r.seat)
    }

    /// Checks the invariants every outcome keeps, saying which one fails: one entry per seat in
    /// seat order; each rank is 1 + the number of seats ranked strictly better; a strictly better
    /// score never ranks worse; equal ranks have equal scores.
    pub fn check(&self, seats: usize) -> Result<(), String> {
        if self.seats.len() != seats {
            return Err(format!("{} results for {seats} seats", self.seats.len()));
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
            for b in &self.seats {
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
    fn check_refuses_ranks_that_contradict_scores() {
        let mut outcome = Outcome::from_scores(ScoreOrder::LowerIsBetter, &[1, 2]);
        outcome.seats[0].rank = 2;
        outcome.seats[1].rank = 1;
        assert!(outcome.check(2).is_err());
    }
}

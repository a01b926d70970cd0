//! Ratings: Weng-Lin (OpenSkill) via `skillratings`, updated one landed result at a time; the
//! rules are on [`ratings`].

use std::collections::BTreeMap;

use croupier_games::GameId;
use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use crate::record::{Landed, Record};
use crate::results::MatchResult;
use crate::standings::sides_apart;
use crate::{RatingForm, Scheme};

/// An entrant's rating after every match so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rating<E> {
    pub entrant: E,
    /// μ, the estimated skill.
    pub rating: f64,
    /// σ, how unsure that estimate is.
    pub uncertainty: f64,
    /// μ − 3σ: the value to rank and show.
    pub display: f64,
    /// Matches rated (Bridge: duplicate sets).
    pub games: u32,
}

/// An entrant's Weng-Lin rating as the board keeps it between results.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// μ, the estimated skill.
    pub mu: f64,
    /// σ, how unsure that estimate is.
    pub sigma: f64,
    /// Matches rated (Bridge: duplicate sets).
    pub rated: u32,
}

impl Default for Skill {
    /// Everyone starts at μ = 25, σ = 25/3.
    fn default() -> Self {
        let start = WengLinRating::new();
        Skill {
            mu: start.rating,
            sigma: start.uncertainty,
            rated: 0,
        }
    }
}

impl Skill {
    /// μ − 3σ: the value to rank and show.
    pub fn display(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }

    pub(crate) fn rating<E>(&self, entrant: E) -> Rating<E> {
        Rating {
            entrant,
            rating: self.mu,
            uncertainty: self.sigma,
            display: self.display(),
            games: self.rated,
        }
    }
}

/// The ratings of `game` from its finished matches, best display value first (then entrant),
/// updated match by match in ordinal order with Weng-Lin (the OpenSkill model):
///
/// * Free for all (No Thanks, Splendor): every seat is a side of one, ordered by rank; shared
///   ranks are draws between those seats.
/// * Teams (Guandan): seats 0+2 against 1+3; a side is the distinct entrants on it (one, in a
///   scheduled match) and its rank is its best seat's.
/// * Duplicate (Bridge): the two tables of a set are one match between the two entrants, won on
///   total IMPs (0 is a draw), rated when the second table finishes.
/// * Hanabi is cooperative and has no ratings.
///
/// Everyone starts at rating μ = 25, uncertainty σ = 25/3; the conservative display value is
/// μ − 3σ (0 at the start), which only rises as a bot both wins and becomes certain. Matches with
/// a platform fault, or with one entrant on two sides, are skipped. A live board applies the
/// same update to each result as it lands ([`absorb`](crate::absorb)).
pub fn ratings<E: Clone + Ord>(game: GameId, results: &[MatchResult<E>]) -> Vec<Rating<E>> {
    rated(&crate::records(game, results).0)
}

/// The ratings held in `records`, best display value first (then entrant).
pub fn rated<E: Clone + Ord>(records: &BTreeMap<E, Record>) -> Vec<Rating<E>> {
    let mut out: Vec<Rating<E>> = records
        .iter()
        .filter_map(|(e, r)| r.skill.map(|s| s.rating(e.clone())))
        .collect();
    out.sort_by(|a, b| {
        b.display
            .total_cmp(&a.display)
            .then_with(|| a.entrant.cmp(&b.entrant))
    });
    out
}

/// Rates one landed match (or, for Bridge, the duplicate set it completed) into `records`;
/// returns the entrants whose rating changed.
pub(crate) fn rate<E: Clone + Ord>(
    scheme: &Scheme,
    landed: Landed<'_, E>,
    records: &mut BTreeMap<E, Record>,
) -> Vec<E> {
    match (scheme.rating, landed) {
        (RatingForm::FreeForAll, Landed::Match(result)) => {
            let sides = result.seats.iter().map(|s| (vec![&s.entrant], s.rank));
            update(records, sides.collect())
        }
        (RatingForm::Teams, Landed::Match(result)) if sides_apart(result) => {
            let side = |n: usize| {
                let mut entrants: Vec<&E> = result.side(n).map(|s| &s.entrant).collect();
                entrants.sort();
                entrants.dedup();
                (entrants, result.side_rank(n))
            };
            update(records, vec![side(0), side(1)])
        }
        (RatingForm::Duplicate, Landed::Set(set)) => {
            let imps = set.imps();
            let (first, second) = (u32::from(imps < 0) + 1, u32::from(imps > 0) + 1);
            update(
                records,
                vec![(vec![set.first], first), (vec![set.second], second)],
            )
        }
        _ => Vec::new(),
    }
}

/// Rates one match of `sides` (entrants, rank); skipped when an entrant is on two sides.
fn update<E: Clone + Ord>(records: &mut BTreeMap<E, Record>, sides: Vec<(Vec<&E>, u32)>) -> Vec<E> {
    let mut everyone: Vec<&E> = sides.iter().flat_map(|(e, _)| e.iter().copied()).collect();
    let count = everyone.len();
    everyone.sort();
    everyone.dedup();
    if everyone.len() != count || sides.len() < 2 || sides.iter().any(|(e, _)| e.is_empty()) {
        return Vec::new();
    }
    let current = |e: &E| {
        let skill = records.get(e).and_then(|r| r.skill).unwrap_or_default();
        WengLinRating {
            rating: skill.mu,
            uncertainty: skill.sigma,
        }
    };
    let teams: Vec<Vec<WengLinRating>> = sides
        .iter()
        .map(|(entrants, _)| entrants.iter().map(|e| current(e)).collect())
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&sides)
        .map(|(team, (_, rank))| (team.as_slice(), MultiTeamOutcome::new(*rank as usize)))
        .collect();
    let updated = weng_lin_multi_team(&input, &WengLinConfig::new());
    let mut changed = Vec::with_capacity(count);
    for ((entrants, _), new) in sides.iter().zip(updated) {
        for (entrant, rating) in entrants.iter().zip(new) {
            let record = records.entry((*entrant).clone()).or_default();
            let rated = record.skill.map_or(0, |s| s.rated) + 1;
            record.skill = Some(Skill {
                mu: rating.rating,
                sigma: rating.uncertainty,
                rated,
            });
            changed.push((*entrant).clone());
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;

    /// Plays `game`'s schedule for entrants 1..=n where a lower id always beats a higher one.
    fn pecking_order(game: GameId, n: u128, rounds: u32) -> Vec<MatchResult<Uuid>> {
        crate::testing::played(game, n, (rounds, 3), |e, _| -(e as f64))
    }

    #[test]
    fn a_bot_that_always_wins_ends_with_the_highest_rating() {
        for game in [
            GameId::NO_THANKS,
            GameId::SPLENDOR,
            GameId::GUANDAN,
            GameId::BRIDGE,
        ] {
            let rated = ratings(game, &pecking_order(game, 4, 3));
            let order: Vec<u128> = rated.iter().map(|r| r.entrant.as_u128()).collect();
            assert_eq!(order, [1, 2, 3, 4], "{game}");
            let best = &rated[0];
            assert!(
                best.rating > 25.0 && best.uncertainty < 25.0 / 3.0,
                "{game}"
            );
            assert!((best.display - (best.rating - 3.0 * best.uncertainty)).abs() < 1e-12);
        }
    }

    #[test]
    fn each_rated_match_counts_once_per_entrant() {
        // 4 entrants, 1 round: each is in 3 triples × 3 rotations; in 3 pairs × 2 tables.
        let games = |game| -> Vec<u32> {
            let rated = ratings(game, &pecking_order(game, 4, 1));
            rated.iter().map(|r| r.games).collect()
        };
        assert_eq!(games(GameId::NO_THANKS), [9, 9, 9, 9]);
        assert_eq!(games(GameId::GUANDAN), [6, 6, 6, 6]);
        assert_eq!(
            games(GameId::BRIDGE),
            [3, 3, 3, 3],
            "one rating per duplicate set"
        );
    }

    #[test]
    fn ratings_follow_the_ordinal_not_the_order_given() {
        let results = pecking_order(GameId::SPLENDOR, 5, 2);
        let mut reversed = results.clone();
        reversed.reverse();
        assert_eq!(
            ratings(GameId::SPLENDOR, &results),
            ratings(GameId::SPLENDOR, &reversed)
        );
    }

    #[test]
    fn cooperative_hanabi_has_no_ratings() {
        assert!(ratings(GameId::HANABI, &pecking_order(GameId::HANABI, 3, 2)).is_empty());
    }
}

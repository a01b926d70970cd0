//! A leaderboard kept as results land: each entrant's [`Record`] (its standings tally and its
//! rating), updated by [`absorb`] with one finished match at a time.
//!
//! This is the only place results enter standings, ratings and histories: the whole-list
//! functions ([`standings`](crate::standings), [`ratings`](crate::ratings),
//! [`history`](crate::history)) fold [`absorb`] over the matches in ordinal order, so a board
//! kept live and one rebuilt from every match agree exactly when the matches landed in that
//! order (and differ only in rating order effects when they did not).
//!
//! A Bridge table counts when the second table of its duplicate set lands: [`absorb`] is given
//! the finished tables of the landed match's set (its "mates") and scores the set then.

use std::collections::BTreeMap;

use croupier_games::GameId;
use serde::{Deserialize, Serialize};

use crate::bridge::{pair, Duplicate};
use crate::history::{HistoryPoint, HistoryStep};
use crate::ratings::{rate, Skill};
use crate::results::MatchResult;
use crate::standings::{add_match, add_set, per_entrant, Tally};
use crate::{RatingForm, Scheme, Scoring};

/// What a board keeps of one entrant between results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub tally: Tally,
    /// `None` until a rated match (and always in unrated games).
    pub skill: Option<Skill>,
}

/// What one result adds: a match, or the Bridge duplicate set it completed.
pub(crate) enum Landed<'a, E> {
    Match(&'a MatchResult<E>),
    Set(Duplicate<'a, E>),
}

/// Adds the finished match `landed` to `records` (creating its entrants' records) and returns
/// each entrant's new history point, in seat order.
///
/// `mates` are the other finished matches of its duplicate set (the league's `group`), used
/// only where the set is the unit (Bridge); a set scores once, when its second table lands.
/// Matches with a platform fault add nothing.
pub fn absorb<E: Clone + Ord>(
    game: GameId,
    landed: &MatchResult<E>,
    mates: &[&MatchResult<E>],
    records: &mut BTreeMap<E, Record>,
) -> Vec<(E, HistoryPoint)> {
    let scheme = Scheme::of(game);
    if !landed.counts() {
        return Vec::new();
    }
    let mut tallies: BTreeMap<E, Tally> = BTreeMap::new();
    let entrants: Vec<E> = {
        let mut seen: Vec<E> = Vec::new();
        for s in &landed.seats {
            if !seen.contains(&s.entrant) {
                seen.push(s.entrant.clone());
            }
        }
        seen
    };
    for e in &entrants {
        let tally = records.get(e).map(|r| r.tally.clone()).unwrap_or_default();
        tallies.insert(e.clone(), tally);
    }
    let unit = if scheme.scoring == Scoring::Imps {
        let mut tables: Vec<&MatchResult<E>> =
            mates.iter().copied().filter(|m| m.counts()).collect();
        tables.push(landed);
        match pair(tables) {
            Some(set) => {
                add_set(&scheme, &set, &mut tallies);
                Some(Landed::Set(set))
            }
            None => None,
        }
    } else {
        add_match(&scheme, landed, &mut tallies).then_some(Landed::Match(landed))
    };
    let Some(unit) = unit else {
        return Vec::new();
    };
    for (e, tally) in tallies {
        records.entry(e).or_default().tally = tally;
    }
    let rated = rate(&scheme, unit, records);
    if scheme.rating == RatingForm::Unrated {
        return per_entrant(landed.seats.iter())
            .into_iter()
            .filter_map(|g| {
                let samples = records.get(g.entrant)?.tally.samples().interval();
                let step = HistoryStep::Score {
                    score: g.score,
                    mean: samples.mean,
                    half_width: samples.half_width,
                };
                Some((g.entrant.clone(), point(landed, step)))
            })
            .collect();
    }
    rated
        .into_iter()
        .filter_map(|e| {
            let skill = records.get(&e)?.skill?;
            let step = HistoryStep::Rating {
                mu: skill.mu,
                sigma: skill.sigma,
                display: skill.display(),
            };
            Some((e, point(landed, step)))
        })
        .collect()
}

fn point<E>(landed: &MatchResult<E>, step: HistoryStep) -> HistoryPoint {
    HistoryPoint {
        ordinal: landed.ordinal,
        step,
    }
}

/// Every entrant's record and history from `results`, absorbed in ordinal order (a Bridge set
/// completes at its later table).
pub fn records<E: Clone + Ord>(
    game: GameId,
    results: &[MatchResult<E>],
) -> (BTreeMap<E, Record>, BTreeMap<E, Vec<HistoryPoint>>) {
    let mut ordered: Vec<&MatchResult<E>> = results.iter().collect();
    ordered.sort_by_key(|r| r.ordinal);
    let mut records = BTreeMap::new();
    let mut histories: BTreeMap<E, Vec<HistoryPoint>> = BTreeMap::new();
    let mut groups: BTreeMap<u32, Vec<&MatchResult<E>>> = BTreeMap::new();
    for result in ordered {
        let mates = groups.entry(result.group).or_default();
        for (e, p) in absorb(game, result, mates, &mut records) {
            histories.entry(e).or_default().push(p);
        }
        mates.push(result);
    }
    (records, histories)
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;
    use crate::testing::played;

    fn games() -> Vec<GameId> {
        croupier_games::registry::all()
    }

    /// A live board: each match absorbed as it lands, given its already-finished set mates,
    /// and each record serialized and read back between results as the database keeps it.
    fn live(game: GameId, landing: &[MatchResult<Uuid>]) -> BTreeMap<Uuid, Record> {
        let mut stored: BTreeMap<Uuid, serde_json::Value> = BTreeMap::new();
        for (i, result) in landing.iter().enumerate() {
            let mut records: BTreeMap<Uuid, Record> = stored
                .iter()
                .map(|(e, v)| (*e, serde_json::from_value(v.clone()).expect("a record")))
                .collect();
            let mates: Vec<&MatchResult<Uuid>> = landing[..i]
                .iter()
                .filter(|m| m.group == result.group)
                .collect();
            absorb(game, result, &mates, &mut records);
            for (e, r) in records {
                stored.insert(e, serde_json::to_value(r).expect("json"));
            }
        }
        stored
            .into_iter()
            .map(|(e, v)| (e, serde_json::from_value(v).expect("a record")))
            .collect()
    }

    #[test]
    fn a_board_kept_result_by_result_equals_one_built_from_every_match() {
        for game in games() {
            let results = played(game, 5, (2, 11), |e, o| (e as f64) * 3.0 - f64::from(o % 7));
            let (batch, _) = records(game, &results);
            let kept = live(game, &results);
            assert_eq!(kept, batch, "{game}");
            assert_eq!(crate::ranked(game, &kept), crate::standings(game, &results));
            assert_eq!(crate::rated(&kept), crate::ratings(game, &results));
        }
    }

    #[test]
    fn standings_do_not_depend_on_the_order_results_land_in() {
        for game in games() {
            let results = played(game, 4, (2, 5), |e, o| (e as f64) + f64::from(o % 3));
            let mut reversed = results.clone();
            reversed.reverse();
            let (forward, backward) = (live(game, &results), live(game, &reversed));
            let rows = |r: &BTreeMap<Uuid, Record>| -> Vec<(Uuid, u32, u32, f64)> {
                crate::ranked(game, r)
                    .into_iter()
                    .map(|s| (s.entrant, s.position, s.games, s.metric))
                    .collect()
            };
            assert_eq!(rows(&forward), rows(&backward), "{game}");
        }
    }

    #[test]
    fn a_bridge_set_scores_once_when_its_second_table_lands() {
        let results = played(GameId::BRIDGE, 2, (1, 3), |_, _| 0.0);
        assert_eq!(results.len(), 2);
        let mut records = BTreeMap::new();
        let first = absorb(GameId::BRIDGE, &results[1], &[], &mut records);
        assert!(
            first.is_empty() && records.is_empty(),
            "half a set counts nothing"
        );
        let second = absorb(GameId::BRIDGE, &results[0], &[&results[1]], &mut records);
        assert_eq!(second.len(), 2, "both entrants get a rating point");
        assert!(records.values().all(|r| r.tally.games() == 2));
        assert!(records
            .values()
            .all(|r| r.skill.is_some_and(|s| s.rated == 1)));
    }

    #[test]
    fn a_platform_fault_adds_nothing() {
        let mut results = played(GameId::NO_THANKS, 3, (1, 3), |_, _| 1.0);
        results[0].seats[1].end_state = crate::EndState::SetupError;
        let mut records = BTreeMap::new();
        assert!(absorb(GameId::NO_THANKS, &results[0], &[], &mut records).is_empty());
        assert!(records.is_empty());
    }
}

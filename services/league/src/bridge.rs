//! Pairing the two tables of a Bridge duplicate set and scoring them in IMPs.
//!
//! Table 1 seats A North-South and B East-West, table 2 the reverse, on the same deals. On each
//! board A's net score is `NS at table 1 − NS at table 2` (A's North-South score plus A's
//! East-West score, which is minus table 2's North-South score), converted with [`imps`]; B gets
//! the negation. A set counts only when both tables have finished and are seated that way.

use std::collections::BTreeMap;

use crate::imp::imps;
use crate::results::MatchResult;

/// One completed duplicate set, from the point of view of table 1's North-South entrant.
pub(crate) struct Duplicate<'a, E> {
    /// The later table's ordinal: when the set became complete.
    pub ordinal: u32,
    /// North-South at table 1, East-West at table 2.
    pub first: &'a E,
    /// East-West at table 1, North-South at table 2.
    pub second: &'a E,
    /// `first`'s IMPs on each board.
    pub board_imps: Vec<i64>,
    /// `first`'s total points over both tables.
    pub points: i64,
    pub tables: [&'a MatchResult<E>; 2],
}

impl<E> Duplicate<'_, E> {
    pub fn imps(&self) -> i64 {
        self.board_imps.iter().sum()
    }
}

/// A completed duplicate set as the pages show it: its two tables and each side's IMPs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateSet<E> {
    /// The ordinals of the set's two tables, the first table first.
    pub ordinals: [u32; 2],
    /// North-South at the first table, and the IMPs it won over the set (the other side won
    /// the negation).
    pub first: E,
    pub second: E,
    pub imps: i64,
}

/// Every complete duplicate set among `results` with its IMPs (the leaderboard's pairing of
/// tables, for a page that shows one table's set).
pub fn duplicate_sets<E: Clone + PartialEq>(results: &[MatchResult<E>]) -> Vec<DuplicateSet<E>> {
    duplicates(results)
        .into_iter()
        .map(|d| DuplicateSet {
            ordinals: [d.tables[0].ordinal, d.tables[1].ordinal],
            first: d.first.clone(),
            second: d.second.clone(),
            imps: d.imps(),
        })
        .collect()
}

/// Every complete duplicate set among `results`, in the order they completed.
pub(crate) fn duplicates<E: PartialEq>(results: &[MatchResult<E>]) -> Vec<Duplicate<'_, E>> {
    let mut groups: BTreeMap<u32, Vec<&MatchResult<E>>> = BTreeMap::new();
    for result in results.iter().filter(|r| r.counts()) {
        groups.entry(result.group).or_default().push(result);
    }
    let mut sets: Vec<Duplicate<'_, E>> = groups.into_values().filter_map(pair).collect();
    sets.sort_by_key(|d| d.ordinal);
    sets
}

/// The duplicate set of `tables` when they are exactly its two tables, seated as a set is.
pub(crate) fn pair<E: PartialEq>(mut tables: Vec<&MatchResult<E>>) -> Option<Duplicate<'_, E>> {
    tables.sort_by_key(|t| t.ordinal);
    let [one, two] = tables.as_slice() else {
        return None;
    };
    let (first, second) = (entrant(one, 0)?, entrant(one, 1)?);
    let seated = |table: &MatchResult<E>, ns: &E, ew: &E| {
        table.seats.len() == 4
            && (0..4).all(|seat| entrant(table, seat) == Some(if seat % 2 == 0 { ns } else { ew }))
    };
    if first == second || !seated(one, first, second) || !seated(two, second, first) {
        return None;
    }
    let (ns_one, ns_two) = (north_south(one), north_south(two));
    let (ns_one, ns_two) = if ns_one.len() == ns_two.len() {
        (ns_one, ns_two)
    } else {
        (vec![ns_one.iter().sum()], vec![ns_two.iter().sum()])
    };
    let board_imps = ns_one
        .iter()
        .zip(&ns_two)
        .map(|(a, b)| imps(a - b))
        .collect();
    Some(Duplicate {
        ordinal: two.ordinal,
        first,
        second,
        board_imps,
        points: ns_one.iter().sum::<i64>() - ns_two.iter().sum::<i64>(),
        tables: [one, two],
    })
}

fn entrant<E>(table: &MatchResult<E>, seat: usize) -> Option<&E> {
    table.seats.get(seat).map(|s| &s.entrant)
}

/// North-South's score per board at a table (seat 0's score as one board when none are given).
fn north_south<E>(table: &MatchResult<E>) -> Vec<i64> {
    if table.boards.is_empty() {
        let total = table.seats.first().map_or(0.0, |s| s.score);
        vec![total.round() as i64]
    } else {
        table.boards.clone()
    }
}

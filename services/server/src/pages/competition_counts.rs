//! How many matches each kind of competition plays for the field the organiser has ticked, for
//! the new-competition form: a round-robin's every group, a Swiss plan's rounds × groups, an
//! adaptive plan's budget. The form shows them for the field as rendered; `competition_new.js`
//! updates them as boxes are ticked, from the same figures for every field size
//! ([`Counts::table`]), so the two never disagree.

use croupier_league::{match_count, plan_matches, swiss_rounds, Format, Plan};
use serde::Serialize;

/// The figures for the ticked field.
pub struct Counts {
    /// Bots ticked.
    pub ticked: usize,
    /// A round-robin of them, all its rounds.
    pub round_robin: u128,
    /// The Swiss rounds chosen for them when the organiser names none.
    pub swiss_rounds: u32,
    /// Those Swiss rounds' matches.
    pub swiss: u64,
    /// The figures for 0 to every candidate ticked, as JSON for the script.
    pub table: String,
}

/// One field size's figures (the script's row).
#[derive(Serialize)]
struct Row {
    /// A round-robin's matches per round.
    rr: u128,
    /// Swiss rounds chosen from the field size.
    rounds: u32,
    /// A Swiss round's matches.
    per_round: u64,
}

impl Counts {
    pub fn new(format: Format, candidates: usize, ticked: usize, rounds: u32) -> Counts {
        let row = |n: usize| Row {
            rr: match_count(format, n, 1),
            rounds: swiss_rounds(format, n),
            per_round: plan_matches(format, &Plan::Swiss { rounds: Some(1) }, n),
        };
        let rows: Vec<Row> = (0..=candidates.max(ticked)).map(row).collect();
        let this = row(ticked);
        Counts {
            ticked,
            round_robin: this.rr * u128::from(rounds.max(1)),
            swiss_rounds: this.rounds,
            swiss: u64::from(this.rounds) * this.per_round,
            table: serde_json::to_string(&rows).unwrap_or_else(|_| "[]".to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_are_the_leagues_for_the_ticked_field() {
        let c = Counts::new(Format::Triples, 5, 4, 2);
        // C(4,3) triples × 3 rotations × 2 rounds.
        assert_eq!(c.round_robin, 4 * 3 * 2);
        assert_eq!(c.swiss_rounds, swiss_rounds(Format::Triples, 4));
        // 4 entrants: one triple a round (one bye), 3 matches.
        assert_eq!(c.swiss, u64::from(c.swiss_rounds) * 3);
        let rows: Vec<serde_json::Value> = serde_json::from_str(&c.table).unwrap();
        assert_eq!(rows.len(), 6);
        assert_eq!(rows[4]["rr"], 12);
        assert_eq!(rows[4]["per_round"], 3);
    }
}

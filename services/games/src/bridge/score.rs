//! Duplicate scoring (WBF Laws 2017, Law 77), as OpenSpiel's `bridge_scoring.cc` computes it.

use serde::{Deserialize, Serialize};

use super::cards::Strain;

/// Whether the contract was doubled or redoubled. The course protocol has neither; the table is
/// complete for other front ends and for the scoring vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Doubled {
    #[default]
    No,
    Doubled,
    Redoubled,
}

impl Doubled {
    const fn factor(self) -> i64 {
        match self {
            Doubled::No => 1,
            Doubled::Doubled => 2,
            Doubled::Redoubled => 4,
        }
    }
}

/// The declaring side's score for `level` in `strain` making `tricks` (0..=13) tricks:
/// positive when made, negative when defeated.
pub fn duplicate_score(
    level: u8,
    strain: Strain,
    doubled: Doubled,
    tricks: u8,
    vulnerable: bool,
) -> i64 {
    let level = i64::from(level.clamp(1, 7));
    let tricks = i64::from(tricks.min(13));
    let needed = level + 6;
    if tricks >= needed {
        made(level, strain, doubled, tricks - needed, vulnerable)
    } else {
        -undertricks(needed - tricks, doubled, vulnerable)
    }
}

fn made(level: i64, strain: Strain, doubled: Doubled, over: i64, vulnerable: bool) -> i64 {
    let per_trick = match strain {
        Strain::Clubs | Strain::Diamonds => 20,
        Strain::Hearts | Strain::Spades | Strain::NoTrump => 30,
    };
    let first_nt = if strain == Strain::NoTrump { 10 } else { 0 };
    let contract_points = (per_trick * level + first_nt) * doubled.factor();
    let mut score = contract_points;
    score += match (contract_points >= 100, vulnerable) {
        (true, false) => 300,
        (true, true) => 500,
        (false, _) => 50,
    };
    score += match (level, vulnerable) {
        (6, false) => 500,
        (6, true) => 750,
        (7, false) => 1000,
        (7, true) => 1500,
        _ => 0,
    };
    let over_value = match (doubled, vulnerable) {
        (Doubled::No, _) => per_trick,
        (Doubled::Doubled, false) => 100,
        (Doubled::Doubled, true) => 200,
        (Doubled::Redoubled, false) => 200,
        (Doubled::Redoubled, true) => 400,
    };
    let insult = match doubled {
        Doubled::No => 0,
        Doubled::Doubled => 50,
        Doubled::Redoubled => 100,
    };
    score + over * over_value + insult
}

/// The penalty for going `under` (1..=13) tricks down.
fn undertricks(under: i64, doubled: Doubled, vulnerable: bool) -> i64 {
    if doubled == Doubled::No {
        return under * if vulnerable { 100 } else { 50 };
    }
    let doubled_penalty = if vulnerable {
        200 + (under - 1) * 300
    } else {
        // 100 for the first, 200 for the second and third, 300 from the fourth on.
        100 + (under - 1).min(2) * 200 + (under - 3).max(0) * 300
    };
    doubled_penalty * doubled.factor() / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_no_trump_vulnerable_made_exactly_is_600() {
        assert_eq!(
            duplicate_score(3, Strain::NoTrump, Doubled::No, 9, true),
            600
        );
    }

    #[test]
    fn a_part_score_gets_50() {
        assert_eq!(
            duplicate_score(2, Strain::Hearts, Doubled::No, 8, false),
            110
        );
    }

    #[test]
    fn one_down_doubled_not_vulnerable_is_100() {
        assert_eq!(
            duplicate_score(4, Strain::Spades, Doubled::Doubled, 9, false),
            -100
        );
    }
}

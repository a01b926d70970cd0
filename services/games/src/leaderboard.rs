//! What a game's leaderboard is made of, as its [`GameDef`](crate::game_def::GameDef) declares
//! it: how matches are seated ([`Format`]), how finished matches become standings ([`Scoring`])
//! and ratings ([`RatingForm`]), and which way scores point. The league crate does the
//! arithmetic (`docs/rules.md#leaderboards`).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::outcome::ScoreOrder;

/// How entrants are seated: the schedule kind. Seeds are per round and shared by every match
/// of the round; a *group* is the set of matches that replay one seed with the seats moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Every triple {A,B,C} plays A-B-C, B-C-A, C-A-B on one seed: C(n,3) × 3 × rounds
    /// matches (No Thanks, Splendor).
    Triples,
    /// Every pair {A,B}: A in seats 0 and 2, B in 1 and 3, then swapped, on one seed:
    /// C(n,2) × 2 × rounds (Guandan teams; Bridge tables, N=0 E=1 S=2 W=3).
    TeamPairs,
    /// Each entrant alone fills every seat: n × rounds (Hanabi; the group is the round).
    SelfPlay,
    /// Every pair {A,B} alternates round the table A-B-A-B…, then B-A-B-A…, on one seed:
    /// C(n,2) × 2 × rounds (Hanabi's second board).
    CrossPlay,
}

impl Format {
    /// The stable name: `triples`, `team_pairs`, `self_play`, `cross_play`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Triples => "triples",
            Format::TeamPairs => "team_pairs",
            Format::SelfPlay => "self_play",
            Format::CrossPlay => "cross_play",
        }
    }

    /// The fewest entrants that make a schedule.
    pub const fn min_entrants(self) -> usize {
        match self {
            Format::Triples => 3,
            Format::TeamPairs | Format::CrossPlay => 2,
            Format::SelfPlay => 1,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How finished matches become a standings table (the sort key is [`Standing::metric`]).
///
/// [`Standing::metric`]: crate::Standing::metric
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Total rank points, 4/2/1 for 1st/2nd/3rd; Splendor adds the battle score column.
    RankPoints { battle_score: bool },
    /// Games won by the entrant's team, draws half (Guandan).
    GamesWon,
    /// Total IMPs over the boards of paired tables (Bridge).
    Imps,
    /// Mean game score (cooperative Hanabi).
    MeanScore,
}

/// How ratings are updated from a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingForm {
    /// Every seat is its own side, ordered by rank (Weng-Lin, free for all).
    FreeForAll,
    /// Seats 0+2 against 1+3, each side ordered by its best rank (Weng-Lin, two teams).
    Teams,
    /// Two paired Bridge tables make one duplicate match, won on total IMPs (Weng-Lin, two
    /// teams); rated when the second table finishes.
    Duplicate,
    /// Cooperative: no ratings.
    Unrated,
}

/// A game's leaderboard: read by the league (schedules, standings, ratings) and the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Leaderboard {
    /// The schedule kinds offered; the first is the default.
    pub formats: &'static [Format],
    pub scoring: Scoring,
    pub rating: RatingForm,
    /// Which way game scores point (No Thanks: lower is better).
    pub score_order: ScoreOrder,
}

impl Leaderboard {
    /// Every seat for itself: triples on one seed, 4/2/1 rank points, free-for-all ratings,
    /// higher scores better. Set `formats` for other table sizes
    /// ([`Format::CrossPlay`] seats two entrants at any table, alternating).
    pub const FREE_FOR_ALL: Leaderboard = Leaderboard {
        formats: &[Format::Triples],
        scoring: Scoring::RankPoints {
            battle_score: false,
        },
        rating: RatingForm::FreeForAll,
        score_order: ScoreOrder::HigherIsBetter,
    };

    /// The format used when a competition names none.
    pub fn default_format(&self) -> Format {
        self.formats.first().copied().unwrap_or(Format::Triples)
    }

    pub fn offers(&self, format: Format) -> bool {
        self.formats.contains(&format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_serialize_as_their_stable_names() {
        for format in [
            Format::Triples,
            Format::TeamPairs,
            Format::SelfPlay,
            Format::CrossPlay,
        ] {
            let json = serde_json::to_string(&format).ok();
            assert_eq!(json, Some(format!("\"{format}\"")));
        }
    }
}

//! The catalogue of games Croupier hosts: stable ids (stored in the database and
//! used in URLs and on the command line), display names and rule sets.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the five hosted games. The string form (`as_str`) is the stable id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameId {
    Hanabi,
    Guandan,
    Splendor,
    NoThanks,
    Bridge,
}

impl GameId {
    /// Every game, in the order the site lists them.
    pub const ALL: [GameId; 5] = [
        GameId::NoThanks,
        GameId::Splendor,
        GameId::Hanabi,
        GameId::Guandan,
        GameId::Bridge,
    ];

    /// Stable id: `hanabi`, `guandan`, `splendor`, `nothanks`, `bridge`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameId::Hanabi => "hanabi",
            GameId::Guandan => "guandan",
            GameId::Splendor => "splendor",
            GameId::NoThanks => "nothanks",
            GameId::Bridge => "bridge",
        }
    }

    /// Human-readable name.
    pub const fn display_name(self) -> &'static str {
        match self {
            GameId::Hanabi => "Hanabi",
            GameId::Guandan => "Guandan 掼蛋",
            GameId::Splendor => "Splendor",
            GameId::NoThanks => "No Thanks!",
            GameId::Bridge => "Contract Bridge",
        }
    }

    /// One line on how bots talk to the game, shown on the home and upload pages.
    pub const fn protocol_summary(self) -> &'static str {
        match self {
            GameId::Hanabi => {
                "websocket on 127.0.0.1:9999, one process per seat; or a Python `player` class"
            }
            GameId::Guandan => {
                "websocket on 127.0.0.1:23456/game/…, one process per seat (platform v1006)"
            }
            GameId::Splendor => {
                "one process per move: state JSON in argv[1] and on stdin, action JSON on stdout"
            }
            GameId::NoThanks => "TCP lobby on 127.0.0.1:1000 / 2004, one JSON object per line",
            GameId::Bridge => "one process per move: `bot Board.txt StepLog.txt`, appends one line",
        }
    }

    /// Seats per match (the default table size).
    pub const fn default_seats(self) -> usize {
        match self {
            GameId::Hanabi | GameId::Guandan | GameId::Bridge => 4,
            GameId::Splendor | GameId::NoThanks => 3,
        }
    }

    /// Named rule sets (`docs/rules.md#rule-sets-and-settings`); the first is the default.
    pub const fn rule_sets(self) -> &'static [&'static str] {
        match self {
            GameId::Hanabi => &["standard", "rainbow"],
            GameId::Guandan => &["platform"],
            GameId::Splendor => &["hackathon"],
            GameId::NoThanks => &["boardcoder", "standard"],
            GameId::Bridge => &["duplicate"],
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error for a string that names no hosted game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?}: expected one of hanabi, guandan, splendor, nothanks, bridge")]
pub struct UnknownGame(pub String);

impl FromStr for GameId {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| UnknownGame(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_round_trips_through_its_string_form() {
        for g in GameId::ALL {
            assert_eq!(g.as_str().parse::<GameId>(), Ok(g));
            assert_eq!(
                serde_json::to_string(&g).ok(),
                Some(format!("\"{}\"", g.as_str()))
            );
        }
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_list_of_games() {
        let err = "chess".parse::<GameId>().unwrap_err();
        assert!(err.to_string().contains("nothanks"));
    }
}

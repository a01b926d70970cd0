//! Splendor settings: the `hackathon` rule set (Girl Hackathon V judge).

use serde::{Deserialize, Serialize};

use crate::game_def::GameId;
use crate::settings::GameSettings;

/// Resolved Splendor settings. Override any field by name, e.g. `{"max_rounds": 60}`.
/// The table itself (3 players, 5 gems per colour, 5 gold, 4 nobles, 4 cards per level) is fixed
/// by the hackathon and not a setting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// A disputed rule (`docs/rules.md#splendor-settings`): the game stops after this round even if
    /// nobody reached `winning_points` (the judge's 150).
    pub max_rounds: u32,
    /// Reaching this many points ends the game at the end of the round (15).
    pub winning_points: u32,
    /// A move leaving a player with more tokens than this (gold included) is illegal (10).
    pub token_limit: u32,
    /// At most this many reserved cards in hand (3).
    pub max_reserved: usize,
}

impl Settings {
    /// The hackathon judge: 150 rounds, 15 points, 10 tokens, 3 reserved.
    pub const fn hackathon() -> Self {
        Settings {
            max_rounds: 150,
            winning_points: 15,
            token_limit: 10,
            max_reserved: 3,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings::hackathon()
    }
}

impl GameSettings for Settings {
    const GAME: GameId = GameId::of(&super::GAME);

    fn preset(rules: &str) -> Option<Self> {
        match rules {
            "hackathon" => Some(Settings::hackathon()),
            _ => None,
        }
    }

    fn validate(&self) -> Result<(), String> {
        if !(1..=10_000).contains(&self.max_rounds) {
            return Err(format!(
                "max_rounds must be 1 to 10000, not {}",
                self.max_rounds
            ));
        }
        if !(1..=200).contains(&self.winning_points) {
            return Err(format!(
                "winning_points must be 1 to 200, not {}",
                self.winning_points
            ));
        }
        if !(3..=40).contains(&self.token_limit) {
            return Err(format!(
                "token_limit must be 3 to 40, not {}",
                self.token_limit
            ));
        }
        if self.max_reserved > 12 {
            return Err(format!(
                "max_reserved must be at most 12, not {}",
                self.max_reserved
            ));
        }
        Ok(())
    }
}

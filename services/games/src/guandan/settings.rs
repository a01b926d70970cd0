//! Guandan settings: the platform rule set and its **\[choose\]** points.

use serde::{Deserialize, Serialize};

use crate::game_def::GameId;
use crate::settings::GameSettings;

/// What a team at A must achieve, in a deal played at its own A, to win the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AWin {
    /// The platform rule: finish 1st and 2nd.
    FirstSecond,
    /// The 2017 text: 1st and 2nd or 3rd.
    FirstSecondOrThird,
}

/// Tribute when the 1st and 4th finishers are partners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SameTeamTribute {
    /// The rules read literally: the last finisher pays the first (their partner).
    TributeFromLast,
    /// No tribute; the first finisher leads.
    NoTribute,
}

/// Resolved Guandan settings; override any field by name, e.g. `{"max_bomb": 8}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The largest bomb: 10 (two wilds allow 9 and 10 cards) or 8.
    pub max_bomb: u8,
    pub a_win: AWin,
    pub same_team_tribute: SameTeamTribute,
    /// Deals a team may fail at A before it drops to 2.
    pub a_failures: u32,
    /// Drops from A to 2 (all teams together) after which the game is a draw.
    pub max_drops: u32,
    /// Whether the heart level card may stand in for a missing card of a straight flush.
    /// `false` (default) is what the offline platform v1006 lists: only straight flushes of
    /// five natural cards of one suit (a heart level card may be itself, the heart of its own
    /// rank). Evidence: the manual's `act/play` example lists exactly 22 actions although its
    /// two wilds could complete spade, diamond and club straight flushes that beat the bomb,
    /// and logs of real v1006 games show the same omission (a bomb-beating straight flush
    /// needing the wild missing from `actionList`), acknowledged by the platform's authors as
    /// v1006 behaviour. `true` is the 2017 competition rules (wilds complete any type).
    #[serde(default)]
    pub wild_straight_flush: bool,
    /// Protocol adapter: how many times an `actIndex` outside `0..=indexRange` is answered with
    /// the same `act` again before the seat is recorded `illegal_action` and the referee plays
    /// its first legal action (the original server waits forever). Default 3.
    #[serde(default = "default_resends")]
    pub bad_index_resends: u32,
}

fn default_resends() -> u32 {
    3
}

impl Settings {
    /// The offline platform v1006.
    pub fn platform() -> Self {
        Settings {
            max_bomb: 10,
            a_win: AWin::FirstSecond,
            same_team_tribute: SameTeamTribute::TributeFromLast,
            a_failures: 2,
            max_drops: 50,
            wild_straight_flush: false,
            bad_index_resends: default_resends(),
        }
    }
}

impl GameSettings for Settings {
    const GAME: GameId = GameId::of(&super::GAME);

    fn preset(rules: &str) -> Option<Self> {
        (rules == "platform").then(Settings::platform)
    }

    fn validate(&self) -> Result<(), String> {
        if !matches!(self.max_bomb, 8 | 10) {
            return Err(format!("max_bomb must be 8 or 10, not {}", self.max_bomb));
        }
        if self.a_failures == 0 || self.max_drops == 0 {
            return Err("a_failures and max_drops must be at least 1".to_owned());
        }
        Ok(())
    }
}

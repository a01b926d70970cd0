//! No Thanks settings and its two rule sets.

use serde::{Deserialize, Serialize};

use crate::game_def::GameId;
use crate::settings::GameSettings;

/// Who acts after a pick: the **\[choose\]** point between the two rule sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AfterPick {
    /// `boardcoder`: the turn passes to the next player.
    NextPlayer,
    /// `standard`: the player who picked turns the next card and acts again.
    SamePlayer,
}

/// Resolved No Thanks settings. Override any field by name, e.g. `{"players": 5}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// 3..=7.
    pub players: usize,
    pub lowest_card: u8,
    pub highest_card: u8,
    /// Cards set aside unseen before play.
    pub removed: usize,
    /// Coins each player starts with; `null` means the rulebook's table by player count
    /// (11, or 9 at 6 players, 7 at 7).
    pub starting_coins: Option<u32>,
    pub after_pick: AfterPick,
}

impl Settings {
    /// The seed's server: 3 players, cards 3..35, 3 removed, 25 coins, next player after a pick.
    pub fn boardcoder() -> Self {
        Settings {
            players: 3,
            lowest_card: 3,
            highest_card: 35,
            removed: 3,
            starting_coins: Some(25),
            after_pick: AfterPick::NextPlayer,
        }
    }

    /// The Amigo rulebook for `players` (3..=7): 9 removed, coins by player count, same player
    /// after a pick.
    pub fn standard(players: usize) -> Self {
        Settings {
            players,
            lowest_card: 3,
            highest_card: 35,
            removed: 9,
            starting_coins: None,
            after_pick: AfterPick::SamePlayer,
        }
    }

    /// Coins each player starts with.
    pub fn coins_per_player(&self) -> u32 {
        self.starting_coins.unwrap_or(match self.players {
            6 => 9,
            7 => 7,
            _ => 11,
        })
    }

    /// How many cards the game is played with (before removal).
    pub fn card_count(&self) -> usize {
        usize::from(self.highest_card.saturating_sub(self.lowest_card)) + 1
    }
}

impl GameSettings for Settings {
    const GAME: GameId = GameId::of(&super::GAME);

    fn preset(rules: &str) -> Option<Self> {
        match rules {
            "boardcoder" => Some(Settings::boardcoder()),
            "standard" => Some(Settings::standard(3)),
            _ => None,
        }
    }

    fn validate(&self) -> Result<(), String> {
        if !(3..=7).contains(&self.players) {
            return Err(format!("players must be 3 to 7, not {}", self.players));
        }
        if self.lowest_card == 0 || self.lowest_card > self.highest_card {
            return Err(format!(
                "cards must run from a lowest card of at least 1 up to the highest, not {}..{}",
                self.lowest_card, self.highest_card
            ));
        }
        if self.removed >= self.card_count() {
            return Err(format!(
                "removing {} of {} cards leaves nothing to play",
                self.removed,
                self.card_count()
            ));
        }
        if self.coins_per_player() > 1000 {
            return Err(format!(
                "{} starting coins is too many",
                self.coins_per_player()
            ));
        }
        Ok(())
    }
}

//! Starting a game from a given position: the table, the decks, every player's holdings and
//! the round, as a judge log or a bot's input shows them. This is how a real judge log is
//! replayed move by move (the judge's games may have 2 to 4 players; Croupier deals 3).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::data::{all_cards, Card, Gems, Noble};
use super::settings::Settings;
use super::state::{Level, Player, Splendor};
use crate::api::Seat;
use crate::error::SettingsError;
use crate::game_def::GameId;
use crate::settings::GameSettings;

/// Largest table a position may describe (the judge's `Players:` line lists up to 4).
pub const MAX_PLAYERS: usize = 4;

/// A whole game position. Decks are listed **top card first**.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// 1-based, the protocol's `round`.
    pub round: u32,
    /// The seat on turn.
    pub to_act: Seat,
    /// Gems and gold on the table.
    pub table: Gems,
    /// Levels 1, 2, 3.
    pub levels: [LevelPosition; 3],
    pub nobles: Vec<Noble>,
    /// Indexed by seat; 2 to [`MAX_PLAYERS`].
    pub players: Vec<PlayerPosition>,
}

/// One level's face-up cards and its deck (top first).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelPosition {
    pub face_up: Vec<Card>,
    pub deck: Vec<Card>,
}

/// One player's holdings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerPosition {
    pub gems: Gems,
    pub purchased: Vec<Card>,
    pub reserved: Vec<Card>,
    pub nobles: Vec<Noble>,
}

impl Position {
    /// Checks that the position could occur: 2–4 players, the seat on turn exists, every card
    /// is one of the 90 and appears at most once, each at its own level, nobody holds more
    /// reserved cards than the settings allow.
    fn check(&self, settings: &Settings) -> Result<(), String> {
        let seats = self.players.len();
        if !(2..=MAX_PLAYERS).contains(&seats) {
            return Err(format!("{seats} players (2 to {MAX_PLAYERS} expected)"));
        }
        if self.to_act.index() >= seats {
            return Err(format!("seat {} is on turn of {seats}", self.to_act.0));
        }
        if self.round == 0 {
            return Err("rounds count from 1".into());
        }
        let mut stock: HashMap<Card, usize> = HashMap::new();
        for card in all_cards() {
            *stock.entry(*card).or_default() += 1;
        }
        let mut take = |card: &Card, place: &str| -> Result<(), String> {
            match stock.get_mut(card) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    Ok(())
                }
                Some(_) => Err(format!("{card} appears more than once ({place})")),
                None => Err(format!("{card} is not a Splendor card ({place})")),
            }
        };
        for (i, level) in self.levels.iter().enumerate() {
            let wanted = u8::try_from(i + 1).unwrap_or(u8::MAX);
            for card in level.face_up.iter().chain(&level.deck) {
                if card.level != wanted {
                    return Err(format!("{card} listed at level {wanted}"));
                }
                take(card, "table")?;
            }
        }
        for (seat, p) in self.players.iter().enumerate() {
            if p.reserved.len() > settings.max_reserved {
                return Err(format!("seat {seat} reserves {} cards", p.reserved.len()));
            }
            for card in p.purchased.iter().chain(&p.reserved) {
                take(card, &format!("seat {seat}"))?;
            }
        }
        Ok(())
    }
}

impl Splendor {
    /// The game at `position` under `settings`: the next move is `position.to_act`'s, and
    /// play continues exactly as from a dealt game (same rules, same end condition).
    pub fn from_position(settings: Settings, position: Position) -> Result<Self, SettingsError> {
        settings.check()?;
        position
            .check(&settings)
            .map_err(|reason| SettingsError::Invalid {
                game: GameId::of(&super::GAME),
                reason: format!("impossible position: {reason}"),
            })?;
        let levels = position
            .levels
            .into_iter()
            .map(|l| Level {
                face_up: l.face_up,
                deck: l.deck.into_iter().rev().collect(),
            })
            .collect();
        let players = position
            .players
            .into_iter()
            .map(|p| Player {
                gems: p.gems,
                bought: p.purchased,
                reserved: p.reserved,
                nobles: p.nobles,
            })
            .collect();
        Ok(Splendor {
            settings,
            table: position.table,
            levels,
            nobles: position.nobles,
            players,
            to_act: position.to_act,
            round: position.round,
            over: false,
        })
    }

    /// The current position (the inverse of [`Splendor::from_position`]).
    pub fn position(&self) -> Position {
        let level = |i: usize| {
            self.levels
                .get(i)
                .map(|l| LevelPosition {
                    face_up: l.face_up.clone(),
                    deck: l.deck.iter().rev().copied().collect(),
                })
                .unwrap_or_default()
        };
        Position {
            round: self.round,
            to_act: self.to_act,
            table: self.table,
            levels: [level(0), level(1), level(2)],
            nobles: self.nobles.clone(),
            players: self
                .players
                .iter()
                .map(|p| PlayerPosition {
                    gems: p.gems,
                    purchased: p.bought.clone(),
                    reserved: p.reserved.clone(),
                    nobles: p.nobles.clone(),
                })
                .collect(),
        }
    }
}

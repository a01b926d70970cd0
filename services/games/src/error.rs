//! The crate's two error types: [`IllegalAction`] (a move refused; part of a match's record, not
//! a fault of the platform) and [`SettingsError`] (a game that cannot be set up).

use serde::{Deserialize, Serialize};

use crate::api::Seat;
use crate::GameId;

/// Why [`Game::apply`](crate::Game::apply) refused a move. The referee records it against the
/// seat (and, per game, retries, substitutes a move or ends the game). Serialized with a `kind`
/// tag: `{"kind":"against_rules","reason":"..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IllegalAction {
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// Another seat is on turn.
    #[error("seat {seat} is not on turn; seat {on_turn} is")]
    NotYourTurn { seat: Seat, on_turn: Seat },
    /// The move is well-formed but the rules forbid it now.
    #[error("{reason}")]
    AgainstRules { reason: String },
    /// The move could not be read as an action of this game (dynamic layer and adapters only).
    #[error("unreadable action: {reason}")]
    Unreadable { reason: String },
}

impl IllegalAction {
    /// A rule refusal with a reason a bot author can act on, e.g. "you have no coins to pass".
    pub fn against_rules(reason: impl Into<String>) -> Self {
        IllegalAction::AgainstRules {
            reason: reason.into(),
        }
    }
}

/// A game that cannot be created from the rule set and settings given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("{game} has no rule set {rules:?}; expected one of: {known}")]
    UnknownRules {
        game: GameId,
        rules: String,
        known: String,
    },
    #[error("settings overrides for {game} must be a JSON object or null")]
    NotAnObject { game: GameId },
    /// An unknown key, a value of the wrong type or out of range.
    #[error("invalid settings for {game}: {reason}")]
    Invalid { game: GameId, reason: String },
}

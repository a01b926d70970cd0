//! No Thanks! (Geschenkt), as the BoardCoder server plays it and as the Amigo rulebook does.
//!
//! Cards `lowest..=highest` (3..35) are shuffled and some are set aside unseen. A card is turned
//! up; the player on turn either **passes**, putting one coin on it (impossible with no coins),
//! or **picks** it up with the coins on it, and the next card is turned. The game ends when a
//! pick finds the deck empty. A player's points are the sum of the lowest card of each run of
//! consecutive cards minus their coins; the lowest total wins and ties share the rank.
//!
//! Two rule sets ([`Settings::preset`](crate::GameSettings::preset)):
//! * `boardcoder` (default, the seed's server): 3 players, 3 cards removed, 25 coins each, and
//!   after a pick the turn passes to the next player;
//! * `standard` (Amigo): 3–7 players, 9 removed, 11 coins (9 at 6 players, 7 at 7), and after
//!   a pick the same player turns the next card and acts again.
//!
//! **Information.** The original server's `game_status` shows every player's coins and cards to
//! everyone, so the game is open except for the deck order and the removed cards, which only the
//! [`Viewer::Omniscient`](crate::Viewer) observation reveals. [`Observation`] carries everything
//! `docs/protocols.md#no-thanks`'s `game_status` needs; the protocol adapter renders it with player
//! names.

mod observation;
mod score;
mod settings;
mod state;

#[cfg(test)]
mod tests;

pub use observation::{Hidden, Observation, PlayerView};
pub use score::{card_points, marginal_card_points, points};
pub use settings::{AfterPick, Settings};
pub use state::{Action, Event, NoThanks};

use crate::bots::{NoThanksHeuristic, Typed};
use crate::game_def::{BuiltinBot, GameDef, Protocol};
use crate::leaderboard::Leaderboard;
use crate::ScoreOrder;

/// No Thanks! in the game registry (`docs/rules.md`).
pub static GAME: GameDef = GameDef::new::<NoThanks>("nothanks", "No Thanks!")
    .rule_sets(&["boardcoder", "standard"])
    .seats(3)
    .bots(&[BuiltinBot {
        name: "heuristic",
        make: || Box::new(Typed::new("heuristic", NoThanksHeuristic::default())),
    }])
    .protocol(
        Protocol::NoThanksLobby,
        "TCP lobby on 127.0.0.1:1000 / 2004, one JSON object per line",
    )
    .leaderboard(Leaderboard {
        score_order: ScoreOrder::LowerIsBetter,
        ..Leaderboard::FREE_FOR_ALL
    });

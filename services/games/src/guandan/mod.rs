//! Guandan 掼蛋 as the offline platform v1006 plays it (`docs/rules.md#guandan`,
//! `docs/protocols.md#guandan`).
//!
//! Four seats, partners 0+2 against 1+3, two decks and four jokers dealt 27 each. The heart
//! card of the deal's level is wild in every type. A [`Guandan`] value is one game (次): deals
//! follow each other inside [`Game::apply`](crate::Game::apply) from level 2 until a team wins
//! at A (or 50 drops from A make it a draw).
//!
//! * [`cards`]: card strings, single-card power, the platform's hand order;
//! * [`action`]: the `[type, rank, [cards]]` actions and which play beats which;
//! * [`combos`]: every distinct wild-card interpretation a hand can play, in platform order,
//!   with no allocation per play;
//! * [`json`]: actions as the protocol's JSON text, written straight into a message;
//! * the state machine (tricks, 接风, deal end, levels, tribute) and the [`Observation`] every
//!   `act`/`notify` message is rendered from.
//!
//! Action lists while leading can exceed a thousand entries; `apply` checks a play by
//! generating only the plays of its type and rank, and a follower's list is generated from
//! the led type and the bombs only.
//!
//! **Straight flushes and wild cards.** The platform v1006 lists a straight flush only from
//! five natural cards of one suit (a heart level card may be itself, in a heart flush); it never
//! lets a wild stand in for a missing card of a flush, while it does in every other type. That
//! is the only rule that gives the manual's `act/play` example exactly its 22 actions (its two
//! wilds could otherwise complete spade, diamond and club flushes above the four-card bomb), and
//! it matches logs of real v1006 games. [`Settings::wild_straight_flush`] (default `false`)
//! switches to the 2017 rules.

pub mod action;
pub mod cards;
pub mod combos;
mod deal;
mod events;
pub mod json;
mod observation;
mod settings;
mod state;
mod tribute;

#[cfg(test)]
mod tests;

pub use action::{Action, Kind, Play};
pub use cards::{Card, Level};
pub use events::Event;
pub use observation::{Observation, PublicInfo, StageName};
pub use settings::{AWin, SameTeamTribute, Settings};
pub use state::{Area, Guandan, Stage};
pub use tribute::{back_cards, tribute_cards};

use crate::bots::{GuandanHeuristic, Typed};
use crate::game_def::{BuiltinBot, GameDef, Protocol};
use crate::leaderboard::{Format, Leaderboard, RatingForm, Scoring};
use crate::ScoreOrder;

/// Guandan 掼蛋 in the game registry (`docs/rules.md`).
pub static GAME: GameDef = GameDef::new::<Guandan>("guandan", "Guandan 掼蛋")
    .rule_sets(&["platform"])
    .seats(4)
    .bots(&[BuiltinBot {
        name: "heuristic",
        make: || Box::new(Typed::new("heuristic", GuandanHeuristic::default())),
    }])
    .protocol(
        Protocol::GuandanWebsocket,
        "websocket on 127.0.0.1:23456/game/…, one process per seat (platform v1006)",
    )
    .leaderboard(Leaderboard {
        formats: &[Format::TeamPairs],
        scoring: Scoring::GamesWon,
        rating: RatingForm::Teams,
        score_order: ScoreOrder::HigherIsBetter,
    });

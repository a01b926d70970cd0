//! Hanabi, as 《控制论合作者》 (the seed) plays it, with its rainbow variant.
//!
//! 2–5 players hold their cards facing the others, never seeing their own. Per colour there are
//! three 1s, two each of 2–4 and one 5; a hand is 5 cards for 2–3 players, 4 for 4–5. On a turn a
//! player **hints** a player (costs one of 8 hint tokens; names a colour or a number and must
//! touch at least one card; the player may be oneself, as in the origin), **discards** (regains
//! a token; illegal at exactly 8), or **plays** a card: onto its colour's stack if it is the next
//! number, else it is discarded and costs one of 3 error tokens. Completing a stack with a 5
//! returns a token if below 8 (always, in the origin's rainbow game). Play and discard draw a
//! replacement into the slot just emptied (`hands[i][target] = draw`), or remove the slot once
//! the deck is empty.
//!
//! The end, checked after each turn in the origin's order: the third error; once the deck is
//! empty, every player (the drawer last) takes one more turn with nothing checked, then the
//! deck-out end; every stack complete (25, or 30 with rainbow). Each way the origin differs from
//! other engines is a setting ([`Settings`]), and replays stored before keep their rules.
//!
//! The team scores the sum of the stacks (or 0 after a strikeout with
//! `score_on_strikeout = zero`); every seat gets that score and rank 1.
//!
//! Rule sets ([`Settings`]): `standard` (5 colours, 50 cards) and `rainbow` (a sixth colour of
//! 10 rainbow cards: touched by every colour hint, never named, built on its own stack). Both
//! seat 4 players by default; override with `{"players": n}`.
//!
//! **Turn order.** By default seat 0 starts and the turn passes 0, 1, 2, …; the setting
//! `seat_order` (a permutation of the seats) makes its first seat start and the turn follow
//! it, the final round included. The original shuffles its seats and player 0 starts; the
//! referee's Hanabi adapter keeps engine seat = spec seat (results, replays) and sets
//! `seat_order` to the match's seeded shuffle, so that a bot's protocol index is its position
//! in that order (bots learn their index from `onStart`).
//!
//! **Information.** Events are public and never show a drawn card; the [`Observation`] of a
//! seat shows every hand but its own, the public [`Knowledge`] of every card, and the last move
//! in the protocol's own `onPlayerAction` form (`docs/protocols.md#hanabi`).

mod action;
mod cards;
mod moves;
mod observation;
mod rules;
mod settings;
mod state;

#[cfg(test)]
mod tests;

pub use action::{Action, EndReason, Event, Hint};
pub use cards::{copies, full_deck, Card, Color, Knowledge, HIDDEN, NOTHING_DRAWN};
pub use observation::{ActionReport, GameEnd, HintReceived, Observation};
pub use settings::{DrawInto, FinalRound, FiveReturnsToken, OnIllegal, Settings, StrikeoutScore};
pub use state::{Hanabi, MAX_ERRORS, MAX_HINT_TOKENS};

use crate::bots::{HanabiConvention, Typed};
use crate::game_def::{BuiltinBot, GameDef, Protocol};
use crate::leaderboard::{Format, Leaderboard, RatingForm, Scoring};
use crate::ScoreOrder;

/// Hanabi in the game registry (`docs/rules.md`).
pub static GAME: GameDef = GameDef::new::<Hanabi>("hanabi", "Hanabi")
    .rule_sets(&["standard", "rainbow"])
    .seats(4)
    .bots(&[BuiltinBot {
        name: "convention",
        make: || Box::new(Typed::new("convention", HanabiConvention)),
    }])
    .protocol(
        Protocol::HanabiWebsocket,
        "websocket on 127.0.0.1:9999, one process per seat; or a Python `player` class",
    )
    .games_per_match(1, Some(1))
    .leaderboard(Leaderboard {
        formats: &[Format::SelfPlay, Format::CrossPlay],
        scoring: Scoring::MeanScore,
        rating: RatingForm::Unrated,
        score_order: ScoreOrder::HigherIsBetter,
    })
    .shared_score()
    .class_bots();

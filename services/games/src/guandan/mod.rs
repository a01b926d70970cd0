//! Guandan 掼蛋 as the offline platform v1006 plays it (RULES.md, PROTOCOLS.md §2).
//!
//! Four seats, partners 0+2 against 1+3, two decks and four jokers dealt 27 each. The heart
//! card of the deal's level is wild in every type. A [`Guandan`] value is one game (次): deals
//! follow each other inside [`Game::apply`](crate::Game::apply) from level 2 until a team wins
//! at A (or 50 drops from A make it a draw).
//!
//! * [`cards`]: card strings, single-card power, the platform's hand order;
//! * [`action`]: the `[type, rank, [cards]]` actions and which play beats which;
//! * [`combos`]: every distinct wild-card interpretation a hand can play, in platform order;
//! * the state machine (tricks, 接风, deal end, levels, tribute) and the [`Observation`] every
//!   `act`/`notify` message is rendered from.
//!
//! Action lists while leading can exceed a thousand entries; `apply` checks a play by
//! generating only the plays of its type and rank.

pub mod action;
pub mod cards;
pub mod combos;
mod deal;
mod events;
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

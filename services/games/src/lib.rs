//! Croupier's rule engines: pure state machines, no I/O, no async, deterministic from a seed.
//!
//! # The engine API
//!
//! Every game implements one trait, [`Game`] (modelled on open_spiel's `State` and
//! board-game-rs's `Board`). A value is one game in progress:
//!
//! | question | method |
//! |---|---|
//! | set up from a rule set + JSON overrides | [`GameSettings::parse`], then [`Game::new`]`(settings, seed)` |
//! | whose move? | [`Game::turn`] → [`Turn::Seat`] or [`Turn::Over`] |
//! | what may they do? | [`Game::legal_actions`] (empty for seats not on turn) |
//! | do it | [`Game::apply`] → the public [`Game::Event`]s, or an [`IllegalAction`] saying why, state untouched |
//! | what does a seat see? | [`Game::observe`]`(`[`Viewer`]`)`: a seat, a spectator, or omniscient (replays) |
//! | who won? | [`Game::outcome`] → score and rank per seat ([`Outcome`]) |
//! | a bot broke the protocol | [`Game::record_fault`] (per-game consequence; default none) |
//!
//! Design decisions, for whoever adds the next game:
//! * **Chance is internal.** An engine draws every shuffle and deal from its own
//!   [`GameRng::new(seed)`](GameRng::new) (ChaCha8; the draws are pinned by a test). There is no
//!   chance player: `(settings, seed, moves)` fixes a match bit for bit, and hidden cards stay
//!   inside the engine. Guandan deals each new deal from the same RNG inside `apply`.
//! * **No simultaneous moves.** Two-payer Guandan tribute is two sequential turns whose first
//!   choice stays out of the second payer's observation until both are made.
//! * **A seat is a decision maker**, i.e. one bot. Bridge's declarer is on turn when dummy's card
//!   is due (the observation says which hand is played), because declarer's program answers.
//! * **Actions are canonical** values: equal when they mean the same move. Protocol adapters
//!   (in the referee) parse a bot's loose form into them; `apply` refuses anything unlisted.
//! * **Observations are typed and serializable**, carrying everything the original protocol's
//!   messages need; the adapter only renames and reformats. Hidden information is absent from
//!   a seat's observation, not blanked by the adapter.
//! * **Events are public** log entries (`Display` is the human log line). Private facts (the card
//!   a Hanabi player drew, seen by all but the drawer) are read from observations.
//! * **Settings** are one struct per game (every disputed rule of `docs/rules.md` is a field),
//!   built from a rule set name plus JSON overrides; the resolved struct serializes completely for
//!   replays.
//!
//! The object-safe layer [`DynGame`] (made by [`new_game`]`(GameId, rules, settings, seed)`)
//! speaks JSON so the referee, CLI and league never need generics; a [`Recorder`] wraps it and
//! writes the [`Replay`] (header + moves + refusals + faults, the events left out), which
//! [`Replay::rebuild`] re-runs and [`Replay::derive_events`] completes; [`document`] hands a
//! stored replay document out with its events. [`bots`] holds the built-in bots; [`conformance`] the random-playout test every
//! game must pass with one line.
//!
//! # Example
//!
//! ```
//! use croupier_games::nothanks::{NoThanks, Settings};
//! use croupier_games::{Game, GameRng, GameSettings, Seat, Stream, Turn, Viewer};
//!
//! let settings = Settings::parse("standard", &serde_json::json!({ "players": 5 }))?;
//! let mut game = NoThanks::new(settings, 42)?;
//! let mut rng = GameRng::derive(42, Stream::Testing);
//! while let Turn::Seat(seat) = game.turn() {
//!     let seen = game.observe(Viewer::Seat(seat)); // what a bot on `seat` is told
//!     assert_eq!(seen.to_act, Some(seat));
//!     let legal = game.legal_actions(seat);
//!     let action = *rng.choose(&legal).expect("the seat on turn can always act");
//!     for event in game.apply(seat, action)? {
//!         let _log_line = event.to_string(); // "seat 2 picks 17 with 4 coins"
//!     }
//! }
//! let outcome = game.outcome().expect("over");
//! assert_eq!(outcome.seats.len(), 5);
//!
//! // The same through the dynamic layer, as the referee sees it:
//! let mut game = croupier_games::new_game(croupier_games::GameId::NO_THANKS, "boardcoder",
//!                                         &serde_json::Value::Null, 42)?;
//! game.apply_json(Seat(0), &serde_json::json!("pass"))?;
//! assert_eq!(game.turn(), Turn::Seat(Seat(1)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(clippy::unwrap_used, clippy::indexing_slicing)]

mod api;
pub mod bots;
pub mod bridge;
pub mod conformance;
pub mod document;
mod dynamic;
mod error;
pub mod fair;
mod frames;
pub mod game_def;
pub mod guandan;
pub mod hanabi;
mod json_text;
pub mod leaderboard;
pub mod nothanks;
mod outcome;
pub mod plural;
pub mod registry;
mod replay;
mod rng;
mod settings;
pub mod splendor;
pub mod timed;

pub use api::{Game, Seat, Turn, Viewer};
pub use dynamic::{
    new_game, new_typed, replay_game, stored_typed, DynEvent, DynGame, Dynamic, Played,
};
pub use error::{IllegalAction, SettingsError};
pub use frames::{Frame, FrameEntry};
pub use game_def::{GameDef, GameId, DEFAULT_HUMAN_MOVE_SECS, MAX_PLAYERS};
pub use json_text::JsonText;
pub use outcome::{Outcome, ScoreOrder, SeatResult};
pub use registry::UnknownGame;
pub use replay::{Entry, MoveRecord, Recorder, Replay, ReplayError};
pub use rng::{GameRng, Stream};
pub use settings::GameSettings;

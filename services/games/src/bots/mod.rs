//! Built-in bots: they fill empty seats, validate uploads and take over a faulty seat.
//!
//! A typed bot implements [`Bot<G>`]: from the seat's observation (never the full state, so it
//! cannot cheat), the legal actions and a seeded [`GameRng`], it chooses a move. The referee
//! and CLI use bots through [`DynBot`], built by name with [`builtin`]; [`play_out`] plays a
//! whole game with one bot per seat. Bot `s` of a match draws from
//! `GameRng::derive(seed, Stream::Bot(s))`, so bot games replay exactly.

mod bridge;
mod guandan;
mod hanabi;
mod nothanks;
mod random;
mod splendor;

use std::fmt;
use std::marker::PhantomData;

use serde_json::Value;

use crate::api::{Game, Seat, Turn, Viewer};
use crate::dynamic::{to_json, DynGame, Played};
use crate::error::IllegalAction;
use crate::json_text::JsonText;
use crate::outcome::Outcome;
use crate::rng::{GameRng, Stream};
use crate::GameId;

pub use bridge::{BridgeHeuristic, BridgeRobot};
pub use guandan::GuandanHeuristic;
pub use hanabi::HanabiConvention;
pub use nothanks::NoThanksHeuristic;
pub use random::Random;
pub use splendor::SplendorGreedy;

/// A bot for one game, typed.
pub trait Bot<G: Game>: Send {
    /// A move from `legal` (the seat's legal actions, never empty when the seat is on turn).
    /// `None` only when `legal` is empty.
    fn choose(
        &mut self,
        observation: &G::Observation,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> Option<G::Action>;
}

/// A bot for any game, through the dynamic layer.
pub trait DynBot: Send {
    fn name(&self) -> &'static str;

    /// A move for `seat` (which must be on turn) as JSON. `None` when the bot has nothing to
    /// offer: no legal action, or a typed bot handed another game.
    fn choose(&mut self, game: &dyn DynGame, seat: Seat, rng: &mut GameRng) -> Option<Value>;

    /// Chooses as [`DynBot::choose`] does (the same draws) and plays the move on `game`:
    /// typed bots write its text once, for the record, and never read it back (the referee's
    /// way for a built-in seat). `None` when the bot has nothing to offer.
    fn play(&mut self, game: &mut dyn DynGame, seat: Seat, rng: &mut GameRng) -> Option<Played> {
        let action = self.choose(game, seat, rng)?;
        Some(Played {
            action: JsonText::of(&action),
            applied: game.apply_json_quiet(seat, &action),
        })
    }
}

/// A typed [`Bot<G>`] as a [`DynBot`]: it reads the seat's own observation.
pub struct Typed<G, B> {
    name: &'static str,
    bot: B,
    game: PhantomData<fn() -> G>,
}

impl<G, B> Typed<G, B> {
    pub fn new(name: &'static str, bot: B) -> Self {
        Typed {
            name,
            bot,
            game: PhantomData,
        }
    }
}

impl<G: Game, B: Bot<G>> DynBot for Typed<G, B> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn choose(&mut self, game: &dyn DynGame, seat: Seat, rng: &mut GameRng) -> Option<Value> {
        let game = game.as_any().downcast_ref::<G>()?;
        self.pick(game, seat, rng).map(|a| to_json(&a))
    }

    fn play(&mut self, game: &mut dyn DynGame, seat: Seat, rng: &mut GameRng) -> Option<Played> {
        let game = game.as_any_mut().downcast_mut::<G>()?;
        let action = self.pick(game, seat, rng)?;
        Some(Played::typed(game, seat, action))
    }
}

impl<G: Game, B: Bot<G>> Typed<G, B> {
    /// The bot's move for `seat`, from the seat's own observation and legal actions.
    fn pick(&mut self, game: &G, seat: Seat, rng: &mut GameRng) -> Option<G::Action> {
        let observation = game.observe(Viewer::Seat(seat));
        let legal = game.legal_actions(seat);
        self.bot.choose(&observation, &legal, rng)
    }
}

/// The built-in bots of a game, by name; the first is the default, `random` the last
/// ([`GameDef::bots`](crate::GameDef::bots)).
pub fn names(game: GameId) -> Vec<&'static str> {
    game.def().bot_names()
}

/// A built-in bot by name (see [`names`]).
pub fn builtin(game: GameId, name: &str) -> Option<Box<dyn DynBot>> {
    game.def().bot(name)
}

/// Why [`play_out`] stopped before the end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("no bot for seat {0}")]
    NoBot(Seat),
    #[error("the bot of seat {0} chose no move")]
    NoMove(Seat),
    #[error("the bot of seat {seat} chose a refused move: {error}")]
    Refused { seat: Seat, error: IllegalAction },
    #[error("the game ended without an outcome")]
    NoOutcome,
}

impl fmt::Debug for dyn DynBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DynBot({})", self.name())
    }
}

/// Plays `game` to the end, `bots[s]` choosing for seat `s` with its own stream of `seed`.
pub fn play_out(
    game: &mut dyn DynGame,
    bots: &mut [Box<dyn DynBot>],
    seed: u64,
) -> Result<Outcome, PlayError> {
    let mut rngs: Vec<GameRng> = Seat::all(bots.len())
        .map(|seat| GameRng::derive(seed, Stream::Bot(seat)))
        .collect();
    while let Turn::Seat(seat) = game.turn() {
        let (Some(bot), Some(rng)) = (bots.get_mut(seat.index()), rngs.get_mut(seat.index()))
        else {
            return Err(PlayError::NoBot(seat));
        };
        let action = bot.choose(game, seat, rng).ok_or(PlayError::NoMove(seat))?;
        game.apply_json(seat, &action)
            .map_err(|error| PlayError::Refused { seat, error })?;
    }
    game.outcome().ok_or(PlayError::NoOutcome)
}

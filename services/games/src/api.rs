//! The [`Game`] trait every rule engine implements, and the small types it speaks in:
//! [`Seat`], [`Turn`] and [`Viewer`].

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{IllegalAction, SettingsError};
use crate::outcome::Outcome;
use crate::settings::GameSettings;
use crate::GameId;

/// A place at the table, numbered from 0 in turn order. A seat is a *decision maker*: one bot
/// process (or built-in bot) answers for it. Serialized as a bare number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub usize);

impl Seat {
    /// The 0-based index, for `Vec::get`.
    pub const fn index(self) -> usize {
        self.0
    }

    /// The seat after this one at a table of `seats`, wrapping around.
    pub const fn next(self, seats: usize) -> Seat {
        if seats == 0 {
            self
        } else {
            Seat((self.0 + 1) % seats)
        }
    }

    /// Every seat of a table of `seats`, in order.
    pub fn all(seats: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..seats).map(Seat)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Whose move it is.
///
/// Chance is never a turn: engines draw from their own seeded [`GameRng`](crate::GameRng) inside
/// [`Game::new`] and [`Game::apply`], so a match is fully determined by `(settings, seed, moves)`.
/// No hosted game has truly simultaneous moves either (Guandan's double tribute is two sequential
/// decisions whose first choice stays hidden from the second payer until both are made).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    /// This seat must act; it is the only seat with legal actions.
    Seat(Seat),
    /// The game is over; [`Game::outcome`] is `Some`.
    Over,
}

impl Turn {
    /// The seat on turn, if the game is not over.
    pub const fn seat(self) -> Option<Seat> {
        match self {
            Turn::Seat(seat) => Some(seat),
            Turn::Over => None,
        }
    }

    pub const fn is_over(self) -> bool {
        matches!(self, Turn::Over)
    }
}

/// Who is looking at the game, which decides what [`Game::observe`] reveals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A player: sees what the rules let that seat see (its own Hanabi cards stay hidden).
    Seat(Seat),
    /// A live spectator: public information only.
    Spectator,
    /// Everything, hidden cards and deck order included: for finished-match replays and debugging.
    Omniscient,
}

/// A game's rules as a pure state machine. One value of the implementing type is one game in
/// progress; it owns its seeded RNG, so `clone` forks the whole future of the game.
///
/// Contract (checked for every game by [`conformance::random_playouts`](crate::conformance::random_playouts)):
/// * when [`turn`](Self::turn) is `Seat(s)`, `legal_actions(s)` is non-empty, has no duplicates,
///   and every entry is accepted by [`apply`](Self::apply); every other seat has no legal action;
/// * actions are **canonical**: two actions that mean the same move are equal, and `apply`
///   refuses every action `legal_actions` does not list (protocol adapters turn a bot's loose
///   form — gems in any order, a card given by content — into the canonical action);
/// * a refused action leaves the state unchanged;
/// * the same settings, seed and actions give equal states, events and observations;
/// * the game ends; the outcome's ranks agree with its scores.
pub trait Game: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// Which game this is.
    const ID: GameId;

    /// Everything a rule set fixes (player count, variant switches); see [`GameSettings`].
    type Settings: GameSettings;

    /// One move. Must survive a JSON round trip unchanged (replays store actions as JSON).
    type Action: Clone
        + fmt::Debug
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;

    /// What one [`Viewer`] may see, in a form a protocol adapter can render.
    type Observation: Clone + fmt::Debug + Serialize;

    /// One public happening, for the match log and replays: serialized for machines, displayed as
    /// a human-readable log line. Events must not reveal what a spectator may not see;
    /// per-seat private facts are read from [`observe`](Self::observe).
    type Event: Clone + fmt::Debug + fmt::Display + Serialize;

    /// A new game: deals, shuffles and seats from `seed`, with all randomness drawn from
    /// [`GameRng::new(seed)`](crate::GameRng::new) so the game replays bit for bit.
    fn new(settings: Self::Settings, seed: u64) -> Result<Self, SettingsError>;

    fn settings(&self) -> &Self::Settings;

    /// How many seats play.
    fn seats(&self) -> usize;

    fn turn(&self) -> Turn;

    /// The moves `seat` may make now, in a stable order; empty unless `seat` is on turn.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// The moves to offer `seat` itself as choices (a person's move list): the legal ones but
    /// those whose being listed would tell the seat what it may not see. All of them by default;
    /// Hanabi leaves out hints to oneself, legal as they are, since which of them touch a card
    /// would name one's own hand.
    fn offered_actions(&self, seat: Seat) -> Vec<Self::Action> {
        self.legal_actions(seat)
    }

    /// Plays `action` for `seat` and returns what happened, or refuses it, saying why, without
    /// changing anything.
    fn apply(
        &mut self,
        seat: Seat,
        action: Self::Action,
    ) -> Result<Vec<Self::Event>, IllegalAction>;

    fn observe(&self, viewer: Viewer) -> Self::Observation;

    /// Score and rank per seat once the game is over; `None` before.
    fn outcome(&self) -> Option<Outcome>;

    /// Tells the engine that `seat` failed the protocol (an illegal action the referee will not
    /// retry, a timeout, a crash). Games whose rules give such a fault a consequence apply it here
    /// (Hanabi's `on_illegal = end_game` ends the game with the score so far; Bridge scores the
    /// deal as conceded by the offending side). The default does nothing: the referee then
    /// substitutes a move (Splendor's pass, Guandan's first legal action, a built-in bot).
    fn record_fault(&mut self, seat: Seat) {
        let _ = seat;
    }

    /// `Ok` when `seat` may act now; otherwise the refusal [`apply`](Self::apply) should return.
    /// A helper for implementations.
    fn check_turn(&self, seat: Seat) -> Result<(), IllegalAction> {
        match self.turn() {
            Turn::Over => Err(IllegalAction::GameOver),
            Turn::Seat(on_turn) if on_turn == seat => Ok(()),
            Turn::Seat(on_turn) => Err(IllegalAction::NotYourTurn { seat, on_turn }),
        }
    }
}

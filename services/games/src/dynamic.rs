//! The object-safe layer: any game behind `Box<dyn DynGame>`, with actions, observations, events
//! and settings as JSON, so the referee, CLI and league handle every game without generics.

use std::any::Any;
use std::fmt::{self, Write};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api::{Game, Seat, Turn, Viewer};
use crate::error::{IllegalAction, SettingsError};
use crate::json_text::JsonText;
use crate::outcome::Outcome;
use crate::rng::GameRng;
use crate::settings::GameSettings;
use crate::GameId;

/// An event as the dynamic layer reports it: machine form (JSON text, see [`JsonText`]) and
/// log line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DynEvent {
    pub json: JsonText,
    pub text: String,
}

/// A game in progress, whatever the game. Mirrors [`Game`] with JSON in place of the
/// associated types. Build one with [`new_game`].
pub trait DynGame: Send + Sync + fmt::Debug {
    fn game_id(&self) -> GameId;
    /// The resolved settings, complete: `new_game(id, rules, &settings_json(), seed)` rebuilds
    /// the same game.
    fn settings_json(&self) -> Value;
    fn seats(&self) -> usize;
    fn turn(&self) -> Turn;
    fn legal_actions_json(&self, seat: Seat) -> Vec<Value>;
    /// [`Game::offered_actions`]: the moves to show `seat` itself as its choices.
    fn offered_actions_json(&self, seat: Seat) -> Vec<Value>;
    /// A uniformly random legal action of `seat` (`None` when it has none): the one
    /// `rng.choose(&self.legal_actions_json(seat))` picks, with the same draw, but only it is
    /// turned into JSON (the built-in `random` bot's move, once per turn in hosted matches).
    fn random_legal_json(&self, seat: Seat, rng: &mut GameRng) -> Option<Value>;
    /// The first of `legal_actions_json(seat)` alone (the referee's forced move for a faulty
    /// seat, which in Guandan can be one of 1,000s of listed plays on every turn left).
    fn first_legal_json(&self, seat: Seat) -> Option<Value>;
    /// Reads `action` as the game's action type (refused as `Unreadable` if it is not one), then
    /// applies it.
    fn apply_json(&mut self, seat: Seat, action: &Value) -> Result<Vec<DynEvent>, IllegalAction>;
    /// [`DynGame::apply_json`] without writing the events out (their JSON text and log lines):
    /// what the referee's [`Recorder`](crate::Recorder) plays, since a replay derives its events
    /// when it is read ([`Replay::derive_events`](crate::Replay::derive_events)).
    fn apply_json_quiet(&mut self, seat: Seat, action: &Value) -> Result<(), IllegalAction>;
    /// [`DynGame::apply_json`] from a recorded move's text, read straight into the game's
    /// action type (no `Value` in between): how a replay is played again.
    fn apply_text(&mut self, seat: Seat, action: &JsonText)
        -> Result<Vec<DynEvent>, IllegalAction>;
    /// [`DynGame::apply_text`] without writing the events out.
    fn apply_text_quiet(&mut self, seat: Seat, action: &JsonText) -> Result<(), IllegalAction>;
    /// Plays the move [`DynGame::random_legal_json`] picks (the same draw), typed: its text is
    /// written once, for the record, and it is applied without being read back. `None` when
    /// the seat has no legal action. (The built-in `random` bot's move through the referee.)
    fn play_random(&mut self, seat: Seat, rng: &mut GameRng) -> Option<Played>;
    fn observe_json(&self, viewer: Viewer) -> Value;
    fn outcome(&self) -> Option<Outcome>;
    fn record_fault(&mut self, seat: Seat);
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// The concrete game (`downcast_ref::<NoThanks>()`), for typed built-in bots and tests.
    fn as_any(&self) -> &dyn Any;
    /// [`DynGame::as_any`], to play a typed move ([`Played::typed`]).
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// Whether `other` is the same game in the same state.
    fn same_state(&self, other: &dyn DynGame) -> bool;
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Wraps a typed game as a [`DynGame`]. A wrapper rather than a blanket impl, so that calling
/// `game.turn()` on a concrete game is never ambiguous between the two traits.
#[derive(Debug, Clone, PartialEq)]
pub struct Dynamic<G: Game>(pub G);

impl<G: Game> DynGame for Dynamic<G> {
    fn game_id(&self) -> GameId {
        G::ID
    }

    fn settings_json(&self) -> Value {
        to_json(self.0.settings())
    }

    fn seats(&self) -> usize {
        self.0.seats()
    }

    fn turn(&self) -> Turn {
        self.0.turn()
    }

    fn legal_actions_json(&self, seat: Seat) -> Vec<Value> {
        self.0.legal_actions(seat).iter().map(to_json).collect()
    }

    fn offered_actions_json(&self, seat: Seat) -> Vec<Value> {
        self.0.offered_actions(seat).iter().map(to_json).collect()
    }

    fn random_legal_json(&self, seat: Seat, rng: &mut GameRng) -> Option<Value> {
        self.random_legal(seat, rng).map(|a| to_json(&a))
    }

    fn first_legal_json(&self, seat: Seat) -> Option<Value> {
        self.0.legal_actions(seat).first().map(to_json)
    }

    fn apply_json(&mut self, seat: Seat, action: &Value) -> Result<Vec<DynEvent>, IllegalAction> {
        self.apply_written(seat, read_action::<G>(action)?)
    }

    fn apply_json_quiet(&mut self, seat: Seat, action: &Value) -> Result<(), IllegalAction> {
        self.0.apply(seat, read_action::<G>(action)?).map(drop)
    }

    fn apply_text(
        &mut self,
        seat: Seat,
        action: &JsonText,
    ) -> Result<Vec<DynEvent>, IllegalAction> {
        self.apply_written(seat, read_text::<G>(action)?)
    }

    fn apply_text_quiet(&mut self, seat: Seat, action: &JsonText) -> Result<(), IllegalAction> {
        self.0.apply(seat, read_text::<G>(action)?).map(drop)
    }

    fn play_random(&mut self, seat: Seat, rng: &mut GameRng) -> Option<Played> {
        let action = self.random_legal(seat, rng)?;
        Some(Played::typed(&mut self.0, seat, action))
    }

    fn observe_json(&self, viewer: Viewer) -> Value {
        to_json(&self.0.observe(viewer))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn record_fault(&mut self, seat: Seat) {
        self.0.record_fault(seat);
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        &self.0
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        &mut self.0
    }

    fn same_state(&self, other: &dyn DynGame) -> bool {
        other.as_any().downcast_ref::<G>() == Some(&self.0)
    }
}

impl<G: Game> Dynamic<G> {
    /// A uniformly random legal action of `seat` (one draw from `rng`).
    fn random_legal(&self, seat: Seat, rng: &mut GameRng) -> Option<G::Action> {
        rng.choose(&self.0.legal_actions(seat)).cloned()
    }

    /// Applies `action` and writes its events out (their JSON text and log lines).
    fn apply_written(
        &mut self,
        seat: Seat,
        action: G::Action,
    ) -> Result<Vec<DynEvent>, IllegalAction> {
        let events = self.0.apply(seat, action)?;
        Ok(events.iter().map(dyn_event).collect())
    }
}

/// `action` as `G`'s action type, refused as `Unreadable` if it is not one.
fn read_action<G: Game>(action: &Value) -> Result<G::Action, IllegalAction> {
    G::Action::deserialize(action).map_err(|e| IllegalAction::Unreadable {
        reason: e.to_string(),
    })
}

/// A recorded move's text as `G`'s action type, refused as `Unreadable` if it is not one.
fn read_text<G: Game>(action: &JsonText) -> Result<G::Action, IllegalAction> {
    serde_json::from_str(action.get()).map_err(|e| IllegalAction::Unreadable {
        reason: e.to_string(),
    })
}

/// A move a built-in bot made on the game itself ([`DynGame::play_random`],
/// [`DynBot::play`](crate::bots::DynBot::play)): its text for the record, and whether the
/// engine took it (the state is unchanged when it did not).
#[derive(Debug)]
pub struct Played {
    pub action: JsonText,
    pub applied: Result<(), IllegalAction>,
}

impl Played {
    /// Writes `action`'s text, then applies it to `game` quietly (its events left out).
    pub fn typed<G: Game>(game: &mut G, seat: Seat, action: G::Action) -> Played {
        let text = JsonText::of(&action);
        Played {
            action: text,
            applied: game.apply(seat, action).map(drop),
        }
    }
}

/// A new game of any kind: `rules` names a rule set of [`GameId::rule_sets`], `settings` holds
/// JSON overrides (`null` for none), and `seed` fixes every shuffle and deal.
pub fn new_game(
    game: GameId,
    rules: &str,
    settings: &Value,
    seed: u64,
) -> Result<Box<dyn DynGame>, SettingsError> {
    (game.def().new_game)(rules, settings, seed)
}

/// A game from a stored replay's header: `settings` are complete, as the replay stored them,
/// and filled in where the replay predates a setting (`GameSettings::upgrade_stored`), so it
/// plays again under the rules it was recorded with.
pub fn replay_game(
    game: GameId,
    rules: &str,
    settings: &Value,
    seed: u64,
) -> Result<Box<dyn DynGame>, SettingsError> {
    (game.def().replay_game)(rules, settings, seed)
}

/// [`new_game`] for a game type known at compile time.
pub fn new_typed<G: Game>(
    rules: &str,
    settings: &Value,
    seed: u64,
) -> Result<Box<dyn DynGame>, SettingsError> {
    let settings = G::Settings::parse(rules, settings)?;
    Ok(Box::new(Dynamic(G::new(settings, seed)?)))
}

/// [`replay_game`] for a game type known at compile time.
pub fn stored_typed<G: Game>(
    rules: &str,
    settings: &Value,
    seed: u64,
) -> Result<Box<dyn DynGame>, SettingsError> {
    let mut settings = settings.clone();
    if let Value::Object(fields) = &mut settings {
        G::Settings::upgrade_stored(fields);
    }
    new_typed::<G>(rules, &settings, seed)
}

pub(crate) fn dyn_event<E: Serialize + fmt::Display>(event: &E) -> DynEvent {
    // Room for a whole log line at once (`to_string` grows from nothing: four copies for a
    // typical line, on every event of every match).
    let mut text = String::with_capacity(96);
    let _ = write!(text, "{event}"); // writing to a String cannot fail
    DynEvent {
        json: JsonText::of(event),
        text,
    }
}

/// Serializes one of this crate's own types. Their derives cannot fail (no maps with non-string
/// keys), so an error would be a bug; it shows up as a string in the output, never as a panic
/// in the referee. The conformance test serializes with `serde_json::to_value` and would catch it.
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| Value::String(format!("unserializable: {e}")))
}

//! The match record: everything needed to replay a game exactly, plus a human-readable log.
//!
//! A [`Replay`] is a header (game, rule set, resolved settings, seed) and the entries in order:
//! the moves applied (with the events they produced), the moves refused (with the reason), and
//! faults. Because engines are deterministic, [`Replay::rebuild`] re-runs the moves on a fresh
//! game and checks that every event comes out the same; [`Replay::frames`](crate::Frame) steps
//! through the rebuilt states for the replay viewer, with the observation of any
//! [`Viewer`](crate::Viewer), once the match is over.
//!
//! The referee's [`Recorder`] keeps only what cannot be derived: the moves, refusals and faults
//! ([`Replay::events_left_out`]). Writing every event's JSON and log line as the match is played
//! was most of a built-in match's cost and most of a stored replay's bytes, and nearly all
//! replays are never opened; [`Replay::derive_events`] plays the moves again to put the events
//! in when a replay is read (the viewer, the timeline, a download).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api::Seat;
use crate::bots::DynBot;
use crate::dynamic::{new_game, replay_game, DynEvent, DynGame, Played};
use crate::error::{IllegalAction, SettingsError};
use crate::json_text::JsonText;
use crate::outcome::Outcome;
use crate::rng::GameRng;
use crate::GameId;

/// One game's record. Serializes to the replay blob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub game: GameId,
    pub rules: String,
    /// Resolved settings (complete, not just the overrides).
    pub settings: Value,
    pub seed: u64,
    pub entries: Vec<Entry>,
    /// Filled in by [`Recorder`] when the game ends.
    pub outcome: Option<Outcome>,
    /// The moves' `events` are left out (empty), as the [`Recorder`] writes them;
    /// [`Replay::derive_events`] puts them in. `false` (and absent from the JSON) in every
    /// replay handed out, and in those stored before 2026-11-27.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub events_left_out: bool,
}

/// One move of a program seat, as its owner sees it beside the replay: which replay entry it
/// was, how long the answer took, the seat's memory peak and the stderr lines it wrote since
/// its previous move (the referee's move meter attributes them: see `docs/replays.md#move-by-move`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// 0-based game of the match.
    pub game: u32,
    /// 1-based entry of that game's replay the move became (a played, refused or faulted
    /// move), as the viewer numbers its steps.
    pub entry: u32,
    /// From the request to the answer (a per-move seat: from spawn to exit).
    pub ms: u32,
    /// The seat's memory peak over the move, in KiB (the sandbox's cgroup: page cache and tmpfs
    /// included, as the memory limit counts); absent when the kernel cannot say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_kib: Option<u64>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// The answer lost the move (a crash, a timeout, garbage) and the referee played for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
}

/// One line of the record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "entry", rename_all = "snake_case")]
pub enum Entry {
    /// An applied move and what it caused.
    Move {
        seat: Seat,
        action: JsonText,
        /// Empty while the replay's events are left out ([`Replay::events_left_out`]).
        #[serde(default)]
        events: Vec<DynEvent>,
        /// Played for the seat by the referee after a fault (a lost turn, a forced pick, the
        /// Bridge Robot), not chosen by its bot.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        forced: bool,
    },
    /// A move the engine refused; the state did not change.
    Refused {
        seat: Seat,
        action: JsonText,
        error: IllegalAction,
    },
    /// A protocol fault reported to the engine with `record_fault`.
    Fault { seat: Seat, reason: String },
}

impl Entry {
    /// The seat the entry is about.
    pub fn seat(&self) -> Seat {
        match self {
            Entry::Move { seat, .. } | Entry::Refused { seat, .. } | Entry::Fault { seat, .. } => {
                *seat
            }
        }
    }
}

/// Why a replay could not be rebuilt.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error("entry {index}: a recorded move is now refused: {error}")]
    Refused { index: usize, error: IllegalAction },
    #[error("entry {index}: the move produced different events than recorded")]
    Diverged { index: usize },
    #[error("the moves played again end in another outcome than recorded")]
    OutcomeDiffers,
}

impl Replay {
    /// A fresh record for `game` (which should not have moved yet), its events left out.
    pub fn start(game: &dyn DynGame, rules: &str, seed: u64) -> Self {
        Replay {
            game: game.game_id(),
            rules: rules.to_owned(),
            settings: game.settings_json(),
            seed,
            entries: Vec::new(),
            outcome: None,
            events_left_out: true,
        }
    }

    /// The game as the record started it: its settings as recorded, under the rules of the
    /// time ([`replay_game`]).
    pub fn fresh_game(&self) -> Result<Box<dyn DynGame>, SettingsError> {
        replay_game(self.game, &self.rules, &self.settings, self.seed)
    }

    /// Re-runs the record on a new game and returns it in its final state: every recorded
    /// move must be legal again and give the recorded events (with the events left out: end in
    /// the recorded outcome).
    pub fn rebuild(&self) -> Result<Box<dyn DynGame>, ReplayError> {
        let mut game = self.fresh_game()?;
        for (index, entry) in self.entries.iter().enumerate() {
            self.replay_entry(game.as_mut(), index, entry, false)?;
        }
        self.check_outcome(game.as_ref())?;
        Ok(game)
    }

    /// Puts the moves' events in, by playing them again, if they were left out (checked as
    /// [`Replay::rebuild`] checks). Afterwards the replay is as a reader expects it.
    pub fn derive_events(&mut self) -> Result<(), ReplayError> {
        if self.events_left_out {
            self.entries = self.entries_from(0)?;
            self.events_left_out = false;
        }
        Ok(())
    }

    /// The entries from the `from`-th (0-based) on, every move with its events: derived by
    /// playing the whole record again when they were left out (checked as [`Replay::rebuild`]
    /// checks), copied otherwise.
    pub fn entries_from(&self, from: usize) -> Result<Vec<Entry>, ReplayError> {
        if !self.events_left_out {
            return Ok(self.entries.get(from..).unwrap_or_default().to_vec());
        }
        let mut game = self.fresh_game()?;
        let mut entries = Vec::with_capacity(self.entries.len().saturating_sub(from));
        for (index, entry) in self.entries.iter().enumerate() {
            let events = self.replay_entry(game.as_mut(), index, entry, index >= from)?;
            if index >= from {
                let mut entry = entry.clone();
                if let Entry::Move { events: slot, .. } = &mut entry {
                    *slot = events;
                }
                entries.push(entry);
            }
        }
        self.check_outcome(game.as_ref())?;
        Ok(entries)
    }

    /// Plays entry `index` of the record on `game` again. A move's events are written out when
    /// `render` is set or the record kept them, and then compared with the recorded ones (if
    /// kept); they come back (none for a refusal or a fault, or when nothing was written).
    pub(crate) fn replay_entry(
        &self,
        game: &mut dyn DynGame,
        index: usize,
        entry: &Entry,
        render: bool,
    ) -> Result<Vec<DynEvent>, ReplayError> {
        match entry {
            Entry::Move {
                seat,
                action,
                events,
                ..
            } => {
                let refused = |error| ReplayError::Refused { index, error };
                if self.events_left_out && !render {
                    game.apply_text_quiet(*seat, action).map_err(refused)?;
                    return Ok(Vec::new());
                }
                let replayed = game.apply_text(*seat, action).map_err(refused)?;
                if !self.events_left_out && &replayed != events {
                    return Err(ReplayError::Diverged { index });
                }
                Ok(replayed)
            }
            Entry::Refused { .. } => Ok(Vec::new()),
            Entry::Fault { seat, .. } => {
                game.record_fault(*seat);
                Ok(Vec::new())
            }
        }
    }

    /// With the events left out, the record's one check beside legality: `game`, the record
    /// played again, ends as recorded.
    pub(crate) fn check_outcome(&self, game: &dyn DynGame) -> Result<(), ReplayError> {
        match self.events_left_out && game.outcome() != self.outcome {
            true => Err(ReplayError::OutcomeDiffers),
            false => Ok(()),
        }
    }

    /// The seats that were due to move but never made a legal move of their own (see
    /// [`crate::fair`]), indexed by seat.
    pub fn idle_seats(&self) -> Vec<bool> {
        crate::fair::idle_seats(self.seats(), &self.entries)
    }

    /// What each seat did in this game ([`crate::fair::Participation`]).
    pub fn participation(&self) -> Vec<crate::fair::Participation> {
        crate::fair::participation(self.seats(), &self.entries)
    }

    /// Seats in the game (from the outcome once over, else from the entries).
    fn seats(&self) -> usize {
        match &self.outcome {
            Some(o) => o.seats.len(),
            None => self
                .entries
                .iter()
                .map(|e| e.seat().index() + 1)
                .max()
                .unwrap_or(0),
        }
    }

    /// The outcome under the platform's rules ([`crate::fair::outcome`]): the engine's outcome
    /// with the seats that never made a legal move ranked last. `None` while the game runs.
    pub fn fair_outcome(&self) -> Option<Outcome> {
        let engine = self.outcome.clone()?;
        Some(crate::fair::outcome(self.game, engine, &self.idle_seats()))
    }

    /// The log lines of the applied moves, in order (none while the events are left out:
    /// [`Replay::derive_events`] first).
    pub fn log_lines(&self) -> impl Iterator<Item = &str> {
        self.entries
            .iter()
            .flat_map(|entry| match entry {
                Entry::Move { events, .. } => events.as_slice(),
                Entry::Refused { .. } | Entry::Fault { .. } => &[],
            })
            .map(|event| event.text.as_str())
    }
}

/// A game that records itself: the referee's handle on the engine.
#[derive(Debug, Clone)]
pub struct Recorder {
    game: Box<dyn DynGame>,
    replay: Replay,
}

impl Recorder {
    pub fn new(
        game: GameId,
        rules: &str,
        settings: &Value,
        seed: u64,
    ) -> Result<Self, SettingsError> {
        let game = new_game(game, rules, settings, seed)?;
        let replay = Replay::start(game.as_ref(), rules, seed);
        Ok(Recorder { game, replay })
    }

    pub fn game(&self) -> &dyn DynGame {
        self.game.as_ref()
    }

    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    pub fn into_replay(self) -> Replay {
        self.replay
    }

    /// Applies and records the move (its events left out), or records the refusal.
    pub fn apply(&mut self, seat: Seat, action: Value) -> Result<(), IllegalAction> {
        self.apply_as(seat, action, false)
    }

    /// Applies and records a move the referee plays for a faulty seat (marked `forced`).
    pub fn apply_forced(&mut self, seat: Seat, action: Value) -> Result<(), IllegalAction> {
        self.apply_as(seat, action, true)
    }

    fn apply_as(&mut self, seat: Seat, action: Value, forced: bool) -> Result<(), IllegalAction> {
        let applied = self.game.apply_json_quiet(seat, &action);
        self.record(seat, JsonText::of(&action), applied, forced)
    }

    /// Lets the built-in `bot` at `seat` choose and play its move, typed (see [`DynBot::play`]),
    /// and records it. `None` when the bot had nothing to offer (nothing is recorded).
    pub fn play_builtin(
        &mut self,
        seat: Seat,
        bot: &mut dyn DynBot,
        rng: &mut GameRng,
    ) -> Option<Result<(), IllegalAction>> {
        let Played { action, applied } = bot.play(self.game.as_mut(), seat, rng)?;
        Some(self.record(seat, action, applied, false))
    }

    /// Records a move the engine took (and the outcome it may have ended the game with), or
    /// refused.
    fn record(
        &mut self,
        seat: Seat,
        action: JsonText,
        applied: Result<(), IllegalAction>,
        forced: bool,
    ) -> Result<(), IllegalAction> {
        match applied {
            Ok(()) => {
                self.replay.outcome = self.game.outcome();
                self.replay.entries.push(Entry::Move {
                    seat,
                    action,
                    events: Vec::new(),
                    forced,
                });
                Ok(())
            }
            Err(error) => {
                self.replay.entries.push(Entry::Refused {
                    seat,
                    action,
                    error: error.clone(),
                });
                Err(error)
            }
        }
    }

    /// Records a fault and tells the engine.
    pub fn fault(&mut self, seat: Seat, reason: impl Into<String>) {
        self.game.record_fault(seat);
        self.replay.outcome = self.game.outcome();
        self.replay.entries.push(Entry::Fault {
            seat,
            reason: reason.into(),
        });
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::api::Turn;

    fn recorded_game() -> Recorder {
        let mut recorder = Recorder::new(GameId::NO_THANKS, "boardcoder", &Value::Null, 3).unwrap();
        assert!(recorder.apply(Seat(1), json!("pick")).is_err());
        recorder.fault(Seat(1), "answered off turn");
        while let Turn::Seat(seat) = recorder.game().turn() {
            recorder.apply(seat, json!("pick")).unwrap();
        }
        recorder
    }

    /// The game of [`recorded_game`] played straight on the engine, every move's events
    /// written out as it is applied.
    fn played_with_events() -> Vec<Vec<DynEvent>> {
        let mut game = new_game(GameId::NO_THANKS, "boardcoder", &Value::Null, 3).unwrap();
        game.record_fault(Seat(1));
        let mut events = Vec::new();
        while let Turn::Seat(seat) = game.turn() {
            events.push(game.apply_json(seat, &json!("pick")).unwrap());
        }
        events
    }

    /// Every built-in bot of every game, played typed through [`Recorder::play_builtin`] and
    /// through JSON (its `choose`, then [`Recorder::apply`]) from the same seeds: the same
    /// moves, state and outcome, and the typed record rebuilds and survives a round trip.
    #[test]
    fn a_built_in_move_played_typed_is_the_one_chosen_through_json() {
        for game in GameId::all() {
            for name in game.def().bot_names() {
                let rules = game.default_rules();
                let mut typed = Recorder::new(game, rules, &Value::Null, 11).unwrap();
                let mut through_json = typed.clone();
                let bots = |_| crate::bots::builtin(game, name).unwrap();
                let (mut bot_a, mut bot_b): (Vec<_>, Vec<_>) = Seat::all(typed.game().seats())
                    .map(|s| (bots(s), bots(s)))
                    .unzip();
                let rng = |s: Seat| GameRng::derive(11, crate::rng::Stream::Bot(s));
                let mut rngs_a: Vec<GameRng> = Seat::all(bot_a.len()).map(rng).collect();
                let mut rngs_b = rngs_a.clone();
                let mut moves = 0;
                while let (Turn::Seat(seat), true) = (typed.game().turn(), moves < 400) {
                    let i = seat.index();
                    let bot = bot_a[i].as_mut();
                    typed
                        .play_builtin(seat, bot, &mut rngs_a[i])
                        .unwrap()
                        .unwrap();
                    let chosen = bot_b[i].choose(through_json.game(), seat, &mut rngs_b[i]);
                    through_json.apply(seat, chosen.unwrap()).unwrap();
                    moves += 1;
                }
                assert!(moves > 0, "{game} {name}");
                assert!(
                    typed.game().same_state(through_json.game()),
                    "{game} {name}"
                );
                let (typed, through_json) = (typed.into_replay(), through_json.into_replay());
                assert_eq!(typed, through_json, "{game} {name}");
                assert!(typed.rebuild().is_ok(), "{game} {name}");
                let stored: Replay =
                    serde_json::from_str(&serde_json::to_string(&typed).unwrap()).unwrap();
                assert_eq!(stored, typed, "{game} {name}");
            }
        }
    }

    #[test]
    fn a_replay_records_moves_refusals_and_faults_and_rebuilds_the_final_state() {
        let recorder = recorded_game();
        let replay = recorder.replay();
        assert!(matches!(replay.entries[0], Entry::Refused { .. }));
        assert!(matches!(replay.entries[1], Entry::Fault { .. }));
        assert_eq!(replay.outcome, recorder.game().outcome());
        assert!(replay.rebuild().unwrap().same_state(recorder.game()));
        let mut replay = replay.clone();
        replay.derive_events().unwrap();
        assert!(replay
            .log_lines()
            .next()
            .unwrap()
            .starts_with("seat 0 picks"));
    }

    #[test]
    fn the_recorder_leaves_the_events_out_and_deriving_gives_those_the_moves_made() {
        let mut replay = recorded_game().into_replay();
        assert!(replay.events_left_out);
        assert!(replay.log_lines().next().is_none());
        let stored = serde_json::to_string(&replay).unwrap();
        assert!(stored.contains(r#""events_left_out":true"#));

        let mut read: Replay = serde_json::from_str(&stored).unwrap();
        read.derive_events().unwrap();
        replay.derive_events().unwrap();

        assert_eq!(read, replay);
        assert!(!replay.events_left_out);
        let derived: Vec<Vec<DynEvent>> = replay
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Move { events, .. } => Some(events.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(derived, played_with_events());
        // Handed out, the replay reads as one that always had its events.
        assert!(!serde_json::to_string(&replay)
            .unwrap()
            .contains("events_left_out"));
        assert_eq!(replay.entries_from(3).unwrap(), replay.entries[3..]);
    }

    #[test]
    fn the_entries_from_a_point_carry_their_events_with_or_without_them_stored() {
        let replay = recorded_game().into_replay();
        let mut derived = replay.clone();
        derived.derive_events().unwrap();

        let recent = replay.entries_from(5).unwrap();

        assert_eq!(recent, derived.entries[5..]);
        assert!(matches!(&recent[0], Entry::Move { events, .. } if !events.is_empty()));
        assert!(replay
            .entries_from(replay.entries.len())
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_record_without_its_events_that_no_longer_plays_out_is_detected() {
        let mut replay = recorded_game().into_replay();
        let Some(Entry::Move { action, .. }) = replay.entries.get_mut(2) else {
            panic!("entry 2 is a move");
        };
        *action = JsonText::of(&json!("pass"));
        // Passing instead of picking keeps the game legal but ends it otherwise.
        assert_eq!(replay.rebuild().unwrap_err(), ReplayError::OutcomeDiffers);
        assert_eq!(replay.derive_events(), Err(ReplayError::OutcomeDiffers));
        assert!(replay.events_left_out);
        replay.entries.insert(2, replay.entries[3].clone());
        assert!(matches!(
            replay.rebuild(),
            Err(ReplayError::Refused { index: 2, .. })
        ));
    }

    #[test]
    fn a_replay_written_with_sorted_event_keys_still_rebuilds() {
        let mut replay = recorded_game().into_replay();
        replay.derive_events().unwrap();
        // Before events were kept as text they went through a `Value`, whose keys are sorted:
        // the whole record through a `Value` is the older form.
        let older = serde_json::to_value(&replay).unwrap().to_string();
        assert_ne!(older, serde_json::to_string(&replay).unwrap());
        let old: Replay = serde_json::from_str(&older).unwrap();
        assert_eq!(old, replay);
        assert!(old
            .rebuild()
            .unwrap()
            .same_state(&*replay.rebuild().unwrap()));
    }

    #[test]
    fn a_tampered_replay_is_detected() {
        let mut replay = recorded_game().into_replay();
        replay.derive_events().unwrap();
        if let Some(Entry::Move { events, .. }) = replay.entries.get_mut(2) {
            events[0].text.push('!');
        }
        assert_eq!(
            replay.rebuild().unwrap_err(),
            ReplayError::Diverged { index: 2 }
        );
        if let Some(Entry::Move { seat, .. }) = replay.entries.get_mut(3) {
            *seat = Seat(2);
        }
        assert!(matches!(
            replay.rebuild(),
            Err(ReplayError::Diverged { index: 2 })
        ));
        replay.entries.remove(2);
        assert!(matches!(
            replay.rebuild(),
            Err(ReplayError::Refused { index: 2, .. })
        ));
    }
}

//! The match record: everything needed to replay a game exactly, plus a human-readable log.
//!
//! A [`Replay`] is a header (game, rule set, resolved settings, seed) and the entries in order:
//! the moves applied (with the events they produced), the moves refused (with the reason), and
//! faults. Because engines are deterministic, [`Replay::rebuild`] re-runs the moves on a fresh
//! game and checks that every event comes out the same; [`Replay::frames`](crate::Frame) steps
//! through the rebuilt states for the replay viewer, with the observation of any
//! [`Viewer`](crate::Viewer), once the match is over.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api::Seat;
use crate::dynamic::{new_game, DynEvent, DynGame};
use crate::error::{IllegalAction, SettingsError};
use crate::outcome::Outcome;
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
        action: Value,
        events: Vec<DynEvent>,
        /// Played for the seat by the referee after a fault (a lost turn, a forced pick, the
        /// Bridge Robot), not chosen by its bot.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        forced: bool,
    },
    /// A move the engine refused; the state did not change.
    Refused {
        seat: Seat,
        action: Value,
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
}

impl Replay {
    /// A fresh record for `game` (which should not have moved yet).
    pub fn start(game: &dyn DynGame, rules: &str, seed: u64) -> Self {
        Replay {
            game: game.game_id(),
            rules: rules.to_owned(),
            settings: game.settings_json(),
            seed,
            entries: Vec::new(),
            outcome: None,
        }
    }

    /// Re-runs the record on a new game and returns it in its final state.
    pub fn rebuild(&self) -> Result<Box<dyn DynGame>, ReplayError> {
        let mut game = new_game(self.game, &self.rules, &self.settings, self.seed)?;
        for (index, entry) in self.entries.iter().enumerate() {
            replay_entry(game.as_mut(), index, entry)?;
        }
        Ok(game)
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

    /// The log lines of the applied moves, in order.
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

/// Plays entry `index` of a record on `game` again, checking that a move gives the recorded
/// events.
pub(crate) fn replay_entry(
    game: &mut dyn DynGame,
    index: usize,
    entry: &Entry,
) -> Result<(), ReplayError> {
    match entry {
        Entry::Move {
            seat,
            action,
            events,
            ..
        } => {
            let replayed = game
                .apply_json(*seat, action)
                .map_err(|error| ReplayError::Refused { index, error })?;
            if &replayed != events {
                return Err(ReplayError::Diverged { index });
            }
        }
        Entry::Refused { .. } => {}
        Entry::Fault { seat, .. } => game.record_fault(*seat),
    }
    Ok(())
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

    /// Applies and records the move, or records the refusal.
    pub fn apply(&mut self, seat: Seat, action: Value) -> Result<&[DynEvent], IllegalAction> {
        self.apply_as(seat, action, false)
    }

    /// Applies and records a move the referee plays for a faulty seat (marked `forced`).
    pub fn apply_forced(
        &mut self,
        seat: Seat,
        action: Value,
    ) -> Result<&[DynEvent], IllegalAction> {
        self.apply_as(seat, action, true)
    }

    fn apply_as(
        &mut self,
        seat: Seat,
        action: Value,
        forced: bool,
    ) -> Result<&[DynEvent], IllegalAction> {
        match self.game.apply_json(seat, &action) {
            Ok(events) => {
                self.replay.outcome = self.game.outcome();
                self.replay.entries.push(Entry::Move {
                    seat,
                    action,
                    events,
                    forced,
                });
                match self.replay.entries.last() {
                    Some(Entry::Move { events, .. }) => Ok(events),
                    _ => Ok(&[]),
                }
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

    #[test]
    fn a_replay_records_moves_refusals_and_faults_and_rebuilds_the_final_state() {
        let recorder = recorded_game();
        let replay = recorder.replay();
        assert!(matches!(replay.entries[0], Entry::Refused { .. }));
        assert!(matches!(replay.entries[1], Entry::Fault { .. }));
        assert_eq!(replay.outcome, recorder.game().outcome());
        assert!(replay.rebuild().unwrap().same_state(recorder.game()));
        assert!(replay
            .log_lines()
            .next()
            .unwrap()
            .starts_with("seat 0 picks"));
    }

    #[test]
    fn a_replay_written_with_sorted_event_keys_still_rebuilds() {
        let replay = recorded_game().into_replay();
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

//! A finished game as the replay viewer steps through it: one [`Frame`] for the start and one
//! after each recorded entry, each with what one [`Viewer`] saw at that point — for a seat,
//! exactly the observation its bot was sent.

use serde::Serialize;
use serde_json::Value;

use crate::api::{Seat, Viewer};
use crate::dynamic::DynEvent;
use crate::outcome::Outcome;
use crate::replay::{Entry, Replay, ReplayError};

/// One step of a replayed game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Frame {
    /// The entry just played; `None` in the first frame (the start).
    pub entry: Option<FrameEntry>,
    /// `observe_json(viewer)` after the entry.
    pub observation: Value,
    /// In the last frame of a finished game: its outcome under the platform's rules
    /// ([`Replay::fair_outcome`], here from the rebuilt engine). `None` before.
    pub outcome: Option<Outcome>,
}

/// A recorded entry as the viewer shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrameEntry {
    /// 1-based position in the record.
    pub n: usize,
    pub seat: Seat,
    /// `move`, `refused` or `fault`.
    pub kind: &'static str,
    /// The action tried or played (`None` for a fault).
    pub action: Option<Value>,
    /// The log lines of the move's events.
    pub events: Vec<String>,
    /// Played for the seat after a fault, not chosen by its bot.
    pub forced: bool,
    /// Why a move was refused, or the fault.
    pub note: Option<String>,
    /// The events' machine form, one per line of `events`, where the caller asked for it
    /// ([`FrameEntry::with_event_data`]: a person's turn, so a page can word the events in its
    /// language); empty otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub event_data: Vec<Value>,
}

impl FrameEntry {
    /// Entry `entry` of a record, which is its `n`-th (1-based).
    pub fn of(n: usize, entry: &Entry) -> Self {
        let (kind, action, events, forced, note) = match entry {
            Entry::Move {
                action,
                events,
                forced,
                ..
            } => (
                "move",
                Some(action.value()),
                events.iter().map(|e| e.text.clone()).collect(),
                *forced,
                None,
            ),
            Entry::Refused { action, error, .. } => (
                "refused",
                Some(action.value()),
                Vec::new(),
                false,
                Some(error.to_string()),
            ),
            Entry::Fault { reason, .. } => ("fault", None, Vec::new(), false, Some(reason.clone())),
        };
        FrameEntry {
            n,
            seat: entry.seat(),
            kind,
            action,
            events,
            forced,
            note,
            event_data: Vec::new(),
        }
    }

    /// [`FrameEntry::of`] with the events' machine form too.
    pub fn with_event_data(n: usize, entry: &Entry) -> Self {
        let mut frame = FrameEntry::of(n, entry);
        if let Entry::Move { events, .. } = entry {
            frame.event_data = events
                .iter()
                .map(|e| serde_json::from_str(e.json.get()).unwrap_or(Value::Null))
                .collect();
        }
        frame
    }
}

impl Replay {
    /// Rebuilds the game step by step (checking every move as [`Replay::rebuild`] does, and
    /// deriving the events where they were left out) and returns `entries.len() + 1` frames as `viewer` saw them. Call it for finished games only:
    /// an omniscient or another seat's view of a running game reveals hidden information.
    pub fn frames(&self, viewer: Viewer) -> Result<Vec<Frame>, ReplayError> {
        let frames = self.frames_with_events(viewer)?;
        Ok(frames.into_iter().map(|(frame, _)| frame).collect())
    }

    /// [`Replay::frames`], each with its move's events in full (none for the start, a
    /// refusal or a fault), for a reader that words them itself: written once, whether the
    /// record kept them (they are checked against it) or left them out.
    pub fn frames_with_events(
        &self,
        viewer: Viewer,
    ) -> Result<Vec<(Frame, Vec<DynEvent>)>, ReplayError> {
        let mut game = self.fresh_game()?;
        let mut frames = Vec::with_capacity(self.entries.len() + 1);
        let start = Frame {
            entry: None,
            observation: game.observe_json(viewer),
            outcome: None,
        };
        frames.push((start, Vec::new()));
        for (index, entry) in self.entries.iter().enumerate() {
            let events = self.replay_entry(game.as_mut(), index, entry, true)?;
            let mut shown = FrameEntry::of(index + 1, entry);
            if self.events_left_out {
                shown.events = events.iter().map(|e| e.text.clone()).collect();
            }
            let frame = Frame {
                entry: Some(shown),
                observation: game.observe_json(viewer),
                outcome: None,
            };
            frames.push((frame, events));
        }
        self.check_outcome(game.as_ref())?;
        if let (Some(engine), Some((last, _))) = (game.outcome(), frames.last_mut()) {
            last.outcome = Some(crate::fair::outcome(self.game, engine, &self.idle_seats()));
        }
        Ok(frames)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::api::Turn;
    use crate::{GameId, GameRng, Recorder, Stream};

    /// A Splendor game of built-in heuristic moves, a refusal and a fault on the way.
    fn splendor_game() -> Replay {
        let mut recorder = Recorder::new(GameId::SPLENDOR, "hackathon", &Value::Null, 5).unwrap();
        assert!(recorder.apply(Seat(1), json!("nonsense")).is_err());
        recorder.fault(Seat(0), "answered late");
        let mut bot = crate::bots::names(GameId::SPLENDOR)
            .first()
            .and_then(|name| crate::bots::builtin(GameId::SPLENDOR, name))
            .unwrap();
        let mut rng = GameRng::derive(5, Stream::Testing);
        while let Turn::Seat(seat) = recorder.game().turn() {
            let action = bot.choose(recorder.game(), seat, &mut rng).unwrap();
            recorder.apply(seat, action).unwrap();
        }
        recorder.into_replay()
    }

    #[test]
    fn frames_step_through_every_entry_and_end_with_the_outcome() {
        let replay = splendor_game();

        let frames = replay.frames(Viewer::Omniscient).unwrap();

        assert_eq!(frames.len(), replay.entries.len() + 1);
        assert!(frames[0].entry.is_none());
        assert_eq!(frames[1].entry.as_ref().unwrap().kind, "refused");
        assert_eq!(frames[2].entry.as_ref().unwrap().kind, "fault");
        assert_eq!(
            frames[2].entry.as_ref().unwrap().note.as_deref(),
            Some("answered late")
        );
        let third = frames[3].entry.as_ref().unwrap();
        assert_eq!((third.n, third.kind), (3, "move"));
        assert!(!third.events.is_empty());
        assert!(frames[..frames.len() - 1]
            .iter()
            .all(|f| f.outcome.is_none()));
        assert_eq!(frames.last().unwrap().outcome, replay.fair_outcome());
        assert_eq!(
            frames.last().unwrap().observation,
            replay.rebuild().unwrap().observe_json(Viewer::Omniscient)
        );
    }

    #[test]
    fn a_seats_frames_are_its_observations_without_the_hidden_decks() {
        let replay = splendor_game();

        let seat = replay.frames(Viewer::Seat(Seat(2))).unwrap();
        let omniscient = replay.frames(Viewer::Omniscient).unwrap();

        assert!(omniscient[0].observation.get("hidden").is_some());
        assert!(seat.iter().all(|f| f.observation.get("hidden").is_none()));
        assert_eq!(seat[0].observation["viewer"], json!({ "seat": 2 }));
    }

    #[test]
    fn a_record_without_its_events_shows_the_events_it_derives() {
        let replay = splendor_game();
        assert!(replay.events_left_out);
        let mut derived = replay.clone();
        derived.derive_events().unwrap();

        let frames = replay.frames(Viewer::Omniscient).unwrap();

        assert_eq!(frames, derived.frames(Viewer::Omniscient).unwrap());
        let with_events = replay.frames_with_events(Viewer::Omniscient).unwrap();
        assert_eq!(
            with_events,
            derived.frames_with_events(Viewer::Omniscient).unwrap()
        );
        let Entry::Move { events, .. } = &derived.entries[2] else {
            panic!("entry 3 is a move");
        };
        assert_eq!(&with_events[3].1, events);
        let third = frames[3].entry.as_ref().unwrap();
        let Entry::Move { events, .. } = &derived.entries[2] else {
            panic!("entry 3 is a move");
        };
        let lines: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
        assert!(!lines.is_empty());
        assert_eq!(third.events, lines);
    }

    #[test]
    fn a_tampered_record_gives_no_frames() {
        let mut replay = splendor_game();
        replay.derive_events().unwrap();
        if let Some(Entry::Move { events, .. }) = replay.entries.get_mut(4) {
            events.clear();
        }

        assert_eq!(
            replay.frames(Viewer::Omniscient).unwrap_err(),
            ReplayError::Diverged { index: 4 }
        );
    }
}

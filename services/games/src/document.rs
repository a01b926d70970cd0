//! The replay document (`docs/replays.md`, format 1) as it is handed out: every game's replay
//! with its events. The worker stores a match's document as the referee recorded it, the moves'
//! events left out ([`Replay::events_left_out`]); [`with_events`] derives them when someone
//! downloads it, so a reader always gets the whole record, whatever was stored.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::replay::{Replay, ReplayError};

/// The replay document format this build writes and reads.
pub const FORMAT: u64 = 1;

/// Why a stored document could not be completed.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error("not a replay document: {0}")]
    Unreadable(#[from] serde_json::Error),
    #[error("game {game}: {error}")]
    Replay { game: usize, error: ReplayError },
}

/// The document's own fields, in the order it is written; the rest (outcome, transcript,
/// timings) passes through as it is.
#[derive(Serialize, Deserialize)]
struct Document {
    format: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    players: Option<Value>,
    games: Vec<GameDoc>,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

#[derive(Serialize, Deserialize)]
struct GameDoc {
    replay: Replay,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

/// `stored` with every game's events derived where they were left out. A document that already
/// has them all (every one stored before 2026-11-27) comes back byte for byte.
pub fn with_events(stored: &[u8]) -> Result<Vec<u8>, DocumentError> {
    let mut doc: Document = serde_json::from_slice(stored)?;
    if !doc.games.iter().any(|g| g.replay.events_left_out) {
        return Ok(stored.to_vec());
    }
    for (game, g) in doc.games.iter_mut().enumerate() {
        g.replay
            .derive_events()
            .map_err(|error| DocumentError::Replay { game, error })?;
    }
    Ok(serde_json::to_vec(&doc)?)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::api::Turn;
    use crate::{GameId, Recorder, Seat};

    fn recorded(seed: u64) -> Replay {
        let mut recorder =
            Recorder::new(GameId::NO_THANKS, "boardcoder", &Value::Null, seed).expect("a game");
        recorder.fault(Seat(1), "answered off turn");
        while let Turn::Seat(seat) = recorder.game().turn() {
            let action = match seat.index() {
                0 => json!("pass"),
                _ => json!("pick"),
            };
            if recorder.apply(seat, action).is_err() {
                recorder
                    .apply(seat, json!("pick"))
                    .expect("pick is always legal");
            }
        }
        recorder.into_replay()
    }

    fn document(games: &[Replay]) -> Value {
        json!({
            "format": FORMAT,
            "players": ["a", "b", "c"],
            "games": games.iter().map(|r| json!({ "replay": r, "outcome": r.outcome })).collect::<Vec<_>>(),
            "outcome": games[0].outcome,
            "transcript": [{ "at_ms": 1, "conn": 0, "seat": 0, "direction": "to_bot", "text": "hi" }],
            "transcript_truncated": false,
            "wall_ms": 12,
        })
    }

    #[test]
    fn a_stored_document_is_handed_out_with_every_games_events() {
        let stored = document(&[recorded(1), recorded(2)]);

        let out: Value =
            serde_json::from_slice(&with_events(stored.to_string().as_bytes()).unwrap()).unwrap();

        let mut expected = stored.clone();
        for g in expected["games"].as_array_mut().unwrap() {
            let mut replay: Replay = serde_json::from_value(g["replay"].clone()).unwrap();
            replay.derive_events().unwrap();
            g["replay"] = serde_json::to_value(&replay).unwrap();
        }
        assert_eq!(out, expected);
        let first_move = &out["games"][0]["replay"]["entries"][1];
        assert_eq!(first_move["entry"], "move");
        assert!(!first_move["events"].as_array().unwrap().is_empty());
        assert!(out["games"][1]["replay"].get("events_left_out").is_none());
        assert_eq!(out["transcript"], stored["transcript"]);
    }

    #[test]
    fn a_document_that_has_its_events_comes_back_unchanged() {
        let mut replay = recorded(3);
        replay.derive_events().unwrap();
        let stored = serde_json::to_vec_pretty(&document(&[replay])).unwrap();

        assert_eq!(with_events(&stored).unwrap(), stored);
    }

    #[test]
    fn a_broken_document_is_an_error_naming_the_game() {
        assert!(matches!(
            with_events(b"{\"format\": 1}"),
            Err(DocumentError::Unreadable(_))
        ));
        let mut bad = recorded(4);
        bad.outcome = None;
        let stored = document(&[recorded(5), bad]).to_string();

        let error = with_events(stored.as_bytes()).unwrap_err();

        assert!(matches!(
            error,
            DocumentError::Replay {
                game: 1,
                error: ReplayError::OutcomeDiffers
            }
        ));
    }
}

//! `docs/protocols.md#hanabi`'s messages, rendered from the engine's [`Observation`]s, and the
//! bot's answer turned into the engine's action.
//!
//! Every server message carries its `event` key **last**, as the original's
//! `load["event"] = …` after the payload; the other keys keep the original's order.
//! `onPlayerAction` is the engine's [`ActionReport`] (`play` with actionType 2, `discard` with
//! 3, the actor's own `draw` `[-1,-1]`, `[-1,0]` for the others once the deck is empty).
//! `onGameEnd`'s `reason` is 0 (three errors), 1 (deck out) or 2 (all stacks); a game that a
//! fault ended (Croupier only: the original crashed) is reported with reason **-1**.

use croupier_games::hanabi::{ActionReport, HintReceived, Observation};
use serde::Serialize;
use serde_json::{json, Value};

use super::indices::Indices;

/// A payload with `"event": name` appended as its last key.
fn with_event(payload: &impl Serialize, event: &str) -> String {
    let body = serde_json::to_string(payload).unwrap_or_else(|_| "{}".into());
    let event = json!(event);
    match body.strip_suffix('}') {
        Some(open) if open.len() > 1 => format!("{open},\"event\":{event}}}"),
        _ => format!("{{\"event\":{event}}}"),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Hands<'a> {
    hand_color: &'a [Vec<i8>],
    hand_number: &'a [Vec<i8>],
}

/// `onStart`: every hand, `[player][card]` by protocol index, the receiver's own row all -1.
pub(crate) fn on_start(view: &Observation, indices: &Indices) -> String {
    let (hand_color, hand_number) = indices.view(view);
    let hands = Hands {
        hand_color: &hand_color,
        hand_number: &hand_number,
    };
    with_event(&hands, "onStart")
}

/// `onTurnStart` (the protocol index on turn), to everyone.
pub(crate) fn on_turn_start(index: usize) -> String {
    with_event(&json!({ "index": index }), "onTurnStart")
}

/// `turn`, to the player on turn only.
pub(crate) fn turn() -> String {
    with_event(&json!({}), "turn")
}

/// `onHintColor` / `onHintNumber`, to the hint's target only.
pub(crate) fn on_hint(hint: &HintReceived) -> String {
    let event = if hint.hint_color.iter().any(|&c| c >= 0) {
        "onHintColor"
    } else {
        "onHintNumber"
    };
    with_event(hint, event)
}

/// `onPlayerAction`, to everyone (each with its own view of the draw), the actor and a
/// hint's target as protocol indices.
pub(crate) fn on_player_action(report: &ActionReport, indices: &Indices) -> String {
    with_event(&indices.report(report), "onPlayerAction")
}

#[derive(Serialize)]
struct End {
    reason: i8,
    score: i64,
}

/// `onGameEnd`; `code` `None` (a fault ended the game) is sent as -1.
pub(crate) fn on_game_end(code: Option<u8>, score: i64) -> String {
    let reason = code.map_or(-1, |c| i8::try_from(c).unwrap_or(-1));
    with_event(&End { reason, score }, "onGameEnd")
}

/// A bot's message while it is on turn.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Answer {
    /// The engine's JSON action (the rules may still refuse it).
    Action(Value),
    /// Not an action at all: the reason.
    Invalid(String),
}

/// `{"actionType":t,"target":x,"color":c,"number":n}` → the engine's action, a hint's target
/// (a protocol index) turned into its engine seat. `color` and `number` matter only for
/// hints (null or absent otherwise). Integers the rules refuse (a colour of 9, a target
/// index of 7) become actions the engine refuses with its reason; a missing or non-integer
/// field is invalid output.
pub(crate) fn answer(value: &Value, indices: &Indices) -> Answer {
    let Some(object) = value.as_object() else {
        return Answer::Invalid(format!(
            "the answer to `turn` is not a JSON object: {value}"
        ));
    };
    let int = |key: &str| object.get(key).and_then(Value::as_i64);
    let need = |key: &str| {
        int(key).ok_or_else(|| format!("the answer to `turn` has no integer {key:?}: {value}"))
    };
    let built = (|| {
        let kind = need("actionType")?;
        let target = need("target")?;
        Ok(match kind {
            0 => json!({ "action": "hint_color", "target": target, "color": need("color")? }),
            1 => json!({ "action": "hint_number", "target": target, "number": need("number")? }),
            2 => json!({ "action": "play", "card": target }),
            3 => json!({ "action": "discard", "card": target }),
            other => {
                return Err(format!(
                    "actionType {other} is not 0 (hint colour), 1 (hint number), 2 (play) or 3 (discard)"
                ))
            }
        })
    })();
    match built {
        Ok(action) => Answer::Action(indices.action(action)),
        Err(reason) => Answer::Invalid(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_key_comes_last_and_the_payload_keeps_its_order() {
        assert_eq!(on_turn_start(2), r#"{"index":2,"event":"onTurnStart"}"#);
        assert_eq!(turn(), r#"{"event":"turn"}"#);
        assert_eq!(
            on_game_end(Some(1), 17),
            r#"{"reason":1,"score":17,"event":"onGameEnd"}"#
        );
        assert_eq!(
            on_game_end(None, 4),
            r#"{"reason":-1,"score":4,"event":"onGameEnd"}"#
        );
        let hint = HintReceived {
            hint_color: vec![-1; 4],
            hint_number: vec![-1, 5, -1, 5],
        };
        assert_eq!(
            on_hint(&hint),
            r#"{"hintColor":[-1,-1,-1,-1],"hintNumber":[-1,5,-1,5],"event":"onHintNumber"}"#
        );
    }

    #[test]
    fn answers_map_to_engine_actions_and_play_is_2_discard_is_3() {
        let same = Indices::from_order(vec![0, 1, 2, 3]);
        let a = |v: Value| answer(&v, &same);
        assert_eq!(
            a(json!({"actionType":2,"target":1,"color":null,"number":null})),
            Answer::Action(json!({"action":"play","card":1}))
        );
        assert_eq!(
            a(json!({"actionType":3,"target":0})),
            Answer::Action(json!({"action":"discard","card":0}))
        );
        assert_eq!(
            a(json!({"actionType":0,"target":2,"color":4,"number":-1})),
            Answer::Action(json!({"action":"hint_color","target":2,"color":4}))
        );
        assert_eq!(
            a(json!({"actionType":1,"target":3,"number":5})),
            Answer::Action(json!({"action":"hint_number","target":3,"number":5}))
        );
        for bad in [
            json!([2, 0]),
            json!({"target":0}),
            json!({"actionType":4,"target":0}),
            json!({"actionType":0,"target":1}),
            json!({"actionType":"play","target":0}),
        ] {
            assert!(matches!(answer(&bad, &same), Answer::Invalid(_)), "{bad}");
        }
    }

    #[test]
    fn a_hint_names_its_target_by_protocol_index_and_a_play_its_card_slot() {
        let shuffled = Indices::from_order(vec![3, 1, 0, 2]);
        let a = |v: Value| answer(&v, &shuffled);
        assert_eq!(
            a(json!({"actionType":0,"target":0,"color":1,"number":-1})),
            Answer::Action(json!({"action":"hint_color","target":3,"color":1}))
        );
        assert_eq!(
            a(json!({"actionType":1,"target":3,"number":2})),
            Answer::Action(json!({"action":"hint_number","target":2,"number":2}))
        );
        assert_eq!(
            a(json!({"actionType":2,"target":0})),
            Answer::Action(json!({"action":"play","card":0}))
        );
        assert_eq!(
            a(json!({"actionType":3,"target":3})),
            Answer::Action(json!({"action":"discard","card":3}))
        );
        assert_eq!(
            a(json!({"actionType":1,"target":-1,"number":2})),
            Answer::Action(json!({"action":"hint_number","target":-1,"number":2})),
            "no player: left for the engine to refuse"
        );
    }
}

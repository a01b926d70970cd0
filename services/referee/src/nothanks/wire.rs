//! The No Thanks messages, written byte for byte as the original Python server writes them:
//! `json.dumps` separators (`", "`, `": "`), non-ASCII as lower-case `\uXXXX` escapes, keys in
//! the original's order, `{"type": …, "payload": …}` envelopes.

use std::io;

use serde::Serialize;
use serde_json::Value;

use super::status::GameStatus;
use serde_json::ser::Formatter;

/// `json.dumps(value)` with Python's defaults.
pub(crate) fn dumps(value: &impl Serialize) -> String {
    let mut out = Vec::with_capacity(512);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, PyFormatter);
    match value.serialize(&mut ser) {
        // The formatter writes ASCII only.
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        Err(e) => format!("{{\"type\": \"error\", \"payload\": {{\"reason\": \"{e}\"}}}}"),
    }
}

struct PyFormatter;

impl Formatter for PyFormatter {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        for ch in fragment.chars() {
            if ch.is_ascii() {
                w.write_all(&[ch as u8])?;
            } else {
                let mut units = [0_u16; 2];
                for unit in ch.encode_utf16(&mut units) {
                    write!(w, "\\u{unit:04x}")?;
                }
            }
        }
        Ok(())
    }
}

#[derive(Serialize)]
struct Envelope<'a, P: Serialize> {
    r#type: &'a str,
    payload: P,
}

/// `{"type": kind, "payload": payload}`.
pub(crate) fn message(kind: &str, payload: impl Serialize) -> String {
    dumps(&Envelope {
        r#type: kind,
        payload,
    })
}

pub(crate) fn connection_ok() -> String {
    message("notice_connection_ok", serde_json::json!({}))
}

pub(crate) fn request_room(room: &str) -> String {
    #[derive(Serialize)]
    struct P<'a> {
        roomlist: [&'a str; 1],
    }
    message("request_room_name_and_role", P { roomlist: [room] })
}

/// `{"result": "accepted"}` (no reason, as the original), or declined with a reason.
pub(crate) fn room_result(declined: Option<&str>) -> String {
    #[derive(Serialize)]
    struct P<'a> {
        result: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<&'a str>,
    }
    let result = if declined.is_some() {
        "declined"
    } else {
        "accepted"
    };
    message(
        "result_room_name_and_role",
        P {
            result,
            reason: declined,
        },
    )
}

pub(crate) fn notice_epoc(epoc_num: usize) -> String {
    #[derive(Serialize)]
    struct P {
        epoc_num: usize,
    }
    message("notice_epoc", P { epoc_num })
}

/// `notice_start`, `information_game` or `notice_end`: just the game status.
pub(crate) fn with_status(kind: &str, status: &GameStatus) -> String {
    #[derive(Serialize)]
    struct P<'a> {
        game_status: &'a GameStatus,
    }
    message(
        kind,
        P {
            game_status: status,
        },
    )
}

pub(crate) fn request_action(action_types: &[String], status: &GameStatus) -> String {
    #[derive(Serialize)]
    struct P<'a> {
        action_types: &'a [String],
        game_status: &'a GameStatus,
    }
    message(
        "request_action",
        P {
            action_types,
            game_status: status,
        },
    )
}

/// `result_action`; the reason is `""` when accepted, as in the original.
pub(crate) fn result_action(declined: Option<&str>, status: &GameStatus) -> String {
    #[derive(Serialize)]
    struct P<'a> {
        result: &'a str,
        reason: &'a str,
        game_status: &'a GameStatus,
    }
    let result = if declined.is_some() {
        "declined"
    } else {
        "accepted"
    };
    message(
        "result_action",
        P {
            result,
            reason: declined.unwrap_or(""),
            game_status: status,
        },
    )
}

/// A message from a bot, by kind.
pub(crate) enum Incoming<'a> {
    RoomReply(&'a Value),
    Action(String),
    Invalid(String),
}

pub(crate) fn incoming(value: &Value) -> Incoming<'_> {
    let Some(object) = value.as_object() else {
        return Incoming::Invalid("sent a JSON value that is not an object".into());
    };
    let payload = object.get("payload").unwrap_or(&Value::Null);
    match object.get("type").and_then(Value::as_str) {
        Some("reply_room_name_and_role") => Incoming::RoomReply(payload),
        Some("reply_action") => match payload
            .get("action_type")
            .or_else(|| object.get("action_type"))
        {
            Some(Value::String(action)) => Incoming::Action(action.clone()),
            _ => {
                Incoming::Invalid("sent a reply_action without a string payload.action_type".into())
            }
        },
        Some(other) => Incoming::Invalid(format!("sent a message of unknown type {other:?}")),
        None => Incoming::Invalid("sent a message without a string \"type\"".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_written_like_pythons_json_dumps() {
        assert_eq!(
            connection_ok(),
            r#"{"type": "notice_connection_ok", "payload": {}}"#
        );
        assert_eq!(
            room_result(None),
            r#"{"type": "result_room_name_and_role", "payload": {"result": "accepted"}}"#
        );
        assert_eq!(
            request_room("normal"),
            r#"{"type": "request_room_name_and_role", "payload": {"roomlist": ["normal"]}}"#
        );
        assert_eq!(dumps(&"あ😀\n"), r#""\u3042\ud83d\ude00\n""#);
    }

    #[test]
    fn a_game_status_has_the_original_fields_in_order() {
        let game = croupier_games::new_game(
            croupier_games::GameId::NO_THANKS,
            "boardcoder",
            &serde_json::Value::Null,
            7,
        )
        .unwrap();
        let names = ["p1", "p2", "p3"].map(String::from);
        let status = dumps(&GameStatus::of(game.as_ref(), &names).unwrap());
        assert!(
            status.starts_with(
                r#"{"turnnum": 0, "turnorder": ["p1", "p2", "p3"], "rankingorder": ["#
            ),
            "{status}"
        );
        assert!(
            status.contains(
                r#""playerinfo": {"p1": {"coins": 25, "cards": [], "point": -25}, "p2": "#
            ),
            "{status}"
        );
        assert!(
            status.contains(r#""deckinfo": {"decknum": 29}, "fieldinfo": {"fieldcard": "#),
            "{status}"
        );
        assert!(status.ends_with(r#", "end_flg": "False"}"#), "{status}");
    }
}

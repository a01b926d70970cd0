//! For the fuzz targets only (`fuzz/` at the repository root, `scripts/bench/fuzz`): thin
//! public wrappers over the crate-private parsers of bot output, so a fuzzer can call them as
//! the adapters do. No logic of their own and no API promise; nothing else may use them.
//!
//! Bridge needs no wrapper: [`bridge::answer::judge`](crate::bridge::answer::judge) and the
//! [`files`](crate::bridge::files) writers are public already.

use serde_json::Value;
use tokio::io::AsyncRead;

use crate::guandan::wire::Reply;
use crate::hanabi::indices::Indices;
use crate::hanabi::wire::Answer;
use crate::hub::HubEvent;
use crate::nothanks::json_reader::JsonReader;
use crate::nothanks::wire::Incoming;

/// Splendor: the bot's stdout read as the adapter reads it ([`crate::splendor`]'s `output::parse`):
/// `Err` is invalid output; otherwise the action (or the judge's refusal) and the ignored keys.
#[allow(clippy::type_complexity)]
pub fn splendor_output(
    stdout: &[u8],
) -> Result<
    (
        Result<croupier_games::splendor::Action, String>,
        Vec<&'static str>,
    ),
    String,
> {
    crate::splendor::output::parse(stdout).map(|answer| (answer.action, answer.ignored))
}

/// Guandan: a text frame read as `{"actIndex": i}`; `Err` is the garbage reason.
pub fn guandan_reply(text: &str) -> Result<i64, String> {
    match crate::guandan::wire::reply(text) {
        Reply::Index(i) => Ok(i),
        Reply::Garbage(reason) => Err(reason),
    }
}

/// Hanabi: a frame's payload as the connection task reads it; `Ok` is the JSON value and its
/// text, `Err` the garbage reason.
pub fn hanabi_frame(bytes: &[u8]) -> Result<(Value, String), String> {
    match crate::hanabi::frames::parse(0, bytes) {
        HubEvent::Message { value, text, .. } => Ok((value, text)),
        HubEvent::Garbage { reason, .. } => Err(reason),
        HubEvent::Opened { .. } | HubEvent::Closed { .. } => Err("no message".to_owned()),
    }
}

/// Hanabi: the answer to `turn` as the engine's action JSON, given the protocol order
/// (`order[k]` is the engine seat with index `k`); `Err` is invalid output.
pub fn hanabi_answer(value: &Value, order: Vec<usize>) -> Result<Value, String> {
    match crate::hanabi::wire::answer(value, &Indices::from_order(order)) {
        Answer::Action(action) => Ok(action),
        Answer::Invalid(reason) => Err(reason),
    }
}

/// No Thanks: the connection's reader of JSON values (cap in bytes per value).
pub struct NoThanksReader<R>(JsonReader<R>);

impl<R: AsyncRead + Unpin> NoThanksReader<R> {
    pub fn new(read: R, cap: usize) -> Self {
        NoThanksReader(JsonReader::new(read, cap))
    }

    /// The next value and its text; `Ok(None)` at a clean end; `Err` ends the connection.
    pub async fn next(&mut self) -> Result<Option<(Value, String)>, String> {
        self.0.next().await
    }
}

/// No Thanks: what a message from a bot is.
#[derive(Debug, Clone, PartialEq)]
pub enum NoThanksMessage {
    /// `reply_room_name_and_role` with its payload.
    RoomReply(Value),
    /// `reply_action` with its action type.
    Action(String),
    /// Anything else: the reason.
    Invalid(String),
}

/// No Thanks: a message read as the room reads it.
pub fn nothanks_incoming(value: &Value) -> NoThanksMessage {
    match crate::nothanks::wire::incoming(value) {
        Incoming::RoomReply(payload) => NoThanksMessage::RoomReply(payload.clone()),
        Incoming::Action(action) => NoThanksMessage::Action(action),
        Incoming::Invalid(reason) => NoThanksMessage::Invalid(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_wrappers_read_as_the_adapters_do() {
        let (action, ignored) =
            splendor_output(br#"{"get_two_same_color_gems": "red"}"#).expect("a readable answer");
        assert!(matches!(
            action,
            Ok(croupier_games::splendor::Action::TakeTwo { .. })
        ));
        assert!(ignored.is_empty());
        assert!(splendor_output(b"[]").is_err());

        assert_eq!(guandan_reply(r#"{"actIndex": 4}"#), Ok(4));
        assert!(guandan_reply("4").is_err());

        let (value, text) =
            hanabi_frame(br#"{"actionType": 1, "target": 0, "number": 3}"#).expect("JSON");
        assert_eq!(text, r#"{"actionType": 1, "target": 0, "number": 3}"#);
        assert_eq!(
            hanabi_answer(&value, vec![2, 0, 1]),
            Ok(json!({"action": "hint_number", "target": 2, "number": 3}))
        );
        assert!(hanabi_frame(b"{").is_err());

        assert_eq!(
            nothanks_incoming(&json!({"type": "reply_action", "payload": {"action_type": "pass"}})),
            NoThanksMessage::Action("pass".into())
        );
        assert!(matches!(
            nothanks_incoming(&json!({"type": "reply"})),
            NoThanksMessage::Invalid(_)
        ));
    }

    #[tokio::test]
    async fn the_no_thanks_reader_yields_values_then_the_end() {
        let mut reader = NoThanksReader::new(&b"{\"a\": 1}\n[2]"[..], 64);
        assert_eq!(
            reader.next().await,
            Ok(Some((json!({"a": 1}), "{\"a\": 1}".into())))
        );
        assert_eq!(reader.next().await, Ok(Some((json!([2]), "[2]".into()))));
        assert_eq!(reader.next().await, Ok(None));
    }
}

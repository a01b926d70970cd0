//! A move's or an event's machine form as compact JSON text ([`JsonText`]): written once,
//! straight from the typed value, when the move is made — no `serde_json::Value` tree (a map
//! and a string per field) in the referee's per-move loop — and copied verbatim into the
//! replay. A replay's moves ([`Entry::Move`](crate::Entry)) and its events
//! ([`DynEvent::json`](crate::DynEvent)) are both kept this way.
//!
//! Keys come in the type's declaration order. Replays written before this type (by way of a
//! `Value`) have their keys sorted; both read back, and two forms of the same value compare
//! equal ([`PartialEq`] falls back to comparing the parsed values), so older replays still
//! verify move for move.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// A move's or an event's JSON text, always one valid JSON value.
#[derive(Clone)]
pub struct JsonText(Box<RawValue>);

impl JsonText {
    /// `value` as JSON text. This crate's moves and events always serialize (no maps with
    /// non-string keys); an error would be a bug and shows up as a JSON string, never as a panic.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> JsonText {
        JsonText(serde_json::value::to_raw_value(value).unwrap_or_else(|e| {
            let text = Value::String(format!("unserializable: {e}")).to_string();
            RawValue::from_string(text).unwrap_or_default() // `null`; a JSON string always parses
        }))
    }

    /// The text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The parsed value (`null` if the text were somehow not JSON).
    pub fn value(&self) -> Value {
        serde_json::from_str(self.get()).unwrap_or(Value::Null)
    }
}

impl PartialEq for JsonText {
    fn eq(&self, other: &JsonText) -> bool {
        self.get() == other.get() || self.value() == other.value()
    }
}

impl Eq for JsonText {}

/// The text itself, as a log line or a page shows a move.
impl fmt::Display for JsonText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl fmt::Debug for JsonText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl Serialize for JsonText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Read through a [`Value`]: a replay's entries are an internally tagged enum, whose content
/// serde buffers, and a raw value cannot be read from a buffer.
impl<'de> Deserialize<'de> for JsonText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Ok(JsonText::of(&value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize)]
    struct Played {
        seat: u8,
        card: &'static str,
    }

    #[test]
    fn the_text_is_the_events_own_compact_json_and_reads_back_in_any_key_order() {
        let event = JsonText::of(&Played {
            seat: 2,
            card: "R3",
        });
        assert_eq!(event.get(), r#"{"seat":2,"card":"R3"}"#);
        assert_eq!(event.value(), json!({"card": "R3", "seat": 2}));
        let sorted: JsonText = serde_json::from_str(r#"{"card":"R3","seat":2}"#).unwrap();
        assert_eq!(sorted, event, "a replay written with sorted keys verifies");
        assert_ne!(
            sorted,
            JsonText::of(&Played {
                seat: 1,
                card: "R3"
            })
        );
        let text = serde_json::to_string(&vec![event.clone()]).unwrap();
        assert_eq!(text, r#"[{"seat":2,"card":"R3"}]"#, "copied verbatim");
    }
}

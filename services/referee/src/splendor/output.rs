//! The bot's answer: one JSON object on stdout (compact or pretty), snake_case keys
//! (`docs/protocols.md#splendor`), read into an engine [`Action`].
//!
//! * The action keys, **in the order that decides when several are given** (the judge executes
//!   one of them; Croupier the first of this list, whatever the order in the object):
//!   `get_different_color_gems` (list of colours), `get_two_same_color_gems` (a colour),
//!   `reserve_card` (`{card}` or `{level}`; both is illegal), `purchase_card` (a card),
//!   `purchase_reserved_card` (a card). `noble` (a noble) may accompany any of them. A key whose
//!   value is `null` counts as absent (protobuf's reading).
//! * `{}`, or an object without any action key, is a **pass** (the turn is lost, no fault).
//!   Other keys are ignored; a `noble` without an action is ignored too (a pass names nothing).
//! * Cards are matched **by content**: `level`, `color`, `score` (absent = 0, `"score": 0`
//!   allowed) and `costs` as a multiset of `{color, count}` (any order, absent `count` = 0,
//!   repeated colours add up); other keys inside a card are ignored. A noble is its
//!   `requirements` (same reading) and `score` (absent = 3: every noble is worth 3). Whether
//!   the card or noble exists is the engine's call (`illegal_action` if not).
//! * Colours are the lower-case names `green white blue black red gold`; the list of
//!   `get_different_color_gems` may be in any order (it is sorted for the engine).
//! * **Invalid output** (the turn is lost, recorded as `invalid_output`): nothing printed, not
//!   UTF-8, not JSON, anything but whitespace after the object (two objects printed), not an
//!   object, or an action key whose value cannot be read (a number where a colour is expected,
//!   an unknown colour, a card without `level`, …).

use croupier_games::splendor::{Action, Card, Color, Gems, Noble};
use serde_json::{Map, Value};

/// The action keys in the order that decides between several.
pub(crate) const ACTION_KEYS: [&str; 5] = [
    "get_different_color_gems",
    "get_two_same_color_gems",
    "reserve_card",
    "purchase_card",
    "purchase_reserved_card",
];

/// A readable answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    /// [`Action::Pass`] for `{}` or no action key; `Err` for a move the judge refuses before
    /// the rules see it (`reserve_card` naming both a card and a level), with the reason.
    pub action: Result<Action, String>,
    /// The action keys present after the one executed (ignored).
    pub ignored: Vec<&'static str>,
}

/// Reads the bot's stdout; `Err` is the reason it is invalid output.
pub(crate) fn parse(stdout: &[u8]) -> Result<Answer, String> {
    let text = std::str::from_utf8(stdout).map_err(|_| "the output is not UTF-8".to_owned())?;
    if text.trim().is_empty() {
        return Err("printed nothing (expected one JSON object)".into());
    }
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("invalid JSON: {e}"))?;
    let Value::Object(object) = value else {
        return Err("the output is not a JSON object".into());
    };
    let mut keys = ACTION_KEYS
        .into_iter()
        .filter(|key| object.get(*key).is_some_and(|v| !v.is_null()));
    let Some(key) = keys.next() else {
        return Ok(Answer {
            action: Ok(Action::Pass),
            ignored: Vec::new(),
        });
    };
    let ignored: Vec<&'static str> = keys.collect();
    let value = object.get(key).unwrap_or(&Value::Null);
    let noble = match object.get("noble") {
        None | Some(Value::Null) => None,
        Some(v) => Some(noble(v).map_err(|e| format!("noble: {e}"))?),
    };
    let action = action(key, value, noble).map_err(|e| format!("{key}: {e}"))?;
    Ok(Answer { action, ignored })
}

/// The action of `key`; the outer `Err` is invalid output, the inner one an illegal move.
fn action(
    key: &str,
    value: &Value,
    noble: Option<Noble>,
) -> Result<Result<Action, String>, String> {
    Ok(Ok(match key {
        "get_different_color_gems" => {
            let list = value.as_array().ok_or("expected a list of colours")?;
            let mut colors = list.iter().map(color).collect::<Result<Vec<_>, _>>()?;
            colors.sort();
            Action::TakeDifferent { colors, noble }
        }
        "get_two_same_color_gems" => Action::TakeTwo {
            color: color(value)?,
            noble,
        },
        "reserve_card" => {
            let m = value
                .as_object()
                .ok_or("expected {\"card\": …} or {\"level\": n}")?;
            match (
                m.get("card").filter(|v| !v.is_null()),
                m.get("level").filter(|v| !v.is_null()),
            ) {
                (Some(c), None) => Action::Reserve {
                    card: card(c).map_err(|e| format!("card: {e}"))?,
                    noble,
                },
                (None, Some(level)) => Action::ReserveBlind {
                    level: number(level).map_err(|e| format!("level: {e}"))?,
                    noble,
                },
                (Some(_), Some(_)) => {
                    return Ok(Err("reserve_card names both a card and a level".to_owned()))
                }
                (None, None) => return Err("expected \"card\" or \"level\"".into()),
            }
        }
        "purchase_card" => Action::Buy {
            card: card(value)?,
            noble,
        },
        _ => Action::BuyReserved {
            card: card(value)?,
            noble,
        },
    }))
}

fn color(value: &Value) -> Result<Color, String> {
    let name = value
        .as_str()
        .ok_or_else(|| format!("expected a colour name, not {value}"))?;
    super::input::COLORS
        .into_iter()
        .find(|c| c.name() == name)
        .ok_or_else(|| format!("unknown colour {name:?}"))
}

fn number(value: &Value) -> Result<u8, String> {
    value
        .as_u64()
        .and_then(|n| u8::try_from(n).ok())
        .ok_or_else(|| format!("expected a small non-negative integer, not {value}"))
}

fn object(value: &Value) -> Result<&Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("expected an object, not {value}"))
}

fn optional_number(m: &Map<String, Value>, key: &str) -> Result<Option<u8>, String> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => number(v).map(Some).map_err(|e| format!("{key}: {e}")),
    }
}

/// `[{color, count}]` as counts; absent count = 0, repeated colours add up.
fn counts(value: Option<&Value>) -> Result<Gems, String> {
    let mut gems = Gems::default();
    let list = match value {
        None | Some(Value::Null) => return Ok(gems),
        Some(v) => v.as_array().ok_or("expected a list of {color, count}")?,
    };
    for entry in list {
        let m = object(entry)?;
        let c = color(m.get("color").unwrap_or(&Value::Null))?;
        let n = optional_number(m, "count")?.unwrap_or(0);
        let slot = gems.slot(c);
        *slot = slot.checked_add(n).ok_or("count too large")?;
    }
    Ok(gems)
}

fn card(value: &Value) -> Result<Card, String> {
    let m = object(value)?;
    Ok(Card {
        level: optional_number(m, "level")?.ok_or("no level")?,
        color: color(m.get("color").ok_or("no color")?)?,
        points: optional_number(m, "score")?.unwrap_or(0),
        cost: counts(m.get("costs")).map_err(|e| format!("costs: {e}"))?,
    })
}

fn noble(value: &Value) -> Result<Noble, String> {
    let m = object(value)?;
    Ok(Noble {
        points: optional_number(m, "score")?.unwrap_or(3),
        requires: counts(m.get("requirements")).map_err(|e| format!("requirements: {e}"))?,
    })
}

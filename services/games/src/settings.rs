//! Settings: a named rule set (`docs/rules.md#rule-sets-and-settings`) plus optional JSON
//! overrides.
//!
//! Every point where the original sources disagree (`docs/rules.md`, `docs/protocols.md`) is a
//! field of a game's settings struct.
//! A competition names a rule set (`"boardcoder"`, `"standard"`, …) and may override single
//! fields with a JSON object; the resolved settings serialize to the full JSON that a replay
//! stores, and parsing that JSON over the same rule set gives the same settings back.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::error::SettingsError;
use crate::GameId;

/// A game's settings type. Implementations are plain structs with
/// `#[serde(deny_unknown_fields)]`, so a misspelt override is refused rather than ignored.
pub trait GameSettings:
    Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    const GAME: GameId;

    /// The preset of a rule set named in [`GameId::rule_sets`], `None` for an unknown name.
    fn preset(rules: &str) -> Option<Self>;

    /// Fills in, on the complete settings a replay stored, the fields it predates, with the
    /// values that played it (a rule changed since: the setting that changed it says how).
    /// Nothing by default.
    fn upgrade_stored(_settings: &mut serde_json::Map<String, Value>) {}

    /// Checks what types cannot (ranges, combinations), saying what is wrong.
    fn validate(&self) -> Result<(), String>;

    /// [`validate`](Self::validate) as the [`SettingsError`] every engine's `new` returns.
    fn check(&self) -> Result<(), SettingsError> {
        self.validate().map_err(|reason| SettingsError::Invalid {
            game: Self::GAME,
            reason,
        })
    }

    /// The default rule set's name (the first of [`GameId::rule_sets`]).
    fn default_rules() -> &'static str {
        Self::GAME.rule_sets().first().copied().unwrap_or("")
    }

    /// The preset of `rules` with `overrides` merged over it (objects merge key by key, anything
    /// else replaces), then validated. `null` and `{}` mean no overrides.
    fn parse(rules: &str, overrides: &Value) -> Result<Self, SettingsError> {
        let game = Self::GAME;
        let preset = Self::preset(rules).ok_or_else(|| SettingsError::UnknownRules {
            game,
            rules: rules.to_owned(),
            known: game.rule_sets().join(", "),
        })?;
        let invalid = |reason: String| SettingsError::Invalid { game, reason };
        let settings = match overrides {
            Value::Null => preset,
            Value::Object(_) => {
                let mut merged =
                    serde_json::to_value(&preset).map_err(|e| invalid(e.to_string()))?;
                merge(&mut merged, overrides);
                serde_json::from_value(merged).map_err(|e| invalid(e.to_string()))?
            }
            _ => return Err(SettingsError::NotAnObject { game }),
        };
        settings.validate().map_err(invalid)?;
        Ok(settings)
    }
}

/// Merges `patch` into `base`: objects key by key, recursively; any other value replaces.
fn merge(base: &mut Value, patch: &Value) {
    match (base, patch) {
        (Value::Object(base), Value::Object(patch)) => {
            for (key, value) in patch {
                match base.get_mut(key) {
                    Some(slot) => merge(slot, value),
                    None => {
                        base.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (base, patch) => *base = patch.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_objects_merge_key_by_key_and_other_values_replace() {
        let mut base = json!({"a": 1, "b": {"x": 1, "y": 2}, "c": [1, 2]});
        merge(&mut base, &json!({"b": {"y": 3}, "c": [9], "d": null}));
        assert_eq!(
            base,
            json!({"a": 1, "b": {"x": 1, "y": 3}, "c": [9], "d": null})
        );
    }
}

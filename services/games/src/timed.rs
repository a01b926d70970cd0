//! The variants the referee-path benchmarks time, in one list, so that the games' layers
//! (`benches/referee_path.rs`) and the referee's whole matches
//! (`croupier-referee`'s `benches/builtin_match.rs`) are figures of the same games.

use serde_json::{json, Value};

use crate::GameId;

/// One variant: a label for the bench's name, the game, its rule set and settings.
#[derive(Debug, Clone)]
pub struct Variant {
    pub label: &'static str,
    pub game: GameId,
    pub rules: &'static str,
    pub settings: Value,
}

/// Hanabi with 2 and 5 players, a Bridge deal, a No Thanks game of 3.
pub fn referee_path_variants() -> Vec<Variant> {
    let variant = |label, game, rules, settings| Variant {
        label,
        game,
        rules,
        settings,
    };
    vec![
        variant(
            "hanabi-2p",
            GameId::HANABI,
            "standard",
            json!({"players": 2}),
        ),
        variant(
            "hanabi-5p",
            GameId::HANABI,
            "standard",
            json!({"players": 5}),
        ),
        variant("bridge-deal", GameId::BRIDGE, "duplicate", Value::Null),
        variant("nothanks-3p", GameId::NO_THANKS, "boardcoder", Value::Null),
    ]
}

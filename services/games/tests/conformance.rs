//! Every registered game and rule set passes the random playouts through the dynamic
//! layer, and the catalogue and the engines agree.

use croupier_games::conformance::{dyn_random_playouts, Playouts};
use croupier_games::{new_game, GameId, SettingsError};
use serde_json::{json, Value};

#[test]
fn every_game_and_rule_set_passes_the_dynamic_playouts() {
    let mut tested = 0;
    for game in GameId::all() {
        for rules in game.rule_sets() {
            let moves = dyn_random_playouts(game, rules, &Value::Null, &Playouts::quick());
            assert!(moves > 0, "{game} {rules}");
            tested += 1;
        }
    }
    let rule_sets: usize = GameId::all().iter().map(|g| g.rule_sets().len()).sum();
    assert_eq!(tested, rule_sets);
    assert!(
        tested >= 7,
        "five games, No Thanks and Hanabi with two rule sets each"
    );
}

#[test]
fn an_unknown_rule_set_is_refused_with_the_known_ones() {
    let err = new_game(GameId::NO_THANKS, "house", &Value::Null, 1).unwrap_err();
    assert!(matches!(err, SettingsError::UnknownRules { .. }));
    assert!(err.to_string().contains("boardcoder, standard"), "{err}");
}

#[test]
fn a_misspelt_override_is_refused_rather_than_ignored() {
    let err = new_game(GameId::NO_THANKS, "standard", &json!({"player": 4}), 1).unwrap_err();
    assert!(err.to_string().contains("player"), "{err}");
}

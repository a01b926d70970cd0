//! Every game and rule set that has an engine passes the random playouts through the dynamic
//! layer, and the catalogue and the engines agree.

use croupier_games::conformance::{dyn_random_playouts, Playouts};
use croupier_games::{is_available, new_game, GameId, SettingsError};
use serde_json::{json, Value};

#[test]
fn every_available_game_and_rule_set_passes_the_dynamic_playouts() {
    let mut tested = 0;
    for game in GameId::ALL.into_iter().filter(|&g| is_available(g)) {
        for rules in game.rule_sets() {
            let moves = dyn_random_playouts(game, rules, &Value::Null, &Playouts::quick());
            assert!(moves > 0, "{game} {rules}");
            tested += 1;
        }
    }
    assert!(tested >= 2, "No Thanks alone has two rule sets");
}

#[test]
fn an_unknown_rule_set_is_refused_with_the_known_ones() {
    let err = new_game(GameId::NoThanks, "house", &Value::Null, 1).unwrap_err();
    assert!(matches!(err, SettingsError::UnknownRules { .. }));
    assert!(err.to_string().contains("boardcoder, standard"), "{err}");
}

#[test]
fn a_misspelt_override_is_refused_rather_than_ignored() {
    let err = new_game(GameId::NoThanks, "standard", &json!({"player": 4}), 1).unwrap_err();
    assert!(err.to_string().contains("player"), "{err}");
}

#[test]
fn games_without_an_engine_say_so() {
    for game in [
        GameId::Hanabi,
        GameId::Guandan,
        GameId::Splendor,
        GameId::Bridge,
    ] {
        if !is_available(game) {
            let err = new_game(game, game.rule_sets()[0], &Value::Null, 1).unwrap_err();
            assert_eq!(err, SettingsError::NotImplemented(game));
        }
    }
    assert!(is_available(GameId::NoThanks));
    assert!(is_available(GameId::Hanabi), "Hanabi: standard and rainbow");
    assert!(is_available(GameId::Splendor));
    assert!(is_available(GameId::Guandan), "Guandan platform");
    assert!(
        is_available(GameId::Bridge),
        "Bridge duplicate is in the playouts above"
    );
}

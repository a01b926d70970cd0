//! Every game and rule set passes the random playouts through the dynamic layer, and the
//! catalogue and the engines agree.

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
    assert_eq!(tested, rule_sets, "every rule set of every game was played");
    assert!(
        tested > GameId::all().len(),
        "No Thanks alone has two rule sets"
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

#[test]
fn every_game_has_an_engine_for_each_of_its_rule_sets() {
    let mut created = 0;
    for game in GameId::all() {
        for rules in game.rule_sets() {
            if let Err(e) = new_game(game, rules, &Value::Null, 1) {
                panic!("{game} {rules}: {e}");
            }
            created += 1;
        }
    }
    assert!(
        created > GameId::all().len(),
        "every game has a rule set, No Thanks two"
    );
}

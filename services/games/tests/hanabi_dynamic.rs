//! Hanabi through the dynamic layer: both rule sets at the smallest and largest tables, the
//! replay record with a fault, and the bot names.

use croupier_games::conformance::{dyn_random_playouts, Playouts};
use croupier_games::{bots, new_game, GameId, Recorder, Seat, Turn};
use serde_json::{json, Value};

#[test]
fn both_rule_sets_pass_the_dynamic_playouts_at_2_and_5_players() {
    for rules in ["standard", "rainbow"] {
        for players in [2, 5] {
            let settings = json!({ "players": players, "score_on_strikeout": "zero" });
            assert!(dyn_random_playouts(GameId::HANABI, rules, &settings, &Playouts::quick()) > 0);
        }
    }
}

#[test]
fn a_recorded_fault_ends_the_game_and_the_replay_rebuilds_it() {
    let mut recorder = Recorder::new(GameId::HANABI, "rainbow", &Value::Null, 9).unwrap();
    recorder
        .apply(Seat(0), json!({"action": "play", "card": 0}))
        .unwrap();
    assert!(recorder
        .apply(Seat(1), json!({"action": "discard", "card": 9}))
        .is_err());
    recorder.fault(Seat(1), "illegal action");
    assert_eq!(recorder.game().turn(), Turn::Over);
    let outcome = recorder.replay().outcome.clone().unwrap();
    assert!(outcome.seats.iter().all(|r| r.rank == 1));
    let rebuilt = recorder.replay().rebuild().unwrap();
    assert!(rebuilt.same_state(recorder.game()));
}

#[test]
fn the_default_bot_is_the_convention_bot() {
    assert_eq!(bots::names(GameId::HANABI), ["convention", "random"]);
    let game = new_game(GameId::HANABI, "standard", &Value::Null, 1).unwrap();
    let obs = game.observe_json(croupier_games::Viewer::Seat(Seat(2)));
    assert_eq!(obs["hand_color"][2], json!([-1, -1, -1, -1]));
    assert_eq!(obs["players"], json!(4));
}

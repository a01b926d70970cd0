//! The manual's `act/play` example, rendered by the adapter from the engine.

use croupier_games::guandan::cards::parse_cards;
use croupier_games::guandan::{Action, Guandan, Settings};
use croupier_games::{Game, Seat, Viewer};
use serde_json::{json, Value};

use super::wire;

fn sorted(cards: &Value) -> Vec<String> {
    let mut cards: Vec<String> = serde_json::from_value(cards.clone()).unwrap();
    cards.sort();
    cards
}

/// Plays the listed action of `seat` that has these type, rank and cards (in any order).
fn play(game: &mut Guandan, seat: usize, wanted: Value) {
    let legal = game.legal_actions(Seat(seat));
    let action = legal
        .iter()
        .find(|a| {
            let v = Value::from((*a).clone());
            v[0] == wanted[0] && v[1] == wanted[1] && sorted(&v[2]) == sorted(&wanted[2])
        })
        .unwrap_or_else(|| panic!("{wanted} is not listed"))
        .clone();
    game.apply(Seat(seat), action).unwrap();
}

#[test]
fn the_manuals_act_play_example_comes_out_as_the_manual_prints_it() {
    let hand = "S2 H2 H2 C2 D2 S3 H3 D3 S4 D5 C6 H7 C7 C8 D8 DT HJ DJ HQ HQ CQ SK H9 H9 C9 D9 HR";
    let hands = [
        "SA SA DA H8 D8 S3",
        "H4 H4 C4 D4 S5",
        "HA HA CA DA S6",
        hand,
    ]
    .map(|h| parse_cards(h).unwrap())
    .to_vec();
    let mut game = Guandan::from_hands(Settings::platform(), hands, 9, Seat(0));
    play(
        &mut game,
        0,
        json!(["ThreeWithTwo", "A", ["SA", "SA", "DA", "H8", "D8"]]),
    );
    play(&mut game, 1, json!(["Bomb", "4", ["H4", "H4", "C4", "D4"]]));
    play(&mut game, 2, json!(["Bomb", "A", ["HA", "HA", "CA", "DA"]]));

    let act: Value =
        serde_json::from_str(&wire::act(&game.observe(Viewer::Seat(Seat(3))))).unwrap();

    assert_eq!(
        (&act["type"], &act["stage"]),
        (&json!("act"), &json!("play"))
    );
    let cards: Vec<String> = serde_json::from_value(act["handCards"].clone()).unwrap();
    assert_eq!(
        cards.join(" "),
        hand,
        "the manual's order: level rank after A"
    );
    assert_eq!(act["curRank"], json!("9"));
    assert_eq!((&act["curPos"], &act["greaterPos"]), (&json!(2), &json!(2)));
    let bomb_a = json!(["Bomb", "A", ["HA", "HA", "CA", "DA"]]);
    assert_eq!(sorted(&act["greaterAction"][2]), sorted(&bomb_a[2]));
    assert_eq!(act["publicInfo"][3], json!({"rest": 27, "playArea": null}));
    assert_eq!(act["publicInfo"][1]["playArea"][0], json!("Bomb"));
    let list = act["actionList"].as_array().unwrap();
    assert_eq!(act["indexRange"], json!(21));
    assert_eq!(list.len(), 22);
    assert_eq!(list[0], json!(["PASS", "PASS", "PASS"]));
    let manual = [
        json!(["Bomb", "9", ["H9", "H9", "C9", "D9"]]),
        json!(["Bomb", "2", ["S2", "H2", "H2", "C2", "H9"]]),
        json!(["Bomb", "3", ["S3", "H3", "D3", "H9", "H9"]]),
        json!(["Bomb", "Q", ["HQ", "HQ", "CQ", "H9", "H9"]]),
        json!(["Bomb", "2", ["S2", "H2", "H2", "C2", "D2", "H9", "H9"]]),
    ];
    for m in manual {
        let found = list
            .iter()
            .any(|a| a[0] == m[0] && a[1] == m[1] && sorted(&a[2]) == sorted(&m[2]));
        assert!(found, "{m} missing from {list:?}");
    }
    // Seat 3 passes: the notify carries the pass and the trick's best, seat 2's bomb.
    let Some(Action::Play(best)) = game.observe(Viewer::Spectator).greater_action else {
        panic!("seat 2's bomb leads the trick")
    };
    let note = wire::play(Seat(3), &Action::Pass, Some(&(Seat(2), best)));
    assert_eq!(note["curAction"], json!(["PASS", "PASS", "PASS"]));
    assert_eq!(
        (&note["curPos"], &note["greaterPos"]),
        (&json!(3), &json!(2))
    );
    assert_eq!(sorted(&note["greaterAction"][2]), sorted(&bomb_a[2]));
}

#[tokio::test]
async fn the_match_future_can_move_between_worker_threads() {
    fn assert_send<T: Send>(_: &T) {}
    let config = croupier_sandbox::Config {
        mode: croupier_sandbox::Mode::None,
        ..croupier_sandbox::Config::default()
    };
    let sandbox = croupier_sandbox::Sandbox::new(config).await.unwrap();
    let seats = (0..4).map(|_| crate::SeatSpec::builtin("random")).collect();
    let spec = crate::MatchSpec::new(croupier_games::GameId::GUANDAN, 1, seats);
    let table = crate::table::Table::new(&spec).unwrap();
    let future = super::run(&sandbox, &spec, table);
    assert_send(&future);
}

#[tokio::test]
async fn a_bot_that_reads_nothing_is_stalled_and_a_closed_connection_is_broken() {
    use super::conn::{send, SendFailed};
    use std::time::Duration;

    let (queue, rx) = tokio::sync::mpsc::channel(1);
    let patience = Duration::from_millis(20);
    assert_eq!(send(queue.clone(), "a".into(), patience).await, Ok(()));
    // Nobody reads: the queue stays full for the whole patience — a time limit, not bad output.
    assert_eq!(
        send(queue.clone(), "b".into(), patience).await,
        Err(SendFailed::Stalled)
    );
    drop(rx);
    assert_eq!(
        send(queue, "c".into(), patience).await,
        Err(SendFailed::Broken)
    );
}

//! The observation, the action JSON, conformance and speed.

use super::*;
use crate::conformance::{random_playouts, Playouts};
use crate::{GameRng, Stream, Turn, Viewer};
use serde_json::json;
use Color::*;

#[test]
fn a_seat_sees_every_hand_but_its_own_and_a_spectator_sees_none_until_the_end() {
    let mut game = two_hands(Settings::standard(2));
    let obs = game.observe(Viewer::Seat(Seat(1)));
    assert_eq!(obs.hand_color, [vec![0; 5], vec![-1; 5]]);
    assert_eq!(obs.hand_number, [vec![1, 2, 3, 4, 5], vec![-1; 5]]);
    assert_eq!(obs.card(Seat(0), 2), Some(card(Red, 3)));
    assert_eq!(obs.card(Seat(1), 2), None);
    assert!(obs.deck.is_none());
    let spectator = game.observe(Viewer::Spectator);
    assert!(spectator.hand_color.iter().flatten().all(|&c| c == -1));
    let omniscient = game.observe(Viewer::Omniscient);
    assert_eq!(omniscient.hand_number[1], [1, 2, 3, 4, 5]);
    assert_eq!(omniscient.deck.as_ref().map(|d| d[0]), Some(card(White, 1)));
    game.record_fault(Seat(0));
    assert_eq!(
        game.observe(Viewer::Spectator).hand_number[0],
        [1, 2, 3, 4, 5]
    );
}

#[test]
fn the_last_action_is_reported_as_on_player_action_with_the_draw_hidden_from_the_drawer() {
    let mut game = two_hands(Settings::standard(3));
    game.hands.push(vec![card(Green, 2); 5]);
    game.knowledge.push(vec![Knowledge::fresh(5); 5]);
    game.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    let mine = serde_json::to_value(game.observe(Viewer::Seat(Seat(0))).last_action).unwrap();
    assert_eq!(
        mine,
        json!({"index": 0, "actionType": 2, "target": 0, "play": [0, 1], "draw": [-1, -1]})
    );
    let theirs = game.observe(Viewer::Seat(Seat(1))).last_action.unwrap();
    assert_eq!(theirs.draw, Some([4, 1]));
    game.deck.clear();
    game.hint_tokens = 7;
    game.apply(Seat(1), Action::Discard { card: 2 }).unwrap();
    let other = game.observe(Viewer::Seat(Seat(2))).last_action.unwrap();
    assert_eq!(
        (other.action_type, other.discard, other.draw),
        (3, Some([3, 3]), Some([-1, 0]))
    );
}

#[test]
fn only_the_target_of_a_hint_receives_the_hint_arrays() {
    let mut game = two_hands(Settings::standard(2));
    game.apply(
        Seat(0),
        Action::HintNumber {
            target: Seat(1),
            number: 4,
        },
    )
    .unwrap();
    let target = game.observe(Viewer::Seat(Seat(1)));
    let json = serde_json::to_value(&target.hint_received).unwrap();
    assert_eq!(
        json,
        json!({"hintColor": [-1, -1, -1, -1, -1], "hintNumber": [-1, -1, -1, 4, -1]})
    );
    let report = serde_json::to_value(&target.last_action).unwrap();
    assert_eq!(
        report,
        json!({"index": 0, "actionType": 1, "target": 1, "number": 4})
    );
    assert!(game.observe(Viewer::Seat(Seat(0))).hint_received.is_none());
    game.apply(
        Seat(1),
        Action::HintColor {
            target: Seat(0),
            color: Red,
        },
    )
    .unwrap();
    let hinted = game.observe(Viewer::Seat(Seat(0))).hint_received.unwrap();
    assert_eq!(
        (hinted.hint_color, hinted.hint_number),
        (vec![0; 5], vec![-1; 5])
    );
}

#[test]
fn actions_and_cards_have_a_stable_json_form() {
    let hint = Action::HintColor {
        target: Seat(2),
        color: Blue,
    };
    assert_eq!(
        serde_json::to_value(hint).unwrap(),
        json!({"action": "hint_color", "target": 2, "color": 2})
    );
    assert_eq!(
        serde_json::from_value::<Action>(json!({"action": "play", "card": 3})).unwrap(),
        Action::Play { card: 3 }
    );
    assert!(serde_json::from_value::<Action>(
        json!({"action": "hint_color", "target": 1, "color": 9})
    )
    .is_err());
    assert_eq!(
        serde_json::to_value(card(Rainbow, 5)).unwrap(),
        json!([5, 5])
    );
    assert_eq!((hint.action_type(), hint.target()), (0, 2));
}

#[test]
fn standard_and_rainbow_pass_the_conformance_playouts_at_every_table_size() {
    random_playouts::<Hanabi>(&Settings::standard(4), &Playouts::default());
    random_playouts::<Hanabi>(&Settings::rainbow(4), &Playouts::default());
    for players in [2, 3, 5] {
        random_playouts::<Hanabi>(&Settings::standard(players), &Playouts::quick());
        random_playouts::<Hanabi>(&Settings::rainbow(players), &Playouts::quick());
    }
    let zero = Settings {
        score_on_strikeout: StrikeoutScore::Zero,
        ..Settings::standard(3)
    };
    random_playouts::<Hanabi>(&zero, &Playouts::quick());
}

#[test]
fn random_five_player_games_end_with_one_shared_score_of_at_most_25() {
    // Speed is measured by `croupier bench engines`, not here.
    for seed in 0..1000 {
        let mut game = standard(5, seed);
        let mut rng = GameRng::derive(seed, Stream::Testing);
        while let Turn::Seat(seat) = game.turn() {
            let action = *rng.choose(&game.legal_actions(seat)).unwrap();
            game.apply(seat, action).unwrap();
        }
        let outcome = game.outcome().expect("a finished game has an outcome");
        assert_eq!(outcome.check(5), Ok(()), "seed {seed}");
        let score = outcome.seats[0].score;
        assert!((0..=25).contains(&score), "seed {seed}: {score}");
        assert!(
            outcome
                .seats
                .iter()
                .all(|s| s.score == score && s.rank == 1),
            "seed {seed}"
        );
    }
}

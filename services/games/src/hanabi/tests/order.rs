//! The `seat_order` setting: who starts, how the turn passes, the final round, the JSON.

use super::*;
use crate::{GameId, GameSettings, Recorder, SettingsError, Turn, Viewer};
use serde_json::json;
use Color::*;

fn ordered(players: usize, order: &[usize]) -> Settings {
    Settings {
        seat_order: Some(order.to_vec()),
        ..Settings::standard(players)
    }
}

/// Discards (or hints, with 8 tokens) until the game ends or `limit` moves were made; the
/// seats that moved, in order.
fn movers(game: &mut Hanabi, limit: usize) -> Vec<usize> {
    let mut seen = Vec::new();
    while let Turn::Seat(seat) = game.turn() {
        if seen.len() == limit {
            break;
        }
        seen.push(seat.index());
        game.apply(seat, no_play(game.legal_actions(seat))).unwrap();
    }
    seen
}

/// The first legal move that is not a play (so that no error ends the game early).
fn no_play(legal: Vec<Action>) -> Action {
    let first = legal[0];
    legal
        .into_iter()
        .find(|a| !matches!(a, Action::Play { .. }))
        .unwrap_or(first)
}

#[test]
fn the_first_seat_of_the_order_starts_and_the_turn_follows_the_order() {
    let mut game = Hanabi::new(ordered(4, &[2, 0, 3, 1]), 9).unwrap();
    assert_eq!(on_turn(&game), Seat(2));
    assert_eq!(movers(&mut game, 9), [2, 0, 3, 1, 2, 0, 3, 1, 2]);
    assert_eq!(game.after(Seat(1)), Seat(2));
    let mut three = Hanabi::new(ordered(3, &[1, 2, 0]), 9).unwrap();
    assert_eq!(movers(&mut three, 4), [1, 2, 0, 1]);
}

#[test]
fn a_seat_not_on_turn_is_refused_even_when_its_number_comes_next() {
    let mut game = Hanabi::new(ordered(3, &[2, 1, 0]), 4).unwrap();
    let err = game.apply(Seat(0), Action::Play { card: 0 }).unwrap_err();
    assert!(err.to_string().contains("turn"), "{err}");
    game.apply(Seat(2), Action::Play { card: 0 }).unwrap();
    assert_eq!(on_turn(&game), Seat(1));
}

#[test]
fn the_default_order_is_0_1_2_and_deals_what_an_explicit_order_deals() {
    let mut plain = standard(4, 12);
    assert_eq!(Settings::standard(4).turn_order(), [0, 1, 2, 3]);
    assert_eq!(movers(&mut plain, 6), [0, 1, 2, 3, 0, 1]);
    let shuffled = Hanabi::new(ordered(4, &[3, 1, 0, 2]), 12).unwrap();
    let fresh = standard(4, 12);
    for seat in Seat::all(4) {
        assert_eq!(
            shuffled.hand(seat),
            fresh.hand(seat),
            "the order changes no deal"
        );
    }
    assert_eq!(shuffled.deck, fresh.deck);
}

#[test]
fn after_the_last_draw_every_player_moves_once_more_in_the_order() {
    for (players, order) in [
        (2, vec![1, 0]),
        (4, vec![2, 0, 3, 1]),
        (5, vec![4, 2, 0, 1, 3]),
    ] {
        let settings = ordered(players, &order);
        let size = settings.hand_size();
        let hands = vec![vec![card(White, 4); size]; players];
        let mut game = rigged(settings, hands, vec![card(White, 3), card(White, 3)]);
        game.hint_tokens = 5;
        // The first two seats of the order draw the last two cards.
        game.apply(Seat(order[0]), Action::Discard { card: 0 })
            .unwrap();
        game.apply(Seat(order[1]), Action::Discard { card: 0 })
            .unwrap();
        assert_eq!((game.deck_len(), game.turns_left), (0, Some(players)));
        let mut after = Vec::new();
        while let Turn::Seat(seat) = game.turn() {
            after.push(seat.index());
            let target = game.after(seat);
            let hint = Action::HintNumber { target, number: 4 };
            game.apply(seat, hint).unwrap();
        }
        let expected: Vec<usize> = (0..players).map(|k| order[(2 + k) % players]).collect();
        assert_eq!(after, expected, "{players} players, order {order:?}");
        assert_eq!(game.end_reason(), Some(EndReason::DeckOut));
    }
}

#[test]
fn a_seat_order_must_be_a_permutation_of_the_seats() {
    let parsed = Settings::parse("standard", &json!({"seat_order": [3, 0, 1, 2]})).unwrap();
    assert_eq!(parsed, ordered(4, &[3, 0, 1, 2]));
    let null = Settings::parse("standard", &json!({"seat_order": null}));
    assert_eq!(null, Ok(Settings::standard(4)));
    for bad in [
        json!({"seat_order": [0, 1, 2]}),
        json!({"seat_order": [0, 1, 2, 2]}),
        json!({"seat_order": [0, 1, 2, 4]}),
        json!({"seat_order": [0, 1, 2, 3, 4]}),
        json!({"players": 3, "seat_order": [0, 1, 2, 3]}),
        json!({"seat_order": [0, 1, 2, -3]}),
    ] {
        assert!(
            matches!(
                Settings::parse("standard", &bad),
                Err(SettingsError::Invalid { .. })
            ),
            "{bad}"
        );
    }
}

#[test]
fn the_default_settings_json_has_no_seat_order_and_an_order_round_trips() {
    let plain = serde_json::to_value(Settings::standard(4)).unwrap();
    assert!(plain.get("seat_order").is_none(), "{plain}");
    let settings = ordered(4, &[1, 3, 0, 2]);
    let value = serde_json::to_value(&settings).unwrap();
    assert_eq!(value["seat_order"], json!([1, 3, 0, 2]));
    assert_eq!(Settings::parse("standard", &value), Ok(settings));
}

#[test]
fn a_replay_keeps_the_order_and_rebuilds_the_same_game() {
    let overrides = json!({"players": 3, "seat_order": [2, 0, 1]});
    let mut recorder = Recorder::new(GameId::HANABI, "standard", &overrides, 31).unwrap();
    let mut moved = Vec::new();
    while let Turn::Seat(seat) = recorder.game().turn() {
        moved.push(seat.index());
        let legal = recorder.game().legal_actions_json(seat);
        let action = legal
            .iter()
            .find(|a| a["action"] != "play")
            .unwrap_or(&legal[0]);
        let action = action.clone();
        recorder.apply(seat, action).unwrap();
    }
    assert_eq!(moved[..4], [2, 0, 1, 2]);
    let replay = recorder.replay();
    assert_eq!(replay.settings["seat_order"], json!([2, 0, 1]));
    let rebuilt = replay.rebuild().unwrap();
    assert!(rebuilt.same_state(recorder.game()));
}

#[test]
fn the_observation_lists_the_turn_order_and_the_players_after_a_seat() {
    let game = Hanabi::new(ordered(4, &[2, 0, 3, 1]), 1).unwrap();
    let obs = game.observe(Viewer::Seat(Seat(0)));
    assert_eq!(obs.to_act, Some(Seat(2)));
    assert_eq!(obs.turn_order, [Seat(2), Seat(0), Seat(3), Seat(1)]);
    assert_eq!(obs.others_after(Seat(0)), [Seat(3), Seat(1), Seat(2)]);
    let plain = standard(3, 1).observe(Viewer::Spectator);
    assert_eq!(plain.others_after(Seat(2)), [Seat(0), Seat(1)]);
}

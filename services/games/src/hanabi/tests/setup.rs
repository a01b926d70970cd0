//! The deck, the deal and the settings.

use super::*;
use crate::{GameSettings, SettingsError, Viewer};
use serde_json::json;

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort_unstable();
    cards
}

#[test]
fn the_standard_deck_has_50_cards_three_1s_two_each_of_2_to_4_and_one_5_per_colour() {
    let deck = full_deck(5);
    assert_eq!(deck.len(), 50);
    for color in &Color::ALL[..5] {
        for (number, copies) in [(1, 3), (2, 2), (3, 2), (4, 2), (5, 1)] {
            let n = deck.iter().filter(|c| **c == card(*color, number)).count();
            assert_eq!(n, copies, "{color} {number}");
        }
    }
    assert!(deck.iter().all(|c| c.color != Color::Rainbow));
}

#[test]
fn the_rainbow_deck_adds_10_rainbow_cards_and_a_sixth_stack() {
    let deck = full_deck(6);
    assert_eq!(deck.len(), 60);
    let rainbow: Vec<u8> = deck
        .iter()
        .filter(|c| c.color == Color::Rainbow)
        .map(|c| c.number)
        .collect();
    assert_eq!(rainbow, [1, 1, 1, 2, 2, 3, 3, 4, 4, 5]);
    let game = Hanabi::new(Settings::rainbow(4), 1).unwrap();
    assert_eq!(game.stacks(), [0; 6]);
    assert_eq!(Settings::rainbow(2).max_score(), 30);
}

#[test]
fn every_card_of_the_deck_is_dealt_or_in_the_deck() {
    for settings in [Settings::standard(3), Settings::rainbow(5)] {
        let game = Hanabi::new(settings.clone(), 7).unwrap();
        let obs = game.observe(Viewer::Omniscient);
        let mut all = obs.deck.clone().unwrap();
        for seat in Seat::all(settings.players) {
            all.extend((0..obs.hand_len(seat)).filter_map(|s| obs.card(seat, s)));
        }
        assert_eq!(sorted(all), sorted(full_deck(settings.colors())));
    }
}

#[test]
fn hands_are_5_cards_for_2_or_3_players_and_4_for_4_or_5() {
    for (players, size) in [(2, 5), (3, 5), (4, 4), (5, 4)] {
        let game = standard(players, 3);
        assert!(
            Seat::all(players).all(|s| game.hand(s).len() == size),
            "{players}"
        );
        assert_eq!(game.deck_len(), 50 - players * size);
    }
}

#[test]
fn the_game_starts_with_8_hint_tokens_no_error_and_seat_0_on_turn() {
    let game = standard(4, 2);
    assert_eq!((game.hint_tokens(), game.error_tokens()), (8, 0));
    assert_eq!(on_turn(&game), Seat(0));
    assert_eq!(game.outcome(), None);
}

#[test]
fn the_seed_decides_the_deal() {
    assert_eq!(standard(4, 5), standard(4, 5));
    assert_ne!(standard(4, 5), standard(4, 6));
}

#[test]
fn rule_sets_and_overrides_are_parsed_and_checked() {
    assert_eq!(
        Settings::parse("standard", &json!(null)),
        Ok(Settings::standard(4))
    );
    assert_eq!(
        Settings::parse("rainbow", &json!({"players": 2})),
        Ok(Settings::rainbow(2))
    );
    let zero = Settings::parse(
        "standard",
        &json!({"score_on_strikeout": "zero", "on_illegal": "ask_again"}),
    )
    .unwrap();
    assert_eq!(zero.score_on_strikeout, StrikeoutScore::Zero);
    assert_eq!(zero.on_illegal, OnIllegal::AskAgain);
    for bad in [
        json!({"players": 1}),
        json!({"players": 6}),
        json!({"player": 3}),
        json!({"on_illegal": "x"}),
    ] {
        assert!(
            matches!(
                Settings::parse("standard", &bad),
                Err(SettingsError::Invalid { .. })
            ),
            "{bad}"
        );
    }
    assert!(matches!(
        Settings::parse("house", &json!(null)),
        Err(SettingsError::UnknownRules { .. })
    ));
}

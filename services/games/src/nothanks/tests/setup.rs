//! Scoring, dealing and settings.

use super::*;
use crate::{Game, GameSettings, SettingsError, Viewer};
use serde_json::json;

// --- scoring ---------------------------------------------------------------------------------

#[test]
fn a_run_counts_only_its_lowest_card_and_coins_count_against() {
    // docs/rules.md#no-thanks: cards 3,10,11,12,13,20 with 5 coins = 3 + 10 + 20 - 5.
    assert_eq!(points(&[3, 10, 11, 12, 13, 20], 5), 28);
}

#[test]
fn the_seed_scoring_examples_hold() {
    assert_eq!(card_points(&[3, 5, 7]), 15);
    assert_eq!(card_points(&[3, 4, 5]), 3);
    assert_eq!(card_points(&[3, 4, 6, 7, 8, 9]), 9);
    assert_eq!(card_points(&[]), 0);
    // The seed's game_status example: cards 28..31 with 25 coins is 3 points.
    assert_eq!(points(&[28, 29, 30, 31], 25), 3);
}

#[test]
fn the_marginal_value_of_a_card_depends_on_the_runs_it_touches() {
    let hand = [10, 11, 13, 20];
    assert_eq!(
        marginal_card_points(&hand, 30),
        30,
        "a lone card counts in full"
    );
    assert_eq!(
        marginal_card_points(&hand, 14),
        0,
        "extending a run upwards is free"
    );
    assert_eq!(
        marginal_card_points(&hand, 19),
        -1,
        "extending downwards lowers the run"
    );
    assert_eq!(
        marginal_card_points(&hand, 12),
        -13,
        "joining two runs drops the upper one"
    );
    for card in 3..=35 {
        let mut with = hand.to_vec();
        if with.contains(&card) {
            continue;
        }
        with.push(card);
        with.sort_unstable();
        assert_eq!(
            card_points(&with) - card_points(&hand),
            marginal_card_points(&hand, card),
            "card {card}"
        );
    }
}

// --- setup -------------------------------------------------------------------------------------

#[test]
fn boardcoder_deals_30_of_33_cards_and_25_coins_to_each_of_3_players() {
    let game = boardcoder(1);
    let obs = game.observe(Viewer::Omniscient);
    let hidden = obs.hidden.as_ref().unwrap();
    assert_eq!(game.seats(), 3);
    assert_eq!(hidden.removed.len(), 3);
    assert_eq!(obs.deck_count, 29, "30 cards in play, one of them face up");
    assert!(obs.field_card.is_some());
    assert!(obs
        .players
        .iter()
        .all(|p| p.coins == 25 && p.cards.is_empty()));
    let mut all: Vec<u8> = hidden.deck.iter().chain(&hidden.removed).copied().collect();
    all.extend(obs.field_card);
    all.sort_unstable();
    assert_eq!(all, (3..=35).collect::<Vec<u8>>());
}

#[test]
fn standard_removes_9_cards_and_gives_coins_by_player_count() {
    for (players, coins) in [(3, 11), (4, 11), (5, 11), (6, 9), (7, 7)] {
        let game = standard(players, 2);
        let obs = game.observe(Viewer::Omniscient);
        assert_eq!(obs.hidden.as_ref().unwrap().removed.len(), 9);
        assert_eq!(obs.deck_count, 33 - 9 - 1);
        assert_eq!(obs.players.len(), players);
        assert!(
            obs.players.iter().all(|p| p.coins == coins),
            "{players} players"
        );
    }
}

#[test]
fn the_seed_decides_the_deck_and_the_same_seed_deals_the_same_game() {
    assert_eq!(boardcoder(5), boardcoder(5));
    assert_ne!(boardcoder(5), boardcoder(6));
}

#[test]
fn rule_sets_and_overrides_are_parsed_and_checked() {
    assert_eq!(
        Settings::parse("boardcoder", &json!(null)),
        Ok(Settings::boardcoder())
    );
    let six = Settings::parse("standard", &json!({"players": 6})).unwrap();
    assert_eq!(six.coins_per_player(), 9);
    assert!(matches!(
        Settings::parse("house", &json!(null)),
        Err(SettingsError::UnknownRules { .. })
    ));
    for bad in [
        json!({"players": 8}),
        json!({"coins": 3}),
        json!({"removed": 33}),
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
        Settings::parse("standard", &json!([1])),
        Err(SettingsError::NotAnObject { .. })
    ));
}

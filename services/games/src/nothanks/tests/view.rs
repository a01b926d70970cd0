//! The observation, conformance and speed.

use super::*;
use crate::{Game, Seat, Turn, Viewer};
use serde_json::json;

use crate::conformance::{random_playouts, Playouts};

// --- observation ------------------------------------------------------------------------------

#[test]
fn the_observation_ranks_by_points_and_rotates_the_turn_order() {
    let mut game = boardcoder(12);
    game.apply(Seat(0), Action::Pass).unwrap();
    game.apply(Seat(1), Action::Pick).unwrap();
    let obs = game.observe(Viewer::Seat(Seat(2)));
    assert_eq!(obs.turn_order, [Seat(2), Seat(0), Seat(1)]);
    let points: Vec<i64> = obs
        .ranking_order
        .iter()
        .map(|s| obs.players[s.index()].points)
        .collect();
    assert!(points.windows(2).all(|w| w[0] <= w[1]), "{points:?}");
    // Seat 2: 25 coins, no card (-25); seat 0: 24 coins (-24); seat 1: a card and 26 coins.
    assert_eq!(obs.ranking_order, [Seat(2), Seat(0), Seat(1)]);
}

#[test]
fn only_the_omniscient_view_shows_the_deck_and_the_removed_cards() {
    let game = standard(3, 13);
    assert!(game.observe(Viewer::Seat(Seat(0))).hidden.is_none());
    assert!(game.observe(Viewer::Spectator).hidden.is_none());
    let json = serde_json::to_value(game.observe(Viewer::Spectator)).unwrap();
    assert!(json.get("hidden").is_none());
    assert_eq!(
        game.observe(Viewer::Omniscient).hidden.unwrap().deck.len(),
        23
    );
}

#[test]
fn actions_serialize_as_the_protocol_action_types() {
    assert_eq!(serde_json::to_value(Action::Pick).unwrap(), json!("pick"));
    assert_eq!(
        serde_json::from_value::<Action>(json!("pass")).unwrap(),
        Action::Pass
    );
}

// --- conformance ------------------------------------------------------------------------------

#[test]
fn boardcoder_passes_the_conformance_playouts() {
    random_playouts::<NoThanks>(&Settings::boardcoder(), &Playouts::default());
}

#[test]
fn standard_passes_the_conformance_playouts_at_every_table_size() {
    for players in 3..=7 {
        random_playouts::<NoThanks>(&Settings::standard(players), &Playouts::quick());
    }
}

#[test]
fn random_games_end_with_every_card_or_chip_accounted_for() {
    // Speed is measured by `croupier bench engines`, not here.
    for seed in 0..1000 {
        let mut game = boardcoder(seed);
        let mut rng = crate::GameRng::derive(seed, crate::Stream::Testing);
        while let Turn::Seat(seat) = game.turn() {
            let action = *rng.choose(&game.legal_actions(seat)).unwrap();
            game.apply(seat, action).unwrap();
        }
        let outcome = game.outcome().expect("a finished game has an outcome");
        assert_eq!(outcome.check(game.seats()), Ok(()), "seed {seed}");
        assert!(outcome.winners().count() >= 1, "seed {seed}");
    }
}

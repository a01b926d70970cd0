//! Bridge unit tests: the auction, the play, faults and the view, plus the shared conformance
//! playouts. The scoring vectors and the Law 2 table are checked against the shared data files
//! in `tests/bridge_rules.rs`.

mod auction;
mod play;
mod strength;
mod view;

use super::*;
use crate::conformance::{random_playouts, Playouts};
use crate::{Game, Seat};

pub(super) fn board(board: u32, seed: u64) -> Bridge {
    Bridge::new(Settings::duplicate(board), seed).unwrap()
}

pub(super) fn call(game: &mut Bridge, call: &str) -> Vec<Event> {
    let seat = game.turn().seat().expect("the game is not over");
    game.apply(seat, Action::Call(call.parse().unwrap()))
        .unwrap_or_else(|e| panic!("{call}: {e}"))
}

/// Board 1 (dealer N) with `calls`, then the hands replaced by `hands` (cards like `S-1`).
pub(super) fn with_hands(calls: &[&str], hands: [&str; 4]) -> Bridge {
    let mut game = board(1, 0);
    for c in calls {
        call(&mut game, c);
    }
    game.hands = hands
        .iter()
        .map(|h| {
            let mut cards: Vec<Card> = h.split(',').map(|c| c.parse().unwrap()).collect();
            cards.sort_unstable();
            cards
        })
        .collect();
    game
}

pub(super) fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// Plays `card` for whoever is on turn.
pub(super) fn play(game: &mut Bridge, c: &str) -> Vec<Event> {
    let seat = game.turn().seat().expect("the game is not over");
    game.apply(seat, Action::Play(card(c)))
        .unwrap_or_else(|e| panic!("{c}: {e}"))
}

/// Plays the first legal action until the deal ends.
pub(super) fn play_to_end(game: &mut Bridge) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(seat) = game.turn().seat() {
        let action = game.legal_actions(seat)[0];
        events.extend(game.apply(seat, action).unwrap());
    }
    events
}

#[test]
fn bridge_passes_the_conformance_playouts() {
    let stats = random_playouts::<Bridge>(&Settings::duplicate(3), &Playouts::quick());
    assert!(stats.moves > 30 * 4);
}

#[test]
fn every_board_number_builds_and_a_zero_board_is_refused() {
    for b in 1..=40 {
        assert!(Bridge::new(Settings::duplicate(b), 1).is_ok());
    }
    assert!(Bridge::new(Settings::duplicate(0), 1).is_err());
    let mut bad = Settings::duplicate(1);
    bad.running_score = vec![0; 3];
    assert!(Bridge::new(bad, 1).is_err());
}

#[test]
fn the_deal_gives_13_distinct_cards_to_each_seat_and_depends_on_the_seed() {
    let game = board(1, 9);
    let mut all: Vec<Card> = game.hands.concat();
    assert!(game.hands.iter().all(|h| h.len() == 13));
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 52);
    assert_ne!(board(1, 9).hands, board(1, 10).hands);
}

#[test]
fn cards_and_calls_read_and_write_the_protocol_forms() {
    assert_eq!(card("S-1"), Card::new(Suit::Spades, 14).unwrap());
    assert_eq!(card("C-13").to_string(), "C-13");
    assert!("S-14".parse::<Card>().is_err());
    assert!("X-3".parse::<Card>().is_err());
    assert_eq!("N-3".parse::<Call>().unwrap().to_string(), "N-3");
    assert!("H-8".parse::<Call>().is_err());
    let action: Action = serde_json::from_str(r#"{"play":"S-1"}"#).unwrap();
    assert_eq!(serde_json::to_string(&action).unwrap(), r#"{"play":"S-1"}"#);
    let hand = [card("C-2"), card("S-1"), card("S-5"), card("H-12")];
    assert_eq!(format_hand(&hand), "S-5,S-1,H-12,C-2");
    // The seed's own example hand, shuffled, prints back in the seed's order.
    let seed = "S-5,S-8,S-11,S-1,H-12,D-7,D-8,D-13,C-2,C-5,C-12,C-13";
    let mut cards: Vec<Card> = seed.split(',').map(card).collect();
    cards.reverse();
    assert_eq!(format_hand(&cards), seed);
    assert_eq!(format_hand(&[]), "None");
}

#[test]
fn the_seats_partners_are_across_the_table() {
    assert!(partners(Seat(0), Seat(2)) && partners(Seat(1), Seat(3)));
    assert!(!partners(Seat(0), Seat(1)));
}

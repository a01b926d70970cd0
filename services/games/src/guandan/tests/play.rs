//! Tricks, 接风, deal end, levels and tribute.

use super::{action, cards};
use crate::guandan::action::Action;
use crate::guandan::state::Stage;
use crate::guandan::{back_cards, tribute_cards, Guandan, Settings};
use crate::{Game, Seat, Turn};
use serde_json::json;

fn table(hands: [&str; 4], level: u8, leader: usize) -> Guandan {
    Guandan::from_hands(
        Settings::platform(),
        hands.iter().map(|h| cards(h)).collect(),
        level,
        Seat(leader),
    )
}

#[test]
fn three_passes_end_a_trick_and_the_last_player_leads() {
    let mut g = table(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], 2, 0);
    g.apply(Seat(0), action(json!(["Single", "3", ["S3"]])))
        .unwrap();
    g.apply(Seat(1), action(json!(["Single", "6", ["S6"]])))
        .unwrap();
    for s in [2, 3, 0] {
        g.apply(Seat(s), Action::Pass).unwrap();
    }
    assert_eq!(g.turn(), Turn::Seat(Seat(1)));
    assert!(!g.legal_actions(Seat(1)).contains(&Action::Pass));
}

#[test]
fn jie_feng_the_partner_leads_when_the_last_player_is_out() {
    let mut g = table(["S3", "S5 S6", "S7 S8", "S9 ST"], 2, 0);
    g.apply(Seat(0), action(json!(["Single", "3", ["S3"]])))
        .unwrap();
    assert_eq!(g.finished, vec![Seat(0)]);
    for s in [1, 2, 3] {
        g.apply(Seat(s), Action::Pass).unwrap();
    }
    assert_eq!(
        g.turn(),
        Turn::Seat(Seat(2)),
        "接风: seat 0's partner leads"
    );
}

#[test]
fn a_deal_ends_at_once_when_a_team_finishes_first_and_second() {
    let mut g = table(["S3", "S5 S6", "S7", "S9 ST"], 2, 0);
    g.apply(Seat(0), action(json!(["Single", "3", ["S3"]])))
        .unwrap();
    g.apply(Seat(1), Action::Pass).unwrap();
    let events = g
        .apply(Seat(2), action(json!(["Single", "7", ["S7"]])))
        .unwrap();
    let text: Vec<String> = events.iter().map(ToString::to_string).collect();
    assert!(text.iter().any(|t| t.contains("deal over")), "{text:?}");
    assert_eq!(g.levels(), [5, 2], "+3 for a 1-2 finish");
    assert_eq!(g.level(), 5);
    assert_eq!(g.deal_number(), 2);
    // Double tribute from seats 3 and 1 (or anti-tribute) follows.
    assert!(matches!(g.stage, Stage::Tribute { .. } | Stage::Play));
}

#[test]
fn winning_at_a_ends_the_game() {
    let mut g = table(["S3", "S5 S6", "S7", "S9 ST"], 14, 0);
    g.apply(Seat(0), action(json!(["Single", "3", ["S3"]])))
        .unwrap();
    g.apply(Seat(1), Action::Pass).unwrap();
    g.apply(Seat(2), action(json!(["Single", "7", ["S7"]])))
        .unwrap();
    assert_eq!(g.turn(), Turn::Over);
    let outcome = g.outcome().unwrap();
    assert_eq!(
        outcome.seats.iter().map(|r| r.score).collect::<Vec<_>>(),
        [1, 0, 1, 0]
    );
}

#[test]
fn failing_twice_at_a_drops_to_two() {
    let mut g = table(["S3", "S6", "S7 S8", "S9"], 14, 0);
    g.a_fails = [1, 0];
    // Seats 0, 1, 3 go out: team 0 wins the deal with partner last, not 1-2: a second failure.
    g.apply(Seat(0), action(json!(["Single", "3", ["S3"]])))
        .unwrap();
    g.apply(Seat(1), action(json!(["Single", "6", ["S6"]])))
        .unwrap();
    g.apply(Seat(2), Action::Pass).unwrap();
    g.apply(Seat(3), action(json!(["Single", "9", ["S9"]])))
        .unwrap();
    assert_eq!(g.levels()[0], 2);
    assert_eq!(g.drops, 1);
}

#[test]
fn tribute_is_the_highest_card_but_never_a_heart_level_card() {
    let hand = cards("S3 D2 H2 SA");
    assert_eq!(tribute_cards(&hand, 2), cards("D2"));
    assert_eq!(tribute_cards(&cards("HR S3"), 2), cards("HR"));
    let back = back_cards(&cards("S3 S5 C5 SA D9"), 5);
    assert_eq!(back, cards("S3 D9"));
    assert_eq!(back_cards(&cards("SA SK"), 5), cards("SK"));
}

#[test]
fn tribute_and_return_move_cards_and_the_payer_leads() {
    let mut g = table(["S3", "S5 S6", "S7 S8", "S9 ST"], 2, 0);
    let mut events = Vec::new();
    g.hands = vec![
        cards("S3 S4"),
        cards("S5 SA"),
        cards("S7 S8"),
        cards("S9 SK"),
    ];
    g.start_tribute(&[Seat(0), Seat(1), Seat(2), Seat(3)], &mut events);
    assert_eq!(g.turn(), Turn::Seat(Seat(3)));
    g.apply(Seat(3), Action::Tribute("SK".parse().unwrap()))
        .unwrap();
    assert_eq!(g.turn(), Turn::Seat(Seat(0)));
    g.apply(Seat(0), Action::Back("S3".parse().unwrap()))
        .unwrap();
    assert_eq!(g.hand(Seat(0)), cards("S4 SK").as_slice());
    assert_eq!(g.hand(Seat(3)), cards("S3 S9").as_slice());
    assert_eq!(g.turn(), Turn::Seat(Seat(3)));
}

#[test]
fn two_big_jokers_among_the_payers_refuse_tribute() {
    let mut g = table(["S3", "S5 S6", "S7 S8", "S9 ST"], 2, 0);
    let mut events = Vec::new();
    g.hands = vec![cards("S3"), cards("HR S4"), cards("S7"), cards("HR S5")];
    g.start_tribute(&[Seat(0), Seat(2), Seat(1), Seat(3)], &mut events);
    assert_eq!(g.stage, Stage::Play);
    assert_eq!(g.turn(), Turn::Seat(Seat(0)));
    assert_eq!(events.len(), 1);
}

#[test]
fn random_playouts_pass_the_conformance_checks() {
    let playouts = crate::conformance::Playouts {
        games: 3,
        ..crate::conformance::Playouts::quick()
    };
    crate::conformance::random_playouts::<Guandan>(&Settings::platform(), &playouts);
}

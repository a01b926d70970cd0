//! The play: following suit, declarer playing dummy, trick winners, 13 tricks, faults.

use super::*;
use crate::{IllegalAction, Turn, Viewer};

/// 1S by N (dummy S, E leads), three cards each.
fn small() -> Bridge {
    with_hands(
        &["S-1", "pass", "pass", "pass"],
        ["S-1,H-2,D-5", "H-5,H-9,C-3", "H-13,S-2,D-7", "H-1,D-3,C-4"],
    )
}

#[test]
fn declarer_plays_dummys_cards_and_dummy_never_acts() {
    let mut game = small();
    assert_eq!(game.turn(), Turn::Seat(Seat(1)));
    play(&mut game, "H-5");
    assert_eq!(
        game.turn(),
        Turn::Seat(Seat(0)),
        "declarer answers for dummy"
    );
    assert_eq!(game.playing_hand(), Some(Seat(2)));
    assert_eq!(
        game.observe(Viewer::Seat(Seat(0))).playing_hand,
        Some(Seat(2))
    );
    assert!(game.legal_actions(Seat(2)).is_empty());
    let refused = game.apply(Seat(2), Action::Play(card("H-13")));
    assert!(matches!(refused, Err(IllegalAction::NotYourTurn { .. })));
    let own = game.apply(Seat(0), Action::Play(card("S-1")));
    assert!(matches!(own, Err(IllegalAction::AgainstRules { .. })));
    let events = play(&mut game, "H-13");
    assert_eq!(
        events[0],
        Event::Played {
            hand: Seat(2),
            by: Seat(0),
            card: card("H-13")
        }
    );
    assert_eq!(game.turn(), Turn::Seat(Seat(3)));
}

#[test]
fn a_player_who_can_follow_suit_must() {
    let mut game = small();
    play(&mut game, "H-5");
    play(&mut game, "H-13");
    assert_eq!(game.legal_actions(Seat(3)), vec![Action::Play(card("H-1"))]);
    let before = game.clone();
    let refused = game.apply(Seat(3), Action::Play(card("D-3"))).unwrap_err();
    assert!(refused.to_string().contains("follow"), "{refused}");
    assert_eq!(game, before);
    play(&mut game, "H-1");
    let events = play(&mut game, "H-2");
    assert!(events.contains(&Event::TrickWon {
        round: 1,
        winner: Seat(3)
    }));
    assert_eq!(game.turn(), Turn::Seat(Seat(3)), "the winner leads");
}

#[test]
fn a_void_player_may_discard_and_dummy_winning_makes_declarer_lead_from_dummy() {
    let mut game = small();
    for c in ["H-5", "H-13", "H-1", "H-2", "D-3", "D-5"] {
        play(&mut game, c);
    }
    assert_eq!(game.legal_actions(Seat(1)).len(), 2, "E has no diamond");
    play(&mut game, "C-3");
    play(&mut game, "D-7");
    assert_eq!(game.tricks_won, vec![0, 0, 1, 1]);
    assert_eq!(game.turn(), Turn::Seat(Seat(0)));
    assert_eq!(game.playing_hand(), Some(Seat(2)));
}

fn trick(leader: usize, cards: &str) -> Trick {
    Trick {
        leader: Seat(leader),
        cards: cards.split(',').map(card).collect(),
        winner: None,
    }
}

#[test]
fn the_highest_trump_wins_a_trick() {
    let t = trick(1, "H-5,S-2,H-1,H-13");
    assert_eq!(trick_winner(&t, Strain::Spades), Some(Seat(2)));
    let t = trick(1, "H-5,S-2,S-3,H-13");
    assert_eq!(trick_winner(&t, Strain::Spades), Some(Seat(3)));
    let t = trick(0, "S-5,S-2,S-3,S-1");
    assert_eq!(trick_winner(&t, Strain::Spades), Some(Seat(3)));
}

#[test]
fn without_trumps_the_highest_card_of_the_suit_led_wins() {
    let t = trick(1, "H-5,S-2,H-1,H-13");
    assert_eq!(trick_winner(&t, Strain::NoTrump), Some(Seat(3)));
    let t = trick(2, "D-3,C-1,D-5,H-1");
    assert_eq!(trick_winner(&t, Strain::NoTrump), Some(Seat(0)));
    assert_eq!(trick_winner(&t, Strain::Clubs), Some(Seat(3)));
}

fn one_spade_by_north(seed: u64) -> Bridge {
    let mut game = board(1, seed);
    for c in ["S-1", "pass", "pass", "pass"] {
        call(&mut game, c);
    }
    game
}

#[test]
fn a_deal_has_13_tricks_and_52_cards_and_is_scored() {
    for seed in 0..20 {
        let mut game = one_spade_by_north(seed);
        let events = play_to_end(&mut game);
        let played = events
            .iter()
            .filter(|e| matches!(e, Event::Played { .. }))
            .count();
        let tricks = events
            .iter()
            .filter(|e| matches!(e, Event::TrickWon { .. }))
            .count();
        assert_eq!((played, tricks), (52, 13));
        assert_eq!(game.tricks_won.iter().sum::<u8>(), 13);
        assert!(game.hands.iter().all(Vec::is_empty));
        let result = game.result().unwrap();
        let ns_tricks = game.tricks_won[0] + game.tricks_won[2];
        assert_eq!(result.declarer_tricks, ns_tricks);
        let expected = duplicate_score(1, Strain::Spades, Doubled::No, ns_tricks, false);
        assert_eq!(result.ns_score, expected);
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.seats[1].score, -expected);
        assert_eq!(outcome.check(4), Ok(()));
    }
}

#[test]
fn a_fault_by_the_declaring_side_concedes_every_remaining_trick() {
    let mut game = one_spade_by_north(3);
    game.record_fault(Seat(2));
    assert_eq!(
        game.observe(Viewer::Spectator).robot,
        vec![false, false, true, false]
    );
    play_to_end(&mut game);
    assert_eq!(game.result().unwrap().declarer_tricks, 0);
    assert_eq!(game.result().unwrap().ns_score, -350);
}

#[test]
fn a_defenders_fault_in_the_auction_gives_declarer_all_13_tricks() {
    let mut game = board(1, 3);
    game.record_fault(Seat(1));
    for c in ["S-1", "pass", "pass", "pass"] {
        call(&mut game, c);
    }
    play_to_end(&mut game);
    assert_eq!(game.result().unwrap().declarer_tricks, 13);
    assert_eq!(game.result().unwrap().ns_score, 260);
}

#[test]
fn without_a_penalty_a_faulty_deal_scores_as_played_and_late_faults_are_ignored() {
    let mut settings = Settings::duplicate(1);
    settings.fault_penalty = FaultPenalty::None;
    let mut faulty = Bridge::new(settings, 3).unwrap();
    faulty.record_fault(Seat(2));
    for c in ["S-1", "pass", "pass", "pass"] {
        call(&mut faulty, c);
    }
    play_to_end(&mut faulty);
    let mut clean = one_spade_by_north(3);
    play_to_end(&mut clean);
    assert_eq!(faulty.result(), clean.result());
    let before = clean.clone();
    clean.record_fault(Seat(0));
    assert_eq!(clean, before);
}

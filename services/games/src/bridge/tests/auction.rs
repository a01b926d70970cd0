//! The auction: pass-out, the end of the auction, declarer, insufficient bids.

use super::*;
use crate::{IllegalAction, Turn};

#[test]
fn the_dealer_of_the_board_calls_first() {
    assert_eq!(board(1, 0).turn(), Turn::Seat(Seat(0)));
    assert_eq!(board(2, 0).turn(), Turn::Seat(Seat(1)));
    assert_eq!(board(4, 0).turn(), Turn::Seat(Seat(3)));
    assert_eq!(board(20, 0).turn(), Turn::Seat(Seat(3)));
}

#[test]
fn four_passes_pass_the_deal_out_at_zero() {
    let mut game = board(1, 0);
    for _ in 0..3 {
        call(&mut game, "pass");
    }
    assert!(game.turn().seat().is_some());
    let events = call(&mut game, "pass");
    assert_eq!(events.last(), Some(&Event::PassedOut));
    assert_eq!(game.turn(), Turn::Over);
    let outcome = game.outcome().unwrap();
    assert!(outcome.seats.iter().all(|r| r.score == 0 && r.rank == 1));
}

#[test]
fn three_passes_after_a_bid_end_the_auction_and_the_left_hand_opponent_leads() {
    let mut game = board(1, 0);
    call(&mut game, "pass");
    call(&mut game, "N-1");
    call(&mut game, "pass");
    call(&mut game, "pass");
    assert_eq!(game.stage(), Stage::Call);
    let events = call(&mut game, "pass");
    let contract = game.contract().unwrap();
    assert_eq!(
        (contract.bid.to_string(), contract.declarer),
        ("N-1".into(), Seat(1))
    );
    assert!(matches!(
        events.last(),
        Some(Event::AuctionEnded {
            leader: Seat(2),
            ..
        })
    ));
    assert_eq!(game.turn(), Turn::Seat(Seat(2)));
    assert_eq!(game.stage(), Stage::Play);
}

#[test]
fn declarer_is_the_partner_who_named_the_final_strain_first() {
    // N 1C, E pass, S 1H, W pass, N 2H, all pass: hearts were S's first, so S declares.
    let mut game = board(1, 0);
    for c in ["C-1", "pass", "H-1", "pass", "H-2", "pass", "pass", "pass"] {
        call(&mut game, c);
    }
    let contract = game.contract().unwrap();
    assert_eq!(contract.bid.to_string(), "H-2");
    assert_eq!(contract.declarer, Seat(2));
    assert_eq!(contract.dummy(), Seat(0));
    assert_eq!(game.turn(), Turn::Seat(Seat(3)));
}

#[test]
fn the_opponents_naming_the_strain_first_does_not_make_them_declarer() {
    let mut game = board(1, 0);
    for c in ["S-1", "H-2", "S-2", "pass", "pass", "pass"] {
        call(&mut game, c);
    }
    assert_eq!(game.contract().unwrap().declarer, Seat(0));
}

#[test]
fn an_insufficient_bid_is_refused_and_changes_nothing() {
    let mut game = board(1, 0);
    call(&mut game, "H-1");
    let before = game.clone();
    for low in ["C-1", "H-1", "D-1"] {
        let refused = game.apply(Seat(1), Action::Call(low.parse().unwrap()));
        assert!(
            matches!(refused, Err(IllegalAction::AgainstRules { .. })),
            "{low}"
        );
    }
    assert_eq!(game, before);
    let legal = game.legal_actions(Seat(1));
    assert_eq!(legal.len(), 1 + 35 - 3);
    assert!(!legal.contains(&Action::Call("H-1".parse().unwrap())));
    call(&mut game, "S-1");
}

#[test]
fn a_card_cannot_be_played_during_the_auction_nor_a_call_made_during_the_play() {
    let mut game = board(1, 0);
    let card = game.hands[0][0];
    assert!(game.apply(Seat(0), Action::Play(card)).is_err());
    for c in ["C-1", "pass", "pass", "pass"] {
        call(&mut game, c);
    }
    assert!(game.apply(Seat(1), Action::Call(Call::Pass)).is_err());
}

#[test]
fn seven_no_trump_ends_the_bidding_ladder() {
    let mut game = board(1, 0);
    call(&mut game, "N-7");
    assert_eq!(game.legal_actions(Seat(1)), vec![Action::Call(Call::Pass)]);
}

//! What each viewer sees, and the Board.txt fields.

use super::*;
use crate::Viewer;

fn after_opening_lead() -> Bridge {
    // 1S by N: dummy S (seat 2), E (seat 1) leads.
    let mut game = board(1, 5);
    for c in ["S-1", "pass", "pass", "pass"] {
        call(&mut game, c);
    }
    let lead = game.legal_actions(Seat(1))[0];
    game.apply(Seat(1), lead).unwrap();
    game
}

fn seen(game: &Bridge, viewer: Viewer) -> Vec<bool> {
    game.observe(viewer)
        .hands
        .iter()
        .map(Option::is_some)
        .collect()
}

#[test]
fn in_the_auction_a_seat_sees_only_its_own_hand() {
    let game = board(1, 5);
    assert_eq!(
        seen(&game, Viewer::Seat(Seat(1))),
        [false, true, false, false]
    );
    assert_eq!(seen(&game, Viewer::Spectator), [false; 4]);
    assert_eq!(seen(&game, Viewer::Omniscient), [true; 4]);
    let obs = game.observe(Viewer::Seat(Seat(0)));
    assert_eq!(obs.stage, Stage::Call);
    assert_eq!(obs.board_hands(), (game.hands[0].clone(), None));
}

#[test]
fn dummy_is_shown_to_everyone_after_the_opening_lead_and_dummy_sees_declarer() {
    let mut game = board(1, 5);
    for c in ["S-1", "pass", "pass", "pass"] {
        call(&mut game, c);
    }
    assert_eq!(
        seen(&game, Viewer::Seat(Seat(3))),
        [false, false, false, true]
    );
    let game = after_opening_lead();
    assert_eq!(
        seen(&game, Viewer::Seat(Seat(3))),
        [false, false, true, true]
    );
    assert_eq!(
        seen(&game, Viewer::Seat(Seat(2))),
        [true, false, true, false]
    );
    assert_eq!(seen(&game, Viewer::Spectator), [false, false, true, false]);
}

#[test]
fn board_hands_give_declarer_dummys_hand_when_dummys_card_is_due() {
    let game = after_opening_lead();
    let obs = game.observe(Viewer::Seat(Seat(0)));
    assert_eq!(obs.to_act, Some(Seat(0)));
    assert_eq!(obs.playing_hand, Some(Seat(2)));
    let (hand, other) = obs.board_hands();
    assert_eq!(hand, game.hands[2]);
    assert_eq!(other, Some(game.hands[0].clone()));
    let (hand, other) = game.observe(Viewer::Seat(Seat(3))).board_hands();
    assert_eq!(
        (hand, other),
        (game.hands[3].clone(), Some(game.hands[2].clone()))
    );
}

#[test]
fn the_observation_carries_the_board_file_fields() {
    let mut settings = Settings::duplicate(2);
    settings.running_score = vec![200, 0, 200, 0];
    let game = Bridge::new(settings, 1).unwrap();
    let obs = game.observe(Viewer::Seat(Seat(1)));
    assert_eq!((obs.board, obs.dealer), (2, Seat(1)));
    assert_eq!(obs.vulnerability, Vulnerability::NorthSouth);
    assert_eq!(obs.running_score, [200, 0, 200, 0]);
    let game = after_opening_lead();
    let obs = game.observe(Viewer::Seat(Seat(1)));
    assert_eq!((obs.stage, obs.round()), (Stage::Play, 1));
    assert_eq!(obs.contract.map(|c| c.declarer), Some(Seat(0)));
    assert_eq!(obs.tricks_won, [0; 4]);
    assert_eq!(obs.calls.len(), 4);
    assert_eq!(obs.current_trick().map(|t| t.cards.len()), Some(1));
}

//! Turns, coins and the end of the game.

use super::*;
use crate::{Game, GameSettings, IllegalAction, Seat, Turn, Viewer};
use serde_json::json;

// --- turns ------------------------------------------------------------------------------------

#[test]
fn a_pass_puts_one_coin_on_the_card_and_passes_the_turn() {
    let mut game = boardcoder(3);
    let card = game.observe(Viewer::Spectator).field_card;
    let events = game.apply(Seat(0), Action::Pass).unwrap();
    let obs = game.observe(Viewer::Seat(Seat(1)));
    assert_eq!(obs.players[0].coins, 24);
    assert_eq!(obs.field_coins, 1);
    assert_eq!(obs.field_card, card, "the same card stays face up");
    assert_eq!(obs.to_act, Some(Seat(1)));
    assert_eq!(obs.turn_order, [Seat(1), Seat(2), Seat(0)]);
    assert_eq!(obs.turnnum, 1);
    assert_eq!(events.len(), 1);
}

#[test]
fn a_pick_takes_the_card_and_its_coins_and_turns_the_next_card() {
    let mut game = boardcoder(4);
    game.apply(Seat(0), Action::Pass).unwrap();
    game.apply(Seat(1), Action::Pass).unwrap();
    let card = game.observe(Viewer::Spectator).field_card.unwrap();
    let events = game.apply(Seat(2), Action::Pick).unwrap();
    let obs = game.observe(Viewer::Spectator);
    assert_eq!(obs.players[2].cards, [card]);
    assert_eq!(obs.players[2].coins, 27);
    assert_eq!(obs.field_coins, 0);
    assert_eq!(obs.deck_count, 28);
    assert_ne!(obs.field_card, Some(card));
    assert!(matches!(
        events[..],
        [Event::Picked { coins: 2, .. }, Event::Revealed { .. }]
    ));
}

#[test]
fn in_boardcoder_the_turn_passes_to_the_next_player_after_a_pick() {
    let mut game = boardcoder(5);
    for expected in [0, 1, 2, 0, 1] {
        assert_eq!(on_turn(&game), Seat(expected));
        game.apply(Seat(expected), Action::Pick).unwrap();
    }
}

#[test]
fn in_standard_the_same_player_acts_again_after_a_pick() {
    let mut game = standard(4, 5);
    game.apply(Seat(0), Action::Pass).unwrap();
    game.apply(Seat(1), Action::Pick).unwrap();
    assert_eq!(on_turn(&game), Seat(1));
    game.apply(Seat(1), Action::Pick).unwrap();
    assert_eq!(on_turn(&game), Seat(1));
    game.apply(Seat(1), Action::Pass).unwrap();
    assert_eq!(on_turn(&game), Seat(2));
}

#[test]
fn a_player_with_no_coins_cannot_pass_and_must_pick() {
    let settings = Settings::parse("boardcoder", &json!({"starting_coins": 1})).unwrap();
    let mut game = NoThanks::new(settings, 6).unwrap();
    game.apply(Seat(0), Action::Pass).unwrap();
    game.apply(Seat(1), Action::Pass).unwrap();
    game.apply(Seat(2), Action::Pass).unwrap();
    assert_eq!(game.legal_actions(Seat(0)), [Action::Pick]);
    let before = game.clone();
    let refused = game.apply(Seat(0), Action::Pass);
    assert!(matches!(refused, Err(IllegalAction::AgainstRules { .. })));
    assert_eq!(game, before, "a refused move changes nothing");
    assert_eq!(game.apply(Seat(0), Action::Pick).map(|e| e.len()), Ok(2));
}

#[test]
fn only_the_player_on_turn_may_act() {
    let mut game = boardcoder(7);
    assert_eq!(game.legal_actions(Seat(1)), []);
    assert_eq!(
        game.apply(Seat(1), Action::Pick),
        Err(IllegalAction::NotYourTurn {
            seat: Seat(1),
            on_turn: Seat(0)
        })
    );
    assert_eq!(game.legal_actions(Seat(0)), [Action::Pick, Action::Pass]);
}

#[test]
fn coins_are_conserved_through_a_whole_game() {
    for (mut game, total) in [(boardcoder(8), 75), (standard(6, 8), 54)] {
        let mut plan = [Action::Pick, Action::Pass, Action::Pass]
            .into_iter()
            .cycle();
        while let Turn::Seat(seat) = game.turn() {
            assert_eq!(total_coins(&game), total);
            let wanted = plan.next().unwrap();
            let legal = game.legal_actions(seat);
            let action = if legal.contains(&wanted) {
                wanted
            } else {
                Action::Pick
            };
            game.apply(seat, action).unwrap();
        }
        assert_eq!(total_coins(&game), total);
    }
}

// --- the end ----------------------------------------------------------------------------------

#[test]
fn boardcoder_ends_when_the_pick_of_the_30th_card_finds_the_deck_empty() {
    let mut game = boardcoder(9);
    for pick in 1..=30 {
        let seat = on_turn(&game);
        let events = game.apply(seat, Action::Pick).unwrap();
        let ended = matches!(events.last(), Some(Event::Ended { .. }));
        assert_eq!(ended, pick == 30, "pick {pick}");
    }
    assert_eq!(game.turn(), Turn::Over);
    let obs = game.observe(Viewer::Spectator);
    assert!(obs.end);
    assert_eq!(
        (obs.field_card, obs.field_coins, obs.deck_count),
        (None, 0, 0)
    );
    assert_eq!(obs.players.iter().map(|p| p.cards.len()).sum::<usize>(), 30);
    assert_eq!(
        game.apply(Seat(0), Action::Pick),
        Err(IllegalAction::GameOver)
    );
    assert!(Seat::all(3).all(|s| game.legal_actions(s).is_empty()));
}

#[test]
fn standard_ends_after_24_picks_and_passes_never_end_the_game() {
    let mut game = standard(5, 10);
    let mut picks = 0;
    while let Turn::Seat(seat) = game.turn() {
        // Everyone passes until they run out of coins, so the last card collects many passes.
        let action = game.legal_actions(seat).last().copied().unwrap();
        if action == Action::Pick {
            picks += 1;
        }
        game.apply(seat, action).unwrap();
    }
    assert_eq!(picks, 24);
    assert!(game.outcome().is_some());
}

#[test]
fn the_lowest_points_win_and_ties_share_a_rank() {
    let mut game = boardcoder(11);
    while let Turn::Seat(seat) = game.turn() {
        game.apply(seat, Action::Pick).unwrap();
    }
    let outcome = game.outcome().unwrap();
    let points = game.points();
    assert_eq!(outcome.check(3), Ok(()));
    for r in &outcome.seats {
        assert_eq!(r.score, points[r.seat.index()]);
        let better = points.iter().filter(|&&p| p < r.score).count();
        assert_eq!(r.rank as usize, better + 1);
    }
}

//! The three ends of a game, strikeout scoring, faults and the outcome.

use super::*;
use crate::{Turn, Viewer};
use Color::*;

#[test]
fn after_the_last_card_is_drawn_every_player_including_the_drawer_takes_exactly_one_more_turn() {
    for players in 2..=5 {
        let settings = Settings::standard(players);
        let size = settings.hand_size();
        let hands = vec![vec![card(White, 4); size]; players];
        // Two cards left: seat 0 draws one, seat 1 draws the last.
        let mut game = rigged(settings, hands, vec![card(White, 3), card(White, 3)]);
        game.hint_tokens = 5;
        game.apply(Seat(0), Action::Discard { card: 0 }).unwrap();
        let events = game.apply(Seat(1), Action::Discard { card: 0 }).unwrap();
        assert!(matches!(events[1], Event::Drew { deck_left: 0, .. }));
        assert_eq!(game.turns_left, Some(players));
        let mut after = Vec::new();
        while let Turn::Seat(seat) = game.turn() {
            after.push(seat.index());
            let events = game
                .apply(
                    seat,
                    Action::HintNumber {
                        target: seat.next(players),
                        number: 4,
                    },
                )
                .unwrap();
            assert_eq!(events.len() == 2, after.len() == players);
        }
        let expected: Vec<usize> = (0..players).map(|k| (2 + k) % players).collect();
        assert_eq!(after, expected, "{players} players");
        assert_eq!(game.end_reason(), Some(EndReason::DeckOut));
        assert_eq!(
            game.observe(Viewer::Spectator).end.map(|e| e.code),
            Some(Some(1))
        );
    }
}

#[test]
fn with_the_deck_empty_a_play_draws_nothing_and_the_hand_shrinks() {
    let mut game = rigged(
        Settings::standard(2),
        vec![vec![card(Red, 1); 5], vec![card(Blue, 1); 5]],
        vec![card(Green, 1)],
    );
    game.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    let events = game.apply(Seat(1), Action::Play { card: 0 }).unwrap();
    assert_eq!(events.len(), 1, "no Drew event");
    assert_eq!(game.hand(Seat(1)).len(), 4);
    assert_eq!(game.hand(Seat(0)).len(), 5);
}

#[test]
fn completing_every_stack_ends_the_game_at_25_or_30() {
    for settings in [Settings::standard(2), Settings::rainbow(2)] {
        let max = settings.max_score();
        let mut game = rigged(
            settings,
            vec![vec![card(Red, 5); 5], vec![card(Blue, 1); 5]],
            vec![card(Green, 1); 10],
        );
        game.stacks.iter_mut().for_each(|h| *h = 5);
        game.stacks[Red.index()] = 4;
        let events = game.apply(Seat(0), Action::Play { card: 0 }).unwrap();
        assert!(matches!(
            events.last(),
            Some(Event::Ended {
                reason: EndReason::Complete,
                ..
            })
        ));
        assert_eq!(game.score(), max);
        assert_eq!(game.turn(), Turn::Over);
    }
}

fn strike_out(settings: Settings) -> Hanabi {
    let mut game = rigged(
        settings,
        vec![vec![card(Red, 3); 5], vec![card(Blue, 3); 5]],
        vec![card(Green, 1); 10],
    );
    game.stacks[White.index()] = 2;
    // A drawn card (a playable green 1) takes the played slot: each play is from a slot not
    // played before.
    for (seat, slot) in [(0, 0), (1, 0), (0, 1)] {
        assert_eq!(game.outcome(), None);
        game.apply(Seat(seat), Action::Play { card: slot }).unwrap();
    }
    assert_eq!(game.error_tokens(), 3);
    assert_eq!(game.end_reason(), Some(EndReason::Strikeout));
    game
}

#[test]
fn the_third_error_ends_the_game_scoring_the_stacks_or_zero() {
    let stacks = strike_out(Settings::standard(2));
    assert_eq!(stacks.outcome().unwrap().seats[0].score, 2);
    let zero = Settings {
        score_on_strikeout: StrikeoutScore::Zero,
        ..Settings::standard(2)
    };
    let zero = strike_out(zero);
    assert_eq!(zero.outcome().unwrap().seats[1].score, 0);
    assert_eq!(
        zero.observe(Viewer::Seat(Seat(0)))
            .end
            .map(|e| (e.code, e.score)),
        Some((Some(0), 0))
    );
}

#[test]
fn every_seat_shares_the_score_and_rank_1() {
    let game = strike_out(Settings::standard(2));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.check(2), Ok(()));
    assert!(outcome.seats.iter().all(|r| r.rank == 1 && r.score == 2));
}

#[test]
fn a_fault_ends_the_game_with_the_score_so_far_unless_the_bot_is_asked_again() {
    let mut game = two_hands(Settings::standard(2));
    game.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    let mut again = game.clone();
    again.settings.on_illegal = OnIllegal::AskAgain;
    again.record_fault(Seat(1));
    assert_eq!(again.turn(), Turn::Seat(Seat(1)));
    game.record_fault(Seat(1));
    assert_eq!(game.turn(), Turn::Over);
    assert_eq!(game.end_reason(), Some(EndReason::Fault { seat: Seat(1) }));
    assert!(game
        .outcome()
        .unwrap()
        .seats
        .iter()
        .all(|r| r.score == 1 && r.rank == 1));
    assert!(game.legal_actions(Seat(1)).is_empty());
    assert_eq!(
        game.observe(Viewer::Spectator).end.map(|e| e.code),
        Some(None)
    );
}

/// Two players; the deck holds one card; seat 0 holds red 1–5 and seat 1 blue 1–5.
fn last_card_left(settings: Settings) -> Hanabi {
    rigged(
        settings,
        vec![
            (1..=5).map(|n| card(Red, n)).collect(),
            (1..=5).map(|n| card(Blue, n)).collect(),
        ],
        vec![card(Green, 4)],
    )
}

#[test]
fn in_the_final_round_a_third_error_does_not_end_the_game_before_everyone_has_played() {
    let mut game = last_card_left(Settings::standard(2));
    game.error_tokens = 2;
    // Seat 0 draws the last card (its play succeeds), then seat 1 misplays (third error)
    // and seat 0 still takes its last turn, as the origin's final round checks nothing.
    game.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    assert_eq!(game.turns_left, Some(2));
    game.apply(Seat(1), Action::Play { card: 4 }).unwrap();
    assert_eq!(game.error_tokens(), 3);
    assert_eq!(game.turn(), Turn::Seat(Seat(0)), "seat 0's final turn");
    game.apply(Seat(0), Action::Play { card: 4 }).unwrap();
    assert_eq!(game.error_tokens(), 4, "errors keep counting");
    assert_eq!(game.end_reason(), Some(EndReason::DeckOut));
    assert_eq!(game.score(), 1, "the stacks, not 0");

    let mut checked = last_card_left(Settings {
        final_round: FinalRound::Checked,
        ..Settings::standard(2)
    });
    checked.error_tokens = 2;
    checked.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    checked.apply(Seat(1), Action::Play { card: 4 }).unwrap();
    assert_eq!(checked.end_reason(), Some(EndReason::Strikeout));
}

#[test]
fn a_third_error_on_the_turn_that_empties_the_deck_ends_the_game_at_once() {
    let mut game = last_card_left(Settings::standard(2));
    game.error_tokens = 2;
    game.apply(Seat(0), Action::Play { card: 4 }).unwrap();
    assert_eq!(game.end_reason(), Some(EndReason::Strikeout));
}

#[test]
fn completing_every_stack_as_the_deck_runs_out_still_plays_the_final_round() {
    let mut game = last_card_left(Settings::standard(2));
    game.stacks.iter_mut().for_each(|h| *h = 5);
    game.stacks[Red.index()] = 4;
    game.apply(Seat(0), Action::Play { card: 4 }).unwrap();
    assert_eq!(game.score(), 25);
    assert_eq!(game.turn(), Turn::Seat(Seat(1)), "the final round");
    game.apply(Seat(1), Action::Play { card: 0 }).unwrap();
    game.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    assert_eq!(game.end_reason(), Some(EndReason::DeckOut));
    assert_eq!(
        game.observe(Viewer::Spectator).end.map(|e| e.code),
        Some(Some(1)),
        "the origin's emtpyDeck"
    );

    let mut checked = last_card_left(Settings {
        final_round: FinalRound::Checked,
        ..Settings::standard(2)
    });
    checked.stacks.iter_mut().for_each(|h| *h = 5);
    checked.stacks[Red.index()] = 4;
    checked.apply(Seat(0), Action::Play { card: 4 }).unwrap();
    assert_eq!(checked.end_reason(), Some(EndReason::Complete));
}

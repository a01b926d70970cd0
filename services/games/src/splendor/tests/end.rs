//! Nobles (named and qualified, one per turn), the end of the game and the ranking.

use super::moves::{card, gems, refused, take};
use super::*;
use crate::{IllegalAction, Turn, Viewer};

#[test]
fn a_noble_comes_only_when_named_and_qualified_and_one_per_turn() {
    let mut g = game(11);
    let (a, b) = (g.nobles[0], g.nobles[1]);
    let named = |noble| Action::TakeTwo {
        color: Color::Red,
        noble: Some(noble),
    };
    assert!(refused(&mut g, named(a)).contains("qualify"));
    for color in Color::GEMS {
        let need = a.requires.get(color).max(b.requires.get(color));
        g.players[0]
            .bought
            .extend((0..need).map(|_| card(color, 0)));
    }
    let legal = g.legal_actions(Seat(0));
    assert!(legal.contains(&named(a)) && legal.contains(&named(b)));
    assert!(legal.contains(&Action::TakeTwo {
        color: Color::Red,
        noble: None
    }));
    // Not naming it forfeits it this turn.
    g.apply(
        Seat(0),
        Action::TakeTwo {
            color: Color::Red,
            noble: None,
        },
    )
    .unwrap();
    assert!(g.players[0].nobles.is_empty() && g.nobles.len() == 4);
    g.apply(Seat(1), Action::Pass).unwrap();
    g.apply(Seat(2), Action::Pass).unwrap();
    g.table.red = 4;
    let events = g.apply(Seat(0), named(a)).unwrap();
    assert_eq!(g.players[0].nobles, vec![a]);
    assert_eq!(g.nobles.len(), 3, "one noble per turn: b stays");
    assert_eq!(g.players[0].points(), 3);
    assert!(events[1].to_string().contains("noble"));
    let foreign = Noble {
        points: 3,
        requires: Gems::default(),
    };
    let foreign = take(&[Color::White, Color::Blue, Color::Green]).with_noble(Some(foreign));
    assert!(refused(&mut g, foreign).contains("no such noble"));
}

#[test]
fn a_noble_may_be_earned_by_the_purchase_it_accompanies() {
    let mut g = game(12);
    let noble = g.nobles[0];
    let target = g.levels[0].face_up[0];
    for color in Color::GEMS {
        let need = noble
            .requires
            .get(color)
            .saturating_sub(u8::from(color == target.color));
        g.players[0]
            .bought
            .extend((0..need).map(|_| card(color, 0)));
    }
    g.players[0].gems = gems(0, 0, 0, 0, 0, 8);
    let buy = Action::Buy {
        card: target,
        noble: Some(noble),
    };
    assert!(g.legal_actions(Seat(0)).contains(&buy));
    assert!(!g
        .legal_actions(Seat(0))
        .contains(&take(&[Color::White, Color::Blue, Color::Red]).with_noble(Some(noble))));
    g.apply(Seat(0), buy).unwrap();
    assert_eq!(g.players[0].nobles, vec![noble]);
}

#[test]
fn reaching_15_ends_the_game_at_the_end_of_the_round() {
    let mut g = game(13);
    g.apply(Seat(0), Action::Pass).unwrap();
    g.players[1].bought.push(card(Color::Red, 15));
    g.apply(Seat(1), Action::Pass).unwrap();
    assert_eq!(g.turn(), Turn::Seat(Seat(2)), "the round is finished");
    assert!(g.outcome().is_none());
    let events = g.apply(Seat(2), Action::Pass).unwrap();
    assert!(
        events[1]
            .to_string()
            .starts_with("Game over after 1 round;"),
        "{}",
        events[1]
    );
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.apply(Seat(0), Action::Pass), Err(IllegalAction::GameOver));
    assert!(g.legal_actions(Seat(0)).is_empty());
    let ranks: Vec<u32> = g.outcome().unwrap().seats.iter().map(|r| r.rank).collect();
    assert_eq!(
        ranks,
        [2, 1, 2],
        "seats 0 and 2 tie at 0 points and 0 cards"
    );
    assert!(g.observe(Viewer::Spectator).end);
}

#[test]
fn ties_on_points_go_to_fewer_purchased_cards() {
    let mut g = game(14);
    g.players[0].bought = vec![
        card(Color::Red, 5),
        card(Color::Blue, 5),
        card(Color::Red, 5),
    ];
    g.players[1].bought = vec![card(Color::Red, 10), card(Color::Blue, 5)];
    g.players[2].bought = vec![card(Color::Red, 10), card(Color::Blue, 5)];
    for seat in 0..3 {
        g.apply(Seat(seat), Action::Pass).unwrap();
    }
    let ranks: Vec<u32> = g.outcome().unwrap().seats.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, [3, 1, 1]);
}

#[test]
fn the_game_stops_after_max_rounds() {
    let settings = Settings {
        max_rounds: 2,
        ..Settings::hackathon()
    };
    let mut g = Splendor::new(settings, 1).unwrap();
    for _ in 0..5 {
        let seat = on_turn(&g);
        g.apply(seat, Action::Pass).unwrap();
    }
    assert_eq!((g.round(), g.turn()), (2, Turn::Seat(Seat(2))));
    g.apply(Seat(2), Action::Pass).unwrap();
    assert_eq!(g.turn(), Turn::Over);
    assert!(g.outcome().unwrap().seats.iter().all(|r| r.rank == 1));
}

#[test]
fn only_the_seat_on_turn_may_act() {
    let mut g = game(15);
    assert!(g.legal_actions(Seat(1)).is_empty());
    assert!(matches!(
        g.apply(Seat(1), Action::Pass),
        Err(IllegalAction::NotYourTurn { .. })
    ));
}

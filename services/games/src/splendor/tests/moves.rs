//! Setup and the move rules: gems, the token limit, reserving and buying
//! (`docs/rules.md#splendor`).

use super::*;
use crate::GameSettings;

/// A card giving a `color` bonus worth `points`, for setting up holdings.
pub(super) fn card(color: Color, points: u8) -> Card {
    Card {
        level: 1,
        color,
        points,
        cost: Gems::default(),
    }
}

pub(super) fn gems(white: u8, blue: u8, green: u8, red: u8, black: u8, gold: u8) -> Gems {
    Gems {
        white,
        blue,
        green,
        red,
        black,
        gold,
    }
}

pub(super) fn take(colors: &[Color]) -> Action {
    Action::TakeDifferent {
        colors: colors.to_vec(),
        noble: None,
    }
}

pub(super) fn refused(g: &mut Splendor, action: Action) -> String {
    let before = g.clone();
    let err = g.apply(on_turn(g), action.clone()).unwrap_err();
    assert_eq!(*g, before, "a refused move changes nothing");
    assert!(
        !g.legal_actions(on_turn(g)).contains(&action),
        "{action:?} is listed"
    );
    err.to_string()
}

#[test]
fn the_table_has_5_gems_a_colour_5_gold_4_nobles_and_4_cards_a_level() {
    let g = game(1);
    assert_eq!(g.table, Gems::uniform(5, 5));
    assert_eq!(g.nobles.len(), 4);
    for (level, deck) in g.levels.iter().zip([36, 26, 16]) {
        assert_eq!((level.face_up.len(), level.deck.len()), (4, deck));
    }
    assert_eq!(g, game(1));
    assert_ne!(g, game(2));
    assert_eq!(g.seats(), 3);
    assert_eq!(
        Settings::parse("hackathon", &serde_json::Value::Null)
            .unwrap()
            .max_rounds,
        150
    );
    assert!(Settings::parse("hackathon", &serde_json::json!({"max_rounds": 0})).is_err());
}

#[test]
fn one_to_three_different_colours_are_taken_as_the_real_judge_accepts() {
    let mut g = game(1);
    assert!(refused(&mut g, take(&[Color::Blue, Color::White, Color::Red])).contains("order"));
    assert!(refused(&mut g, take(&[Color::Red, Color::Red, Color::Red])).contains("at most once"));
    assert!(refused(&mut g, take(&[])).contains("1 to 3"));
    let four = [Color::White, Color::Blue, Color::Green, Color::Red];
    assert!(refused(&mut g, take(&four)).contains("1 to 3"));
    let legal = g.legal_actions(Seat(0));
    assert_eq!(
        legal
            .iter()
            .filter(|a| matches!(a, Action::TakeDifferent { .. }))
            .count(),
        5 + 10 + 10,
        "every set of 1, 2 or 3 of the 5 colours"
    );
    // Two colours at round 1, with all five on the table: the judge's log shows it accepted.
    g.apply(Seat(0), take(&[Color::White, Color::Blue]))
        .unwrap();
    assert_eq!(g.players[0].gems, gems(1, 1, 0, 0, 0, 0));
    g.apply(Seat(1), take(&[Color::Red])).unwrap();
    assert_eq!(g.players[1].gems, gems(0, 0, 0, 1, 0, 0));
    g.apply(Seat(2), take(&[Color::White, Color::Blue, Color::Red]))
        .unwrap();
    assert_eq!(g.players[2].gems, gems(1, 1, 0, 1, 0, 0));
    assert_eq!(g.table, gems(3, 3, 5, 3, 5, 5));

    g.table = gems(0, 2, 0, 1, 0, 5);
    assert!(refused(&mut g, take(&[Color::White, Color::Blue, Color::Red])).contains("not on"));
    g.apply(Seat(0), take(&[Color::Blue, Color::Red])).unwrap();
    assert_eq!(g.players[0].gems, gems(1, 2, 0, 1, 0, 0));
}

#[test]
fn two_of_a_colour_need_at_least_4_of_it_on_the_table() {
    let mut g = game(1);
    g.table.red = 3;
    let two_red = Action::TakeTwo {
        color: Color::Red,
        noble: None,
    };
    assert!(refused(&mut g, two_red.clone()).contains("at least 4"));
    g.table.red = 4;
    g.apply(Seat(0), two_red).unwrap();
    assert_eq!((g.players[0].gems.red, g.table.red), (2, 2));
}

#[test]
fn gold_is_never_taken_it_comes_only_with_a_reservation() {
    let mut g = game(1);
    let gold_two = Action::TakeTwo {
        color: Color::Gold,
        noble: None,
    };
    for asked in [
        take(&[Color::Gold]),
        take(&[Color::Red, Color::Gold]),
        take(&[Color::Gold, Color::White]),
        gold_two,
    ] {
        assert_eq!(
            refused(&mut g, asked),
            "gold cannot be taken: it comes only with a reservation"
        );
    }
    // Even with no gold left on the table the reason is the same.
    g.table.gold = 0;
    let reason = refused(&mut g, take(&[Color::Blue, Color::Gold]));
    assert!(reason.starts_with("gold cannot be taken"), "{reason}");
}

#[test]
fn a_move_leaving_more_than_10_tokens_is_refused_and_pass_stays_legal() {
    let mut g = game(1);
    g.players[0].gems = gems(2, 2, 2, 2, 0, 1);
    let reason = refused(&mut g, take(&[Color::White, Color::Blue, Color::Red]));
    assert!(reason.contains("more than 10"), "{reason}");
    assert!(refused(
        &mut g,
        Action::TakeTwo {
            color: Color::Red,
            noble: None
        }
    )
    .contains("10"));
    let card = g.levels[0].face_up[0];
    g.players[0].gems.white = 3; // 10 tokens: reserving would add a gold
    assert!(refused(&mut g, Action::Reserve { card, noble: None }).contains("10"));
    assert!(g.legal_actions(Seat(0)).iter().all(|a| !matches!(
        a,
        Action::TakeDifferent { .. } | Action::TakeTwo { .. } | Action::Reserve { .. }
    )));
    assert!(g.legal_actions(Seat(0)).contains(&Action::Pass));
    g.table.gold = 0; // no gold left: reserving adds nothing, so it is allowed
    g.apply(Seat(0), Action::Reserve { card, noble: None })
        .unwrap();
    assert_eq!(g.players[0].gems.total(), 10);
}

#[test]
fn reserving_gives_a_gold_refills_the_slot_and_stops_at_3() {
    let mut g = game(7);
    let card = g.levels[2].face_up[1];
    let next = *g.levels[2].deck.last().unwrap();
    let events = g
        .apply(Seat(0), Action::Reserve { card, noble: None })
        .unwrap();
    assert!(events[0].to_string().contains("reserved"), "{}", events[0]);
    assert_eq!(g.levels[2].face_up[1], next);
    assert_eq!(
        (
            g.players[0].reserved.clone(),
            g.players[0].gems.gold,
            g.table.gold
        ),
        (vec![card], 1, 4)
    );
    g.players[1].reserved = vec![card; 3];
    let reason = refused(
        &mut g,
        Action::ReserveBlind {
            level: 1,
            noble: None,
        },
    );
    assert!(reason.contains("maximum"), "{reason}");
}

#[test]
fn a_blind_reserve_takes_the_top_of_the_deck_and_an_empty_deck_cannot_be_reserved() {
    let mut g = game(8);
    let top = *g.levels[0].deck.last().unwrap();
    g.apply(
        Seat(0),
        Action::ReserveBlind {
            level: 1,
            noble: None,
        },
    )
    .unwrap();
    assert_eq!(g.players[0].reserved, vec![top]);
    g.levels[2].deck.clear();
    assert_eq!(
        refused(
            &mut g,
            Action::ReserveBlind {
                level: 3,
                noble: None
            }
        ),
        "Invalid action. No more card for level 3.",
        "the judge's own words"
    );
    assert!(refused(
        &mut g,
        Action::ReserveBlind {
            level: 4,
            noble: None
        }
    )
    .contains("no such"));
}

#[test]
fn payment_uses_bonuses_then_gems_and_gold_only_for_the_rest() {
    let cost = gems(0, 0, 2, 4, 1, 0);
    let bonuses = gems(0, 0, 1, 1, 0, 0);
    let held = gems(3, 0, 3, 2, 0, 2);
    // green: 1 due, paid from gems; red: 3 due, 2 gems + 1 gold; black: 1 gold.
    assert_eq!(
        payment(&cost, &held, &bonuses),
        Some(gems(0, 0, 1, 2, 0, 2))
    );
    assert_eq!(payment(&cost, &gems(3, 0, 3, 2, 0, 1), &bonuses), None);
    assert_eq!(
        payment(&cost, &Gems::default(), &gems(0, 0, 2, 4, 1, 0)),
        Some(Gems::default())
    );
}

#[test]
fn buying_pays_the_canonical_price_back_to_the_table_and_refills_the_slot() {
    let mut g = game(9);
    let card = g.levels[0].face_up[2];
    let unaffordable = refused(&mut g, Action::Buy { card, noble: None });
    assert_eq!(
        unaffordable, "Invalid Action. Doesn't have enough gems to purchase.",
        "the judge's own words, its capitals included"
    );
    g.players[0].gems = Gems {
        gold: 2,
        ..card.cost
    };
    let table_before = g.table;
    let events = g.apply(Seat(0), Action::Buy { card, noble: None }).unwrap();
    assert_eq!(
        g.players[0].gems,
        gems(0, 0, 0, 0, 0, 2),
        "gold kept: gems go first"
    );
    assert_eq!(g.players[0].bought, vec![card]);
    assert_eq!(g.table.total(), table_before.total() + card.cost.total());
    assert!(!g.levels[0].face_up.contains(&card));
    assert_eq!(g.levels[0].face_up.len(), 4);
    assert!(events[0].to_string().contains("purchased"));
}

#[test]
fn any_reserved_card_may_be_bought() {
    let mut g = game(10);
    let first = g.levels[1].face_up[0];
    g.players[0].reserved = vec![first, g.levels[1].face_up[1]];
    g.players[0].gems = gems(0, 0, 0, 0, 0, 10);
    g.apply(
        Seat(0),
        Action::BuyReserved {
            card: first,
            noble: None,
        },
    )
    .unwrap();
    assert_eq!(g.players[0].reserved.len(), 1);
    assert_eq!(g.players[0].bought, vec![first]);
    let other = g.levels[1].face_up[2];
    assert!(refused(
        &mut g,
        Action::BuyReserved {
            card: other,
            noble: None
        }
    )
    .contains("no such"));
}

//! Hints, plays, discards and the tokens.

use super::*;
use crate::{IllegalAction, Turn, Viewer};
use Color::*;

fn hint_color(target: usize, color: Color) -> Action {
    Action::HintColor {
        target: Seat(target),
        color,
    }
}

fn refused(game: &mut Hanabi, seat: Seat, action: Action) {
    let before = game.clone();
    let result = game.apply(seat, action);
    assert!(
        matches!(result, Err(IllegalAction::AgainstRules { .. })),
        "{action:?}: {result:?}"
    );
    assert_eq!(*game, before, "a refused move changes nothing");
    if game.turn() == crate::Turn::Seat(seat) {
        assert!(
            !game.legal_actions(seat).contains(&action),
            "{action:?} is listed"
        );
    }
}

#[test]
fn a_hint_must_touch_at_least_one_card() {
    let mut game = two_hands(Settings::standard(2));
    refused(&mut game, Seat(0), hint_color(1, Red));
    refused(
        &mut game,
        Seat(0),
        Action::HintNumber {
            target: Seat(1),
            number: 7,
        },
    );
    let events = game.apply(Seat(0), hint_color(1, Blue)).unwrap();
    assert!(
        matches!(&events[..], [Event::Hinted { touched, hint_tokens: 7, .. }] if touched == &[0, 1, 3])
    );
    let k = &game.knowledge[1];
    assert!(k[0].touched && k[1].touched && !k[2].touched && k[3].touched);
    assert!(
        k[0].may_be(card(Blue, 3)) && !k[0].may_be(card(Red, 1)) && !k[2].may_be(card(Blue, 3))
    );
}

#[test]
fn a_hint_needs_a_token_and_a_player_at_the_table() {
    let mut game = two_hands(Settings::standard(2));
    refused(&mut game, Seat(0), hint_color(2, Red));
    game.hint_tokens = 0;
    refused(&mut game, Seat(0), hint_color(1, Blue));
    assert!(game
        .legal_actions(Seat(0))
        .iter()
        .all(|a| matches!(a, Action::Play { .. } | Action::Discard { .. })));
}

#[test]
fn hint_tokens_are_spent_by_hints_and_regained_by_discards() {
    let mut game = two_hands(Settings::standard(2));
    game.apply(Seat(0), hint_color(1, Blue)).unwrap();
    game.apply(Seat(1), hint_color(0, Red)).unwrap();
    assert_eq!(game.hint_tokens(), 6);
    game.apply(Seat(0), Action::Discard { card: 4 }).unwrap();
    assert_eq!(game.hint_tokens(), 7);
    assert_eq!(game.discards, [card(Red, 5)]);
    assert_eq!(
        game.hand(Seat(0)).get(4),
        Some(&card(White, 1)),
        "the new card takes the discarded one's slot"
    );
}

#[test]
fn a_drawn_card_takes_the_slot_of_the_card_played_or_discarded() {
    let mut game = two_hands(Settings::standard(2));
    game.hint_tokens = 5;
    game.apply(Seat(0), hint_color(1, Blue)).unwrap();
    game.apply(Seat(1), Action::Play { card: 1 }).unwrap();
    assert_eq!(
        game.hand(Seat(1)),
        [
            card(Blue, 1),
            card(White, 1),
            card(Green, 3),
            card(Blue, 4),
            card(Yellow, 5)
        ]
    );
    let known = &game.knowledge[1];
    assert!(known[0].touched && !known[1].touched && known[3].touched);
    assert!(
        known[1].drawn > known[4].drawn,
        "the drawn card is the newest"
    );
    game.apply(Seat(0), Action::Discard { card: 2 }).unwrap();
    assert_eq!(game.hand(Seat(0)).get(2), Some(&card(White, 2)));
    assert_eq!(game.hand(Seat(0)).len(), 5);

    let mut end = two_hands(Settings {
        draw_into: DrawInto::EndOfHand,
        ..Settings::standard(2)
    });
    end.hint_tokens = 5;
    end.apply(Seat(0), Action::Discard { card: 2 }).unwrap();
    assert_eq!(
        end.hand(Seat(0)),
        [
            card(Red, 1),
            card(Red, 2),
            card(Red, 4),
            card(Red, 5),
            card(White, 1)
        ]
    );
}

#[test]
fn a_hint_to_oneself_costs_a_token_and_tells_one_about_ones_own_cards() {
    let mut game = two_hands(Settings::standard(2));
    let events = game.apply(Seat(0), hint_color(0, Red)).unwrap();
    assert_eq!(game.hint_tokens(), 7);
    assert!(matches!(
        &events[0],
        Event::Hinted { target: Seat(0), touched, .. } if touched.len() == 5
    ));
    assert!(game.knowledge[0].iter().all(|k| k.touched));
    let seen = game.observe(Viewer::Seat(Seat(0)));
    assert_eq!(
        seen.hint_received.map(|h| h.hint_color),
        Some(vec![0; 5]),
        "onHintColor goes to the hinter"
    );
    assert_eq!(seen.last_action.map(|a| a.target), Some(0));
    assert_eq!(game.turn(), Turn::Seat(Seat(1)), "the game plays on");
    // Listed as legal (for the rules), never offered to the seat (it would name its cards).
    assert!(game.legal_actions(Seat(1)).contains(&hint_color(1, Blue)));
    assert!(!game.offered_actions(Seat(1)).contains(&hint_color(1, Blue)));
    assert!(game.offered_actions(Seat(1)).iter().all(|a| !matches!(
        a,
        Action::HintColor {
            target: Seat(1),
            ..
        } | Action::HintNumber {
            target: Seat(1),
            ..
        }
    )));
    // A self-hint must touch a card as any hint must.
    refused(&mut game, Seat(1), hint_color(1, Red));

    let mut strict = two_hands(Settings {
        self_hints: false,
        ..Settings::standard(2)
    });
    refused(&mut strict, Seat(0), hint_color(0, Red));
}

#[test]
fn in_the_rainbow_variant_a_five_returns_a_token_even_at_8_and_discarding_is_refused_only_at_8() {
    let hands = vec![vec![card(Red, 5); 5], vec![card(Blue, 1); 5]];
    let mut game = rigged(
        Settings::rainbow(2),
        hands.clone(),
        vec![card(White, 2); 10],
    );
    game.stacks[Red.index()] = 4;
    game.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    assert_eq!(
        game.hint_tokens(),
        9,
        "gameRainbow.py: `if play.number == 5: hints += 1`"
    );
    game.apply(Seat(1), Action::Discard { card: 0 }).unwrap();
    assert_eq!(
        game.hint_tokens(),
        10,
        "a discard above 8 is allowed and adds one"
    );

    let mut standard = rigged(Settings::standard(2), hands, vec![card(White, 2); 10]);
    standard.stacks[Red.index()] = 4;
    standard.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    assert_eq!(standard.hint_tokens(), 8, "game.py: only below 8");
    refused(&mut standard, Seat(1), Action::Discard { card: 0 });
}

#[test]
fn no_discard_with_all_8_hint_tokens() {
    let mut game = two_hands(Settings::standard(2));
    assert_eq!(game.hint_tokens(), 8);
    refused(&mut game, Seat(0), Action::Discard { card: 0 });
    assert!(game
        .legal_actions(Seat(0))
        .iter()
        .all(|a| !matches!(a, Action::Discard { .. })));
}

#[test]
fn a_correct_play_extends_its_stack_and_a_wrong_one_costs_an_error() {
    let mut game = two_hands(Settings::standard(2));
    let events = game.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    assert!(matches!(events[0], Event::Played { success: true, .. }));
    assert!(matches!(events[1], Event::Drew { deck_left: 19, .. }));
    assert_eq!(game.stacks()[Red.index()], 1);
    game.apply(Seat(1), Action::Play { card: 1 }).unwrap(); // blue 2 on an empty blue stack
    assert_eq!(game.error_tokens(), 1);
    assert_eq!(game.discards, [card(Blue, 2)]);
    assert_eq!(game.stacks()[Blue.index()], 0);
    assert_eq!(game.hint_tokens(), 8, "plays do not touch hint tokens");
}

#[test]
fn playing_a_5_returns_a_hint_token_only_below_8() {
    for (tokens, after) in [(7, 8), (8, 8), (3, 4)] {
        let mut game = two_hands(Settings::standard(2));
        game.stacks[Red.index()] = 4;
        game.hint_tokens = tokens;
        let events = game.apply(Seat(0), Action::Play { card: 4 }).unwrap();
        assert!(
            matches!(events[0], Event::Played { success: true, token_returned, .. } if token_returned == (tokens < 8))
        );
        assert_eq!(game.hint_tokens(), after, "with {tokens} tokens");
    }
}

#[test]
fn rainbow_a_red_hint_to_a_hand_without_red_but_with_a_rainbow_card_is_legal() {
    let hands = vec![
        vec![card(Blue, 1); 5],
        vec![
            card(Blue, 2),
            card(Rainbow, 3),
            card(White, 1),
            card(Green, 1),
            card(Blue, 4),
        ],
    ];
    let mut game = rigged(Settings::rainbow(2), hands.clone(), vec![card(Red, 1); 10]);
    assert!(game.legal_actions(Seat(0)).contains(&hint_color(1, Red)));
    let events = game.apply(Seat(0), hint_color(1, Red)).unwrap();
    assert!(matches!(&events[..], [Event::Hinted { touched, .. }] if touched == &[1]));
    let k = &game.knowledge[1];
    assert!(
        k[1].may_be(card(Rainbow, 3)) && k[1].may_be(card(Red, 3)) && !k[1].may_be(card(Blue, 3))
    );
    assert!(
        !k[0].may_be(card(Rainbow, 2)),
        "an untouched card is not rainbow"
    );
    // A blue hint touches the blues and the rainbow card; rainbow itself cannot be named.
    assert_eq!(game.touched(hint_color(0, Blue)), [0, 1, 2, 3, 4]);
    assert_eq!(
        game.touched(Action::HintColor {
            target: Seat(1),
            color: Blue
        }),
        [0, 1, 4]
    );
    refused(&mut game, Seat(1), hint_color(0, Rainbow));
    // The same hint without rainbow cards touches nothing and is refused.
    let mut plain = rigged(
        Settings::standard(2),
        hands
            .into_iter()
            .map(|h| {
                h.into_iter()
                    .map(|c| {
                        if c.color == Rainbow {
                            card(Yellow, 3)
                        } else {
                            c
                        }
                    })
                    .collect()
            })
            .collect(),
        vec![card(Red, 1); 10],
    );
    refused(&mut plain, Seat(0), hint_color(1, Red));
}

#[test]
fn rainbow_cards_build_their_own_stack() {
    let hands = vec![
        vec![
            card(Rainbow, 1),
            card(Rainbow, 2),
            card(Red, 1),
            card(Red, 1),
            card(Red, 1),
        ],
        vec![card(Blue, 1); 5],
    ];
    let mut game = rigged(Settings::rainbow(2), hands, vec![card(White, 2); 10]);
    game.apply(Seat(0), Action::Play { card: 0 }).unwrap();
    assert_eq!(game.stacks(), [0, 0, 0, 0, 0, 1]);
    game.apply(Seat(1), Action::Play { card: 0 }).unwrap();
    game.apply(Seat(0), Action::Play { card: 1 }).unwrap();
    assert_eq!(game.stacks(), [0, 0, 1, 0, 0, 2]);
    assert_eq!(game.score(), 3);
}

//! What seats, spectators and replays see; JSON forms; events' log lines.

use super::*;
use crate::Viewer;
use serde_json::json;

#[test]
fn a_blind_reserve_is_public_from_the_next_observation_on() {
    let mut g = game(3);
    let top = g.observe(Viewer::Omniscient).hidden.unwrap().decks[1][0];
    let before = g.observe(Viewer::Seat(Seat(1)));
    assert!(before.players[0].reserved_cards.is_empty());
    g.apply(
        Seat(0),
        Action::ReserveBlind {
            level: 2,
            noble: None,
        },
    )
    .unwrap();
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        assert_eq!(g.observe(viewer).players[0].reserved_cards, vec![top]);
    }
    assert_eq!(
        g.observe(Viewer::Spectator).table.deck_counts,
        vec![36, 25, 16]
    );
}

#[test]
fn only_the_omniscient_view_shows_the_decks() {
    let g = game(4);
    assert!(g.observe(Viewer::Seat(Seat(0))).hidden.is_none());
    assert!(g.observe(Viewer::Spectator).hidden.is_none());
    let hidden = g.observe(Viewer::Omniscient).hidden.unwrap();
    let sizes: Vec<usize> = hidden.decks.iter().map(Vec::len).collect();
    assert_eq!(sizes, [36, 26, 16]);
}

#[test]
fn the_observation_carries_what_the_judge_input_needs() {
    let g = game(5);
    let obs = g.observe(Viewer::Seat(Seat(0)));
    assert_eq!((obs.round, obs.to_act, obs.end), (1, Some(Seat(0)), false));
    assert_eq!(obs.table.cards.len(), 12);
    assert_eq!(obs.table.nobles.len(), 4);
    assert_eq!(obs.table.gems, Gems::uniform(5, 5));
    assert_eq!(obs.players.len(), 3);
    let json = serde_json::to_value(&obs).unwrap();
    for key in [
        "score",
        "gems",
        "purchased_cards",
        "reserved_cards",
        "nobles",
    ] {
        assert!(json["players"][0].get(key).is_some(), "{key}");
    }
}

#[test]
fn actions_have_a_readable_json_form_that_round_trips() {
    let card = game(1).observe(Viewer::Spectator).table.cards[0];
    let noble = all_nobles()[0];
    let actions = [
        Action::TakeDifferent {
            colors: vec![Color::White, Color::Red],
            noble: None,
        },
        Action::TakeTwo {
            color: Color::Red,
            noble: Some(noble),
        },
        Action::Reserve { card, noble: None },
        Action::ReserveBlind {
            level: 3,
            noble: None,
        },
        Action::Buy { card, noble: None },
        Action::BuyReserved { card, noble: None },
        Action::Pass,
    ];
    for action in actions {
        let text = serde_json::to_value(&action).unwrap();
        assert_eq!(serde_json::from_value::<Action>(text).unwrap(), action);
    }
    assert_eq!(
        serde_json::to_value(Action::TakeTwo {
            color: Color::Red,
            noble: None
        })
        .unwrap(),
        json!({"action": "take_two", "color": "red"})
    );
    assert_eq!(
        serde_json::to_value(Action::Pass).unwrap(),
        json!({"action": "pass"})
    );
}

#[test]
fn log_lines_read_like_the_judge() {
    let mut g = game(2);
    let events = g
        .apply(
            Seat(0),
            Action::TakeDifferent {
                colors: vec![Color::Green, Color::Red, Color::Gold],
                noble: None,
            },
        )
        .unwrap_err();
    assert!(
        events.to_string().contains("gold cannot be taken"),
        "{events}"
    );
    let events = g
        .apply(
            Seat(0),
            Action::TakeDifferent {
                colors: vec![Color::Blue, Color::Green, Color::Red],
                noble: None,
            },
        )
        .unwrap();
    assert_eq!(
        events[0].to_string(),
        "seat 0: Successfully got blue, green, red gems."
    );
    g.apply(Seat(1), Action::Pass).unwrap();
    let events = g.apply(Seat(2), Action::Pass).unwrap();
    assert_eq!(events[0].to_string(), "seat 2: Pass, turn lost.");
    assert_eq!(events[1].to_string(), "Round 2");
}

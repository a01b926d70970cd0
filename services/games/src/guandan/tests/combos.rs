//! Types, comparison and legal-play generation with wild cards.

use serde_json::json;

use super::{action, cards, play};
use crate::guandan::action::{Action, Kind};
use crate::guandan::combos::plays;
use crate::guandan::{Guandan, Settings};
use crate::{Game, Seat};

const MANUAL_HAND: &str =
    "S2 H2 H2 C2 D2 S3 H3 D3 S4 D5 C6 H7 C7 C8 D8 DT HJ DJ HQ HQ CQ SK H9 H9 C9 D9 HR";

fn following(hand: &str, level: u8, best: serde_json::Value) -> Vec<Action> {
    let mut game = Guandan::from_hands(
        Settings::platform(),
        vec![cards("SA"), cards("S3 S4"), cards(hand), cards("S5 S6")],
        level,
        Seat(1),
    );
    let Action::Play(best) = action(best) else {
        panic!()
    };
    game.greater = Some((Seat(1), best));
    game.to_act = Seat(2);
    game.legal_actions(Seat(2))
}

#[test]
fn the_manuals_act_play_example_lists_the_22_bombs() {
    let legal = following(
        MANUAL_HAND,
        9,
        json!(["Bomb", "A", ["HA", "HA", "CA", "DA"]]),
    );
    assert_eq!(legal.first(), Some(&Action::Pass));
    let bombs: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::Play(p) if p.kind == Kind::Bomb))
        .collect();
    let sizes = |n: usize| {
        bombs
            .iter()
            .filter(|a| matches!(a, Action::Play(p) if p.cards.len() == n))
            .count()
    };
    assert_eq!((sizes(4), sizes(5), sizes(6), sizes(7)), (1, 14, 5, 1));
    assert_eq!(bombs.len() + 1, 22);
    let manual = [
        json!(["Bomb", "9", ["H9", "H9", "C9", "D9"]]),
        json!(["Bomb", "2", ["S2", "H2", "H2", "C2", "H9"]]),
        json!(["Bomb", "2", ["S2", "H2", "H2", "C2", "D2"]]),
        json!(["Bomb", "3", ["S3", "H3", "D3", "H9", "H9"]]),
        json!(["Bomb", "Q", ["HQ", "HQ", "CQ", "H9", "H9"]]),
        json!(["Bomb", "2", ["S2", "H2", "C2", "D2", "H9", "H9"]]),
        json!(["Bomb", "2", ["S2", "H2", "H2", "C2", "D2", "H9", "H9"]]),
    ];
    for m in manual {
        assert!(legal.contains(&action(m.clone())), "{m} missing");
    }
    assert_eq!(legal.len(), 22, "{legal:?}");
}

#[test]
fn the_manuals_wilds_complete_straight_flushes_only_under_the_2017_rules() {
    let with_wild_flushes = |wild: bool| {
        let settings = Settings {
            wild_straight_flush: wild,
            ..Settings::platform()
        };
        let mut game = Guandan::from_hands(
            settings,
            vec![
                cards("SA"),
                cards("S3 S4"),
                cards(MANUAL_HAND),
                cards("S5 S6"),
            ],
            9,
            Seat(1),
        );
        let Action::Play(best) = action(json!(["Bomb", "A", ["HA", "HA", "CA", "DA"]])) else {
            panic!()
        };
        game.greater = Some((Seat(1), best));
        game.to_act = Seat(2);
        game.legal_actions(Seat(2))
    };
    let platform = with_wild_flushes(false);
    assert_eq!(platform.len(), 22);
    let rules_2017 = with_wild_flushes(true);
    let flushes: Vec<&Action> = rules_2017
        .iter()
        .filter(|a| matches!(a, Action::Play(p) if p.kind == Kind::StraightFlush))
        .collect();
    assert_eq!(rules_2017.len(), 22 + flushes.len());
    // One wild completes the diamond 7-J and the club 5-9; two the spade A-5.
    for sf in [
        json!(["StraightFlush", "7", ["H9", "D8", "D9", "DT", "DJ"]]),
        json!(["StraightFlush", "5", ["H9", "C6", "C7", "C8", "C9"]]),
        json!(["StraightFlush", "A", ["H9", "S2", "S3", "S4", "H9"]]),
    ] {
        assert!(rules_2017.contains(&action(sf.clone())), "{sf} missing");
        assert!(!platform.contains(&action(sf.clone())));
    }
}

#[test]
fn natural_straight_flushes_are_listed_and_the_heart_level_card_may_be_itself() {
    let settings = Settings::platform();
    let hand = cards("H7 H8 H9 HT HJ C3 C4 C5 C6 C7");
    let game = Guandan::from_hands(
        settings,
        vec![hand, cards("SA"), cards("SA"), cards("SA")],
        9,
        Seat(0),
    );
    let legal = game.legal_actions(Seat(0));
    for sf in [
        json!(["StraightFlush", "7", ["H7", "H8", "H9", "HT", "HJ"]]),
        json!(["StraightFlush", "3", ["C3", "C4", "C5", "C6", "C7"]]),
    ] {
        assert!(legal.contains(&action(sf.clone())), "{sf} missing");
    }
    // H9 is wild at level 9: it may not stand for the C8 of a club 4-8 or the HQ of 8-Q.
    let flushes = legal
        .iter()
        .filter(|a| matches!(a, Action::Play(p) if p.kind == Kind::StraightFlush))
        .count();
    assert_eq!(flushes, 2, "{legal:?}");
}

#[test]
fn sequences_take_a_low_or_high_but_never_wrap() {
    let hand = cards("SA S2 S3 S4 S5 ST SJ SQ SK C2");
    let all = plays(&hand, 7, (10, true), None);
    let straights: Vec<u8> = all
        .iter()
        .filter(|p| p.kind == Kind::Straight)
        .map(|p| p.rank)
        .collect();
    assert!(straights.contains(&1), "A2345");
    assert!(straights.contains(&10), "TJQKA");
    assert_eq!(
        straights.iter().filter(|&&r| r == 1 || r == 10).count(),
        straights.len()
    );
    assert!(!all.iter().any(|p| p.kind == Kind::Straight
        && p.cards.contains(&"SK".parse().unwrap())
        && p.cards.contains(&"S2".parse().unwrap())));
    let low = action(json!([
        "StraightFlush",
        "A",
        ["SA", "S2", "S3", "S4", "S5"]
    ]));
    assert!(all.iter().any(|p| Action::Play(p.clone()) == low));
}

#[test]
fn the_level_card_counts_at_its_natural_rank_in_sequences() {
    // Level 9: S9 is a natural 9 in 7 8 9 T J.
    let hand = cards("S7 C8 S9 DT HJ");
    let all = plays(&hand, 9, (10, true), Some((Kind::Straight, 7)));
    assert_eq!(all.len(), 1);
}

#[test]
fn wild_cards_fill_any_position_and_write_themselves_there() {
    let hand = cards("H6 H7 D8 H2 ST");
    let all = plays(&hand, 2, (10, true), Some((Kind::Straight, 6)));
    assert_eq!(all, vec![play(Kind::Straight, 6, "H6 H7 D8 H2 ST")]);
    let pair = plays(&cards("S5 H2"), 2, (10, true), Some((Kind::Pair, 5)));
    assert_eq!(pair, vec![play(Kind::Pair, 5, "S5 H2")]);
    // Two wilds alone are a pair of level cards, not any pair.
    let wilds = plays(&cards("H2 H2"), 2, (10, true), Some((Kind::Pair, 5)));
    assert!(wilds.is_empty());
}

#[test]
fn pairs_of_jokers_need_the_same_joker() {
    let all = plays(&cards("SB HR"), 2, (10, true), Some((Kind::Pair, 15)));
    assert!(all.is_empty());
    let all = plays(&cards("SB SB HR HR"), 2, (10, true), None);
    assert!(all.contains(&play(Kind::Pair, 15, "SB SB")));
    assert!(all.contains(&play(Kind::Bomb, 17, "SB SB HR HR")));
}

#[test]
fn bombs_rank_by_size_then_rank_with_straight_flushes_between_five_and_six() {
    let lvl = 5;
    let four_a = play(Kind::Bomb, 14, "SA HA CA DA");
    let four_level = play(Kind::Bomb, 5, "S5 C5 D5 S5");
    let five_2 = play(Kind::Bomb, 2, "S2 H2 C2 D2 S2");
    let sf_low = play(Kind::StraightFlush, 1, "SA S2 S3 S4 S5");
    let sf_high = play(Kind::StraightFlush, 10, "ST SJ SQ SK SA");
    let six_2 = play(Kind::Bomb, 2, "S2 H2 C2 D2 S2 H2");
    let jokers = play(Kind::Bomb, 17, "SB SB HR HR");
    let order = [
        &four_a,
        &four_level,
        &five_2,
        &sf_low,
        &sf_high,
        &six_2,
        &jokers,
    ];
    for (i, a) in order.iter().enumerate() {
        for (j, b) in order.iter().enumerate() {
            assert_eq!(a.beats(b, lvl), i > j, "{a:?} vs {b:?}");
        }
    }
    let single_big = play(Kind::Single, 16, "HR");
    assert!(four_a.beats(&single_big, lvl));
    assert!(!single_big.beats(&four_a, lvl));
}

#[test]
fn ordinary_types_beat_only_the_same_type_with_a_higher_rank() {
    let lvl = 9;
    let single_a = play(Kind::Single, 14, "SA");
    let single_9 = play(Kind::Single, 9, "S9");
    let small = play(Kind::Single, 15, "SB");
    assert!(single_9.beats(&single_a, lvl));
    assert!(small.beats(&single_9, lvl));
    let pair_3 = play(Kind::Pair, 3, "S3 D3");
    assert!(!pair_3.beats(&single_a, lvl));
    let s1 = play(Kind::Straight, 1, "SA S2 S3 S4 D5");
    let s2 = play(Kind::Straight, 2, "S2 S3 S4 D5 S6");
    assert!(s2.beats(&s1, lvl) && !s1.beats(&s2, lvl));
    let fh = play(Kind::ThreeWithTwo, 9, "S9 C9 D9 S3 D3");
    let fh_a = play(Kind::ThreeWithTwo, 14, "SA CA DA S2 D2");
    assert!(fh.beats(&fh_a, lvl));
}

#[test]
fn actions_round_trip_through_the_platform_json() {
    for json in [
        json!(["PASS", "PASS", "PASS"]),
        json!(["tribute", "tribute", ["D2"]]),
        json!(["back", "back", ["S3"]]),
        json!(["Straight", "A", ["SA", "S2", "S3", "S4", "D5"]]),
        json!(["Straight", "T", ["ST", "SJ", "SQ", "SK", "DA"]]),
        json!(["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]),
        json!(["Single", "B", ["SB"]]),
    ] {
        assert_eq!(serde_json::to_value(action(json.clone())).unwrap(), json);
    }
}

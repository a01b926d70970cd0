//! The exact legal-action lists, pinned: every list below must come out with the same actions
//! in the same order, written the same way, as the code that generated `golden_lists.txt`
//! (bots index into `actionList`, so the order is part of the protocol).
//!
//! Each line of the file is `case count hash`: the number of actions and an FNV-1a 64 hash of
//! the list's JSON text (`[["Single","2",["S2"]],…]`, what `act` messages carry), which the
//! streaming writer (`guandan::json`) must write byte for byte as `serde_json` writes `Value`s. The cases:
//! seeded deals at three levels led by each seat and followed against a dozen plays of every
//! type; the same deals under `max_bomb: 8` and `wild_straight_flush: true`; hand-built worst
//! cases (the longest lists found, see `examples/guandan_worst_hand.rs`); and every list of
//! whole seeded random games (tribute and return included), hashed per game.
//!
//! `GOLDEN_WRITE=1 cargo test -p croupier-games golden` rewrites the file: only ever from the
//! code the file was pinned from, never to make a changed list pass.

use serde_json::{json, Value};

use super::{action, cards};
use crate::guandan::action::Action;
use crate::guandan::cards::deal;
use crate::guandan::{json, Guandan, Settings};
use crate::{Game, GameRng, Seat, Stream, Turn};

const GOLDEN: &str = include_str!("golden_lists.txt");

/// The longest lists found (leading, at the level given), as hand strings.
pub(crate) const WORST_HANDS: &[(&str, u8, &str)] = &[
    (
        "six-ranks-level2",
        2,
        "S3 H3 C3 D3 S4 H4 C4 D4 S5 H5 C5 D5 S6 H6 C6 D6 S7 H7 C7 D7 S8 H8 C8 D8 D9 H2 H2",
    ),
    (
        "six-ranks-level9",
        9,
        "S3 H3 C3 D3 S4 H4 C4 D4 S5 H5 C5 D5 S6 H6 C6 D6 S7 H7 C7 D7 S8 H8 C8 D8 H9 H9 C9",
    ),
    (
        "ace-high-level2",
        2,
        "S8 S9 H9 C9 D9 ST HT CT DT SJ HJ CJ DJ SQ HQ CQ DQ SK HK CK DK SA HA CA DA H2 H2",
    ),
];

fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The list's JSON text, the same through `Value`s and through the streaming writer.
fn list_text(list: &[Action]) -> String {
    let values: Vec<Value> = list.iter().cloned().map(Value::from).collect();
    let text = serde_json::to_string(&values).unwrap();
    assert_eq!(json::actions_text(list), text, "the streamed text differs");
    text
}

fn line(name: &str, list: &[Action]) -> String {
    let mut hash = FNV_START;
    fnv(&mut hash, list_text(list).as_bytes());
    format!("{name} {} {hash:016x}", list.len())
}

/// The plays followed: one or more of every type, bombs of 4, 5 and 6 cards.
fn to_beat() -> Vec<(&'static str, Value)> {
    vec![
        ("single5", json!(["Single", "5", ["S5"]])),
        ("singleK", json!(["Single", "K", ["DK"]])),
        ("pair7", json!(["Pair", "7", ["S7", "C7"]])),
        ("trips3", json!(["Trips", "3", ["S3", "C3", "D3"]])),
        (
            "threepair3",
            json!(["ThreePair", "3", ["S3", "C3", "S4", "C4", "S5", "C5"]]),
        ),
        (
            "threewithtwo4",
            json!(["ThreeWithTwo", "4", ["S4", "C4", "D4", "S9", "C9"]]),
        ),
        (
            "twotrips5",
            json!(["TwoTrips", "5", ["S5", "C5", "D5", "S6", "C6", "D6"]]),
        ),
        (
            "straight3",
            json!(["Straight", "3", ["S3", "C4", "D5", "S6", "C7"]]),
        ),
        (
            "flush6",
            json!(["StraightFlush", "6", ["S6", "S7", "S8", "S9", "ST"]]),
        ),
        ("bomb4of5", json!(["Bomb", "5", ["S5", "C5", "D5", "S5"]])),
        (
            "bomb5of9",
            json!(["Bomb", "9", ["S9", "C9", "D9", "S9", "D9"]]),
        ),
        (
            "bomb6of2",
            json!(["Bomb", "2", ["S2", "C2", "D2", "S2", "D2", "C2"]]),
        ),
    ]
}

/// A table where `hand` is seat 2's and seat 2 is on turn: leading, or after `best` by seat 1.
fn table(
    settings: &Settings,
    hand: &[crate::guandan::Card],
    level: u8,
    best: Option<&Value>,
) -> Guandan {
    let mut game = Guandan::from_hands(
        settings.clone(),
        vec![cards("SA"), cards("S3 S4"), hand.to_vec(), cards("S5 S6")],
        level,
        Seat(2),
    );
    if let Some(best) = best {
        let Action::Play(best) = action(best.clone()) else {
            panic!("not a play: {best}")
        };
        game.greater = Some((Seat(1), best));
    }
    game
}

fn deal_cases(out: &mut Vec<String>) {
    let variants = [
        ("platform", Settings::platform()),
        (
            "bomb8",
            Settings {
                max_bomb: 8,
                ..Settings::platform()
            },
        ),
        (
            "wildflush",
            Settings {
                wild_straight_flush: true,
                ..Settings::platform()
            },
        ),
    ];
    let beat = to_beat();
    for (variant, settings) in &variants {
        let seeds = if *variant == "platform" { 0..24 } else { 0..6 };
        for seed in seeds {
            for level in [2, 9, 14] {
                let mut rng = GameRng::derive(seed, Stream::Testing);
                for (seat, hand) in deal(&mut rng, level).iter().enumerate() {
                    let name = format!("{variant}/seed{seed}/level{level}/seat{seat}");
                    let lead = table(settings, hand, level, None);
                    out.push(line(&format!("{name}/lead"), &lead.legal_actions(Seat(2))));
                    for (label, best) in &beat {
                        let follow = table(settings, hand, level, Some(best));
                        out.push(line(
                            &format!("{name}/{label}"),
                            &follow.legal_actions(Seat(2)),
                        ));
                    }
                }
            }
        }
    }
}

fn worst_cases(out: &mut Vec<String>) {
    for (name, level, hand) in WORST_HANDS {
        let game = table(&Settings::platform(), &cards(hand), *level, None);
        out.push(line(&format!("worst/{name}"), &game.legal_actions(Seat(2))));
    }
}

/// Whole games of random play: every list of a game in one hash, and the number of lists.
fn game_cases(out: &mut Vec<String>) {
    for seed in 0..3 {
        let mut game = Guandan::new(Settings::platform(), seed).unwrap();
        let mut rng = GameRng::derive(seed, Stream::Testing);
        let (mut hash, mut lists, mut actions) = (FNV_START, 0, 0);
        while let Turn::Seat(seat) = game.turn() {
            let legal = game.legal_actions(seat);
            fnv(&mut hash, list_text(&legal).as_bytes());
            lists += 1;
            actions += legal.len();
            let choice = rng.choose(&legal).unwrap().clone();
            game.apply(seat, choice).unwrap();
        }
        out.push(format!("game/seed{seed} {lists}/{actions} {hash:016x}"));
    }
}

fn all_lines() -> Vec<String> {
    let mut out = Vec::new();
    deal_cases(&mut out);
    worst_cases(&mut out);
    game_cases(&mut out);
    out
}

#[test]
fn every_pinned_list_is_unchanged() {
    let lines = all_lines();
    if std::env::var_os("GOLDEN_WRITE").is_some() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/guandan/tests/golden_lists.txt"
        );
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
        return;
    }
    let pinned: Vec<&str> = GOLDEN.lines().collect();
    assert_eq!(pinned.len(), lines.len(), "the number of cases changed");
    let changed: Vec<String> = pinned
        .iter()
        .zip(&lines)
        .filter(|(a, b)| **a != b.as_str())
        .map(|(a, b)| format!("pinned {a}\n   now {b}"))
        .collect();
    assert!(
        changed.is_empty(),
        "{} lists changed:\n{}",
        changed.len(),
        changed.join("\n")
    );
}

#[test]
fn the_pins_cover_long_lists_and_every_following_type() {
    let longest = GOLDEN
        .lines()
        .filter(|l| !l.starts_with("game/"))
        .filter_map(|l| l.split(' ').nth(1)?.parse::<usize>().ok())
        .max()
        .unwrap();
    assert!(
        longest > 1000,
        "the longest pinned list has {longest} actions"
    );
    for (label, _) in to_beat() {
        assert!(GOLDEN.contains(&format!("/{label} ")), "{label}");
    }
}

#[test]
fn every_card_tribute_and_odd_rank_is_streamed_as_serde_json_writes_it() {
    use crate::guandan::action::{Cards, Kind, Play};
    use crate::guandan::cards::{full_deck, Card};
    let mut list = vec![Action::Pass];
    let odd = [
        Card::new(0, 1),
        Card::new(2, 0),
        Card::new(5, 3),
        Card::new(1, 17),
    ];
    for card in full_deck().into_iter().chain(odd) {
        list.push(Action::Tribute(card));
        list.push(Action::Back(card));
        let cards = Cards::from_slice(&[card]).unwrap();
        list.push(Action::Play(Play {
            kind: Kind::Single,
            rank: card.rank,
            cards,
        }));
    }
    for rank in 0..=20 {
        let cards = Cards::from_slice(&[]).unwrap();
        list.push(Action::Play(Play {
            kind: Kind::Straight,
            rank,
            cards,
        }));
    }
    // (list_text asserts that both writers agree.)
    let text = list_text(&list);
    assert!(text.starts_with(r#"[["PASS","PASS","PASS"],["tribute","tribute",["S2"]],"#));
    assert!(
        text.contains(r#"["Single","3",["?3"]],["tribute","tribute",["H?"]]"#),
        "{text}"
    );
}

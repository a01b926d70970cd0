//! The `act` messages pinned byte for byte: the text the adapter sends for every turn of whole
//! seeded random games (tribute and return included), for the 2,000 seeded deals that
//! `croupier bench guandan-actions` searches (each seat leading with its dealt hand, then the
//! next seat following a play of it), and for the hand-built worst case must
//! stay exactly what the code that pinned them sent (bots index into `actionList`; key order,
//! spacing and every action's spelling are the protocol as bots parse it).
//!
//! Each pin is (case, messages, bytes, FNV-1a 64 hash of every message's text in turn).

use croupier_games::guandan::cards::{deal, parse_cards};
use croupier_games::guandan::{Guandan, Settings};
use croupier_games::{Game, GameRng, Seat, Stream, Turn, Viewer};

use super::wire;

const PINNED: &[(&str, usize, usize, u64)] = &[
    ("game/seed1", 1532, 1383879, 0xc4fa_f40d_59bc_97ed),
    ("game/seed2", 2947, 3031612, 0xc44d_83ae_2b12_74bb),
    ("deals/2000", 16000, 323859290, 0x9da5_bf0e_1d80_d5f5),
    ("worst", 1, 723760, 0x09f9_7819_3f96_1f90),
];

/// A hand-built long list (15,548 actions: six ranks and both wilds), led by seat 0 at level 2.
const WORST_HAND: &str =
    "S3 H3 C3 D3 S4 H4 C4 D4 S5 H5 C5 C5 D5 S6 H6 C6 D6 S7 H7 C7 D7 S8 H8 D8 D9 H2 H2";

/// Seeded deals, as many as `croupier bench guandan-actions` searches by default.
const DEALS: u64 = 2000;

fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

fn act_text(game: &Guandan, seat: Seat) -> String {
    wire::act(&game.observe(Viewer::Seat(seat)))
}

fn cases() -> Vec<(String, usize, usize, u64)> {
    let mut out = Vec::new();
    for seed in [1, 2] {
        let mut game = Guandan::new(Settings::platform(), seed).unwrap();
        let mut rng = GameRng::derive(seed, Stream::Testing);
        let (mut hash, mut messages, mut bytes) = (0xcbf2_9ce4_8422_2325, 0, 0);
        while let Turn::Seat(seat) = game.turn() {
            let text = act_text(&game, seat);
            fnv(&mut hash, text.as_bytes());
            (messages, bytes) = (messages + 1, bytes + text.len());
            let legal = game.legal_actions(seat);
            let choice = rng.choose(&legal).unwrap().clone();
            game.apply(seat, choice).unwrap();
        }
        out.push((format!("game/seed{seed}"), messages, bytes, hash));
    }
    let (mut hash, mut messages, mut bytes) = (0xcbf2_9ce4_8422_2325, 0, 0);
    for seed in 0..DEALS {
        let level = 2 + u8::try_from(seed % 13).unwrap();
        let hands = deal(&mut GameRng::derive(seed, Stream::Testing), level);
        for leader in Seat::all(4) {
            let mut game = Guandan::from_hands(Settings::platform(), hands.clone(), level, leader);
            let text = act_text(&game, leader);
            fnv(&mut hash, text.as_bytes());
            let legal = game.legal_actions(leader);
            // A play of every size and type, by the seed: the follower's list is the subset
            // that beats it (with PASS first).
            let choice = legal[usize::try_from(seed).unwrap() * 7919 % legal.len()].clone();
            game.apply(leader, choice).unwrap();
            let Turn::Seat(next) = game.turn() else {
                unreachable!("the leader kept cards")
            };
            let follow = act_text(&game, next);
            fnv(&mut hash, follow.as_bytes());
            (messages, bytes) = (messages + 2, bytes + text.len() + follow.len());
        }
    }
    out.push((format!("deals/{DEALS}"), messages, bytes, hash));
    let hands = [WORST_HAND, "SA", "S3 S4", "S5 S6"].map(|h| parse_cards(h).unwrap());
    let game = Guandan::from_hands(Settings::platform(), hands.to_vec(), 2, Seat(0));
    let text = act_text(&game, Seat(0));
    let mut hash = 0xcbf2_9ce4_8422_2325;
    fnv(&mut hash, text.as_bytes());
    out.push(("worst".to_owned(), 1, text.len(), hash));
    out
}

#[test]
fn every_act_message_is_sent_byte_for_byte_as_pinned() {
    let now = cases();
    let listing: Vec<String> = now
        .iter()
        .map(|(case, m, b, h)| format!("(\"{case}\", {m}, {b}, 0x{h:016x}),"))
        .collect();
    let pinned: Vec<(String, usize, usize, u64)> = PINNED
        .iter()
        .map(|&(c, m, b, h)| (c.to_owned(), m, b, h))
        .collect();
    assert_eq!(pinned, now, "now:\n{}", listing.join("\n"));
}

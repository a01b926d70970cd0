//! Criterion benches of the Guandan legal-action list in the worst case:
//! the engine's `legal_actions`, the observation that carries it (`actionList`), and the
//! list's JSON text as the referee writes it into `act` messages (`guandan::json`).
//!
//! Two hands, each leading: the hand-built worst case (16,897 plays: six ranks of four suits
//! and both wilds, found by `examples/guandan_worst_hand.rs`) and the longest list of 2,000
//! seeded deals (`croupier bench guandan-actions`: seed 612, seat 3, level 3, 5,778 plays).
//! `cargo bench -p croupier-games --bench guandan_actions`; the whole referee path (the `act`
//! message included) is `croupier bench guandan-actions`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use croupier_games::guandan::cards::{deal, parse_cards, Card};
use croupier_games::guandan::{json, Guandan, Settings};
use croupier_games::{Game, GameRng, Seat, Stream, Viewer};

const WORST_HAND: &str =
    "S3 H3 C3 D3 S4 H4 C4 D4 S5 H5 C5 D5 S6 H6 C6 D6 S7 H7 C7 D7 S8 H8 C8 D8 D9 H2 H2";

/// Seat 0 leads with `hand` at `level`.
fn table(hand: Vec<Card>, level: u8) -> Guandan {
    let mut hands = vec![hand];
    hands.extend(["SA", "S3 S4", "S5 S6"].map(|h| parse_cards(h).expect("cards")));
    Guandan::from_hands(Settings::platform(), hands, level, Seat(0))
}

fn hands() -> Vec<(&'static str, Guandan)> {
    let mut rng = GameRng::derive(612, Stream::Testing);
    let seeded = deal(&mut rng, 3).swap_remove(3);
    vec![
        (
            "hand-built",
            table(parse_cards(WORST_HAND).expect("cards"), 2),
        ),
        ("seed612", table(seeded, 3)),
    ]
}

fn lists(c: &mut Criterion) {
    for (name, game) in hands() {
        let seat = Seat(0);
        let legal = game.legal_actions(seat);
        let mut group = c.benchmark_group(format!("guandan_actions/{name}/{}", legal.len()));
        group.bench_function("legal_actions", |b| {
            b.iter(|| black_box(game.legal_actions(black_box(seat))));
        });
        group.bench_function("observe", |b| {
            b.iter(|| black_box(game.observe(black_box(Viewer::Seat(seat)))));
        });
        group.bench_function("json", |b| {
            b.iter(|| black_box(json::actions_text(black_box(&legal))));
        });
        group.finish();
    }
}

criterion_group!(benches, lists);
criterion_main!(benches);

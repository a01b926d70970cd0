//! Searches for Guandan hands with the longest legal-action list when leading: a hill climb
//! over 27-card hands drawn from the two decks (swap one card for another while the list
//! grows), from several seeded starts. It found the hand-built worst cases that
//! `croupier bench guandan-actions`, the criterion bench and the golden test use.
//!
//! `cargo run --release -p croupier-games --example guandan_worst_hand -- [starts] [steps] [level]`

use croupier_games::guandan::cards::{full_deck, sort_hand, Card};
use croupier_games::guandan::{Guandan, Settings};
use croupier_games::{Game, GameRng, Seat, Stream};

fn actions(hand: &[Card], level: u8) -> usize {
    let game = Guandan::from_hands(
        Settings::platform(),
        vec![hand.to_vec(), vec![], vec![], vec![]],
        level,
        Seat(0),
    );
    game.legal_actions(Seat(0)).len()
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let starts = args.first().copied().unwrap_or(8);
    let steps = args.get(1).copied().unwrap_or(3000);
    let level = args.get(2).copied().map_or(2, |l| l as u8);
    let mut best_overall = (0, Vec::new());
    for start in 0..starts {
        let mut rng = GameRng::derive(start, Stream::Testing);
        let mut deck = full_deck();
        rng.shuffle(&mut deck);
        let (mut hand, mut rest) = (deck[..27].to_vec(), deck[27..].to_vec());
        let mut best = actions(&hand, level);
        for _ in 0..steps {
            let (i, j) = (rng.below(hand.len()), rng.below(rest.len()));
            std::mem::swap(&mut hand[i], &mut rest[j]);
            let n = actions(&hand, level);
            if n >= best {
                best = n;
            } else {
                std::mem::swap(&mut hand[i], &mut rest[j]);
            }
        }
        sort_hand(&mut hand, level);
        let text: Vec<String> = hand.iter().map(ToString::to_string).collect();
        println!("start {start}: {best} actions: {}", text.join(" "));
        if best > best_overall.0 {
            best_overall = (best, text);
        }
    }
    println!(
        "best at level {level}: {} actions: {}",
        best_overall.0,
        best_overall.1.join(" ")
    );
}

//! How long a random No Thanks game takes, typed and through the dynamic layer.
//!
//! `cargo run --release -p croupier-games --example nothanks_speed [games]`

use std::time::Instant;

use croupier_games::bots::{builtin, play_out, DynBot};
use croupier_games::nothanks::{NoThanks, Settings};
use croupier_games::{new_game, Game, GameId, GameRng, Stream, Turn};
use serde_json::Value;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);

    let start = Instant::now();
    let mut moves = 0_u64;
    for seed in 0..games {
        let Ok(mut game) = NoThanks::new(Settings::boardcoder(), seed) else {
            return;
        };
        let mut rng = GameRng::derive(seed, Stream::Testing);
        while let Turn::Seat(seat) = game.turn() {
            let legal = game.legal_actions(seat);
            let Some(&action) = rng.choose(&legal) else {
                return;
            };
            if game.apply(seat, action).is_err() {
                return;
            }
            moves += 1;
        }
    }
    let typed = start.elapsed();

    let start = Instant::now();
    for seed in 0..games {
        let Ok(mut game) = new_game(GameId::NO_THANKS, "boardcoder", &Value::Null, seed) else {
            return;
        };
        let mut bots: Vec<Box<dyn DynBot>> = (0..3)
            .filter_map(|_| builtin(GameId::NO_THANKS, "random"))
            .collect();
        if play_out(game.as_mut(), &mut bots, seed).is_err() {
            return;
        }
    }
    let dynamic = start.elapsed();

    let per_game = |d: std::time::Duration| d.as_secs_f64() * 1e6 / games as f64;
    println!(
        "{games} random boardcoder games, {:.1} moves each: typed {:.2} µs/game, \
         dynamic (JSON actions, random bot) {:.2} µs/game",
        moves as f64 / games as f64,
        per_game(typed),
        per_game(dynamic),
    );
}

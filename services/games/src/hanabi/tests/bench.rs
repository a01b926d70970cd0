//! Measurements, not checks (ignored by default): engine speed with random play and the
//! convention bot's self-play score. Run in release:
//! `cargo test --release -p croupier-games hanabi::tests::bench -- --ignored --nocapture`.

use std::time::Instant;

use super::*;
use crate::bots::{builtin, play_out};
use crate::rng::{GameRng, Stream};
use crate::{GameId, Turn};

/// Random games per second at `players` (the legal-move list, a uniform choice, apply).
fn random_games_per_second(players: usize, games: u64) -> (f64, f64) {
    let start = Instant::now();
    let mut moves = 0_u64;
    for seed in 0..games {
        let mut game = standard(players, seed);
        let mut rng = GameRng::derive(seed, Stream::Testing);
        while let Turn::Seat(seat) = game.turn() {
            let action = *rng.choose(&game.legal_actions(seat)).unwrap();
            game.apply(seat, action).unwrap();
            moves += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    (games as f64 / secs, moves as f64 / games as f64)
}

/// Mean and 95% confidence half-width of the convention bot's self-play over seeds
/// `0..games` (4 players, every seat the built-in `convention`).
pub(crate) fn convention_self_play(rules: &str, games: u64) -> (f64, f64) {
    let scores: Vec<f64> = (0..games)
        .map(|seed| {
            let mut game =
                crate::new_game(GameId::HANABI, rules, &serde_json::Value::Null, seed).unwrap();
            let mut bots: Vec<_> = (0..4)
                .map(|_| builtin(GameId::HANABI, "convention").unwrap())
                .collect();
            let outcome = play_out(game.as_mut(), &mut bots, seed).unwrap();
            outcome.seats[0].score as f64
        })
        .collect();
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

#[test]
#[ignore = "a measurement: run with --ignored --nocapture, in release"]
fn measure_engine_speed_and_convention_self_play() {
    for players in [2, 5] {
        let (per_sec, moves) = random_games_per_second(players, 100_000);
        println!("random play, {players} players: {per_sec:.0} games/s ({moves:.1} moves a game)");
    }
    for rules in ["standard", "rainbow"] {
        let t0 = Instant::now();
        let (mean, ci) = convention_self_play(rules, 1000);
        println!(
            "convention self-play, 4 players, {rules}, seeds 0..1000: mean {mean:.2} ± {ci:.2} (95% CI), {:.1} s",
            t0.elapsed().as_secs_f64()
        );
    }
}

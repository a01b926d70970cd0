//! `croupier bench engine`: No Thanks games per second in the rule engine alone, random play,
//! typed (the `Game` trait) and through the dynamic layer (`DynGame` + the built-in `random`
//! bot, actions as JSON, as the referee plays built-in seats), on one thread.

use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use croupier_games::bots::builtin;
use croupier_games::nothanks::{NoThanks, Settings};
use croupier_games::{Game, GameId, GameRng, GameSettings, Seat, Stream, Turn};
use serde_json::Value;

/// Games and moves played in `budget` by `one_game(seed) -> moves`.
fn measure(budget: Duration, mut one_game: impl FnMut(u64) -> Result<u64>) -> Result<String> {
    let (t0, mut games, mut moves) = (Instant::now(), 0_u64, 0_u64);
    while t0.elapsed() < budget {
        for _ in 0..50 {
            moves += one_game(games)?;
            games += 1;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    Ok(format!(
        "{:9.0} games/s  {:10.0} moves/s  ({games} games in {secs:.2} s)",
        games as f64 / secs,
        moves as f64 / secs
    ))
}

fn typed(seed: u64) -> Result<u64> {
    let settings = Settings::parse("boardcoder", &Value::Null)?;
    let mut game = NoThanks::new(settings, seed)?;
    let mut rng = GameRng::derive(seed, Stream::Testing);
    let mut moves = 0;
    while let Turn::Seat(seat) = game.turn() {
        let legal = game.legal_actions(seat);
        let action = *rng.choose(&legal).ok_or_else(|| anyhow!("no legal move"))?;
        game.apply(seat, action)?;
        moves += 1;
    }
    game.outcome().ok_or_else(|| anyhow!("no outcome"))?;
    Ok(moves)
}

fn dynamic(seed: u64) -> Result<u64> {
    let mut game = croupier_games::new_game(GameId::NoThanks, "boardcoder", &Value::Null, seed)?;
    let mut bot = builtin(GameId::NoThanks, "random").ok_or_else(|| anyhow!("no random bot"))?;
    let mut rngs: Vec<GameRng> = Seat::all(game.seats())
        .map(|seat| GameRng::derive(seed, Stream::Bot(seat)))
        .collect();
    let mut moves = 0;
    while let Turn::Seat(seat) = game.turn() {
        let rng = &mut rngs[seat.index()];
        let action = bot
            .choose(game.as_ref(), seat, rng)
            .ok_or_else(|| anyhow!("no move"))?;
        game.apply_json(seat, &action)?;
        moves += 1;
    }
    game.outcome().ok_or_else(|| anyhow!("no outcome"))?;
    Ok(moves)
}

pub async fn run(budget: Duration) -> Result<()> {
    let (typed, dynamic) = tokio::task::spawn_blocking(move || {
        Ok::<_, anyhow::Error>((measure(budget, typed)?, measure(budget, dynamic)?))
    })
    .await??;
    println!("engine: No Thanks (boardcoder, 3 players), random play, one thread");
    println!("  typed    {typed}");
    println!("  dynamic  {dynamic}");
    Ok(())
}

//! Criterion benches of one random game, level by level along the path a hosted match takes
//! for built-in seats (issue #17 item 3), so that each layer's cost is the difference of two
//! lines:
//!
//! * `typed`: the engine alone through [`Game`] (typed legal actions, a uniform pick, typed
//!   `apply`, the events dropped);
//! * `dynamic`: the same game through the object-safe layer the referee holds
//!   ([`DynGame`]): the built-in `random` bot's pick as JSON, `apply_json` reading it back,
//!   each event written as JSON text and as its log line;
//! * `recorder`: the same game through the [`Recorder`], as the referee's table plays a
//!   built-in seat ([`Recorder::play_builtin`]): the bot's pick typed, applied typed, its JSON
//!   text written once for the replay entry, the outcome read after each move; the events are
//!   not written (a replay derives them when it is read, `Replay::derive_events`).
//!
//! What the referee adds per match on top (the table, the adapter's set-up, the result) is
//! `cargo bench -p croupier-referee --bench builtin_match`; the whole-run rates against
//! OpenSpiel are `croupier bench engine`. Run: `cargo bench -p croupier-games --bench
//! referee_path`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use croupier_games::bots::builtin;
use croupier_games::bridge::Bridge;
use croupier_games::hanabi::Hanabi;
use croupier_games::nothanks::NoThanks;
use croupier_games::timed::referee_path_variants;
use croupier_games::{new_game, Game, GameId, GameRng, GameSettings, Recorder, Seat, Stream, Turn};
use serde_json::Value;

/// One game of `G` with uniform random picks from the typed legal list: moves played.
fn typed<G: Game>(rules: &str, settings: &Value, seed: u64) -> u64 {
    let settings = G::Settings::parse(rules, settings).expect("settings");
    let mut game = G::new(settings, seed).expect("game");
    let mut rng = GameRng::derive(seed, Stream::Testing);
    let mut moves = 0;
    while let Turn::Seat(seat) = game.turn() {
        let legal = game.legal_actions(seat);
        let action = rng.choose(&legal).expect("a legal action").clone();
        black_box(game.apply(seat, action).expect("legal"));
        moves += 1;
    }
    moves
}

/// The seats' random streams, as the referee derives them.
fn rngs(seats: usize, seed: u64) -> Vec<GameRng> {
    Seat::all(seats)
        .map(|seat| GameRng::derive(seed, Stream::Bot(seat)))
        .collect()
}

/// One game through the dynamic layer, every seat the built-in `random` bot.
fn dynamic(game_id: GameId, rules: &str, settings: &Value, seed: u64) -> u64 {
    let mut game = new_game(game_id, rules, settings, seed).expect("game");
    let mut bot = builtin(game_id, "random").expect("random bot");
    let mut rngs = rngs(game.seats(), seed);
    let mut moves = 0;
    while let Turn::Seat(seat) = game.turn() {
        let rng = &mut rngs[seat.index()];
        let action = bot.choose(game.as_ref(), seat, rng).expect("a move");
        black_box(game.apply_json(seat, &action).expect("legal"));
        moves += 1;
    }
    moves
}

/// One game through the recorder, as the referee's table plays built-in seats.
fn recorded(game_id: GameId, rules: &str, settings: &Value, seed: u64) -> u64 {
    let mut recorder = Recorder::new(game_id, rules, settings, seed).expect("game");
    let mut bot = builtin(game_id, "random").expect("random bot");
    let mut rngs = rngs(recorder.game().seats(), seed);
    while let Turn::Seat(seat) = recorder.game().turn() {
        let rng = &mut rngs[seat.index()];
        let played = recorder.play_builtin(seat, bot.as_mut(), rng);
        played.expect("a move").expect("legal");
    }
    black_box(recorder.into_replay()).entries.len() as u64
}

fn typed_of(game: GameId, rules: &str, settings: &Value, seed: u64) -> u64 {
    if game == GameId::HANABI {
        typed::<Hanabi>(rules, settings, seed)
    } else if game == GameId::BRIDGE {
        typed::<Bridge>(rules, settings, seed)
    } else {
        typed::<NoThanks>(rules, settings, seed)
    }
}

fn games(c: &mut Criterion) {
    for v in referee_path_variants() {
        let (game, rules, settings) = (v.game, v.rules, &v.settings);
        let mut group = c.benchmark_group(format!("referee_path/{}", v.label));
        // A new seed per iteration (a different game each time, as in `croupier bench engine`).
        let mut seed = 0_u64;
        let mut next = move || {
            seed += 1;
            seed
        };
        group.bench_function("typed", |b| {
            b.iter(|| typed_of(game, rules, settings, next()));
        });
        group.bench_function("dynamic", |b| {
            b.iter(|| dynamic(game, rules, settings, next()));
        });
        group.bench_function("recorder", |b| {
            b.iter(|| recorded(game, rules, settings, next()));
        });
        group.finish();
    }
}

criterion_group!(benches, games);
criterion_main!(benches);

//! Criterion bench of whole one-game matches of built-in `random` seats through
//! [`croupier_referee::play`] (issue #17 item 3): the table, the protocol adapter's set-up and
//! loop, the replay recorder and the result, without processes or a database. Set beside
//! `cargo bench -p croupier-games --bench referee_path` (the same games through the recorder
//! alone), the difference is what the referee adds per match; `croupier bench engine` prints
//! the rates against OpenSpiel's. Run: `cargo bench -p croupier-referee --bench builtin_match`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use croupier_games::new_game;
use croupier_games::timed::referee_path_variants;
use croupier_referee::{MatchSpec, SeatSpec};
use croupier_sandbox::{Config, Mode, Sandbox};

fn matches(c: &mut Criterion) {
    // A worker thread, as in the worker: the adapter's spawned tasks (a listener's accept
    // loop) run and end there; on a current-thread runtime a match that never waits would
    // leave them unpolled, each holding its listener open.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    // No seat starts a process: plain processes are enough and need no root.
    let sandbox = runtime
        .block_on(Sandbox::new(Config {
            mode: Mode::None,
            ..Config::default()
        }))
        .expect("a sandbox");
    for v in referee_path_variants() {
        let (game, rules, settings) = (v.game, v.rules, &v.settings);
        let seats = new_game(game, rules, settings, 0).expect("a game").seats();
        let mut seed = 0_u64;
        c.bench_function(&format!("builtin_match/{}", v.label), |b| {
            b.iter(|| {
                seed += 1;
                let mut spec = MatchSpec::new(game, seed, vec![SeatSpec::builtin("random"); seats]);
                spec.rules = rules.to_owned();
                spec.settings = settings.clone();
                spec.games = 1;
                black_box(runtime.block_on(croupier_referee::play(&sandbox, spec)))
                    .expect("a match")
            });
        });
    }
}

criterion_group!(benches, matches);
criterion_main!(benches);

//! How strong the built-in bots are, in IMPs over seeded duplicate deals (both tables of a set:
//! the same cards with the pairs' seats swapped), and how fast the engine deals and plays.
//! `cargo test --release -p croupier-games bridge::tests::strength -- --nocapture --include-ignored`
//! prints the numbers.

use std::time::Instant;

use super::*;
use crate::bots::{Bot, BridgeHeuristic, BridgeRobot};
use crate::{Game, GameRng, Stream, Turn, Viewer};

/// IMPs for a net score difference, from the reference `data/bridge/imp_table.csv` (WBF Law 78B).
fn imps(diff: i64) -> i64 {
    let table = include_str!("../../../data/bridge/imp_table.csv");
    let magnitude = diff.abs();
    let imps = table
        .lines()
        .skip(1)
        .filter_map(|row| {
            let mut f = row.split(',');
            let from: i64 = f.next()?.parse().ok()?;
            let _to = f.next()?;
            let imps: i64 = f.next()?.trim().parse().ok()?;
            (magnitude >= from).then_some(imps)
        })
        .max()
        .unwrap_or(0);
    imps * diff.signum()
}

fn choose(bot: &str, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Option<Action> {
    match bot {
        "heuristic" => BridgeHeuristic.choose(obs, legal, rng),
        "robot" => BridgeRobot.choose(obs, legal, rng),
        _ => rng.choose(legal).copied(),
    }
}

/// N-S's score of `board` dealt from `seed`, `ns` playing N-S and `ew` E-W.
fn ns_score(ns: &str, ew: &str, board: u32, seed: u64) -> i64 {
    let mut game = Bridge::new(Settings::duplicate(board), seed).unwrap();
    let mut rng = GameRng::derive(seed, Stream::Testing);
    while let Turn::Seat(seat) = game.turn() {
        let bot = if seat.0 % 2 == 0 { ns } else { ew };
        let obs = game.observe(Viewer::Seat(seat));
        let legal = game.legal_actions(seat);
        let action = choose(bot, &obs, &legal, &mut rng).unwrap();
        game.apply(seat, action).unwrap();
    }
    game.result().unwrap().ns_score
}

/// Mean IMPs per board of `a` against `b` over `sets` duplicate sets (boards 1–4 in turn).
fn mean_imps(a: &str, b: &str, sets: u64) -> f64 {
    let total: i64 = (0..sets)
        .map(|seed| {
            let board = (seed % 4) as u32 + 1;
            imps(ns_score(a, b, board, seed) - ns_score(b, a, board, seed))
        })
        .sum();
    total as f64 / sets as f64
}

#[test]
fn the_imp_table_is_read_as_law_78b() {
    assert_eq!(
        [imps(0), imps(10), imps(20), imps(-50), imps(620)],
        [0, 0, 1, -2, 12]
    );
    assert_eq!([imps(4000), imps(-7600)], [24, -24]);
}

#[test]
fn the_heuristic_beats_the_robot_and_the_robot_beats_random_play_in_imps() {
    let heuristic = mean_imps("heuristic", "robot", 400);
    let robot = mean_imps("robot", "random", 200);
    println!("IMPs per board: heuristic vs robot {heuristic:+.2}, robot vs random {robot:+.2}");
    assert!(
        heuristic > 2.0,
        "heuristic vs robot: {heuristic:+.2} IMPs/board"
    );
    assert!(robot > 2.0, "robot vs random: {robot:+.2} IMPs/board");
}

#[test]
#[ignore = "a measurement; run with --release --include-ignored --nocapture"]
fn deals_per_second() {
    for bot in ["random", "robot", "heuristic"] {
        let deals = 20_000;
        let start = Instant::now();
        for seed in 0..deals {
            ns_score(bot, bot, (seed % 4) as u32 + 1, seed);
        }
        let rate = deals as f64 / start.elapsed().as_secs_f64();
        println!("{bot}: {rate:.0} deals/s (typed engine, all four seats)");
    }
    let sets = 2_000;
    println!(
        "heuristic vs robot over {sets} sets: {:+.2} IMPs/board",
        mean_imps("heuristic", "robot", sets)
    );
}

//! The built-in Bridge bots: the robot and the heuristic play legal, reproducible deals, and the
//! heuristic scores better than the robot on the same deals with the seats swapped.

use croupier_games::bots::{builtin, play_out, DynBot};
use croupier_games::{new_game, GameId};
use serde_json::json;

/// N-S's score of `board` dealt from `seed` with bot `ns` in N and S and `ew` in E and W.
fn ns_score(ns: &str, ew: &str, board: u32, seed: u64) -> i64 {
    let mut game = new_game(
        GameId::BRIDGE,
        "duplicate",
        &json!({ "board": board }),
        seed,
    )
    .unwrap();
    let mut bots: Vec<Box<dyn DynBot>> = (0..4)
        .map(|s| builtin(GameId::BRIDGE, if s % 2 == 0 { ns } else { ew }).unwrap())
        .collect();
    let outcome = play_out(game.as_mut(), &mut bots, seed).unwrap();
    assert_eq!(outcome.check(4), Ok(()));
    outcome.seats[0].score
}

#[test]
fn the_heuristic_beats_the_robot_on_average_over_duplicate_deals() {
    let (mut net, mut better, mut worse) = (0_i64, 0, 0);
    let deals = 200;
    for seed in 0..deals {
        let board = (seed % 16) as u32 + 1;
        // The same cards twice: heuristic N-S against robot E-W, then the seats swapped.
        let diff = ns_score("heuristic", "robot", board, seed)
            - ns_score("robot", "heuristic", board, seed);
        net += diff;
        better += usize::from(diff > 0);
        worse += usize::from(diff < 0);
    }
    let mean = net as f64 / deals as f64;
    println!("heuristic vs robot: mean {mean:.0} points per board, {better} better, {worse} worse");
    assert!(mean > 100.0, "mean {mean}");
    assert!(better > 2 * worse, "{better} better, {worse} worse");
}

#[test]
fn bot_deals_replay_exactly_from_their_seed() {
    for seed in 0..10 {
        assert_eq!(
            ns_score("heuristic", "random", 1, seed),
            ns_score("heuristic", "random", 1, seed)
        );
        assert_eq!(
            ns_score("robot", "heuristic", 2, seed),
            ns_score("robot", "heuristic", 2, seed)
        );
    }
}

#[test]
fn every_bot_pairing_completes_deals() {
    let names = croupier_games::bots::names(GameId::BRIDGE);
    assert_eq!(names, ["heuristic", "robot", "random"]);
    for &ns in &names {
        for &ew in &names {
            for seed in 0..5 {
                ns_score(ns, ew, 3, seed);
            }
        }
    }
}

/// Many deals of each bot against itself finish with a consistent outcome (checked inside
/// `ns_score`), and the heuristic pair scores differently from the random pair on some deal.
/// Deals per second are `croupier bench engines`' business, not a test's.
#[test]
fn many_deals_finish_for_each_bot() {
    let mut scores = Vec::new();
    for bot in ["random", "heuristic"] {
        let per_bot: Vec<i64> = (0..200).map(|seed| ns_score(bot, bot, 1, seed)).collect();
        assert_eq!(per_bot.len(), 200);
        scores.push(per_bot);
    }
    assert_ne!(scores[0], scores[1]);
}

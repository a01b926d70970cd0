//! `croupier bench guandan-actions`: the Guandan legal-action list in the worst case, timed
//! through the path a hosted match takes for every `act`: the seat's observation (whose
//! `actionList` is the engine's `legal_actions`) and the referee's `act` message text
//! ([`croupier_referee::guandan::act_message`]), against the goal of 100 µs.
//!
//! Two hands are measured, each leading (a lead lists every play; a follower's list is a
//! subset): the longest list over `--deals` seeded deals (each seat of each deal, the level
//! cycling 2..=A), and the hand-built worst case (six ranks of four suits and both wilds,
//! found by `examples/guandan_worst_hand.rs`). Each is timed `--runs` times after three
//! untimed runs: median and max, the engine's list alone, and the ratio of the median to the
//! goal.

use std::time::{Duration, Instant};

use anyhow::{ensure, Result};
use croupier_games::guandan::cards::{deal, parse_cards, Card};
use croupier_games::guandan::{Guandan, Settings};
use croupier_games::{Game, GameRng, Seat, Stream, Viewer};
use croupier_referee::guandan::act_message;

/// Untimed runs before each measurement.
const WARM_UP: usize = 3;

/// The goal for one list, in microseconds.
const GOAL_US: f64 = 100.0;

/// The longest list found by the hill climb: 16,897 plays at level 2.
pub const WORST_HAND: &str =
    "S3 H3 C3 D3 S4 H4 C4 D4 S5 H5 C5 D5 S6 H6 C6 D6 S7 H7 C7 D7 S8 H8 C8 D8 D9 H2 H2";

/// A table where `hand` is seat 0's and seat 0 leads at `level`.
fn table(hand: &[Card], level: u8) -> Guandan {
    let others = ["SA", "S3 S4", "S5 S6"].map(|h| parse_cards(h).unwrap_or_default());
    let mut hands = vec![hand.to_vec()];
    hands.extend(others);
    Guandan::from_hands(Settings::platform(), hands, level, Seat(0))
}

/// The hand with the longest lead list over `deals` seeded deals: (seed, seat, level, hand, actions).
fn worst_seeded(deals: u64) -> (u64, usize, u8, Vec<Card>, usize) {
    let mut worst = (0, 0, 2, Vec::new(), 0);
    for seed in 0..deals {
        let level = 2 + u8::try_from(seed % 13).unwrap_or(0);
        let mut rng = GameRng::derive(seed, Stream::Testing);
        for (seat, hand) in deal(&mut rng, level).into_iter().enumerate() {
            let n = table(&hand, level).legal_actions(Seat(0)).len();
            if n > worst.4 {
                worst = (seed, seat, level, hand, n);
            }
        }
    }
    worst
}

/// `runs` timings of `f`, sorted, after a few untimed runs (the first touches fresh memory).
fn timed(runs: usize, mut f: impl FnMut() -> usize) -> Vec<Duration> {
    for _ in 0..WARM_UP {
        std::hint::black_box(f());
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t0 = Instant::now();
            std::hint::black_box(f());
            t0.elapsed()
        })
        .collect();
    times.sort_unstable();
    times
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// One hand's line: actions, message size, the whole path's median and max, the list alone.
/// One hand's line, and its median in µs.
fn measure(label: &str, game: &Guandan, runs: usize) -> Result<(String, f64)> {
    let seat = Seat(0);
    let obs = game.observe(Viewer::Seat(seat));
    let actions = obs.action_list.len();
    ensure!(actions > 0, "{label}: no legal action");
    let bytes = act_message(&obs).len();
    let path = timed(runs, || {
        act_message(&game.observe(Viewer::Seat(seat))).len()
    });
    let list = timed(runs, || game.legal_actions(seat).len());
    let median = us(path[path.len() / 2]);
    let max = us(path[path.len() - 1]);
    let line = format!(
        "  {label:<34} {actions:>6} actions  {:>7.1} KB act  median {median:>8.1} µs ({:>5.1} ns/action)  \
         max {max:>8.1} µs  list alone {:>7.1} µs  {:>6.2}× the {GOAL_US} µs goal",
        bytes as f64 / 1e3,
        median * 1e3 / actions as f64,
        us(list[list.len() / 2]),
        median / GOAL_US,
    );
    Ok((line, median))
}

pub async fn run(deals: u64, runs: usize, goals: &mut super::Goals) -> Result<()> {
    println!(
        "guandan-actions: a seat's observation + the referee's act message, leading, {runs} runs each; \
         the goal is {GOAL_US} µs per list"
    );
    let (lines, worst) = tokio::task::spawn_blocking(move || -> Result<(Vec<String>, String)> {
        let t0 = Instant::now();
        let (seed, seat, level, hand, _) = worst_seeded(deals);
        let searched = t0.elapsed();
        let label = format!("worst of {deals} deals (seed {seed} seat {seat} level {level})");
        let (seeded, median) = measure(&label, &table(&hand, level), runs)?;
        let worst = format!(
            "the Guandan legal list, the worst of {deals} dealt hands ({} actions): median {median:.1} µs = {:.2}x the {GOAL_US} µs goal (aim: 50 µs)",
            table(&hand, level).observe(Viewer::Seat(Seat(0))).action_list.len(),
            median / GOAL_US,
        );
        let (built, _) = measure(
            "hand-built worst case (level 2)",
            &table(&parse_cards(WORST_HAND).map_err(anyhow::Error::msg)?, 2),
            runs,
        )?;
        let note = format!(
            "  ({} deals searched in {:.2} s: {:.1} µs per hand for the list alone)",
            deals,
            searched.as_secs_f64(),
            us(searched) / (deals as f64 * 4.0).max(1.0)
        );
        Ok((vec![seeded, built, note], worst))
    })
    .await??;
    goals.add(worst);
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

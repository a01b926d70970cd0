//! The contest benchmark: how many matches each format needs to recover a field's true order,
//! by simulation (no match is played). For N = 50, 200 and 1,000 entrants with strengths drawn
//! from the skill model of `croupier_league::sim`, each format is played out and the fitted
//! ranking compared with the truth: Kendall τ over the whole field and how many of the true top
//! 10 are in the fitted top 10. Full round-robins are played where they fit in memory.
//!
//! `cargo test --release -p croupier-league --test contest_bench -- --ignored --nocapture`
//! (`CONTEST_BENCH_N=50,200` to choose the field sizes, `CONTEST_BENCH_GAME=splendor` one
//! game, `CONTEST_BENCH_PER_ENTRANT=1000` the adaptive budget's cap per entrant,
//! `CONTEST_BENCH_SWISS=60,120` more Swiss rows). The figures are in
//! `docs/performance.md`; the goal is the top 10 of 200 found with τ ≥ 0.9 using at most 5%
//! of a full round-robin's matches.

use std::time::Instant;

use croupier_games::GameId;
use croupier_league::sim::{continue_plan, field, kendall_tau, play_plan, simulate, top_k_found};
use croupier_league::{
    fitted, match_count, schedule, Decide, Format, MatchResult, Plan, ScheduleSpec,
};

/// The spread of the simulated field's log-strengths (see `docs/performance.md`).
const SPREAD: f64 = 1.0;
/// Round-robins above this many matches are not simulated.
const MAX_SIMULATED: u128 = 2_000_000;

struct Row {
    format: String,
    matches: usize,
    rounds: u32,
    tau: f64,
    top10: usize,
    decided: bool,
    seconds: f64,
}

fn score(truth: &[f64], results: &[MatchResult<usize>], game: GameId) -> (f64, usize) {
    let ranking = fitted(game, results);
    let mut estimate = vec![f64::NEG_INFINITY; truth.len()];
    for row in &ranking.rows {
        estimate[row.entrant] = row.strength;
    }
    (
        kendall_tau(truth, &estimate),
        top_k_found(truth, &estimate, 10),
    )
}

/// Prints `row` at once (a long run shows its progress) and keeps it.
fn report(game: GameId, n: usize, full: u128, rows: &mut Vec<Row>, row: Row) {
    let share = 100.0 * row.matches as f64 / full as f64;
    println!(
        "| {} | {n} | {} | {} | {share:.3} | {} | {:.3} | {} | {} | {:.1} |",
        game.display_name(),
        row.format,
        row.matches,
        row.rounds,
        row.tau,
        row.top10,
        if row.decided { "yes" } else { "no" },
        row.seconds
    );
    rows.push(row);
}

fn run(game: GameId, format: Format, n: usize) -> Vec<Row> {
    let truth = field(n, SPREAD, 2026 + n as u64);
    let rules = game.rule_sets().first().copied().unwrap_or_default();
    let spec = ScheduleSpec::new(rules, 1, 7);
    let full = match_count(format, n, 1);
    let mut rows = Vec::new();
    if full <= MAX_SIMULATED && std::env::var("CONTEST_BENCH_SWISS_ONLY").is_err() {
        let clock = Instant::now();
        let entrants: Vec<usize> = (0..n).collect();
        let planned = schedule(game, &spec, &entrants).expect("a round-robin");
        let results = simulate(game, &planned, |&e| truth[e], 1);
        let (tau, top10) = score(&truth, &results, game);
        report(
            game,
            n,
            full,
            &mut rows,
            Row {
                format: "round-robin".into(),
                matches: results.len(),
                rounds: 1,
                tau,
                top10,
                decided: true,
                seconds: clock.elapsed().as_secs_f64(),
            },
        );
    }
    // 5% of a round-robin, and at most `CONTEST_BENCH_PER_ENTRANT` (default 100) matches per
    // entrant (5% of 1,000 entrants' triples would be 25 million).
    let per_entrant: u128 = std::env::var("CONTEST_BENCH_PER_ENTRANT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let budget = u32::try_from((full / 20).min(per_entrant * n as u128)).unwrap_or(u32::MAX);
    let mut plans = vec![
        (
            "swiss (default rounds)".to_owned(),
            Plan::Swiss { rounds: None },
        ),
        (
            "adaptive, top 10".to_owned(),
            Plan::Adaptive {
                budget,
                decide: Decide::Top(10),
            },
        ),
    ];
    if let Ok(extra) = std::env::var("CONTEST_BENCH_SWISS") {
        for rounds in extra.split(',').filter_map(|s| s.trim().parse().ok()) {
            plans.push((
                format!("swiss, {rounds} rounds"),
                Plan::Swiss {
                    rounds: Some(rounds),
                },
            ));
        }
    }
    if std::env::var("CONTEST_BENCH_SWISS_ONLY").is_ok() || n > 500 {
        // Large fields: Swiss alone, and Swiss then adaptive (below).
        plans.retain(|(name, _)| name.starts_with("swiss"));
    }
    let staged = std::env::var("CONTEST_BENCH_SWISS_ONLY").is_err();
    for (name, plan) in plans {
        let clock = Instant::now();
        let played = play_plan(game, &spec, &plan, &truth, 1).expect("played");
        let (tau, top10) = score(&truth, &played.results, game);
        report(
            game,
            n,
            full,
            &mut rows,
            Row {
                format: name,
                matches: played.results.len(),
                rounds: played.rounds,
                tau,
                top10,
                decided: played.progress.decided,
                seconds: clock.elapsed().as_secs_f64(),
            },
        );
    }
    if staged {
        // Stages: the default Swiss rounds, then adaptive rounds for the top 10 on the same
        // results, within the same budget.
        let clock = Instant::now();
        let swiss =
            play_plan(game, &spec, &Plan::Swiss { rounds: None }, &truth, 1).expect("swiss");
        let top = Plan::Adaptive {
            budget,
            decide: Decide::Top(10),
        };
        let played = continue_plan(game, &spec, &top, &truth, 1, swiss.results, swiss.rounds)
            .expect("adaptive");
        let (tau, top10) = score(&truth, &played.results, game);
        report(
            game,
            n,
            full,
            &mut rows,
            Row {
                format: "swiss, then adaptive top 10".into(),
                matches: played.results.len(),
                rounds: played.rounds,
                tau,
                top10,
                decided: played.progress.decided,
                seconds: clock.elapsed().as_secs_f64(),
            },
        );
    }
    rows
}

#[test]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
fn contest_formats_recover_the_true_order() {
    let sizes: Vec<usize> = std::env::var("CONTEST_BENCH_N")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![50, 200, 1000]);
    println!("| game | N | format | matches | % of round-robin | rounds | Kendall τ | true top 10 found | decided | seconds |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut goal = None;
    let only = std::env::var("CONTEST_BENCH_GAME").ok();
    let games = [
        (GameId::SPLENDOR, Format::Triples),
        (GameId::GUANDAN, Format::TeamPairs),
    ];
    for (game, format) in games
        .into_iter()
        .filter(|(g, _)| only.as_deref().is_none_or(|o| o == g.as_str()))
    {
        for &n in &sizes {
            let full = match_count(format, n, 1) as f64;
            for row in run(game, format, n) {
                let share = 100.0 * row.matches as f64 / full;
                if game == GameId::SPLENDOR && n == 200 && row.format.starts_with("swiss, then") {
                    goal = Some((share, row.tau, row.top10));
                }
            }
        }
    }
    if let Some((share, tau, top10)) = goal {
        println!("goal (Splendor, 200 entrants, Swiss then adaptive top 10): {share:.3}% of a round-robin, τ {tau:.3}, {top10} of the top 10");
        assert!(
            share <= 5.0 && tau >= 0.9 && top10 == 10,
            "the goal is missed"
        );
    }
}

//! `croupier bench python`: per-move Python bots, cold against warm, in one run. Whole
//! matches of the Python starter kits through the referee and the real sandbox — Splendor
//! (three kit seats) and Bridge (four, one deal of four boards each) — played
//! `--python-matches` times each way, `--workers` at a time, cold and warm batches in turn:
//! every move a new `python3` (cold, as with `MatchLimits::warm_python` off or a bot that opts
//! out) or forked from the seat's warm Python. Prints the bots' CPU per move (the seats' CPU
//! over their moves), all the sandboxes' CPU per move and matches per minute side by side;
//! then the same CPU figures for a bot that imports numpy (the Splendor kit with `import
//! numpy` at its top).

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use croupier_games::GameId;
use croupier_referee::{MatchResult, MatchSpec, SeatSpec};
use croupier_sandbox::{EndState, Sandbox};
use futures_util::stream::{self, StreamExt};

const SPLENDOR_KIT: &str = include_str!("../../../../kits/splendor/python/bot.py");
const BRIDGE_KIT: &str = include_str!("../../../../kits/bridge/python/bot.py");

/// One kind of match measured both ways.
struct Case {
    label: &'static str,
    game: GameId,
    seats: usize,
    source: String,
    /// Matches per minute are printed (and their goal) for this case.
    rate: bool,
    goal_ms: f64,
}

/// What `matches` matches of one case added up to, one way.
#[derive(Default)]
struct Tally {
    matches: usize,
    wall: Duration,
    cpu_ms: u64,
    moves: u64,
    /// The seats' sandboxes' whole CPU (their cgroups): the moves, the zygotes, the warm
    /// Pythons' start and forks, bwrap.
    sandboxes: Duration,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.matches += other.matches;
        self.wall += other.wall;
        self.cpu_ms += other.cpu_ms;
        self.moves += other.moves;
        self.sandboxes += other.sandboxes;
    }

    fn cpu_per_move_ms(&self) -> f64 {
        self.cpu_ms as f64 / self.moves.max(1) as f64
    }

    fn all_in_per_move_ms(&self) -> f64 {
        self.sandboxes.as_secs_f64() * 1e3 / self.moves.max(1) as f64
    }

    fn per_minute(&self) -> f64 {
        self.matches as f64 * 60.0 / self.wall.as_secs_f64().max(1e-9)
    }
}

pub async fn run(
    sandbox: &Sandbox,
    matches: usize,
    workers: usize,
    goals: &mut super::Goals,
) -> Result<()> {
    let cases = [
        Case {
            label: "Splendor, 3 Python kits",
            game: GameId::SPLENDOR,
            seats: 3,
            source: SPLENDOR_KIT.to_owned(),
            rate: true,
            goal_ms: 3.0,
        },
        Case {
            label: "Bridge, 4 Python kits",
            game: GameId::BRIDGE,
            seats: 4,
            source: BRIDGE_KIT.to_owned(),
            rate: true,
            goal_ms: 3.0,
        },
        Case {
            label: "Splendor, a numpy bot x3",
            game: GameId::SPLENDOR,
            seats: 3,
            source: format!("import numpy\n{SPLENDOR_KIT}"),
            rate: false,
            goal_ms: 5.0,
        },
    ];
    println!(
        "python: per-move Python bots, {matches} whole matches each way, {workers} at a time: \
         cold (a new python3 every move) and warm (forked from the seat's warm Python)"
    );
    for case in &cases {
        let dir = tempfile::Builder::new()
            .prefix("croupier-bench-py-")
            .tempdir()?;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))?;
        std::fs::write(dir.path().join("bot.py"), &case.source)?;
        // One warm-up match each way (the page cache, the first sandbox), not counted.
        play_many(sandbox, case, dir.path(), 1, 1, false).await?;
        play_many(sandbox, case, dir.path(), 1, 1, true).await?;
        // Batches of `workers` matches, cold and warm in turn, so that a change in the
        // machine's load hits both alike.
        let (mut cold, mut warm) = (Tally::default(), Tally::default());
        let mut left = matches;
        while left > 0 {
            let batch = left.min(workers);
            cold.add(play_many(sandbox, case, dir.path(), batch, workers, false).await?);
            warm.add(play_many(sandbox, case, dir.path(), batch, workers, true).await?);
            left -= batch;
        }
        let (c, w) = (cold.cpu_per_move_ms(), warm.cpu_per_move_ms());
        println!(
            "  {:<26} CPU per move: cold {c:6.2} ms  warm {w:5.2} ms  = {:5.1}x less (goal: warm <= {} ms)  ({} moves each way)",
            case.label,
            c / w.max(1e-9),
            case.goal_ms,
            warm.moves,
        );
        goals.add(format!(
            "{}: the bot's CPU per move cold {c:.2} ms, warm {w:.2} ms (goal: warm <= {} ms)",
            case.label, case.goal_ms
        ));
        let (c, w) = (cold.all_in_per_move_ms(), warm.all_in_per_move_ms());
        println!(
            "  {:<26} all sandbox CPU per move: cold {c:6.2} ms  warm {w:5.2} ms  = {:5.1}x less",
            "",
            c / w.max(1e-9),
        );
        if case.rate {
            let (c, w) = (cold.per_minute(), warm.per_minute());
            println!(
                "  {:<26} matches/min:  cold {c:6.1}     warm {w:6.1}     = {:5.1}x more (goal: >= 5x)",
                "",
                w / c.max(1e-9),
            );
            goals.add(format!(
                "{}: matches per minute cold {c:.1}, warm {w:.1} = {:.2}x (goal: >= 5x)",
                case.label,
                w / c.max(1e-9)
            ));
        }
    }
    println!(
        "  (CPU per move: the bots' own CPU as the sandbox reports it per move; all sandbox CPU: \
         the seats' cgroups, with the zygotes, bwrap, the warm Pythons' start and their forks)"
    );
    Ok(())
}

/// Plays `matches` matches of `case` (`workers` at once), warm or cold, and adds them up.
async fn play_many(
    sandbox: &Sandbox,
    case: &Case,
    bot_dir: &std::path::Path,
    matches: usize,
    workers: usize,
    warm: bool,
) -> Result<Tally> {
    let t0 = Instant::now();
    let split = croupier_sandbox::cpu_split();
    let results: Vec<Result<MatchResult>> = stream::iter(0..matches)
        .map(|i| {
            let seats = (0..case.seats)
                .map(|s| {
                    SeatSpec::program(
                        format!("kit{s}"),
                        bot_dir,
                        ["/usr/bin/python3", "/bot/bot.py"],
                    )
                })
                .collect();
            let mut spec = MatchSpec::new(case.game, 1000 + i as u64, seats);
            spec.limits.warm_python = warm;
            let sandbox = sandbox.clone();
            async move {
                croupier_referee::play(&sandbox, spec)
                    .await
                    .map_err(|e| anyhow::anyhow!("{e}"))
            }
        })
        .buffer_unordered(workers)
        .collect()
        .await;
    let spent = croupier_sandbox::cpu_split().since(&split);
    let mut tally = Tally {
        matches,
        wall: t0.elapsed(),
        sandboxes: spent.bots + spent.sandboxes,
        ..Tally::default()
    };
    for result in results {
        let result = result?;
        for seat in &result.seats {
            if seat.end_state != EndState::Ok || !seat.faults.is_empty() {
                bail!(
                    "{}: seat {} ended {:?} ({}): {}",
                    case.label,
                    seat.seat.index(),
                    seat.end_state,
                    seat.detail,
                    seat.stderr_tail
                );
            }
            tally.cpu_ms += seat.cpu_ms;
            tally.moves += u64::from(seat.moves);
        }
    }
    Ok(tally)
}

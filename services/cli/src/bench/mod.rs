//! `croupier bench`: the platform's performance numbers, measured on this machine.
//!
//! * `spawn`: one per-move call of a tiny C echo program three ways — a plain spawn, a seat's
//!   move ([`MoveRunner`](croupier_sandbox::MoveRunner): the seat's zygote forks it in the
//!   seat's sandbox, as matches run per-move bots) and a sandbox per call
//!   ([`Sandbox::run`](croupier_sandbox::Sandbox::run)): median, p90, min and mean of `--runs`
//!   each (default 200), interleaved so load changes hit all alike, and each sandboxed median as
//!   a multiple of the plain one. Needs gcc.
//! * `engine`: No Thanks games per second in the rule engine alone, random play, for
//!   `--seconds` each: *typed* (the `Game` trait, actions as values) and *dynamic* (`DynGame`
//!   and the built-in `random` bot through JSON, as the referee and league see it).
//! * `hosted`: matches per minute through the whole hosted pipeline. Against a scratch
//!   database (created on the `DATABASE_URL` server and dropped afterwards; without
//!   `DATABASE_URL`, a private PostgreSQL cluster in a temporary directory), K No Thanks matches
//!   of 3 bots are inserted as jobs and `--workers` worker loops (default 2) run them until the
//!   queue drains. `--bots python` (default) uses three uploaded tiny python bots (compiled and
//!   validated by the workers first, not timed); `--bots builtin` uses built-in bots (no sandbox
//!   processes: the queue, referee and result writes alone). `--entrants N` plays instead the
//!   round-robin of N distinct uploaded bots that an organiser's competition would schedule
//!   (N = 20: 3,420 matches). `--processes` runs the `--workers` loops as that many `croupier
//!   work` processes (one loop each) instead of loops inside the bench.
//! * `guandan-actions`: the Guandan legal-action list in the worst case (the longest of
//!   `--deals` seeded deals, and a hand-built one) through the observation and the referee's
//!   `act` message, `--runs` times: median and max against the 100 µs goal.
//!
//! * `python`: per-move Python bots cold against warm ([`python`]): the Splendor and Bridge
//!   Python kits' CPU per move and matches per minute, whole matches through the referee, both
//!   ways in one run (`--python-matches` each way, `--workers` at a time); and a numpy bot's CPU
//!   per move.
//!
//! * `results`: what recording one match result costs, leaderboard update included, on the
//!   competition `--competition` (a No Thanks one with 3 or more entries, e.g. the one
//!   `scripts/bench/leaderboard` seeds): `--runs` results through the worker's transaction.
//!
//! `croupier bench` runs the first five; `croupier bench spawn engine` only those. Run as root for
//! the real sandbox (`--sandbox none` measures plain processes instead). At the end it prints
//! the speed goals' figures of the run together ([`Goals`]).

mod engine;
mod fleet;
mod guandan_actions;
mod hosted;
mod python;
mod results;
mod spawn;

use std::time::Duration;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};

use crate::isolation::{Isolation, SandboxTuning};
use crate::settings::{parse_flag, DbArgs};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Which {
    Spawn,
    Engine,
    Hosted,
    GuandanActions,
    Python,
    Results,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HostedBots {
    Python,
    Builtin,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// What to measure (default: all but results).
    #[arg(value_enum)]
    pub which: Vec<Which>,
    /// spawn: runs of each kind (at least 200 for stable percentiles); guandan-actions: runs
    /// of each list.
    #[arg(long, default_value = "200")]
    pub runs: String,
    /// engine: seconds per variant.
    #[arg(long, default_value = "3")]
    pub seconds: String,
    /// engine: only this game (default: all five).
    #[arg(long)]
    pub game: Option<String>,
    /// guandan-actions: seeded deals searched for the longest list.
    #[arg(long, default_value = "2000")]
    pub deals: String,
    /// hosted: matches to queue.
    #[arg(long, default_value = "60")]
    pub matches: String,
    /// python: matches of each game each way (cold, warm).
    #[arg(long, default_value = "6")]
    pub python_matches: String,
    /// hosted: worker loops; python: matches at a time.
    #[arg(long, default_value = "2")]
    pub workers: String,
    /// hosted: instead of --matches, a whole round-robin of this many distinct uploaded python
    /// bots, scheduled as an organiser's competition is (20 entrants: 3,420 matches).
    #[arg(long)]
    pub entrants: Option<String>,
    /// hosted: run the --workers loops as that many `croupier work` processes (one loop each),
    /// as a deployment does, instead of loops inside this process.
    #[arg(long)]
    pub processes: bool,
    /// hosted: the bots of every match.
    #[arg(long, value_enum, default_value = "python")]
    pub bots: HostedBots,
    /// results: the competition whose results are recorded.
    #[arg(long)]
    pub competition: Option<uuid::Uuid>,
    /// Bot isolation for spawn and hosted: isolated (needs root) or none.
    #[arg(long, env = "CROUPIER_SANDBOX", default_value = "isolated")]
    pub sandbox: String,
    #[command(flatten)]
    pub tuning: SandboxTuning,
    #[command(flatten)]
    pub db: DbArgs,
}

pub async fn run(args: BenchArgs) -> Result<()> {
    let which = if args.which.is_empty() {
        vec![
            Which::Spawn,
            Which::Engine,
            Which::Hosted,
            Which::GuandanActions,
            Which::Python,
        ]
    } else {
        args.which.clone()
    };
    let runs: usize = parse_flag(&args.runs, "--runs", "a number of runs, at least 10")?;
    let only: Option<croupier_games::GameId> = match &args.game {
        Some(g) => Some(g.trim().parse()?),
        None => None,
    };
    let secs: f64 = parse_flag(&args.seconds, "--seconds", "seconds, e.g. 3")?;
    let matches: usize = parse_flag(&args.matches, "--matches", "a number of matches")?;
    let workers: usize = parse_flag(&args.workers, "--workers", "a number of workers")?;
    let python_matches: usize = parse_flag(
        &args.python_matches,
        "--python-matches",
        "a number of matches",
    )?;
    if !(1..=1000).contains(&python_matches) {
        bail!("--python-matches must be 1 to 1000");
    }
    let deals: u64 = parse_flag(&args.deals, "--deals", "a number of deals")?;
    let entrants: Option<usize> = match &args.entrants {
        Some(n) => Some(parse_flag(n, "--entrants", "a number of bots, 3 to 60")?),
        None => None,
    };
    if entrants.is_some_and(|n| !(3..=60).contains(&n)) {
        bail!("--entrants must be 3 to 60");
    }
    if entrants.is_some() && args.bots != HostedBots::Python {
        bail!("--entrants uploads python bots: it does not go with --bots builtin");
    }
    if runs < 10 || !(0.1..=600.0).contains(&secs) || !(1..=100_000).contains(&matches) {
        bail!("--runs must be at least 10, --seconds 0.1 to 600, --matches 1 to 100000");
    }
    if !(1..=64).contains(&workers) {
        bail!("--workers must be 1 to 64");
    }
    if !(1..=1_000_000).contains(&deals) {
        bail!("--deals must be 1 to 1000000");
    }
    let isolation = Isolation::parse(&args.sandbox, false)?;
    let needs_sandbox = [Which::Spawn, Which::Hosted, Which::Python]
        .iter()
        .any(|w| which.contains(w));
    let sandbox = if needs_sandbox {
        Some(args.tuning.open(isolation).await?.0)
    } else {
        None
    };
    let loaded = load();
    println!(
        "croupier bench on {} CPU(s), sandbox {}, load {loaded}",
        cpus(),
        args.sandbox,
    );
    let mut goals = Goals::default();
    for w in which {
        match (w, &sandbox) {
            (Which::Spawn, Some(sb)) => spawn::run(sb, runs, &mut goals).await?,
            (Which::Engine, _) => {
                engine::run(Duration::from_secs_f64(secs), only, &mut goals).await?;
            }
            (Which::Hosted, Some(sb)) => {
                let opts = hosted::Options {
                    matches,
                    workers,
                    python: args.bots == HostedBots::Python,
                    entrants,
                    processes: args
                        .processes
                        .then_some((args.sandbox.as_str(), &args.tuning)),
                };
                hosted::run(sb.clone(), &args.db, opts, &mut goals).await?;
            }
            (Which::GuandanActions, _) => guandan_actions::run(deals, runs, &mut goals).await?,
            (Which::Python, Some(sb)) => {
                python::run(sb, python_matches, workers, &mut goals).await?;
            }
            (Which::Results, _) => {
                let Some(competition) = args.competition else {
                    bail!("bench results needs --competition ID");
                };
                results::run(&args.db, competition, runs).await?;
            }
            _ => {}
        }
    }
    let end = load();
    println!("load at the end: {end}");
    if !goals.0.is_empty() {
        println!("the speed goals, this run (load {loaded} at the start, {end} at the end):");
        for line in &goals.0 {
            println!("  {line}");
        }
    }
    Ok(())
}

/// The figures of the speed goals that a run measured, printed together at its end.
#[derive(Default)]
pub struct Goals(Vec<String>);

impl Goals {
    pub fn add(&mut self, line: String) {
        self.0.push(line);
    }
}

fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `median … p90 … min … mean …` of `samples`, in milliseconds.
pub fn summary(samples: &mut [Duration]) -> String {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let n = samples.len().max(1);
    let at = |q: usize| samples.get((samples.len() * q / 100).min(n - 1)).copied();
    let mean = samples.iter().sum::<Duration>() / u32::try_from(n).unwrap_or(u32::MAX);
    format!(
        "median {:6.2} ms  p90 {:6.2} ms  min {:6.2} ms  mean {:6.2} ms  (n={})",
        ms(at(50).unwrap_or_default()),
        ms(at(90).unwrap_or_default()),
        ms(samples.first().copied().unwrap_or_default()),
        ms(mean),
        samples.len()
    )
}

/// The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`), for the record:
/// every figure above depends on what else ran.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

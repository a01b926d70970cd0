//! `croupier bench engine`: games per second in the rule engines alone, random play, on one
//! thread. No Thanks is measured typed (the `Game` trait) and through the dynamic layer; every
//! game through the dynamic layer (`DynGame` + the built-in `random` bot, every action as a JSON
//! value read back by the engine and every event written out, as a program seat's moves
//! arrive): Splendor, Hanabi with 2 and 5 players (standard) and 5
//! (rainbow), a Bridge deal, a whole Guandan game (deals from level 2 until a team wins at A).
//! `--game` picks one game. For Guandan it also times the `act` messages as the referee builds
//! them over random play (the seat's observation with every wild-card interpretation, and the
//! message text): median, p99, worst, and the longest list. When `python3` can import OpenSpiel
//! (`pip install open_spiel`), its random playouts of Hanabi (2 and 5 players) and a Bridge deal
//! are timed in the same run — its own C++ loop (`evaluate_bots` with uniform random bots) and
//! the same playouts stepped from Python — and our rates printed as multiples of both.
//!
//! Each variant is also played through the referee (`referee`): whole one-game matches of
//! built-in `random` seats through `croupier_referee::play`, the path a hosted match takes
//! (table, replay recorder, the platform's outcome), without processes or database. The
//! referee plays a built-in seat typed (`Recorder::play_builtin`): the move's JSON is written
//! once, for the replay, and never read back.

use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use croupier_games::bots::builtin;
use croupier_games::guandan::{Guandan, Settings as GuandanSettings};
use croupier_games::nothanks::{NoThanks, Settings};
use croupier_games::{Game, GameId, GameRng, GameSettings, Seat, Stream, Turn, Viewer};
use croupier_referee::guandan::act_message;
use croupier_referee::{MatchSpec, SeatSpec};
use croupier_sandbox::{Config as SandboxConfig, Mode, Sandbox};
use serde_json::{json, Value};

/// Games and moves played in `budget` by `one_game(seed) -> moves`: games per second, and the
/// line to print.
fn measure(
    budget: Duration,
    mut one_game: impl FnMut(u64) -> Result<u64>,
) -> Result<(f64, String)> {
    let (t0, mut games, mut moves) = (Instant::now(), 0_u64, 0_u64);
    while t0.elapsed() < budget {
        for _ in 0..50 {
            moves += one_game(games)?;
            games += 1;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let rate = games as f64 / secs;
    Ok((
        rate,
        format!(
            "{rate:9.0} games/s  {:10.0} moves/s  ({games} games in {secs:.2} s)",
            moves as f64 / secs
        ),
    ))
}

/// OpenSpiel's random playouts of the variants compared: (our label, OpenSpiel's game string).
const OPEN_SPIEL: [(&str, &str); 3] = [
    ("standard, 2 players", "hanabi(players=2)"),
    ("standard, 5 players", "hanabi(players=5)"),
    ("one deal", "bridge(use_double_dummy_result=false)"),
];

/// OpenSpiel's rates for one game string, games per second: its own C++ loop (`evaluate_bots`
/// with uniform random bots: the whole playout in C++, one call per game from Python) and the
/// same playouts stepped from Python (`legal_actions` / `apply_action` per move).
struct TheirRates {
    name: String,
    cpp: f64,
    python: f64,
}

/// Times OpenSpiel when `python3` can import `pyspiel`; `None` when it is not installed.
fn open_spiel(budget: Duration) -> Option<Vec<TheirRates>> {
    const SCRIPT: &str = r#"
import random, sys, time
import pyspiel
budget = float(sys.argv[1])
for name in sys.argv[2:]:
    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(game.num_players())]
    t0, n = time.perf_counter(), 0
    while time.perf_counter() - t0 < budget:
        for _ in range(20):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, n)
            n += 1
    cpp = n / (time.perf_counter() - t0)
    rng = random.Random(0)
    t0, n = time.perf_counter(), 0
    while time.perf_counter() - t0 < budget:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
        n += 1
    python = n / (time.perf_counter() - t0)
    print(f"{name}\t{cpp}\t{python}", flush=True)
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(budget.as_secs_f64().to_string())
        .args(OPEN_SPIEL.iter().map(|(_, g)| *g))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let rates = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some(TheirRates {
                name: f.next()?.to_owned(),
                cpp: f.next()?.trim().parse().ok()?,
                python: f.next()?.trim().parse().ok()?,
            })
        })
        .collect();
    Some(rates)
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

/// One game of `game` under `rules` + `settings`, every seat the built-in `random` bot.
fn dynamic(game_id: GameId, rules: &str, settings: &Value, seed: u64) -> Result<u64> {
    let mut game = croupier_games::new_game(game_id, rules, settings, seed)?;
    let mut bot = builtin(game_id, "random").ok_or_else(|| anyhow!("no random bot"))?;
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

/// The variants measured for each game: (label, rules, settings).
fn variants(game: GameId) -> Vec<(&'static str, &'static str, Value)> {
    if game == GameId::HANABI {
        vec![
            ("standard, 2 players", "standard", json!({"players": 2})),
            ("standard, 5 players", "standard", json!({"players": 5})),
            ("rainbow, 5 players", "rainbow", json!({"players": 5})),
        ]
    } else if game == GameId::BRIDGE {
        vec![("one deal", "duplicate", Value::Null)]
    } else if game == GameId::GUANDAN {
        vec![("one game, level 2 to A", "platform", Value::Null)]
    } else {
        vec![("default rules and seats", game.default_rules(), Value::Null)]
    }
}

/// Times every Guandan `act` message of random games for `budget`, as the referee builds it
/// (the seat's observation with its legal actions, and the message text): (median, p99,
/// worst, longest list, lists).
fn guandan_lists(budget: Duration) -> Result<String> {
    let mut times: Vec<Duration> = Vec::new();
    let (mut longest, t0, mut seed) = (0_usize, Instant::now(), 0_u64);
    while t0.elapsed() < budget {
        let mut game = Guandan::new(GuandanSettings::platform(), seed)?;
        let mut rng = GameRng::derive(seed, Stream::Testing);
        while let Turn::Seat(seat) = game.turn() {
            let t = Instant::now();
            let observation = game.observe(Viewer::Seat(seat));
            std::hint::black_box(act_message(&observation));
            times.push(t.elapsed());
            let legal = observation.action_list;
            longest = longest.max(legal.len());
            let action = rng.choose(&legal).ok_or_else(|| anyhow!("no legal move"))?;
            game.apply(seat, action.clone())?;
        }
        seed += 1;
    }
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    Ok(format!(
        "median {:?}  p99 {:?}  worst {:?}  longest list {longest}  ({} lists, {seed} games)",
        at(0.5),
        at(0.99),
        at(1.0),
        times.len()
    ))
}

/// Whole matches of one game each through the referee (`croupier_referee::play`), every seat
/// the built-in `random` bot: what a hosted match runs minus the bots' processes and the
/// database (the table, the replay recorder, the game's outcome under the platform's rules).
async fn referee(
    sandbox: &Sandbox,
    game: GameId,
    rules: &str,
    settings: &Value,
    budget: Duration,
) -> Result<(f64, String)> {
    let seats = croupier_games::new_game(game, rules, settings, 0)?.seats();
    let (t0, mut games, mut moves) = (Instant::now(), 0_u64, 0_u64);
    while t0.elapsed() < budget {
        for _ in 0..20 {
            let mut spec = MatchSpec::new(game, games, vec![SeatSpec::builtin("random"); seats]);
            spec.rules = rules.to_owned();
            spec.settings = settings.clone();
            spec.games = 1;
            let result = croupier_referee::play(sandbox, spec).await?;
            moves += result
                .games
                .iter()
                .map(|g| g.replay.entries.len() as u64)
                .sum::<u64>();
            games += 1;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let rate = games as f64 / secs;
    let line = format!(
        "{rate:9.0} games/s  {:10.0} moves/s  ({games} matches in {secs:.2} s)",
        moves as f64 / secs
    );
    Ok((rate, line))
}

/// Our rates for one variant: through the dynamic layer, and through the referee.
struct OurRates {
    game: GameId,
    label: &'static str,
    dynamic: f64,
    referee: f64,
}

pub async fn run(budget: Duration, only: Option<GameId>, goals: &mut super::Goals) -> Result<()> {
    let games: Vec<GameId> = match only {
        Some(g) => vec![g],
        None => GameId::all().clone(),
    };
    println!(
        "engine: random play, one thread, {:.1} s per line",
        budget.as_secs_f64()
    );
    // No seat starts a process: plain processes are enough and need no root.
    let sandbox = Sandbox::new(SandboxConfig {
        mode: Mode::None,
        ..SandboxConfig::default()
    })
    .await?;
    let mut ours: Vec<OurRates> = Vec::new();
    for game in games {
        if game == GameId::NO_THANKS {
            let (_, line) = tokio::task::spawn_blocking(move || measure(budget, typed)).await??;
            println!(
                "  {:<10} {:<26} typed    {line}",
                game.as_str(),
                "boardcoder, 3 players"
            );
        }
        for (label, rules, settings) in variants(game) {
            let dyn_settings = settings.clone();
            let (dynamic_rate, line) = tokio::task::spawn_blocking(move || {
                measure(budget, |seed| dynamic(game, rules, &dyn_settings, seed))
            })
            .await??;
            println!("  {:<10} {label:<26} dynamic  {line}", game.as_str());
            let (referee_rate, line) = referee(&sandbox, game, rules, &settings, budget).await?;
            println!("  {:<10} {label:<26} referee  {line}", game.as_str());
            ours.push(OurRates {
                game,
                label,
                dynamic: dynamic_rate,
                referee: referee_rate,
            });
        }
        if game == GameId::GUANDAN {
            let line = tokio::task::spawn_blocking(move || guandan_lists(budget)).await??;
            println!(
                "  {:<10} {:<26} lists    {line}",
                game.as_str(),
                "legal actions per act"
            );
        }
    }
    compare_with_open_spiel(budget, &ours, goals).await
}

/// OpenSpiel's figures for the same variants in the same run, and ours as multiples of theirs
/// (the goal: a Bridge deal through the referee at least as fast as OpenSpiel's C++ loop); a
/// note when `pyspiel` is not installed.
async fn compare_with_open_spiel(
    budget: Duration,
    ours: &[OurRates],
    goals: &mut super::Goals,
) -> Result<()> {
    let wanted: Vec<_> = OPEN_SPIEL
        .iter()
        .filter(|(label, _)| ours.iter().any(|o| o.label == *label))
        .collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let Some(theirs) = tokio::task::spawn_blocking(move || open_spiel(budget)).await? else {
        println!("  (OpenSpiel is not installed: `pip install open_spiel` adds its Hanabi and Bridge figures here)");
        return Ok(());
    };
    println!("OpenSpiel (PyPI pyspiel), random play, same run: its C++ loop (evaluate_bots) and stepped from Python; ours as multiples:");
    for (label, name) in wanted {
        let Some(t) = theirs.iter().find(|t| t.name == *name) else {
            continue;
        };
        let Some(o) = ours.iter().find(|o| o.label == *label) else {
            continue;
        };
        let goal = if o.game == GameId::BRIDGE {
            "  (goal: referee >= 1x C++)"
        } else {
            ""
        };
        println!(
            "  {:<10} {label:<26} C++ {:9.0} games/s, Python-stepped {:7.0}  |  ours: referee {:.2}× C++ ({:.2}× Python-stepped), dynamic {:.2}× C++  ({name}){goal}",
            o.game.as_str(),
            t.cpp,
            t.python,
            o.referee / t.cpp,
            o.referee / t.python,
            o.dynamic / t.cpp,
        );
        goals.add(format!(
            "{} {label} through the referee: {:.0} against OpenSpiel's C++ loop {:.0} games/s = {:.2}x{}",
            o.game.as_str(),
            o.referee,
            t.cpp,
            o.referee / t.cpp,
            goal.trim_start().replace("(goal: referee", " (goal:"),
        ));
    }
    Ok(())
}

//! `croupier play`: the local offline runner. Plays N matches between local bots with the same
//! engine, referee, protocol adapter and sandbox as the hosted service, then prints standings.
//!
//! * Seating and seeds ([`seating`]): match `i` (from 0) is played on seed `S + i` with the
//!   seats rotated by `i`, so over one rotation (`--games` defaults to the number of seats)
//!   every bot plays every seat once. Team games (Guandan, Bridge) take two bots seated A-B-A-B
//!   (or four) and play duplicate pairs: two matches on the same seed with the sides swapped.
//!   The same `--bot` text given twice is one bot.
//! * Bridge: `--boards N` boards per table (default 4, as the seed's matches).
//! * Standings come from `croupier_league::standings` with the game's own scheme (No Thanks:
//!   rank points 4/2/1; Splendor adds the battle score; Guandan games won; Bridge IMPs over
//!   duplicate pairs; Hanabi mean score), so they match the hosted leaderboard, shown per
//!   seat-game so that a bot holding several seats compares like with like ([`report`]); a
//!   seat that never made a legal move ranks last in its game (docs/fair-play.md).
//! * The sandbox (`--sandbox`, default `auto`): `isolated` when running as root and the probe
//!   passes, else `none` with one loud warning (the per-spawn warnings of the sandbox crate are
//!   filtered out of `play`'s default log level; `RUST_LOG` brings them back). Only built-in
//!   bots: no sandbox at all.
//! * Output: a table on stdout, or with `--json` exactly one JSON object
//!   `{"game","rules","games","standings":[{"bot","seat_games","points","mean_score","wins",
//!   "win_rate","end_states"}],
//!   "timing":{"wall_ms","bot_cpu_ms","bot_moves"}}`: `timing` sums the matches' wall time and
//!   the program seats' CPU time and answers, so `(wall_ms - bot_cpu_ms) / bot_moves` bounds
//!   the platform's overhead per move. `wins` and `win_rate` (and the table's wins column)
//!   are left out for a cooperative game (Hanabi), where every seat shares one score and rank.
//!   A progress bar goes to stderr unless `--json` or stderr is not a terminal.
//!   `--replay-dir DIR` writes each match's replay (the hosted replay document) as
//!   `DIR/match-0000.json`, …; `--replay FILE` re-runs such a document and checks it
//!   ([`check`]).
//! * What the bots said ([`logs`]): the seats that failed are listed under the table with the
//!   referee's reasons and their last lines of stderr; `--logs DIR` writes every program seat's
//!   stderr and verdict to `DIR/match-0000-seat-1.log`, …; `--json` adds `"seats"`: every
//!   program seat's match, seat, bot, end state, reasons and log file.

mod bots;
mod check;
mod logs;
mod report;
mod seating;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use croupier_games::GameId;
use croupier_referee::{MatchLimits, MatchSpec};
use croupier_sandbox::{EndState, Mode, Sandbox};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::isolation::{Isolation, SandboxTuning};
use crate::settings::parse_flag;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game: nothanks, splendor, hanabi, guandan or bridge.
    #[arg(required_unless_present = "replay")]
    pub game: Option<String>,
    /// Re-run this replay document (downloaded from the API or written by --replay-dir) and
    /// check that every event and outcome comes out the same: prints "identical" (exit 0) or
    /// the first difference (exit 1). Plays nothing else.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "bots", "replay_dir"])]
    pub replay: Option<PathBuf>,
    /// Rule set (default: the game's first, e.g. boardcoder for nothanks).
    #[arg(long)]
    pub rules: Option<String>,
    /// JSON overrides of the rule set, e.g. '{"players": 4}'.
    #[arg(long)]
    pub settings: Option<String>,
    /// A bot, once per seat: `builtin:NAME` (builtin:heuristic, builtin:random) or a command
    /// line ("python3 kits/nothanks/python/bot.py", "./bot"). A Hanabi class bot may name its
    /// class and arguments after the file: "kits/hanabi/python/player.py:player",
    /// "bots.py:cautious(0.3)". Guandan and Bridge also take two bots, seated A-B-A-B
    /// (partners share a bot).
    #[arg(long = "bot", value_name = "SPEC")]
    pub bots: Vec<String>,
    /// Matches to play (default: the number of seats, one full seat rotation; Guandan and
    /// Bridge: 2, one duplicate pair).
    #[arg(long)]
    pub games: Option<String>,
    /// Bridge: boards per table (default 4).
    #[arg(long)]
    pub boards: Option<String>,
    /// Match i is played on seed SEED + i.
    #[arg(long, default_value = "0")]
    pub seed: String,
    /// Print one JSON object instead of a table (and no progress bar).
    #[arg(long)]
    pub json: bool,
    /// Write each match's replay JSON into this directory.
    #[arg(long)]
    pub replay_dir: Option<PathBuf>,
    /// Write each program seat's stderr and verdict into this directory (one file per seat
    /// and match).
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
    /// Bot isolation: auto (isolated if root and the probe passes, else none), isolated, none.
    #[arg(long, env = "CROUPIER_SANDBOX", default_value = "auto")]
    pub sandbox: String,
    /// Seconds a bot has for one move (default: the original platform's: Splendor 2, Bridge 5,
    /// the others 10).
    #[arg(long)]
    pub move_time: Option<String>,
    #[command(flatten)]
    pub tuning: SandboxTuning,
}

/// The checked arguments.
struct Plan {
    game: GameId,
    rules: String,
    settings: serde_json::Value,
    /// The `--bot` index of each seat in match 0.
    base: Vec<usize>,
    games: u32,
    /// Games per match (Bridge boards).
    per_match: u32,
    seed: u64,
    move_time: Duration,
}

fn plan(args: &PlayArgs) -> Result<Plan> {
    let game: GameId = args
        .game
        .as_deref()
        .ok_or_else(|| anyhow!("name the game to play"))?
        .trim()
        .parse()?;
    let rules = args
        .rules
        .clone()
        .unwrap_or_else(|| game.rule_sets()[0].to_owned());
    if !game.rule_sets().contains(&rules.as_str()) {
        bail!(
            "unknown rule set {rules:?} for {game}: expected one of {}",
            game.rule_sets().join(", ")
        );
    }
    let settings = match &args.settings {
        Some(text) => serde_json::from_str(text)
            .with_context(|| format!("--settings {text:?} is not JSON"))?,
        None => serde_json::Value::Null,
    };
    let seats = match croupier_games::new_game(game, &rules, &settings, 0) {
        Ok(g) => g.seats(),
        Err(e) => bail!("bad settings for {game} ({rules}): {e}"),
    };
    let base = seating::base(game, seats, args.bots.len())?;
    let games: u32 = match &args.games {
        Some(g) => parse_flag(g, "--games", "a number of games from 1 to 1000000")?,
        None => seating::default_count(game, seats),
    };
    let per_match = match (&args.boards, game) {
        (None, _) => croupier_referee::default_games(game),
        // Games that deal several boards per match by default (Bridge).
        (Some(b), game) if game.def().games_per_match > 1 => {
            let boards: u32 = parse_flag(b, "--boards", "a number of boards from 1 to 100")?;
            if !(1..=100).contains(&boards) {
                bail!("invalid value {boards} for --boards: expected 1 to 100");
            }
            boards
        }
        (Some(_), _) => bail!("--boards is for games played in boards, like bridge, not {game}"),
    };
    if !(1..=1_000_000).contains(&games) {
        bail!("invalid value {games} for --games: expected 1 to 1000000");
    }
    let seed = parse_flag(&args.seed, "--seed", "a whole number from 0 to 2^64-1")?;
    let move_time = match &args.move_time {
        None => croupier_referee::default_move_time(game),
        Some(text) => {
            let secs: f64 = parse_flag(text, "--move-time", "seconds, e.g. 10 or 0.5")?;
            if !(0.001..=3600.0).contains(&secs) {
                bail!("invalid value {secs} for --move-time: expected 0.001 to 3600 seconds");
            }
            Duration::from_secs_f64(secs)
        }
    };
    Ok(Plan {
        game,
        rules,
        settings,
        base,
        games,
        per_match,
        seed,
        move_time,
    })
}

pub async fn run(args: PlayArgs) -> Result<()> {
    if let Some(file) = &args.replay {
        return check::run(file);
    }
    let plan = plan(&args)?;
    let isolation = Isolation::parse(&args.sandbox, true)?;
    let programs = args.bots.iter().any(|b| !b.trim().starts_with("builtin:"));
    let (sandbox, mode) = if programs {
        args.tuning.open(isolation).await?
    } else {
        let cfg = args.tuning.config(Mode::None)?;
        (Sandbox::new(cfg).await?, Mode::None)
    };
    let isolated = mode == Mode::Isolated;
    let bots = (args.bots.iter().enumerate())
        .map(|(i, spec)| bots::parse(spec, i, plan.game, isolated))
        .collect::<Result<Vec<_>>>()?;
    if let Some(dir) = &args.replay_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the replay dir {}", dir.display()))?;
    }
    let mut logs = logs::Logs::new(args.logs.clone())?;
    let bar = progress(plan.games, args.json);
    let labels: Vec<String> = bots.iter().map(|b| b.label.clone()).collect();
    let entrants = seating::entrants(&labels);
    let mut tally = report::Tally::new(plan.game, labels);
    for i in 0..plan.games {
        let seating = seating::seating(plan.game, &plan.base, plan.seed, i);
        let order = &seating.bots;
        let spec = MatchSpec {
            rules: plan.rules.clone(),
            settings: plan.settings.clone(),
            limits: MatchLimits {
                move_time: plan.move_time,
                ..MatchLimits::default()
            },
            games: plan.per_match,
            ..MatchSpec::new(plan.game, seating.seed, seats(&bots, order))
        };
        let played = tokio::select! {
            r = croupier_referee::play(&sandbox, spec) => r,
            () = crate::lifecycle::shutdown_signal() => bail!("interrupted"),
        };
        let result = played.map_err(|e| anyhow!("match {i}: {e}"))?;
        for seat in &result.seats {
            if let EndState::SetupError(reason) = &seat.end_state {
                let bot = &bots[order[seat.seat.index()]].label;
                bail!("match {i}: the sandbox could not run {bot:?}: {reason}");
            }
        }
        if let Some(dir) = &args.replay_dir {
            let path = dir.join(format!("match-{i:04}.json"));
            std::fs::write(&path, report::replay_json(&result)?)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        let by_entrant: Vec<usize> = order.iter().map(|&b| entrants[b]).collect();
        let program_seats: Vec<Option<&str>> = order
            .iter()
            .map(|&b| Some(bots[b].label.as_str()).filter(|l| !l.starts_with("builtin:")))
            .collect();
        logs.add(i, &program_seats, &result)?;
        tally.add(i, seating.group, &by_entrant, &result);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let standings = tally.standings();
    if args.json {
        let mut doc = report::json(
            &plan.game,
            &plan.rules,
            plan.games,
            &standings,
            &tally.timing(),
        );
        doc["seats"] = serde_json::to_value(logs.seats())?;
        println!("{doc}");
    } else {
        let how = if isolated {
            "isolated"
        } else if programs {
            "none"
        } else {
            "not needed"
        };
        println!(
            "{} ({}, rules {}): {} game{} from seed {}, sandbox {how}",
            plan.game.display_name(),
            plan.game,
            plan.rules,
            plan.games,
            if plan.games == 1 { "" } else { "s" },
            plan.seed
        );
        print!("{}", report::table(&standings));
        let failures = logs.failures();
        if !failures.is_empty() {
            println!("\nSeats that did not end ok:\n{failures}");
        }
        if let Some(dir) = &args.logs {
            println!("Every seat's stderr and verdict: {}", dir.display());
        }
    }
    Ok(())
}

/// The seats of one match: `order[s]` is the `--bot` playing seat `s`. A program given for
/// several seats (partners, self-play) runs as one process per seat, each with its own player
/// name.
fn seats(bots: &[bots::Bot], order: &[usize]) -> Vec<croupier_referee::SeatSpec> {
    use croupier_referee::SeatSpec;
    order
        .iter()
        .enumerate()
        .map(|(seat, &b)| match &bots[b].seat {
            SeatSpec::Program {
                name,
                bot_dir,
                command,
            } if order.iter().filter(|&&o| o == b).count() > 1 => SeatSpec::Program {
                name: format!("{name}-s{seat}"),
                bot_dir: bot_dir.clone(),
                command: command.clone(),
            },
            other => other.clone(),
        })
        .collect()
}

fn progress(games: u32, json: bool) -> ProgressBar {
    if json || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(u64::from(games)), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise}  eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}

//! The validation game of a new build: one match of its game against built-in bots, with short
//! limits, at the table the bot is for (the submission's rule set and number of players), dealt
//! from the submission's [`validation_seed`](croupier_store::submissions::validation_seed),
//! which also picks the bot's seat: the same upload always plays the same game.
//!
//! The verdict ([`judge`]) only turns away a bot that cannot be used: one that never made a legal
//! move of its own. Faults the game survives (a lost turn, a refused move, a crash after it had
//! played) leave it `ready` with a warning listing them.

mod judge;

use std::path::Path;

use croupier_games::{bots, GameId};
use croupier_referee::{MatchSpec, SeatSpec};
use croupier_store::builds::Verdict;
use croupier_store::submissions::Submission;
use serde_json::{json, Value};

use crate::artifact::tail;
use crate::outcome::{end_state_name, setup_error};
use crate::Worker;

/// How much of the bot's stderr goes into the compile log.
const STDERR_TAIL: usize = 4 << 10;

/// The table a submission is validated at.
struct Table {
    game: GameId,
    rules: String,
    /// The `players` override, where the rule set lets it be chosen.
    players: Option<usize>,
    seats: usize,
}

impl Table {
    /// The submission's rule set (the game's default for uploads made before it was stored)
    /// and number of players. `Err`: the game no longer plays that table.
    fn of(sub: &Submission) -> Result<Table, String> {
        let game: GameId = sub.game.parse().map_err(|e| format!("{e}"))?;
        let rules = match sub.rules.as_str() {
            "" => game.default_rules().to_owned(),
            given => given.to_owned(),
        };
        let players = sub.players.and_then(|n| usize::try_from(n).ok());
        let seats = game.seats_for(&rules, players).ok_or_else(|| {
            let players = players.map_or_else(String::new, |n| format!(" with {n} players"));
            format!(
                "{} is not played under the rule set {rules}{players}",
                game.display_name()
            )
        })?;
        Ok(Table {
            game,
            rules,
            players,
            seats,
        })
    }

    fn settings(&self) -> Value {
        self.players
            .map_or(Value::Null, |n| json!({ "players": n }))
    }
}

/// Plays the validation game. `Ok((verdict, note for the log))`, or `Err` for a platform fault.
pub(crate) async fn run(
    w: &Worker,
    sub: &Submission,
    bot_dir: &Path,
    command: &[String],
) -> Result<(Verdict, String), String> {
    let table = match Table::of(sub) {
        Ok(table) => table,
        Err(why) => {
            let reason = format!("validation game: {why}");
            return Ok((Verdict::Failed(reason.clone()), format!("\n{reason}\n")));
        }
    };
    let game = table.game;
    let builtins = bots::names(game);
    let seed = u64::try_from(sub.validation_seed).unwrap_or_default();
    // The submission sits in a seat chosen from the seed, so a bot that assumes it is always
    // the first player (or player 0 of the Hanabi protocol) shows it here, not in a competition.
    let mine = usize::try_from(seed % table.seats.max(1) as u64).unwrap_or(0);
    let mut seats: Vec<SeatSpec> = (1..table.seats)
        .map(|i| SeatSpec::builtin(builtins[(i - 1) % builtins.len()]))
        .collect();
    seats.insert(
        mine.min(seats.len()),
        SeatSpec::program(
            format!("{}-v{}", sub.team_name, sub.version),
            bot_dir,
            command.to_vec(),
        ),
    );
    let mut spec = MatchSpec::new(game, seed, seats);
    spec.rules.clone_from(&table.rules);
    spec.settings = table.settings();
    spec.limits = w.cfg.validation.clone();
    // One game is enough to see that the bot speaks the protocol (a Bridge match has 4 boards).
    spec.games = 1;
    let result = match croupier_referee::play(&w.sandbox, spec).await {
        Ok(r) => r,
        Err(e) => return Err(format!("validation game: {e}")),
    };
    if let Some(fault) = setup_error(&result) {
        return Err(format!("validation game: {fault}"));
    }
    let Some(me) = result.seats.get(mine) else {
        return Err("validation game: no result for the submission's seat".into());
    };
    let opponents: Vec<&str> = result
        .seats
        .iter()
        .filter(|s| s.seat.index() != mine)
        .map(|s| s.name.as_str())
        .collect();
    let mut note = format!(
        "\n--- validation game ({} {}, {} players, seat {}, vs {}, seed {seed}) ---\n{}: rank {}, score {}, {} moves",
        game.display_name(),
        table.rules,
        table.seats,
        game.def().seat_name(mine),
        opponents.join(", "),
        end_state_name(&me.end_state),
        me.rank,
        me.score,
        me.moves,
    );
    if let Some(slowest) = me.move_ms.iter().max() {
        note.push_str(&format!(", slowest move {slowest} ms"));
    }
    note.push('\n');
    if !me.detail.is_empty() {
        note.push_str(&format!("{}\n", me.detail));
    }
    if !me.stderr_tail.is_empty() {
        note.push_str(&format!(
            "stderr (end):\n{}\n",
            tail(&me.stderr_tail, STDERR_TAIL)
        ));
    }
    let verdict = judge::verdict(&result, mine, &w.cfg.validation);
    Ok((verdict, note))
}

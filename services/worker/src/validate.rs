//! The validation game of a new build: one match of its game against built-in bots, with short
//! limits. The submission is `ready` only if its seat ends `ok`.

use std::path::Path;

use croupier_games::{bots, GameId};
use croupier_referee::{MatchSpec, SeatSpec};
use croupier_sandbox::EndState;
use croupier_store::builds::Verdict;
use croupier_store::submissions::Submission;

use crate::artifact::tail;
use crate::outcome::{end_state_name, setup_error};
use crate::Worker;

/// How much of the bot's stderr goes into the compile log.
const STDERR_TAIL: usize = 4 << 10;

/// Plays the validation game. `Ok((verdict, note for the log))`, or `Err` for a platform fault.
pub(crate) async fn run(
    w: &Worker,
    sub: &Submission,
    bot_dir: &Path,
    command: &[String],
) -> Result<(Verdict, String), String> {
    let game: GameId = sub.game.parse().map_err(|e| format!("{e}"))?;
    let players = game.default_seats();
    let builtins = bots::names(game);
    let seed = u64::from_le_bytes(
        sub.submission_id.as_bytes()[..8]
            .try_into()
            .unwrap_or_default(),
    );
    // The submission sits in a seat chosen from the seed, so a bot that assumes it is always
    // the first player (or player 0 of the Hanabi protocol) shows it here, not in a competition.
    let mine = usize::try_from(seed % players.max(1) as u64).unwrap_or(0);
    let mut seats: Vec<SeatSpec> = (1..players)
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
        "\n--- validation game ({} vs {}, seed {seed}) ---\n{}: rank {}, score {}, {} moves",
        game.display_name(),
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
    if me.end_state == EndState::Ok {
        return Ok((Verdict::Ready, note));
    }
    let limits = &w.cfg.validation;
    let why = match &me.end_state {
        EndState::TimeLimit => format!(
            "your bot did not answer within {} s",
            limits.move_time.as_secs_f64()
        ),
        EndState::MemoryLimit => format!(
            "your bot used more than {} MiB of memory",
            limits.seat.memory_bytes >> 20
        ),
        EndState::Crashed { .. } => "your bot exited or crashed before the game ended".into(),
        EndState::OutputLimit => "your bot wrote more output than allowed".into(),
        EndState::InvalidOutput => "your bot sent a message the protocol does not allow".into(),
        EndState::IllegalAction => "your bot chose an illegal move".into(),
        EndState::Ok | EndState::SetupError(_) => String::new(),
    };
    let mut reason = format!("validation game: {} — {why}", end_state_name(&me.end_state));
    if !me.detail.is_empty() {
        reason.push_str(&format!(" ({})", tail(&me.detail, 500)));
    }
    reason.push_str("; see the log for details");
    Ok((Verdict::Failed(reason), note))
}

//! The referee: plays one match between bots, speaking each game's original protocol.
//!
//! ```text
//!   engine (croupier-games)  ⇄  protocol adapter  ⇄  seats
//!   Table: Recorder per game,     one module per       sandboxed processes (SeatProc,
//!   built-in bots, forced moves   original protocol    one supervisor task each) or
//!                                                      in-process built-in bots
//! ```
//!
//! [`play`] checks the [`MatchSpec`], builds the engine side (`Table`, shared by every
//! adapter: the games and their [`Replay`](croupier_games::Replay)s, the built-in bots, forced
//! moves, per-seat move counts and timings) and hands it to the game's protocol adapter:
//!
//! | game | adapter | status |
//! |---|---|---|
//! | No Thanks | [`nothanks`]: TCP lobby, JSON lines, one process per seat for the match | done |
//! | Hanabi, Guandan | websocket, one process per seat (same seat supervisor and `MatchNet`) | to do |
//! | Splendor, Bridge | one process per move (`Sandbox::run`; argv/stdin, files) | to do |
//!
//! Built-in seats ([`SeatSpec::Builtin`]) play through the same engine calls and never touch
//! a socket. The CLI's offline `croupier play` calls the same [`play`] with a sandbox in mode
//! `none`; without root the No Thanks match server then listens on the host's loopback.
//!
//! # Faults are results
//!
//! A bot's crash, timeout, garbage or illegal move is recorded against its seat and the match
//! goes on; [`RefereeError`] is only for the platform (the worker retries those). The rules,
//! the same for every seat and, where the protocol allows, every game:
//!
//! | what the bot does | end state | what happens next |
//! |---|---|---|
//! | never joins within `join_time` | `time_limit` | killed; the referee plays for it |
//! | exits or crashes (before the end) | `crashed` (its code/signal; exit 0 too) | the referee plays for it |
//! | closes its connection, keeps running | `invalid_output` | killed after 1 s grace |
//! | not JSON, not an object, unknown `type`, no `action_type`, line over `line_bytes`, stops reading its socket | `invalid_output` | disconnected, killed, the referee plays for it |
//! | a room reply declined while its seat waits (wrong room, another seat's name — isolated mode identifies the sender by uid) | `invalid_output` | killed, the referee plays for it |
//! | no `reply_action` within `move_time` | `time_limit` | killed, the referee plays for it |
//! | an action the rules refuse (pass with no coins, an unknown action) | `illegal_action` | `result_action` *declined*, the referee picks for it, **it stays in the game** |
//! | more than `output_bytes` of stdout + stderr | `output_limit` | killed, the referee plays for it |
//! | memory over the limit | `memory_limit` | (it dies) the referee plays for it |
//!
//! "The referee plays for it" is the forced legal default, the seat's first legal action (No
//! Thanks: `pick`, always legal), so the others' game completes and the seat is ranked by its
//! score like everyone else; the league may penalise the end state. The **first** fault decides
//! the end state, except that a hard sandbox limit (memory, output) always shows; the detail lists
//! every fault. Messages that are fine but out of turn (a second `reply_action`, a room reply
//! after joining) are ignored. After the last `notice_end` nothing is a fault (a bot that crashes
//! on the lobby return is `ok`). Every process is killed with its tree at the end.
//!
//! Determinism: game 0 is dealt from the match seed, game `k` from [`game_seeds`]; built-in seat
//! `s` draws from `GameRng::derive(seed, Stream::Bot(s))`. Each game's replay records every move,
//! refusal and fault, and [`Replay::rebuild`](croupier_games::Replay::rebuild) re-scores it.

mod assemble;
mod error;
mod net;
pub mod nothanks;
mod result;
mod seat;
mod spec;
mod table;
mod verdict;

pub use error::RefereeError;
pub use result::{Direction, GameRecord, MatchResult, SeatOutcome, TranscriptLine};
pub use spec::{default_games, default_move_time, MatchLimits, MatchSpec, SeatSpec};
pub use table::game_seeds;

use croupier_games::GameId;
use croupier_sandbox::Sandbox;

/// Whether a protocol adapter exists for `game` (an engine alone is not enough to host it).
pub fn supports(game: GameId) -> bool {
    matches!(game, GameId::NoThanks)
}

/// Plays `spec` to the end. Cancel by dropping the future: every seat process is killed.
#[tracing::instrument(skip_all, fields(game = %spec.game, seed = spec.seed, seats = spec.seats.len()))]
pub async fn play(sandbox: &Sandbox, spec: MatchSpec) -> Result<MatchResult, RefereeError> {
    if !supports(spec.game) {
        return Err(RefereeError::Unsupported(spec.game));
    }
    let table = table::Table::new(&spec)?;
    match spec.game {
        GameId::NoThanks => nothanks::run(sandbox, &spec, table).await,
        other => Err(RefereeError::Unsupported(other)),
    }
}

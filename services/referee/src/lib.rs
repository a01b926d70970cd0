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
//! moves, per-seat move counts and timings) and hands it to the adapter of the game's
//! [`Protocol`] (its registry entry, [`GameDef::protocol`](croupier_games::GameDef::protocol)):
//!
//! | game | adapter | status |
//! |---|---|---|
//! | No Thanks | [`nothanks`]: TCP lobby, JSON lines, one process per seat for the match | done |
//! | Hanabi | [`hanabi`]: websocket on :9999, binary frames, one process per seat, class-based `player.py` through a runner | done |
//! | Guandan | [`guandan`]: websocket on 127.0.0.1:23456 (`/game/*`), text frames, seats started one by one in connection order, `{"actIndex": i}` replies | done |
//! | Splendor | [`splendor`]: one process per move (the `permove` runner), state as `argv[1]` and stdin, JSON answer on stdout | done |
//! | Bridge | [`bridge`]: one process per move ([`permove`](crate::permove)), `<bot> /bot/Board.txt /bot/StepLog.txt` in the seat's private writable directory, one appended StepLog line; violations hand the seat to the Robot | done |
//! | any other game | `jsonmove`: Croupier's own one-process-per-move JSON protocol (`docs/protocols.md#json-per-move`), for games without an original platform | done |
//!
//! Built-in seats ([`SeatSpec::Builtin`]) play through the same engine calls and never touch
//! a socket; so do people ([`SeatSpec::Human`]), whose moves come from a [`HumanDesk`] (the
//! worker's: the site's play page) within [`MatchLimits::human_move_time`] — the bots at the
//! table cannot tell a person from a built-in. The CLI's offline `croupier play` calls the same [`play`] with a sandbox in mode
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
//! | more than `output_bytes` of stdout (a long-lived seat; stderr never counts) | `output_limit` | killed, the referee plays for it |
//! | memory over the limit | `memory_limit` | (it dies) the referee plays for it |
//! | **per-move seats** (Splendor, Bridge): one call crashes, times out, goes over a limit, prints garbage or an illegal move | the seat's first such fault (a crash with that call's code/signal); `memory_limit`/`output_limit` on any call always show | only that move is lost (Splendor: the turn, the engine's `Pass`, counted as forced); **the seat keeps playing**, its next move is a new process |
//! | **Bridge** also: no line, several lines, a malformed line, Board.txt or earlier StepLog lines changed | `invalid_output` (a refused move: `illegal_action`) | the Robot (built-in `robot`) plays the seat until the deal ends (`Robot play …` lines, forced moves); the engine's `fault_penalty` scores the deal (default: the side concedes the remaining tricks); the next deal calls the program again |
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
pub mod bridge;
mod error;
/// For the fuzz targets only (thin wrappers over private parsers; not an API).
#[doc(hidden)]
pub mod fuzzing;
pub mod guandan;
pub mod hanabi;
mod hub;
mod identity;
mod jsonmove;
mod net;
pub mod nothanks;
mod permove;
mod progress;
mod result;
mod seat;
mod sockdiag;
mod spec;
pub mod splendor;
mod table;
mod verdict;

pub use croupier_games::MoveRecord;
pub use croupier_games::DEFAULT_HUMAN_MOVE_SECS;
pub use error::RefereeError;
pub use permove::{opts_out_of_warm_python, COLD_PYTHON_PRAGMA};
pub use progress::MatchProgress;
pub use result::{Direction, GameRecord, MatchResult, SeatOutcome, TranscriptLine};
pub use spec::{
    default_games, default_move_time, HumanDesk, HumanTurn, MatchLimits, MatchSpec, SeatSpec,
};
pub use table::game_seeds;
pub use verdict::{Fault, FaultKind};

use std::path::Path;

use croupier_games::registry::Protocol;
use croupier_games::GameId;
use croupier_sandbox::Sandbox;

/// Checks a build's entry point for what the game's protocol loads from it, before the
/// validation game: a Hanabi class bot must name a class its file defines. `Err` says what is
/// wrong, for the build log.
pub fn check_entry(game: GameId, bot_dir: &Path, run_command: &[String]) -> Result<(), String> {
    match game.def().protocol {
        Protocol::HanabiWebsocket => hanabi::check_entry(bot_dir, run_command),
        Protocol::NoThanksLobby
        | Protocol::GuandanWebsocket
        | Protocol::SplendorJudge
        | Protocol::BridgeFiles
        | Protocol::JsonPerMove => Ok(()),
    }
}

/// Plays `spec` to the end. Cancel by dropping the future: every seat process is killed.
#[tracing::instrument(skip_all, fields(game = %spec.game, seed = spec.seed, seats = spec.seats.len()))]
pub async fn play(sandbox: &Sandbox, spec: MatchSpec) -> Result<MatchResult, RefereeError> {
    let table = || table::Table::new(&spec);
    match spec.game.def().protocol {
        Protocol::NoThanksLobby => nothanks::run(sandbox, &spec, table()?).await,
        Protocol::GuandanWebsocket => guandan::run(sandbox, &spec, table()?).await,
        Protocol::SplendorJudge => splendor::run(sandbox, &spec, table()?).await,
        Protocol::JsonPerMove => jsonmove::run(sandbox, &spec, table()?).await,
        // These two deal their first game with settings of their own (Hanabi's protocol
        // indices, the Bridge board's number): each sets its table up, dealing once.
        Protocol::HanabiWebsocket => hanabi::run(sandbox, &spec).await,
        Protocol::BridgeFiles => bridge::run(sandbox, &spec).await,
    }
}

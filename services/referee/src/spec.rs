//! What to play: [`MatchSpec`], its seats ([`SeatSpec`]) and its limits ([`MatchLimits`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use croupier_games::{FrameEntry, GameId, Seat, DEFAULT_HUMAN_MOVE_SECS};
use croupier_sandbox::Limits;
use futures_util::future::BoxFuture;
use serde_json::Value;

use crate::{MatchProgress, RefereeError};

/// One match: a game, its settings and seed, the seats in turn order, and the limits.
#[derive(Debug, Clone)]
pub struct MatchSpec {
    pub game: GameId,
    /// A rule set of [`GameId::rule_sets`] (`"boardcoder"`).
    pub rules: String,
    /// JSON overrides of the rule set (`null` for none).
    pub settings: Value,
    /// Game 0 is dealt from this seed; later games of a repeated match from seeds derived from it
    /// (see [`crate::game_seeds`]).
    pub seed: u64,
    /// Seat `i` of the engine, in turn order. Must match the engine's player count.
    pub seats: Vec<SeatSpec>,
    pub limits: MatchLimits,
    /// Games played with the same seats and processes. For No Thanks, more than one makes the
    /// room a `learning` room (`notice_epoc` before each game); 1 is a `normal` room.
    pub games: u32,
    /// Where the [`SeatSpec::Human`] seats' moves come from (required when there is one).
    pub desk: Option<Arc<dyn HumanDesk>>,
    /// Where the referee notes how far the match has got, for whoever holds a clone.
    pub progress: Arc<MatchProgress>,
}

impl MatchSpec {
    /// `game` under its default rule set, its default number of games
    /// ([`default_games`]) and the default limits with the game's own time per move
    /// ([`default_move_time`]).
    pub fn new(game: GameId, seed: u64, seats: Vec<SeatSpec>) -> Self {
        MatchSpec {
            game,
            rules: game.default_rules().to_owned(),
            settings: Value::Null,
            seed,
            seats,
            limits: MatchLimits {
                move_time: default_move_time(game),
                ..MatchLimits::default()
            },
            games: default_games(game),
            desk: None,
            progress: Arc::default(),
        }
    }
}

/// The time per move unless a competition sets its own: the game's
/// [`GameDef::move_time`](croupier_games::GameDef::move_time) (the original platform's:
/// Splendor's judge 2 s, the Bridge course platform 5 s, the No Thanks server about 10 s;
/// Hanabi's and Guandan's originals wait forever, Croupier gives 10 s).
pub fn default_move_time(game: GameId) -> Duration {
    game.def().move_time
}

/// Games played in one match unless a competition sets `games_per_match`: the game's
/// [`GameDef::games_per_match`](croupier_games::GameDef::games_per_match) (a Bridge table plays
/// the seed's 4 boards; every other game one game, for Guandan from level 2 until a team wins
/// at A).
pub fn default_games(game: GameId) -> u32 {
    game.def().games_per_match
}

/// One turn of a [`SeatSpec::Human`] seat, as its player is shown it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct HumanTurn {
    pub seat: Seat,
    /// 0-based game of the match.
    pub game: usize,
    /// The seat's observation (`observe_json(Viewer::Seat(seat))`), exactly what a bot in the
    /// seat would be told, its legal-action list included where the game sends one.
    pub observation: Value,
    /// The engine's legal actions; the answer is an index into this list.
    pub legal: Vec<Value>,
    /// What happened in this game since the seat's previous turn (player names as
    /// `{seat N}` placeholders, as in replays).
    pub recent: Vec<FrameEntry>,
    /// How long the person has.
    pub time: Duration,
}

/// Where human seats' moves come from. [`ask`](HumanDesk::ask) shows the turn to the person
/// and resolves with the index of the legal action they chose; the referee stops waiting at
/// [`HumanTurn::time`] (dropping the future) and plays for them. `Err` is a platform fault
/// (the match is retried), never the person's.
pub trait HumanDesk: Send + Sync + std::fmt::Debug {
    fn ask(&self, turn: HumanTurn) -> BoxFuture<'_, Result<usize, RefereeError>>;
}

/// Who plays a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatSpec {
    /// An in-process bot of [`croupier_games::bots::builtin`], by name (`"heuristic"`). It plays
    /// through the same engine calls as a program, without any protocol. Its player name is
    /// `name` too unless another seat uses it, then `name-<seat>`.
    Builtin { name: String },
    /// A person, playing through a [`HumanDesk`] (the site's play page): shown the seat's
    /// observation and legal moves at each of its turns, with
    /// [`MatchLimits::human_move_time`] to choose one. Like a built-in it never touches the
    /// protocol; the bots at the table cannot tell. `name` is the player name the others see.
    Human { name: String },
    /// A bot program, run in the sandbox for the whole match.
    Program {
        /// The player name the bot is told on stdin and that other players see; unique in the match.
        name: String,
        /// The compiled submission's files; every seat gets its own writable copy at `/bot`
        /// (a [`croupier_sandbox::SeatDir`], kept for the match), this directory is never written.
        /// It and its parents must be world-readable (0755) for the sandbox.
        bot_dir: PathBuf,
        /// The command inside the sandbox: `["/usr/bin/python3", "/bot/bot.py"]`, `["/bot/bot"]`.
        command: Vec<String>,
    },
}

impl SeatSpec {
    pub fn builtin(name: impl Into<String>) -> Self {
        SeatSpec::Builtin { name: name.into() }
    }

    pub fn human(name: impl Into<String>) -> Self {
        SeatSpec::Human { name: name.into() }
    }

    pub fn program(
        name: impl Into<String>,
        bot_dir: impl Into<PathBuf>,
        command: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        SeatSpec::Program {
            name: name.into(),
            bot_dir: bot_dir.into(),
            command: command.into_iter().map(Into::into).collect(),
        }
    }
}

/// Time, size and sandbox limits of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchLimits {
    /// Time a bot has to answer one request (the original server gave about 10 s).
    pub move_time: Duration,
    /// Time a person at a [`SeatSpec::Human`] seat has to choose a move; when it runs out the
    /// referee plays the seat's first legal move (a `time_limit` lapse) and the person keeps
    /// the seat.
    pub human_move_time: Duration,
    /// Time from the start of the seats until every program seat has joined its room.
    pub join_time: Duration,
    /// After the last game, how long bots may take to exit by themselves before they are killed.
    pub end_grace: Duration,
    /// Largest protocol message (one line); a longer one is `invalid_output`.
    pub line_bytes: usize,
    /// Total stdout a long-lived seat may write over the match; more is `output_limit`. stderr
    /// never counts: its end is kept and the rest dropped, in every protocol.
    pub output_bytes: u64,
    /// How much of the end of a seat's stderr (and stdout) is kept for its team.
    pub tail_bytes: usize,
    /// Cap on the protocol transcript kept in the result.
    pub transcript_bytes: usize,
    /// Sandbox limits of each program seat; `wall` bounds the seat's whole match.
    pub seat: Limits,
    /// Per-move Python seats (`python3 <script>.py`, Splendor, Bridge) fork a Python started
    /// once in the seat's sandbox instead of starting Python for every move
    /// ([`croupier_sandbox::MoveRunner::warm_python`]), unless their entry file opts out
    /// ([`crate::opts_out_of_warm_python`]). `false`: every move starts Python.
    pub warm_python: bool,
}

impl Default for MatchLimits {
    /// 10 s per move (a person: 90 s), 10 s to join, 200 ms end grace, 64 KiB lines, 64 MiB output, 64 KiB tails,
    /// 1 MiB transcript; seats: 1 h wall, 10 min CPU, 512 MiB, 64 pids, 64 fds; warm Python.
    fn default() -> Self {
        MatchLimits {
            move_time: Duration::from_secs(10),
            human_move_time: Duration::from_secs(DEFAULT_HUMAN_MOVE_SECS),
            join_time: Duration::from_secs(10),
            end_grace: Duration::from_millis(200),
            line_bytes: 64 << 10,
            output_bytes: 64 << 20,
            tail_bytes: 64 << 10,
            transcript_bytes: 1 << 20,
            seat: Limits {
                wall: Duration::from_secs(3600),
                cpu: Duration::from_secs(600),
                memory_bytes: 512 << 20,
                ..Limits::default()
            },
            warm_python: true,
        }
    }
}

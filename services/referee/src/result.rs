//! What a match produced: [`MatchResult`] with one [`SeatOutcome`] per seat and one
//! [`GameRecord`] (replay + outcome) per game.

use croupier_games::{MoveRecord, Outcome, Replay, Seat};
use croupier_sandbox::EndState;
use serde::{Deserialize, Serialize};

use crate::verdict::Fault;

/// The result of a match that ran to its end. Bot faults are in the seats' end states.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Seat order.
    pub seats: Vec<SeatOutcome>,
    /// One per game, in order (several in a learning room).
    pub games: Vec<GameRecord>,
    /// Scores summed over the games and ranked with the game's score order; for a one-game
    /// match this is that game's outcome. Seats that never made a legal move rank last
    /// ([`croupier_games::fair`]).
    pub outcome: Outcome,
    /// The protocol messages, in order, capped at [`MatchLimits::transcript_bytes`](crate::MatchLimits).
    pub transcript: Vec<TranscriptLine>,
    pub transcript_truncated: bool,
    pub wall_ms: u64,
}

/// The replay document (`docs/replays.md`, format 1) of a match, as the worker stores it:
/// players, every game's replay and outcome, the protocol transcript. The replays are as
/// recorded, their events left out; [`croupier_games::document::with_events`] completes the
/// document for a reader.
#[derive(Serialize)]
struct ReplayDocument<'a> {
    format: u64,
    players: Vec<&'a str>,
    games: &'a [GameRecord],
    outcome: &'a Outcome,
    transcript: &'a [TranscriptLine],
    transcript_truncated: bool,
    wall_ms: u64,
}

impl MatchResult {
    /// The match's replay document, as stored ([`ReplayDocument`]).
    pub fn replay_document(&self) -> Result<Vec<u8>, serde_json::Error> {
        serde_json::to_vec(&ReplayDocument {
            format: croupier_games::document::FORMAT,
            players: self.seats.iter().map(|s| s.name.as_str()).collect(),
            games: &self.games,
            outcome: &self.outcome,
            transcript: &self.transcript,
            transcript_truncated: self.transcript_truncated,
            wall_ms: self.wall_ms,
        })
    }
}

/// One game of a match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Re-scores identically with [`Replay::rebuild`]; its `outcome` is the engine's own.
    pub replay: Replay,
    /// The engine's outcome under the platform's rules: [`Replay::fair_outcome`].
    pub outcome: Outcome,
}

/// How one seat did, over the whole match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatOutcome {
    pub seat: Seat,
    /// The player name other bots saw.
    pub name: String,
    /// From [`MatchResult::outcome`]: 1 = best, ties share.
    pub rank: u32,
    pub score: i64,
    /// `ok`, or the first fault of the seat (see the crate docs for the rules).
    pub end_state: EndState,
    /// Human-readable account of the faults (empty when none), shown to the owning team.
    pub detail: String,
    /// Every fault of the seat, first first (the end state is the first's, or a hard limit's).
    #[serde(default)]
    pub faults: Vec<Fault>,
    /// Answers the bot gave to requests (refused ones included; built-in bots: their moves).
    pub moves: u32,
    /// Moves the referee made for the seat after a fault (No Thanks: `pick`).
    pub forced_moves: u32,
    /// Wall time of each answer (one per `moves`), in milliseconds, over all games.
    pub move_ms: Vec<u32>,
    /// A program seat's moves one by one, for its owner: time, memory peak, stderr (built-in
    /// seats: empty).
    #[serde(default)]
    pub move_log: Vec<MoveRecord>,
    /// CPU time of the seat's whole process tree (0 for built-in seats).
    pub cpu_ms: u64,
    pub max_rss_bytes: u64,
    /// The end of the seat's stderr and stdout (capped), for the owning team.
    pub stderr_tail: String,
    pub stdout_tail: String,
}

/// Direction of a transcript line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    ToBot,
    FromBot,
}

/// One protocol message on one connection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TranscriptLine {
    /// Milliseconds since the match started.
    pub at_ms: u64,
    /// Connection number (in accept order).
    pub conn: u64,
    /// The seat the connection belongs to, once known.
    pub seat: Option<Seat>,
    pub direction: Direction,
    pub text: String,
}

/// The transcript being written, with its cap.
#[derive(Debug)]
pub(crate) struct Transcript {
    started: std::time::Instant,
    lines: Vec<TranscriptLine>,
    bytes: usize,
    cap: usize,
    truncated: bool,
}

impl Transcript {
    pub fn new(cap: usize) -> Self {
        Transcript {
            started: std::time::Instant::now(),
            lines: Vec::new(),
            bytes: 0,
            cap,
            truncated: false,
        }
    }

    pub fn push(&mut self, conn: u64, seat: Option<Seat>, direction: Direction, text: &str) {
        if self.bytes + text.len() > self.cap {
            self.truncated = true;
            return;
        }
        self.bytes += text.len();
        self.lines.push(TranscriptLine {
            at_ms: millis(self.started.elapsed()),
            conn,
            seat,
            direction,
            text: text.to_owned(),
        });
    }

    pub fn elapsed_ms(&self) -> u64 {
        millis(self.started.elapsed())
    }

    pub fn finish(self) -> (Vec<TranscriptLine>, bool) {
        (self.lines, self.truncated)
    }
}

pub(crate) fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

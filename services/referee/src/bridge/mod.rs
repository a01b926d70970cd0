//! The Contract Bridge adapter: the course platform's one-process-per-move protocol with two
//! files (`docs/protocols.md#contract-bridge`).
//!
//! **A match is one table** of a duplicate set: seats 0..3 are North, East, South, West
//! (`Player1`..`Player4`), partners 0+2 and 1+3; the match plays [`MatchSpec::games`] boards
//! (the league passes 4), board `k` (0-based) dealt from `game_seeds(seed)[k]` with board number
//! `k + 1`'s dealer and vulnerability, so both tables of a set (same match seed) play the same
//! deals. Each board is one engine game whose settings carry the board number (Board.txt's
//! `Game`) and the running score (`Score`, see [`files`]); any `board`/`running_score` in the
//! spec's settings is overridden. Each game's outcome gives North-South's score to seats 0 and
//! 2 and its negation to 1 and 3: the league reads seat 0's score per game as the board's N-S
//! result.
//!
//! **One call.** Before every decision of a program seat the platform writes `Board.txt` and
//! `StepLog.txt` ([`files`]) into the seat's private writable directory ([`workdir`]: the seat's
//! copy of the bot, its cwd `/bot`, one per seat, kept for the match, so the bot may keep its own
//! files there between calls) and runs `<command> /bot/Board.txt /bot/StepLog.txt` once
//! ([`PerMoveSeat`]: [`MatchLimits::move_time`](crate::MatchLimits) wall limit, 5 s for Bridge;
//! stdin closed at once). The course judge passed the two paths and warned that they need not
//! be in the program's working directory; here they are. The bot must append one line and
//! exit 0. If the files cannot be written because the bot filled its directory, that is the
//! bot's violation (`invalid_output`), never a platform fault.
//! **Declarer answers for dummy**: when dummy's card is due, declarer's program is called with
//! `Hand` = dummy's cards and `Other` = declarer's; it may sign the line with its own or
//! dummy's number, and the StepLog records it under dummy's number.
//!
//! **Violations** ([`answer`]): a timeout, a crash (non-zero exit or signal), a memory or output
//! limit, no line, several lines, a malformed line, a changed Board.txt or changed earlier
//! StepLog lines (`invalid_output`), or a move the rules refuse (`illegal_action`). Each
//! records a fault for the seat (its detail and end state, the first fault deciding) and in the
//! engine ([`Game::record_fault`](croupier_games::Game::record_fault)), whose `fault_penalty`
//! setting scores the deal (default: the offending side concedes every trick not yet played),
//! and hands the seat to the **Robot** (the built-in `robot`, see `docs/rules.md#contract-bridge`)
//! for the rest of the deal; its lines read `Robot call pass`, `Robot play S-11`, its moves count
//! as forced. The next deal calls the program again. Built-in seats play through the engine and
//! are logged as players.
//!
//! The transcript holds, per call, the Board.txt sent (`to_bot`) and the text appended
//! (`from_bot`), and every StepLog line of the Robot and of built-in seats (`from_bot`). A
//! match of built-in seats only keeps no StepLog and no transcript: nobody reads the files, and
//! its replay is the record of every call and card.

pub mod answer;
pub mod files;
mod program;
mod workdir;

use std::time::Duration;

use croupier_games::bots::{Bot, BridgeRobot};
use croupier_games::bridge::{Action, Bridge};
use croupier_games::{Game, GameRng, Seat, Stream, Turn, Viewer};
use croupier_sandbox::Sandbox;
use serde_json::{json, Value};

use crate::assemble::{assemble_with, SeatEnd};
use crate::permove::{close_all, program_seats, PerMoveSeat};
use crate::result::{Direction, MatchResult, Transcript};
use crate::table::Table;
use crate::verdict::Faults;
use crate::{MatchSpec, RefereeError};
use files::{Author, StepLog};
use workdir::WorkDir;

/// Where the files are inside the sandbox.
const ARGS: [&str; 2] = ["/bot/Board.txt", "/bot/StepLog.txt"];

/// A seat's process per move and its private directory (`None` for a built-in seat).
struct Program {
    seat: PerMoveSeat,
    dir: WorkDir,
}

struct Match {
    table: Table,
    programs: Vec<Option<Program>>,
    faults: Vec<Faults>,
    transcript: Transcript,
    move_time: Duration,
    /// The spec's settings overrides, as an object.
    settings: serde_json::Map<String, Value>,
    /// Board.txt's `Score` for the next board.
    score: Vec<i64>,
    /// This deal: its StepLog, and the seats the Robot plays.
    log: StepLog,
    robot: Vec<bool>,
    robot_rng: GameRng,
    board: usize,
    calls: u64,
    /// Some seat is a program: the StepLog and the transcript are kept.
    logged: bool,
}

pub(crate) async fn run(sandbox: &Sandbox, spec: &MatchSpec) -> Result<MatchResult, RefereeError> {
    let settings = match &spec.settings {
        Value::Object(map) => map.clone(),
        _ => serde_json::Map::new(),
    };
    let seats = spec.seats.len();
    // Board 1 is dealt once, with its number and the (empty) running score.
    let first = board_settings(&settings, 0, &vec![0; seats]);
    let mut table = Table::with_settings(spec, first)?;
    let programs: Vec<Option<Program>> = program_seats(sandbox, spec, &mut table)
        .await?
        .into_iter()
        .map(|seat| {
            seat.map(|seat| Program {
                dir: WorkDir::new(seat.dir().clone()),
                seat,
            })
        })
        .collect();
    let logged = programs.iter().any(Option::is_some);
    let mut m = Match {
        logged,
        table,
        programs,
        faults: vec![Faults::default(); seats],
        transcript: Transcript::new(spec.limits.transcript_bytes),
        move_time: spec.limits.move_time,
        settings,
        score: vec![0; seats],
        log: StepLog::new(),
        robot: vec![false; seats],
        robot_rng: GameRng::derive(spec.seed, Stream::Referee),
        board: 0,
        calls: 0,
    };
    for board in 0..m.table.games() {
        m.board = board;
        m.start_board()?;
        m.play_board().await?;
    }
    let ends = m
        .faults
        .into_iter()
        .map(|faults| SeatEnd { proc: None, faults });
    let per_move = close_all(m.programs.into_iter().map(|p| p.map(|p| p.seat))).await;
    assemble_with(ends.collect(), per_move, m.table, m.transcript).await
}

/// The typed deal of the table.
fn bridge(table: &Table) -> Result<&Bridge, RefereeError> {
    table
        .game()
        .as_any()
        .downcast_ref::<Bridge>()
        .ok_or_else(|| RefereeError::Internal("the table is not a Bridge game".into()))
}

/// The settings board `board` (0-based) is dealt with: the spec's, its number and the
/// running score before it.
fn board_settings(spec: &serde_json::Map<String, Value>, board: usize, score: &[i64]) -> Value {
    let mut settings = spec.clone();
    settings.insert("board".into(), json!(board + 1));
    settings.insert("running_score".into(), json!(score));
    Value::Object(settings)
}

fn internal(seat: Seat, what: impl std::fmt::Display) -> RefereeError {
    RefereeError::Internal(format!("seat {seat}: {what}"))
}

impl Match {
    /// Deals board `self.board` with its number and the running score.
    fn start_board(&mut self) -> Result<(), RefereeError> {
        let settings = board_settings(&self.settings, self.board, &self.score);
        self.table.set_settings(settings)?;
        if self.board > 0 {
            self.table.next_game()?;
        }
        self.log = StepLog::new();
        self.robot.iter_mut().for_each(|r| *r = false);
        Ok(())
    }

    async fn play_board(&mut self) -> Result<(), RefereeError> {
        while let Turn::Seat(seat) = self.table.turn() {
            let robot = self.robot.get(seat.index()).copied().unwrap_or(false);
            let program = self.programs.get(seat.index()).is_some_and(Option::is_some);
            match (robot, program) {
                (true, _) => self.robot_move(seat)?,
                (false, true) => {
                    if !self.program_move(seat).await? {
                        continue; // a violation: the Robot moves next time round
                    }
                }
                (false, false) => self.table.apply_auto(seat).await?,
            }
            if self.logged {
                self.write_move(seat, robot)?;
            }
        }
        let ns = bridge(&self.table)?.result().map_or(0, |r| r.ns_score);
        for (i, points) in self.score.iter_mut().enumerate() {
            *points += if (i % 2 == 0) == (ns > 0) {
                ns.abs()
            } else {
                0
            };
        }
        Ok(())
    }

    /// Appends the move just made to the StepLog (a player's line under the hand that moved)
    /// and the markers it reached.
    fn write_move(&mut self, seat: Seat, robot: bool) -> Result<(), RefereeError> {
        // The deal's record borrowed from the engine (no observation copied per move).
        let progress = bridge(&self.table)?.progress();
        let (hand, action) = progress
            .last_move()
            .ok_or_else(|| internal(seat, "no move made"))?;
        let author = if robot {
            Author::Robot
        } else {
            Author::Player(hand)
        };
        match action {
            Action::Call(call) => self.log.call(author, call),
            Action::Play(card) => self.log.play(author, card),
        }
        if robot || !self.is_program(seat) {
            let line = self.log.lines().last().map_or("", String::as_str);
            self.transcript
                .push(0, Some(seat), Direction::FromBot, line);
        }
        self.log.catch_up(progress);
        Ok(())
    }

    fn is_program(&self, seat: Seat) -> bool {
        self.programs.get(seat.index()).is_some_and(Option::is_some)
    }

    /// The Robot's move for a seat it took over, counted as forced.
    fn robot_move(&mut self, seat: Seat) -> Result<(), RefereeError> {
        let game = bridge(&self.table)?;
        let (obs, legal) = (game.observe(Viewer::Seat(seat)), game.legal_actions(seat));
        let action = BridgeRobot
            .choose(&obs, &legal, &mut self.robot_rng)
            .ok_or_else(|| internal(seat, "the Robot has no move"))?;
        let json = serde_json::to_value(action).map_err(|e| internal(seat, e))?;
        self.table.apply_forced_action(seat, json)
    }
}

#[cfg(test)]
mod tests;

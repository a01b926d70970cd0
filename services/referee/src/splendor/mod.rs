//! The Splendor adapter: the Girl Hackathon V judge's one-process-per-move protocol
//! (`docs/protocols.md#splendor`).
//!
//! For every turn of a program seat the referee runs the bot once (`permove::PerMoveSeat`): the game
//! state as JSON (`input.rs`) is its `argv[1]` **and** its stdin (then closed), so bots of both
//! kinds work; its stdout is one JSON object (`output.rs`). The per-move limit is
//! [`MatchLimits::move_time`](crate::MatchLimits) (the worker passes 2 s for Splendor); process
//! start-up counts. Player names are the seats' names (distinct, checked by the table).
//!
//! What loses the turn (the engine's [`Action::Pass`], the judge's "turn lost"), each recorded
//! against the seat with its reason (a fault in the replay and in the seat's detail; the first
//! one decides its end state) while **the seat keeps playing** its next turns:
//!
//! | the bot | end state | log line |
//! |---|---|---|
//! | prints `{}` or no action key | — (a move) | `Pass, turn lost.` |
//! | a move the rules refuse (overspends, >10 tokens, a card not on the table, both card and level to reserve, an unqualified noble) | `illegal_action` | `Invalid action. <reason>`, or the judge's own line where its logs show one (`Invalid Action. Doesn't have enough gems to purchase.`, `Invalid action. No more card for level 1.`) |
//! | prints nothing, not JSON, two objects, not an object, an unreadable action | `invalid_output` | `Invalid output: <reason>. Turn lost.` |
//! | exits non-zero or is killed by a signal | `crashed` (its code/signal) | `Execution error (exit code 1). Turn lost.` |
//! | runs past the move time | `time_limit` | `Time limit exceeded (2s). Turn lost.` |
//! | prints more than the stdout cap / runs out of memory | `output_limit` / `memory_limit` (always shown) | `… Turn lost.` |
//!
//! Several action keys in one answer are not a fault: the first in the documented order is
//! executed and the log says which were ignored. Built-in seats play through the same engine
//! calls (their bot and its random stream as the table would build them) so the log can name
//! their moves. The log is the match's transcript (`log.rs`).

mod input;
mod log;
pub(crate) mod output;
#[cfg(test)]
mod tests;

use std::time::Duration;

use croupier_games::splendor::{Action, Splendor};
use croupier_games::{Game, Seat, Turn, Viewer};
use croupier_sandbox::Sandbox;

use crate::assemble::{assemble_with, SeatEnd};
use crate::permove::{close_all, program_seats, PerMoveSeat};
use crate::result::MatchResult;
use crate::table::{Choice, Table};
use crate::verdict::{FaultKind, Faults};
use crate::{MatchSpec, RefereeError, SeatSpec};
use log::{invalid_action, Log};

enum Player {
    /// A built-in bot or a person: the table plays it.
    Auto,
    Program(Box<PerMoveSeat>),
}

struct Match {
    table: Table,
    players: Vec<Player>,
    faults: Vec<Faults>,
    log: Log,
    move_time: Duration,
    /// Turns so far, all seats: the log's `conn`.
    calls: u64,
    /// The seat's own call number during a program's turn (its stderr tail's `[call N]`).
    call: Option<u32>,
    game: usize,
}

pub(crate) async fn run(
    sandbox: &Sandbox,
    spec: &MatchSpec,
    mut table: Table,
) -> Result<MatchResult, RefereeError> {
    let programs = program_seats(sandbox, spec, &mut table).await?;
    let mut players = Vec::with_capacity(spec.seats.len());
    for (i, (seat, program)) in spec.seats.iter().zip(programs).enumerate() {
        players.push(match (seat, program) {
            (_, Some(program)) => Player::Program(Box::new(program)),
            (SeatSpec::Builtin { .. } | SeatSpec::Human { .. }, None) => Player::Auto,
            (SeatSpec::Program { .. }, None) => {
                return Err(RefereeError::Internal(format!("seat {i}: no program")))
            }
        });
    }
    let mut m = Match {
        faults: vec![Faults::default(); players.len()],
        players,
        table,
        log: Log::new(spec.limits.transcript_bytes),
        move_time: spec.limits.move_time,
        calls: 0,
        call: None,
        game: 0,
    };
    for game in 0..m.table.games() {
        if game > 0 {
            m.table.next_game()?;
        }
        m.game = game;
        m.play_game().await?;
    }
    let ends = m
        .faults
        .into_iter()
        .map(|faults| SeatEnd { proc: None, faults });
    let per_move = close_all(m.players.into_iter().map(|p| match p {
        Player::Program(seat) => Some(*seat),
        Player::Auto => None,
    }))
    .await;
    let transcript = m.log.into_transcript();
    assemble_with(ends.collect(), per_move, m.table, transcript).await
}

/// The typed game of the table.
fn splendor(table: &Table) -> Result<&Splendor, RefereeError> {
    table
        .game()
        .as_any()
        .downcast_ref::<Splendor>()
        .ok_or_else(|| RefereeError::Internal("the table is not a Splendor game".into()))
}

fn action_json(action: &Action) -> Result<serde_json::Value, RefereeError> {
    serde_json::to_value(action).map_err(|e| RefereeError::Internal(e.to_string()))
}

impl Match {
    async fn play_game(&mut self) -> Result<(), RefereeError> {
        let names = self.table.names.clone();
        let start = splendor(&self.table)?.observe(Viewer::Spectator);
        self.log.line(0, None, "Game starts!");
        self.log
            .line(0, None, &format!("Players: {}", names.join(", ")));
        self.log
            .line(0, None, &input::state(&start, &names).to_string());
        self.log.line(0, None, &format!("Round {}", start.round));
        while let Turn::Seat(seat) = self.table.turn() {
            self.calls += 1;
            let conn = self.calls;
            let name = names.get(seat.index()).cloned().unwrap_or_default();
            self.log
                .line(conn, Some(seat), &format!("Player {name}'s turn"));
            self.turn(seat, conn, &names).await?;
        }
        self.log_result(&names)
    }

    async fn turn(&mut self, seat: Seat, conn: u64, names: &[String]) -> Result<(), RefereeError> {
        let program = match self.players.get_mut(seat.index()) {
            Some(Player::Auto) => {
                self.call = None;
                return match self.table.auto_choice(seat).await? {
                    Choice::Move { action, took } => {
                        let action: Action = serde_json::from_value(action).map_err(|e| {
                            internal(seat, &format!("built-in move unreadable: {e}"))
                        })?;
                        self.play(seat, conn, action, took, true)
                    }
                    Choice::Lapsed(reason) => {
                        self.table.note_lapse(seat, &reason);
                        let line = format!("{}. Turn lost.", capitalized(&reason));
                        self.lose_turn(seat, conn, FaultKind::TimeLimit, &reason, &line)
                    }
                };
            }
            Some(Player::Program(program)) => program,
            None => return Err(internal(seat, "no such seat")),
        };
        let state = input::state(&splendor(&self.table)?.observe(Viewer::Seat(seat)), names);
        let state = state.to_string();
        let call = program
            .call(std::slice::from_ref(&state), state.clone().into_bytes())
            .await?;
        self.log.output(conn, seat, &call.stdout);
        self.call = Some(call.number);
        if let Some((kind, reason)) = call.outcome.fault(self.move_time) {
            let line = format!("{}. Turn lost.", capitalized(&reason));
            return self.lose_turn(seat, conn, kind, &reason, &line);
        }
        let answer = match output::parse(&call.stdout) {
            Ok(answer) => answer,
            Err(reason) => {
                let line = format!("Invalid output: {reason}. Turn lost.");
                let detail = format!("invalid output: {reason}");
                return self.lose_turn(seat, conn, FaultKind::InvalidOutput, &detail, &line);
            }
        };
        if !answer.ignored.is_empty() {
            let line = format!(
                "Several actions given: the first in the documented order is executed, {} ignored.",
                answer.ignored.join(", ")
            );
            self.log.line(conn, Some(seat), &line);
        }
        match answer.action {
            Ok(action) => self.play(seat, conn, action, call.wall, false),
            Err(reason) => {
                self.table.count_answer(seat, call.wall, 1);
                let line = invalid_action(&reason);
                self.lose_turn(seat, conn, FaultKind::IllegalAction, &reason, &line)
            }
        }
    }

    /// Applies a bot's move; a refusal loses the turn (a built-in's refusal is a referee bug).
    fn play(
        &mut self,
        seat: Seat,
        conn: u64,
        action: Action,
        took: Duration,
        builtin: bool,
    ) -> Result<(), RefereeError> {
        let mut probe = splendor(&self.table)?.clone();
        match self.table.apply_bot(seat, action_json(&action)?, took) {
            Ok(()) => {
                let events = probe
                    .apply(seat, action)
                    .map_err(|e| internal(seat, &e.to_string()))?;
                self.log.events(conn, seat, &events, false);
                Ok(())
            }
            Err(e) if builtin => Err(internal(seat, &format!("built-in move refused: {e}"))),
            Err(e) => {
                let reason = e.to_string();
                let line = invalid_action(&reason);
                self.lose_turn(seat, conn, FaultKind::IllegalAction, &reason, &line)
            }
        }
    }

    /// Records the fault and plays the judge's lost turn ([`Action::Pass`]) for the seat, counted
    /// as a forced move.
    fn lose_turn(
        &mut self,
        seat: Seat,
        conn: u64,
        kind: FaultKind,
        reason: &str,
        line: &str,
    ) -> Result<(), RefereeError> {
        let round = splendor(&self.table)?.round();
        let call = self
            .call
            .map(|n| format!(" (call {n})"))
            .unwrap_or_default();
        let detail = format!("game {}, round {round}{call}: {reason}", self.game + 1);
        if let Some(faults) = self.faults.get_mut(seat.index()) {
            faults.push(kind, detail.clone());
        }
        self.table.fault(seat, &detail);
        self.log.line(conn, Some(seat), line);
        let mut probe = splendor(&self.table)?.clone();
        // Splendor's forced move is the pass (the judge's lost turn), not the first legal action.
        self.table
            .apply_forced_action(seat, action_json(&Action::Pass)?)?;
        let events = probe
            .apply(seat, Action::Pass)
            .map_err(|e| internal(seat, &e.to_string()))?;
        self.log.events(conn, seat, &events, true);
        Ok(())
    }

    /// The judge's final lines: every player's points and purchased cards, then the ranking.
    fn log_result(&mut self, names: &[String]) -> Result<(), RefereeError> {
        let game = splendor(&self.table)?;
        let outcome = game
            .outcome()
            .ok_or_else(|| RefereeError::Internal("a finished game without outcome".into()))?;
        self.log
            .result(names, &game.points(), &game.purchased(), &outcome);
        Ok(())
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn internal(seat: Seat, what: &str) -> RefereeError {
    RefereeError::Internal(format!("splendor seat {seat}: {what}"))
}

//! One turn: the built-in's or the person's move, the bot's `{"actIndex": i}` (with re-sends of the same
//! `act` after an out-of-range index), or the referee's forced first legal action.

use std::time::{Duration, Instant};

use croupier_games::guandan::{Action, Guandan};
use croupier_games::{Game, Seat, Viewer};
use croupier_sandbox::KillReason;
use serde_json::Value;

use super::conn::ConnEvent;
use super::session::{Event, Session};
use super::typed;
use super::wire::{self, Reply};
use crate::result::Direction;
use crate::seat::Stop;
use crate::table::{Choice, Table};
use crate::verdict::FaultKind;
use crate::RefereeError;

impl Session {
    /// Gets `seat`'s move (asking its bot, its built-in, or forcing it) and applies it to the
    /// table; returns the move applied.
    pub(super) async fn turn(
        &mut self,
        seat: Seat,
        game: &Guandan,
    ) -> Result<Action, RefereeError> {
        if self.table.is_auto(seat) {
            return match self.table.auto_choice(seat).await? {
                Choice::Move {
                    action: choice,
                    took,
                } => {
                    let action = serde_json::from_value(choice.clone())
                        .map_err(|e| RefereeError::Internal(format!("built-in move: {e}")))?;
                    self.table
                        .apply_bot(seat, choice, took)
                        .map_err(|e| RefereeError::Internal(format!("built-in move: {e}")))?;
                    Ok(action)
                }
                Choice::Lapsed(reason) => {
                    self.table.lapse(seat, &reason);
                    self.force(seat, game)
                }
            };
        }
        if self.connected(seat) {
            // Only a connected bot is shown its observation (with every legal action).
            let observation = game.observe(Viewer::Seat(seat));
            let legal = &observation.action_list;
            if legal.is_empty() {
                return Err(no_legal_action(seat));
            }
            let act = wire::act(&observation);
            if let Some((index, took)) = self.ask(seat, &act, legal.len()).await? {
                if let Some(action) = legal.get(index) {
                    let value = Value::from(action.clone());
                    self.table
                        .apply_bot(seat, value, took)
                        .map_err(|e| RefereeError::Internal(format!("listed move refused: {e}")))?;
                    return Ok(action.clone());
                }
            }
        }
        self.force(seat, game)
    }

    /// The referee's move for `seat` (`game` is the state before it): its first legal
    /// action, listed once, applied to the table and returned.
    fn force(&mut self, seat: Seat, game: &Guandan) -> Result<Action, RefereeError> {
        let first = game.legal_actions(seat).into_iter().next();
        let first = first.ok_or_else(|| no_legal_action(seat))?;
        self.table
            .apply_forced_action(seat, Value::from(first.clone()))?;
        Ok(first)
    }

    /// Sends `act` and waits for an index in `0..len`; re-sends on an out-of-range index up to
    /// the setting's limit. `None`: the seat failed, or used up its re-sends (recorded).
    async fn ask(
        &mut self,
        seat: Seat,
        act: &str,
        len: usize,
    ) -> Result<Option<(usize, Duration)>, RefereeError> {
        let resends = resend_limit(&self.table);
        let mut bad = 0;
        self.send_text(seat, act).await;
        let mut asked = Instant::now();
        let mut deadline = asked + self.limits.move_time;
        while self.connected(seat) {
            match self.next_event(deadline).await {
                Event::Deadline => {
                    let detail = format!("no actIndex within {:?}", self.limits.move_time);
                    let stop = Stop::Now(KillReason::Deadline);
                    self.retire(seat, FaultKind::TimeLimit, detail, stop);
                }
                Event::Conn(from, ConnEvent::Text(text)) if from == seat => {
                    self.transcript.push(
                        seat.index() as u64,
                        Some(seat),
                        Direction::FromBot,
                        &text,
                    );
                    match wire::reply(&text) {
                        Reply::Index(i) => match usize::try_from(i).ok().filter(|&i| i < len) {
                            Some(i) => return Ok(Some((i, asked.elapsed()))),
                            None if bad < resends => {
                                bad += 1;
                                self.send_text(seat, act).await;
                                asked = Instant::now();
                                deadline = asked + self.limits.move_time;
                            }
                            None => {
                                self.illegal(seat, i, len, bad, asked.elapsed());
                                return Ok(None);
                            }
                        },
                        Reply::Garbage(reason) => {
                            let stop = Stop::Now(KillReason::MatchEnded);
                            self.retire(seat, FaultKind::InvalidOutput, reason, stop);
                        }
                    }
                }
                event => self.handle(event)?,
            }
        }
        Ok(None)
    }

    /// Records an out-of-range index after the re-sends; the seat stays in the game.
    fn illegal(&mut self, seat: Seat, index: i64, len: usize, resends: u32, took: Duration) {
        let detail = format!(
            "actIndex {index} is outside 0..={} (after {resends} re-sends of the same act); \
             the referee played the first legal action",
            len.saturating_sub(1)
        );
        self.seats
            .fault(seat, FaultKind::IllegalAction, detail.clone());
        // A refused answer still counts as a move of the bot (with its time).
        self.table.count_answer(seat, took, 1);
        self.table.fault(seat, &detail);
    }
}

fn resend_limit(table: &Table) -> u32 {
    typed(table).map_or(3, |g| g.settings().bad_index_resends)
}

fn no_legal_action(seat: Seat) -> RefereeError {
    RefereeError::Internal(format!("seat {seat} has no legal action"))
}

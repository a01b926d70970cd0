//! The Hanabi adapter: 《控制论合作者》's websocket protocol (`docs/protocols.md#hanabi`).
//!
//! Phases, each driven by the session's one event loop (`Session::next_event`):
//! 1. **Setup.** A `MatchNet` per match with a websocket server on 127.0.0.1:9999 inside it
//!    (any path; without root, in sandbox mode `none`, the host's loopback instead). Each program
//!    seat is started (stdin empty and kept open); a class-based `player.py` runs through the
//!    runner ([`runtime`]).
//! 2. **Join** (until every program seat connected or failed, at most `join_time`): see
//!    [`session`] for who gets which seat. A seat that never connects is `time_limit`.
//! 3. **The game** (one per match, like one run of the original server; the league plays N
//!    games as N matches on fixed seeds), in the order of the bots' protocol indices, which
//!    are a seeded shuffle of the seats ([`indices`]: the engine seat stays the spec seat, the
//!    index a bot sees and the turn order are shuffled, as in the original, where the seats
//!    are shuffled and index 0 starts): `onStart` to every seat; per turn `onTurnStart` to
//!    every seat, `turn` to the seat on turn only, its answer, then `onHintColor` /
//!    `onHintNumber` to the hint's target only and `onPlayerAction` to every seat (each with
//!    its own view of the draw); at the end `onGameEnd` to every connected seat.
//! 4. **End.** Bots get `end_grace` to exit (a seat that closed its connection during the game,
//!    until its exit grace is over: its exit status, not the kill, is its verdict), then every
//!    process is killed with its tree.
//!
//! **Faults** follow the crate's table, with the game's `on_illegal` setting deciding what
//! happens next. `end_game` (default): any fault (an illegal move, garbage, a timeout, a
//! disconnect or crash) ends the game at once with the score so far (`onGameEnd` reason -1 to
//! everyone still connected, the illegal mover included). `ask_again`: an illegal move is
//! refused and the bot gets `turn` again (one `move_time` for the whole turn, so a bot repeating
//! itself ends as `time_limit`); a seat that left is played for by the referee (the engine's
//! first legal move, playing the card in slot 0) so the others' game completes.
//! A built-in seat plays through the engine and gets no messages.
//!
//! **Class-based bots** fail by raising: the runner prints the traceback (flushed, before
//! anything is closed) and exits with status 1, so the seat is `crashed` with the traceback in
//! its log. Such an exit counts even once the game is over (unlike other programs', whose exit
//! after the end is their own business): an exception in `onGameEnd`, or in a listener of a bot
//! still handling a message from before another seat's fault ended the game, is that seat's
//! `crashed`; each failing seat gets its own verdict, the others stay `ok`.

mod classes;
pub(crate) mod frames;
pub(crate) mod indices;
mod runtime;
mod session;
pub(crate) mod wire;

pub use classes::check_entry;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use croupier_games::hanabi::Hanabi;
use croupier_games::{Game, GameRng, Seat, Stream, Turn};
use croupier_sandbox::{KillReason, Sandbox};
use tokio::sync::{mpsc, watch};

use crate::assemble::assemble;
use crate::result::{MatchResult, Transcript};
use crate::seat::Event;
use crate::seat::{SeatProc, Seats, Stop};
use crate::table::Table;
use crate::verdict::FaultKind;
use crate::{MatchSpec, RefereeError, SeatSpec};
use indices::Indices;
use session::{Phase, Presence, Session};
use wire::Answer;

/// The port the original server listens on and bots hard-code.
pub(crate) const PORT: u16 = 9999;

pub(crate) async fn run(sandbox: &Sandbox, spec: &MatchSpec) -> Result<MatchResult, RefereeError> {
    // The protocol indices first (the engine plays in their order from the first move, so the
    // game is dealt with them in its settings), then the uid-less connection order, both from
    // the seed's referee stream.
    let mut shuffles = GameRng::derive(spec.seed, Stream::Referee);
    let indices = Indices::choose(&spec.settings, spec.seats.len(), &mut shuffles);
    let mut table = Table::with_settings(spec, indices.settings(&spec.settings))?;
    if spec.games != 1 {
        return Err(RefereeError::InvalidSpec(format!(
            "a Hanabi match is one game (the original server plays one game per run), not {}: \
             schedule one match per game",
            spec.games
        )));
    }
    let rainbow = match table.game().as_any().downcast_ref::<Hanabi>() {
        Some(game) => game.settings().rainbow,
        None => {
            return Err(RefereeError::Internal(
                "the Hanabi adapter got another game".into(),
            ))
        }
    };
    let transcript = Transcript::new(spec.limits.transcript_bytes);
    let crate::net::MatchSockets {
        net,
        listeners,
        owners,
    } = crate::net::open(&[PORT], &spec.seats)?;
    // (None when no seat is a program: nobody connects.)
    let listener = listeners.into_iter().next();
    let (uids_tx, uids_rx) = watch::channel(None);
    let hub = frames::start(listener, owners, uids_rx, spec.limits.line_bytes)
        .map_err(RefereeError::Network)?;
    let (events_tx, seat_events) = mpsc::unbounded_channel();
    let mut seats = Seats::default();
    let (mut runtimes, mut class_seats) = (Vec::new(), Vec::new());
    for (i, seat) in spec.seats.iter().enumerate() {
        let proc = match seat {
            SeatSpec::Builtin { .. } | SeatSpec::Human { .. } => None,
            SeatSpec::Program {
                bot_dir, command, ..
            } => {
                let (limits, events) = (&spec.limits, events_tx.clone());
                let proc = match runtime::class_based(bot_dir, command) {
                    Some(class_bot) => {
                        let (run, dir) = runtime::runner_spec(&class_bot, bot_dir, rainbow)
                            .map_err(|e| RefereeError::Sandbox {
                                seat: i,
                                reason: format!("writing the class-based bot runner: {e}"),
                            })?;
                        runtimes.push(dir);
                        class_seats.push(Seat(i));
                        SeatProc::start_spec(
                            sandbox,
                            Seat(i),
                            run,
                            net.clone(),
                            String::new(),
                            limits,
                            events,
                        )
                        .await?
                    }
                    None => {
                        let of = (bot_dir.as_path(), command.as_slice());
                        SeatProc::start(
                            sandbox,
                            Seat(i),
                            of,
                            net.clone(),
                            String::new(),
                            limits,
                            events,
                        )
                        .await?
                    }
                };
                table.meter(Seat(i), Arc::clone(&proc.meter));
                Some(proc)
            }
        };
        seats.push(proc);
    }
    drop(events_tx);
    let _ = uids_tx.send(Some(seats.uids()));
    let mut order = seats.pending();
    shuffles.shuffle(&mut order);
    let mut session = Session {
        table,
        seats,
        hub,
        seat_events,
        transcript,
        limits: spec.limits.clone(),
        phase: Phase::Lobby,
        conns: HashMap::new(),
        order,
        indices,
        class_seats,
    };
    session.join().await?;
    session.play().await?;
    session.end().await?;
    let result = assemble(session.seats.into_ends(), session.table, session.transcript).await;
    drop(runtimes); // every seat process is gone now
    result
}

impl Session {
    async fn join(&mut self) -> Result<(), RefereeError> {
        let deadline = Instant::now() + self.limits.join_time;
        while !self.seats.pending().is_empty() {
            match self.next_event(deadline).await {
                Event::Deadline => {
                    let detail = format!(
                        "did not connect to ws://127.0.0.1:{PORT} within {:?}",
                        self.limits.join_time
                    );
                    for seat in self.seats.pending() {
                        let stop = Stop::Now(KillReason::Deadline);
                        self.retire(seat, FaultKind::TimeLimit, detail.clone(), stop);
                    }
                }
                event => self.handle(event)?,
            }
        }
        Ok(())
    }

    async fn play(&mut self) -> Result<(), RefereeError> {
        self.phase = Phase::Playing;
        self.broadcast(|view, indices| Some(wire::on_start(view, indices)));
        while let Turn::Seat(seat) = self.table.turn() {
            let index = self.indices.index(seat);
            self.broadcast(|_, _| Some(wire::on_turn_start(index)));
            let mut moved = match self.presence(seat) {
                Presence::Builtin => {
                    self.table.apply_auto(seat).await?;
                    true
                }
                Presence::Joined(conn) => self.play_turn(seat, conn).await?,
                Presence::Pending | Presence::Gone => false,
            };
            // A seat that is gone (`ask_again`): the referee plays for it.
            if !moved && self.table.turn() == Turn::Seat(seat) {
                self.table.apply_forced(seat)?;
                moved = true;
            }
            if moved {
                self.announce_move();
            }
        }
        let end = self.hanabi().and_then(Hanabi::game_end);
        let end =
            end.ok_or_else(|| RefereeError::Internal("a game ended without an end".into()))?;
        self.broadcast(|_, _| Some(wire::on_game_end(end.code, end.score)));
        self.phase = Phase::Over;
        Ok(())
    }

    /// After a move: the hint to its target, then `onPlayerAction` to everyone.
    fn announce_move(&mut self) {
        self.broadcast(|view, _| view.hint_received.as_ref().map(wire::on_hint));
        self.broadcast(|view, indices| {
            let report = view.last_action.as_ref()?;
            Some(wire::on_player_action(report, indices))
        });
    }

    /// Asks `seat` for its move until the engine takes one. `Ok(false)`: no move was made
    /// (the game ended by a fault, or the seat left and the referee plays for it next loop).
    async fn play_turn(
        &mut self,
        seat: Seat,
        conn: crate::hub::ConnId,
    ) -> Result<bool, RefereeError> {
        let asked = Instant::now();
        let deadline = asked + self.limits.move_time;
        self.send(seat, &wire::turn());
        while self.table.turn() == Turn::Seat(seat) && self.presence(seat) == Presence::Joined(conn)
        {
            match self.next_event(deadline).await {
                Event::Deadline => {
                    let detail =
                        format!("did not answer `turn` within {:?}", self.limits.move_time);
                    self.retire(
                        seat,
                        FaultKind::TimeLimit,
                        detail,
                        Stop::Now(KillReason::Deadline),
                    );
                }
                Event::Hub(crate::hub::HubEvent::Message {
                    conn: from,
                    value,
                    text,
                }) if from == conn => {
                    match wire::answer(&value, &self.indices) {
                        Answer::Invalid(reason) => {
                            let stop = Stop::Now(KillReason::MatchEnded);
                            self.retire(seat, FaultKind::InvalidOutput, reason, stop);
                        }
                        Answer::Action(action) => {
                            match self.table.apply_bot(seat, action, asked.elapsed()) {
                                Ok(()) => return Ok(true),
                                Err(refused) => {
                                    let moves = self.view(seat).map_or(0, |v| v.moves);
                                    let detail = format!(
                                        "move {}: {} refused: {refused}{}",
                                        moves + 1,
                                        frames::clip(&text),
                                        self.indices.note(seat, &value)
                                    );
                                    self.fault(seat, FaultKind::IllegalAction, detail);
                                    if self.table.turn() == Turn::Seat(seat) {
                                        self.send(seat, &wire::turn()); // on_illegal = ask_again
                                    }
                                }
                            }
                        }
                    }
                }
                event => self.handle(event)?,
            }
        }
        Ok(false)
    }

    async fn end(&mut self) -> Result<(), RefereeError> {
        self.phase = Phase::Over;
        let end = Instant::now() + self.limits.end_grace;
        while let Some(deadline) = self.seats.awaited_until(end) {
            match self.next_event(deadline).await {
                Event::Deadline => break,
                event => self.handle(event)?,
            }
        }
        Ok(())
    }
}

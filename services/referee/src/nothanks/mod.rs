//! The No Thanks adapter: the BoardCoder server's TCP lobby protocol
//! (`docs/protocols.md#no-thanks`).
//!
//! Phases, each driven by the room's one event loop (`Room::next_event`):
//! 1. **Setup.** A `MatchNet` per match with listeners on 127.0.0.1:1000 and :2004 inside it
//!    (without root, in sandbox mode `none`, the host's loopback instead); each program seat is
//!    started with `<room>\n<player name>\n` on its stdin (kept open).
//! 2. **Join** (until every program seat joined or failed, at most `join_time`): each connection
//!    gets `notice_connection_ok` and `request_room_name_and_role`; see `lobby.rs` for the rules.
//!    Seats connect in any order and are mapped by player name (and uid when available).
//! 3. **Games** (1, or N in a `learning` room): `notice_epoc {epoc_num}` to players (learning
//!    only), `notice_start` to players and viewers; per turn `information_game` to viewers,
//!    `request_action` to the player on turn only, its `reply_action`, `result_action` to it;
//!    `notice_end` to players and viewers.
//! 4. **End.** Everyone gets `request_room_name_and_role` again (the original's return to the
//!    lobby; stdin stays open, so a bot calling `input()` waits instead of failing), bots get
//!    `end_grace` to exit, then every process is killed with its tree.

pub(crate) mod json_reader;
mod lines;
mod lobby;
mod room;
mod status;
pub(crate) mod wire;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use croupier_games::{Seat, Turn};
use croupier_sandbox::{KillReason, Sandbox};
use serde_json::Value;
use tokio::sync::{mpsc, watch};

use crate::assemble::assemble;
use crate::result::{MatchResult, Transcript};
use crate::seat::Event;
use crate::seat::{SeatProc, Seats, Stop};
use crate::table::Table;
use crate::verdict::FaultKind;
use crate::{MatchSpec, RefereeError, SeatSpec};
use room::{Phase, Presence, Room};
use wire::{incoming, Incoming};

/// The ports bots hard-code.
pub(crate) const PORTS: [u16; 2] = [1000, 2004];

pub(crate) async fn run(
    sandbox: &Sandbox,
    spec: &MatchSpec,
    mut table: Table,
) -> Result<MatchResult, RefereeError> {
    let transcript = Transcript::new(spec.limits.transcript_bytes);
    let crate::net::MatchSockets {
        net,
        listeners,
        owners,
    } = crate::net::open(&PORTS, &spec.seats)?;
    let (uids_tx, uids_rx) = watch::channel(None);
    let hub = lines::start(listeners, owners, uids_rx, spec.limits.line_bytes)
        .map_err(RefereeError::Network)?;
    let room = if spec.games > 1 { "learning" } else { "normal" };
    let (events_tx, seat_events) = mpsc::unbounded_channel();
    let mut seats = Seats::default();
    for (i, seat) in spec.seats.iter().enumerate() {
        let name = table.names.get(i).cloned().unwrap_or_default();
        let proc = match seat {
            SeatSpec::Builtin { .. } | SeatSpec::Human { .. } => None,
            SeatSpec::Program {
                bot_dir, command, ..
            } => {
                let stdin = format!("{room}\n{name}\n");
                let seat_of = (bot_dir.as_path(), command.as_slice());
                let limits = &spec.limits;
                let proc = SeatProc::start(
                    sandbox,
                    Seat(i),
                    seat_of,
                    net.clone(),
                    stdin,
                    limits,
                    events_tx.clone(),
                )
                .await?;
                table.meter(Seat(i), Arc::clone(&proc.meter));
                Some(proc)
            }
        };
        seats.push(proc);
    }
    drop(events_tx);
    let _ = uids_tx.send(Some(seats.uids()));
    let mut room = Room {
        room: room.to_owned(),
        names: table.names.clone(),
        table,
        seats,
        hub,
        seat_events,
        transcript,
        limits: spec.limits.clone(),
        phase: Phase::Lobby,
        conns: HashMap::new(),
    };
    room.join().await?;
    for game in 0..room.table.games() {
        if game > 0 {
            room.table.next_game()?;
        }
        room.play_game(game).await?;
    }
    room.end().await?;
    assemble(room.seats.into_ends(), room.table, room.transcript).await
}

impl Room {
    async fn join(&mut self) -> Result<(), RefereeError> {
        let deadline = Instant::now() + self.limits.join_time;
        while !self.seats.pending().is_empty() {
            match self.next_event(deadline).await {
                Event::Deadline => {
                    let detail =
                        format!("did not join the room within {:?}", self.limits.join_time);
                    for seat in self.seats.pending() {
                        let stop = Stop::Now(KillReason::Deadline);
                        self.retire(seat, FaultKind::TimeLimit, detail.clone(), stop);
                    }
                }
                event => self.handle(event).await?,
            }
        }
        Ok(())
    }

    async fn play_game(&mut self, game: usize) -> Result<(), RefereeError> {
        self.phase = Phase::Playing;
        if self.table.games() > 1 {
            self.broadcast(true, false, |_| Ok(wire::notice_epoc(game + 1)))?;
        }
        for i in 0..self.seats.len() {
            if game > 0 && self.presence(Seat(i)) == Presence::Gone {
                self.table
                    .fault(Seat(i), "absent: the referee plays for this seat");
            }
        }
        self.broadcast(true, true, |this| {
            Ok(wire::with_status("notice_start", &this.status()?))
        })?;
        while let Turn::Seat(seat) = self.table.turn() {
            self.broadcast(false, true, |this| {
                Ok(wire::with_status("information_game", &this.status()?))
            })?;
            match self.presence(seat) {
                Presence::Builtin => self.table.apply_auto(seat).await?,
                Presence::Joined(conn) => self.play_turn(seat, conn, game).await?,
                Presence::Pending | Presence::Gone => self.table.apply_forced(seat)?,
            }
        }
        self.broadcast(true, true, |this| {
            Ok(wire::with_status("notice_end", &this.status()?))
        })?;
        Ok(())
    }

    async fn play_turn(
        &mut self,
        seat: Seat,
        conn: crate::hub::ConnId,
        game: usize,
    ) -> Result<(), RefereeError> {
        let status = self.status()?;
        let legal = self.table.game().legal_actions_json(seat);
        let action_types: Vec<String> = legal
            .iter()
            .filter_map(|a| a.as_str().map(String::from))
            .collect();
        self.send(conn, &wire::request_action(&action_types, &status));
        let Some((action, took)) = self.answer(seat, conn).await? else {
            return self.table.apply_forced(seat);
        };
        let turn = status.turnnum();
        let refused = self
            .table
            .apply_bot(seat, Value::String(action.clone()), took)
            .err();
        let declined = match refused {
            None => None,
            Some(error) => {
                let reason = format!("{error}; the referee picked for you");
                let detail = format!(
                    "game {}, turn {turn}: {action:?} refused: {error}",
                    game + 1
                );
                self.seats
                    .fault(seat, FaultKind::IllegalAction, detail.clone());
                self.table.fault(seat, &detail);
                self.table.apply_forced(seat)?;
                Some(reason)
            }
        };
        let status = self.status()?;
        self.send(conn, &wire::result_action(declined.as_deref(), &status));
        Ok(())
    }

    /// Waits for the seat's `reply_action`; `None` when the seat failed meanwhile.
    async fn answer(
        &mut self,
        seat: Seat,
        conn: crate::hub::ConnId,
    ) -> Result<Option<(String, Duration)>, RefereeError> {
        let asked = Instant::now();
        let deadline = asked + self.limits.move_time;
        while self.presence(seat) == Presence::Joined(conn) {
            match self.next_event(deadline).await {
                Event::Deadline => {
                    let detail = format!(
                        "did not answer request_action within {:?}",
                        self.limits.move_time
                    );
                    self.retire(
                        seat,
                        FaultKind::TimeLimit,
                        detail,
                        Stop::Now(KillReason::Deadline),
                    );
                }
                Event::Hub(crate::hub::HubEvent::Message {
                    conn: from, value, ..
                }) if from == conn => match incoming(&value) {
                    Incoming::Action(action) => return Ok(Some((action, asked.elapsed()))),
                    Incoming::RoomReply(_) => {}
                    Incoming::Invalid(reason) => {
                        self.retire(
                            seat,
                            FaultKind::InvalidOutput,
                            reason,
                            Stop::Now(KillReason::MatchEnded),
                        );
                    }
                },
                event => self.handle(event).await?,
            }
        }
        Ok(None)
    }

    async fn end(&mut self) -> Result<(), RefereeError> {
        self.phase = Phase::Over;
        self.broadcast(true, true, |this| Ok(wire::request_room(&this.room)))?;
        let end = Instant::now() + self.limits.end_grace;
        while let Some(deadline) = self.seats.awaited_until(end) {
            match self.next_event(deadline).await {
                Event::Deadline => break,
                event => self.handle(event).await?,
            }
        }
        Ok(())
    }
}

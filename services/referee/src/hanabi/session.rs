//! The session: seats, connections and the one event loop every phase of a Hanabi match runs
//! on ([`Session::next_event`]: a seat's process event first, then socket events, then the
//! current deadline), and the fault rules shared by every phase.
//!
//! **Seating.** The engine's seat `i` is the spec's seat `i` (results, replays and the league
//! all index seats that way). A connection is given to the seat whose process opened it, read
//! from the kernel's socket owner uid (isolated sandbox: one slot uid per seat), so the order
//! in which bots connect never matters and a bot cannot take another's seat. Without uids
//! (sandbox mode `none`) connections are seated in the order their handshakes complete, over a
//! permutation of the waiting program seats shuffled from the match seed (`Stream::Referee`,
//! after the index shuffle). (When one bot opens two connections at once, whichever handshake
//! completes first takes its seat.) Either way the index a bot sees is not its seat: it is the
//! seeded shuffle of [`Indices`](super::indices), as the original shuffles its seats, and the
//! bot learns it from `onStart` (its own row is all -1). Connections beyond the seats, or
//! after the game started, are closed at once.

use std::collections::HashMap;
use std::time::Instant;

use croupier_games::hanabi::{Hanabi, Observation};
use croupier_games::{Game, Seat, Viewer};
use croupier_sandbox::{EndState, KillReason};
use tokio::sync::mpsc;

use super::indices::Indices;
use crate::hub::{ConnId, Hub, HubEvent, SendError};
use crate::result::{Direction, Transcript};
use crate::seat::{Event, SeatEvent, Seats, Stop};
use crate::table::Table;
use crate::verdict::FaultKind;
use crate::{MatchLimits, RefereeError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Lobby,
    Playing,
    Over,
}

/// A seat's presence: `Joined` with its connection.
pub(super) type Presence = crate::seat::Presence<ConnId>;

pub(super) struct Session {
    pub table: Table,
    pub seats: Seats<ConnId>,
    pub hub: Hub,
    pub seat_events: mpsc::UnboundedReceiver<(Seat, SeatEvent)>,
    pub transcript: Transcript,
    pub limits: MatchLimits,
    pub phase: Phase,
    /// Player connections.
    pub conns: HashMap<ConnId, Seat>,
    /// Program seats in the order uid-less connections take them (seeded permutation).
    pub order: Vec<Seat>,
    /// Engine seats ↔ the protocol indices the bots see.
    pub indices: Indices,
    /// The seats of class-based bots, played by the runner ([`super::runtime`]).
    pub class_seats: Vec<Seat>,
}

impl Session {
    pub async fn next_event(&mut self, deadline: Instant) -> Event {
        let event = Event::next(&mut self.seat_events, &mut self.hub, deadline).await;
        if let Some((conn, text)) = event.sent_by_bot() {
            let seat = self.conns.get(&conn).copied();
            self.transcript.push(conn, seat, Direction::FromBot, text);
        }
        event
    }

    /// Everything but the answer the caller is waiting for.
    pub fn handle(&mut self, event: Event) -> Result<(), RefereeError> {
        match event {
            Event::Deadline => {}
            Event::Seat(seat, event) => {
                self.class_bot_failed(seat, &event);
                let output_bytes = self.limits.output_bytes;
                let (kind, detail) = self.seats.seat_event(seat, event, output_bytes)?;
                self.retire(seat, kind, detail, Stop::Already);
            }
            Event::Hub(HubEvent::Opened { conn, uid }) => self.seat_connection(conn, uid),
            Event::Hub(HubEvent::Closed { conn }) => {
                if let Some(seat) = self.conns.remove(&conn) {
                    let detail = "closed its connection before the game ended";
                    self.retire(seat, FaultKind::Left, detail, Stop::Grace);
                }
            }
            Event::Hub(HubEvent::Garbage { conn, reason }) => {
                if let Some(seat) = self.conns.get(&conn).copied() {
                    let stop = Stop::Now(KillReason::MatchEnded);
                    self.retire(seat, FaultKind::InvalidOutput, reason, stop);
                }
                self.close(conn);
            }
            // Out of turn (or after the end): stale, ignored, as long as it is JSON.
            Event::Hub(HubEvent::Message { .. }) => {}
        }
        Ok(())
    }

    /// A class-based bot whose runner exits with an error once the game is over still failed:
    /// the runner exits non-zero only when the bot's own code raised (its traceback is in the
    /// log), be it in `onGameEnd` or in a listener still handling a message from before a fault
    /// of another seat ended the game. Recorded as a fault of that seat alone (`crashed`, and in
    /// the replay, where the engine, its game over, takes it as a no-op, so that a seat that
    /// never moved ranks as idle like the seat whose fault ended the game), unless it already
    /// has one. (During the game, the exit retires the seat as any exit does.)
    fn class_bot_failed(&mut self, seat: Seat, event: &SeatEvent) {
        let SeatEvent::Exited(end_state) = event else {
            return;
        };
        let failed = !matches!(end_state, EndState::Ok | EndState::SetupError(_));
        let joined = self.seats.joined(seat).is_some();
        if self.phase == Phase::Over && failed && joined && self.class_seats.contains(&seat) {
            let detail = format!(
                "the bot's code failed as the game ended (the runner exited: {end_state}); \
                 its traceback is in its log"
            );
            self.fault(seat, FaultKind::Left, detail);
        }
    }

    /// A new connection takes the seat of the process that opened it (or, without uids, the
    /// next waiting seat of the seeded order); anything else is closed at once.
    fn seat_connection(&mut self, conn: ConnId, uid: Option<u32>) {
        let seat = if self.phase != Phase::Lobby {
            None
        } else if uid.is_some() {
            self.seats.seat_of_uid(uid)
        } else {
            let pending = |seat: &Seat| self.seats.is_pending(*seat);
            self.order.iter().copied().find(pending)
        };
        match seat {
            Some(seat) if self.seats.join(seat, conn) => {
                self.conns.insert(conn, seat);
            }
            _ => self.hub.close(conn),
        }
    }

    /// A fault that does not remove the seat (an illegal move): recorded in the seat's
    /// faults and the replay; with `on_illegal = end_game` the engine ends the game.
    pub fn fault(&mut self, seat: Seat, kind: FaultKind, detail: String) {
        self.seats.fault(seat, kind, detail.clone());
        self.fault_logged(seat, kind, &detail);
    }

    fn fault_logged(&mut self, seat: Seat, kind: FaultKind, detail: &str) {
        tracing::debug!(%seat, ?kind, %detail, "seat fault");
        self.table.fault(seat, detail);
    }

    /// Records a fault and the seat leaves: its connection is closed, its process stopped.
    /// The engine ends the game (`end_game`) or the referee plays for the seat (`ask_again`).
    /// After the game is over nothing counts as a fault.
    pub fn retire(&mut self, seat: Seat, kind: FaultKind, detail: impl Into<String>, stop: Stop) {
        if self.phase == Phase::Over {
            return;
        }
        let detail = detail.into();
        let Some(was) = self.seats.retire(seat, kind, detail.clone(), stop) else {
            return;
        };
        self.fault_logged(seat, kind, &detail);
        if let Presence::Joined(conn) = was {
            self.close(conn);
        }
    }

    pub fn close(&mut self, conn: ConnId) {
        self.hub.close(conn);
        self.conns.remove(&conn);
    }

    /// Sends one message to `seat` if it is connected; a bot that stopped reading its socket
    /// is faulty.
    pub fn send(&mut self, seat: Seat, text: &str) {
        let Presence::Joined(conn) = self.presence(seat) else {
            return;
        };
        self.transcript
            .push(conn, Some(seat), Direction::ToBot, text);
        if let Err(SendError::NotReading) = self.hub.send(conn, text) {
            self.retire(
                seat,
                FaultKind::TimeLimit,
                crate::hub::NOT_READING,
                Stop::Now(KillReason::MatchEnded),
            );
        }
    }

    /// Sends `message(view of seat, the match's indices)` to every connected seat, in seat
    /// order.
    pub fn broadcast(&mut self, message: impl Fn(&Observation, &Indices) -> Option<String>) {
        for seat in self.seats.all() {
            if !matches!(self.presence(seat), Presence::Joined(_)) {
                continue;
            }
            let text = self
                .view(seat)
                .and_then(|view| message(&view, &self.indices));
            if let Some(text) = text {
                self.send(seat, &text);
            }
        }
    }

    /// The table's game, as the Hanabi engine it is.
    pub fn hanabi(&self) -> Option<&Hanabi> {
        self.table.game().as_any().downcast_ref::<Hanabi>()
    }

    /// The engine's observation for `seat`.
    pub fn view(&self, seat: Seat) -> Option<Observation> {
        Some(self.hanabi()?.observe(Viewer::Seat(seat)))
    }

    pub fn presence(&self, seat: Seat) -> Presence {
        self.seats.presence(seat)
    }
}

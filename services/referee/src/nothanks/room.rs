//! The room: seats, connections and the one event loop every phase of a match runs on.
//!
//! [`Room::next_event`] is the crate's hub event loop ([`Event::next`]: a seat's process event
//! first, then socket events, then the current deadline), recording what bots send.
//! Cancellation is dropping the match future: the hub's tasks are aborted and every seat
//! process is killed with its tree.

use std::collections::HashMap;
use std::time::Instant;

use croupier_games::Seat;
use croupier_sandbox::KillReason;
use tokio::sync::mpsc;

use super::status::GameStatus;
use super::wire::{self, incoming, Incoming};
use crate::hub::{ConnId, Hub, HubEvent, SendError};
use crate::result::{Direction, Transcript};
use crate::seat::{Event, SeatEvent, Seats, Stop};
use crate::table::Table;
use crate::verdict::FaultKind;
use crate::{MatchLimits, RefereeError};

pub(super) const MAX_VIEWERS: usize = 8;
/// Connections one bot (one slot uid) may hold open at once: a player and a few viewers.
const MAX_CONNECTIONS_PER_BOT: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Lobby,
    Playing,
    Over,
}

/// A seat's presence: `Joined` with its player connection.
pub(super) type Presence = crate::seat::Presence<ConnId>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Lobby,
    Player(Seat),
    Viewer,
}

pub(super) struct Conn {
    pub role: Role,
    pub uid: Option<u32>,
}

pub(super) struct Room {
    pub room: String,
    pub table: Table,
    /// The names the players go by in the game (`playerinfo`, `turnorder`): each seat's given
    /// name until it joins with a name of its own.
    pub names: Vec<String>,
    pub seats: Seats<ConnId>,
    pub hub: Hub,
    pub seat_events: mpsc::UnboundedReceiver<(Seat, SeatEvent)>,
    pub transcript: Transcript,
    pub limits: MatchLimits,
    pub phase: Phase,
    pub conns: HashMap<ConnId, Conn>,
}

impl Room {
    pub async fn next_event(&mut self, deadline: Instant) -> Event {
        let event = Event::next(&mut self.seat_events, &mut self.hub, deadline).await;
        if let Some((conn, text)) = event.sent_by_bot() {
            let seat = self.seat_of_conn(conn);
            self.transcript.push(conn, seat, Direction::FromBot, text);
        }
        event
    }

    /// Everything but the answer the caller is waiting for.
    pub async fn handle(&mut self, event: Event) -> Result<(), RefereeError> {
        match event {
            Event::Deadline => {}
            Event::Seat(seat, event) => {
                let output_bytes = self.limits.output_bytes;
                let (kind, detail) = self.seats.seat_event(seat, event, output_bytes)?;
                self.retire(seat, kind, detail, Stop::Already);
            }
            Event::Hub(HubEvent::Opened { conn, uid }) => {
                let same_bot = self
                    .conns
                    .values()
                    .filter(|c| uid.is_some() && c.uid == uid);
                if same_bot.count() >= MAX_CONNECTIONS_PER_BOT {
                    self.hub.close(conn);
                    return Ok(());
                }
                self.conns.insert(
                    conn,
                    Conn {
                        role: Role::Lobby,
                        uid,
                    },
                );
                self.send(conn, &wire::connection_ok());
                self.send(conn, &wire::request_room(&self.room));
            }
            Event::Hub(HubEvent::Closed { conn }) => {
                if let Some(Conn {
                    role: Role::Player(seat),
                    ..
                }) = self.conns.remove(&conn)
                {
                    self.retire(
                        seat,
                        FaultKind::Left,
                        "closed its connection before the match ended",
                        Stop::Grace,
                    );
                }
            }
            Event::Hub(HubEvent::Garbage { conn, reason }) => self.invalid(conn, reason),
            Event::Hub(HubEvent::Message { conn, value, .. }) => match incoming(&value) {
                Incoming::Invalid(reason) => self.invalid(conn, reason),
                Incoming::RoomReply(payload) => {
                    if self.conns.get(&conn).is_some_and(|c| c.role == Role::Lobby) {
                        self.lobby_reply(conn, payload);
                    }
                }
                Incoming::Action(_) => {} // out of turn: stale, ignored
            },
        }
        Ok(())
    }

    /// Bad input on `conn`: the seat it belongs to (by role, or by uid in the lobby) is faulty.
    fn invalid(&mut self, conn: ConnId, reason: String) {
        self.fail(conn, FaultKind::InvalidOutput, reason);
    }

    /// The seat behind `conn` (or the seat still waiting that owns it) is retired for `kind`.
    fn fail(&mut self, conn: ConnId, kind: FaultKind, reason: String) {
        let seat = self.seat_of_conn(conn).or_else(|| {
            let uid = self.conns.get(&conn)?.uid;
            self.seats
                .seat_of_uid(uid)
                .filter(|s| self.presence(*s) == Presence::Pending)
        });
        self.close(conn);
        if let Some(seat) = seat {
            self.retire(seat, kind, reason, Stop::Now(KillReason::MatchEnded));
        }
    }

    /// Records a fault; unless the fault is an illegal move, the seat leaves: its connection is
    /// closed, its process stopped, and the referee plays for it from now on. After the match
    /// is over nothing counts as a fault.
    pub fn retire(&mut self, seat: Seat, kind: FaultKind, detail: impl Into<String>, stop: Stop) {
        if self.phase == Phase::Over {
            return;
        }
        let detail = detail.into();
        let Some(was) = self.seats.retire(seat, kind, detail.clone(), stop) else {
            return;
        };
        tracing::debug!(%seat, ?kind, %detail, "seat fault");
        self.table.fault(seat, &detail);
        if let Presence::Joined(conn) = was {
            self.close(conn);
        }
    }

    pub fn close(&mut self, conn: ConnId) {
        self.hub.close(conn);
        self.conns.remove(&conn);
    }

    /// Sends one line; a bot that stopped reading its socket is faulty.
    pub fn send(&mut self, conn: ConnId, line: &str) {
        let seat = self.seat_of_conn(conn);
        self.transcript.push(conn, seat, Direction::ToBot, line);
        if let Err(SendError::NotReading) = self.hub.send(conn, line) {
            self.fail(conn, FaultKind::TimeLimit, crate::hub::NOT_READING.into());
        }
    }

    /// Sends to every connection in one of `roles` (`Role::Player` matches any seat) the line
    /// `line` writes, written once and only if someone is there to read it (a match of
    /// built-in seats, or one nobody watches, writes no `information_game` at all).
    pub fn broadcast(
        &mut self,
        players: bool,
        viewers: bool,
        line: impl FnOnce(&Self) -> Result<String, RefereeError>,
    ) -> Result<(), RefereeError> {
        let mut to: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| match c.role {
                Role::Player(_) => players,
                Role::Viewer => viewers,
                Role::Lobby => false,
            })
            .map(|(id, _)| *id)
            .collect();
        if to.is_empty() {
            return Ok(());
        }
        to.sort_unstable();
        let line = line(self)?;
        for conn in to {
            self.send(conn, &line);
        }
        Ok(())
    }

    pub fn status(&self) -> Result<GameStatus, RefereeError> {
        GameStatus::of(self.table.game(), &self.names)
            .ok_or_else(|| RefereeError::Internal("the No Thanks adapter got another game".into()))
    }

    pub fn presence(&self, seat: Seat) -> Presence {
        self.seats.presence(seat)
    }

    fn seat_of_conn(&self, conn: ConnId) -> Option<Seat> {
        match self.conns.get(&conn)?.role {
            Role::Player(seat) => Some(seat),
            Role::Lobby | Role::Viewer => None,
        }
    }
}

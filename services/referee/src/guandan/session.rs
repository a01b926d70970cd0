//! The match's seats and their faults, and the one event loop over connections, seat
//! supervisors and deadlines.

use std::time::Instant;

use croupier_games::Seat;
use croupier_sandbox::KillReason;
use serde_json::Value;
use tokio::sync::mpsc;

use super::conn::{Conn, ConnEvent, SendFailed};
use crate::result::{Direction, Transcript};
use crate::seat::{SeatEvent, Seats, Stop};
use crate::table::Table;
use crate::verdict::FaultKind;
use crate::{MatchLimits, RefereeError};

pub(super) enum Event {
    Conn(Seat, ConnEvent),
    Seat(Seat, SeatEvent),
    Deadline,
}

pub(super) struct Session {
    pub table: Table,
    pub seats: Seats<Conn>,
    pub limits: MatchLimits,
    pub transcript: Transcript,
    pub conn_events: mpsc::Receiver<(Seat, ConnEvent)>,
    pub conn_tx: mpsc::Sender<(Seat, ConnEvent)>,
    pub seat_events: mpsc::UnboundedReceiver<(Seat, SeatEvent)>,
    /// After the last `gameResult` nothing a bot does is a fault.
    pub over: bool,
}

impl Session {
    pub async fn next_event(&mut self, deadline: Instant) -> Event {
        tokio::select! {
            Some((seat, e)) = self.conn_events.recv() => Event::Conn(seat, e),
            Some((seat, e)) = self.seat_events.recv() => Event::Seat(seat, e),
            _ = tokio::time::sleep_until(deadline.into()) => Event::Deadline,
        }
    }

    pub fn connected(&self, seat: Seat) -> bool {
        self.seats.joined(seat).is_some()
    }

    /// Sends `message` to `seat` if it is connected; a bot that stopped reading is retired.
    pub async fn send(&mut self, seat: Seat, message: &Value) {
        if self.connected(seat) {
            self.send_text(seat, &message.to_string()).await;
        }
    }

    /// Sends a message already written as text (see [`send`](Self::send)).
    pub async fn send_text(&mut self, seat: Seat, text: &str) {
        let Some(conn) = self.seats.joined(seat) else {
            return;
        };
        // Only owned values across the await: the session is not `Sync` (built-in bots).
        let queue = conn.queue();
        let sent = super::conn::send(queue, text.to_owned(), self.limits.move_time).await;
        self.transcript
            .push(seat.index() as u64, Some(seat), Direction::ToBot, text);
        let (kind, detail) = match sent {
            Ok(()) => return,
            Err(SendFailed::Stalled) => (
                FaultKind::TimeLimit,
                format!(
                    "read nothing from its websocket for {:?}",
                    self.limits.move_time
                ),
            ),
            Err(SendFailed::Broken) => (
                FaultKind::Left,
                "its websocket connection broke before the match was over".to_owned(),
            ),
        };
        if !self.over {
            self.retire(seat, kind, detail, Stop::Now(KillReason::MatchEnded));
        }
    }

    /// Sends the notify `message` builds to every connected seat: built and written once, and
    /// only if a seat is connected (built-in seats and people read no frames).
    pub async fn broadcast(&mut self, message: impl FnOnce() -> Value) {
        let to: Vec<Seat> = self.seats.all().filter(|&s| self.connected(s)).collect();
        if to.is_empty() {
            return;
        }
        let text = message().to_string();
        for seat in to {
            self.send_text(seat, &text).await;
        }
    }

    /// Records a fault, disconnects the seat and stops its process; the referee plays for it
    /// from now on.
    pub fn retire(&mut self, seat: Seat, kind: FaultKind, detail: String, stop: Stop) {
        if self.over || self.seats.retire(seat, kind, &*detail, stop).is_none() {
            return;
        }
        tracing::info!(%seat, ?kind, %detail, "seat retired");
        self.table
            .fault(seat, &format!("{detail}; the referee plays for this seat"));
    }

    /// Handles an event that is not the awaited answer: closes, exits, garbage, limits.
    /// Text from a seat that is not asked is ignored.
    pub fn handle(&mut self, event: Event) -> Result<(), RefereeError> {
        match event {
            Event::Deadline | Event::Conn(_, ConnEvent::Text(_)) => {}
            Event::Conn(seat, ConnEvent::Garbage(reason)) => self.retire(
                seat,
                FaultKind::InvalidOutput,
                reason,
                Stop::Now(KillReason::MatchEnded),
            ),
            Event::Conn(seat, ConnEvent::Closed) => self.retire(
                seat,
                FaultKind::Left,
                "closed its websocket before the match was over".into(),
                Stop::Grace,
            ),
            Event::Seat(seat, event) => {
                let output_bytes = self.limits.output_bytes;
                let (kind, detail) = self.seats.seat_event(seat, event, output_bytes)?;
                self.retire(seat, kind, detail, Stop::Already);
            }
        }
        Ok(())
    }
}

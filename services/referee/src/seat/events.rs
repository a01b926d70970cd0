//! The one event loop of the adapters whose seats talk through the crate's [`Hub`] (No Thanks,
//! Hanabi): a seat supervisor's event first (it exited, or went over its output cap), then
//! socket events (a message, bad input, a close), then the current deadline (a move, the join,
//! or the end grace).

use std::time::Instant;

use croupier_games::Seat;
use tokio::sync::mpsc;

use super::SeatEvent;
use crate::hub::{ConnId, Hub, HubEvent};

pub(crate) enum Event {
    Hub(HubEvent),
    Seat(Seat, SeatEvent),
    Deadline,
}

impl Event {
    /// The next event, by the priorities above.
    pub async fn next(
        seat_events: &mut mpsc::UnboundedReceiver<(Seat, SeatEvent)>,
        hub: &mut Hub,
        deadline: Instant,
    ) -> Event {
        tokio::select! {
            biased;
            Some((seat, event)) = seat_events.recv() => Event::Seat(seat, event),
            Some(event) = hub.recv() => Event::Hub(event),
            _ = tokio::time::sleep_until(deadline.into()) => Event::Deadline,
        }
    }

    /// What a bot sent, for the transcript: a message's text, or why its input was unreadable.
    pub fn sent_by_bot(&self) -> Option<(ConnId, &str)> {
        match self {
            Event::Hub(
                HubEvent::Message { conn, text, .. } | HubEvent::Garbage { conn, reason: text },
            ) => Some((*conn, text)),
            _ => None,
        }
    }
}

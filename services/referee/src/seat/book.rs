//! The seat book: who plays each seat of a match right now, its process and its faults, and
//! the rules every protocol adapter with long-running seats applies to them (No Thanks,
//! Hanabi, Guandan). The adapters keep their connections and wording of the protocol; this
//! keeps the bookkeeping.
//!
//! A program seat starts [`Presence::Pending`], becomes [`Presence::Joined`] with the
//! adapter's handle on its connection, and ends [`Presence::Gone`] when it is retired (a
//! fault that removes it, or it never joined): from then on the referee plays for it. A
//! built-in seat is [`Presence::Builtin`] throughout and is never retired.

use std::sync::Arc;
use std::time::Instant;

use croupier_games::Seat;
use croupier_sandbox::EndState;

use super::{SeatEvent, SeatProc, Stop, EXIT_GRACE};
use crate::assemble::SeatEnd;
use crate::verdict::{FaultKind, Faults};
use crate::RefereeError;

/// Who plays a seat right now; `C` is the adapter's handle on a joined seat's connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Presence<C> {
    /// A built-in bot, in process.
    Builtin,
    /// A program that has not joined yet.
    Pending,
    Joined(C),
    /// A program that failed, left, or never joined: the referee plays for it.
    Gone,
}

/// One seat: its process (none for a built-in), presence and faults.
pub(crate) struct SeatSlot<C> {
    pub proc: Option<SeatProc>,
    pub presence: Presence<C>,
    pub faults: Faults,
    /// Its process has exited (no further exit report will come).
    pub exited: bool,
    /// Retired with [`Stop::Grace`]: its process may exit by itself until then, and its exit
    /// status is its verdict (a crash rather than a kill).
    pub exit_by: Option<Instant>,
}

/// Every seat of a match, indexed by [`Seat`].
pub(crate) struct Seats<C> {
    slots: Vec<SeatSlot<C>>,
}

impl<C> Default for Seats<C> {
    fn default() -> Self {
        Seats { slots: Vec::new() }
    }
}

impl<C> Seats<C> {
    /// Adds the next seat: a program seat (`Pending`) when it has a process, else a built-in.
    pub fn push(&mut self, proc: Option<SeatProc>) {
        let presence = if proc.is_some() {
            Presence::Pending
        } else {
            Presence::Builtin
        };
        self.slots.push(SeatSlot {
            proc,
            presence,
            faults: Faults::default(),
            exited: false,
            exit_by: None,
        });
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Every seat, in order.
    pub fn all(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.slots.len())
    }

    pub fn get(&self, seat: Seat) -> Option<&SeatSlot<C>> {
        self.slots.get(seat.index())
    }

    pub fn get_mut(&mut self, seat: Seat) -> Option<&mut SeatSlot<C>> {
        self.slots.get_mut(seat.index())
    }

    pub fn is_pending(&self, seat: Seat) -> bool {
        self.get(seat)
            .is_some_and(|s| matches!(s.presence, Presence::Pending))
    }

    /// The connection of a joined seat.
    pub fn joined(&self, seat: Seat) -> Option<&C> {
        match &self.get(seat)?.presence {
            Presence::Joined(conn) => Some(conn),
            _ => None,
        }
    }

    /// The program seats that have not joined yet, in seat order.
    pub fn pending(&self) -> Vec<Seat> {
        self.all().filter(|&s| self.is_pending(s)).collect()
    }

    /// Until when the end of the match waits for seats to exit by themselves, `end` being the
    /// end grace: a joined seat still running until `end`, a seat retired with a grace (its
    /// connection closed) still running until its grace is over, so that its own exit (a
    /// crash, with what it printed) decides its verdict, not the kill at the end. `None`: no
    /// seat to wait for.
    pub fn awaited_until(&self, end: Instant) -> Option<Instant> {
        let until = |s: &SeatSlot<C>| match s.presence {
            _ if s.exited => None,
            Presence::Joined(_) => Some(end),
            _ => s.exit_by,
        };
        self.slots.iter().filter_map(until).max()
    }

    /// The slot uid of `seat`'s process; `None` for a built-in or in sandbox mode `none`.
    pub fn uid(&self, seat: Seat) -> Option<u32> {
        self.get(seat)?.proc.as_ref()?.uid
    }

    /// The slot uids of every seat process (empty in sandbox mode `none`).
    pub fn uids(&self) -> Arc<[u32]> {
        self.all().filter_map(|s| self.uid(s)).collect()
    }

    /// The seat whose process runs as `uid`.
    pub fn seat_of_uid(&self, uid: Option<u32>) -> Option<Seat> {
        let uid = uid?;
        self.all().find(|&s| self.uid(s) == Some(uid))
    }

    /// A pending seat joins with `conn`; `false` (and nothing changes) if it was not pending.
    pub fn join(&mut self, seat: Seat, conn: C) -> bool {
        match self.get_mut(seat) {
            Some(slot) if matches!(slot.presence, Presence::Pending) => {
                slot.presence = Presence::Joined(conn);
                true
            }
            _ => false,
        }
    }

    /// Leaves a joined seat without a fault (after the match: a bot closing by itself).
    pub fn leave(&mut self, seat: Seat) {
        if let Some(slot) = self.get_mut(seat) {
            if matches!(slot.presence, Presence::Joined(_)) {
                slot.presence = Presence::Gone;
            }
        }
    }

    /// Records a fault that does not remove the seat (an illegal move).
    pub fn fault(&mut self, seat: Seat, kind: FaultKind, detail: impl Into<String>) {
        if let Some(slot) = self.get_mut(seat) {
            slot.faults.push(kind, detail);
        }
    }

    /// Notes something for the seat's log that is not held against it.
    pub fn note(&mut self, seat: Seat, note: impl Into<String>) {
        if let Some(slot) = self.get_mut(seat) {
            slot.faults.note(note);
        }
    }

    /// Retires a program seat that is still in the match: records the fault, marks it gone and
    /// stops its process the way `stop` says. Returns what it was (`Pending`, or `Joined` with
    /// its connection for the adapter to close), or `None` when there was nothing to retire (a
    /// built-in, a seat already gone, no such seat): then no fault is recorded.
    pub fn retire(
        &mut self,
        seat: Seat,
        kind: FaultKind,
        detail: impl Into<String>,
        stop: Stop,
    ) -> Option<Presence<C>> {
        let slot = self.get_mut(seat)?;
        if matches!(slot.presence, Presence::Gone | Presence::Builtin) {
            return None;
        }
        let was = std::mem::replace(&mut slot.presence, Presence::Gone);
        slot.faults.push(kind, detail);
        if stop == Stop::Grace {
            slot.exit_by = Some(Instant::now() + EXIT_GRACE);
        }
        if let Some(proc) = &slot.proc {
            proc.stop(stop);
        }
        Some(was)
    }

    /// What a seat supervisor's event means for the seat: the fault to retire it with (after
    /// an exit the seat is marked exited). A setup error is the platform's, not the bot's.
    pub fn seat_event(
        &mut self,
        seat: Seat,
        event: SeatEvent,
        output_bytes: u64,
    ) -> Result<(FaultKind, String), RefereeError> {
        match event {
            SeatEvent::OutputLimit => Ok((
                FaultKind::OutputLimit,
                format!("wrote more than {output_bytes} bytes to stdout and stderr"),
            )),
            SeatEvent::Exited(EndState::SetupError(reason)) => Err(RefereeError::Sandbox {
                seat: seat.index(),
                reason,
            }),
            SeatEvent::Exited(end_state) => {
                if let Some(slot) = self.get_mut(seat) {
                    slot.exited = true;
                }
                Ok((
                    FaultKind::Left,
                    format!("the bot exited before the match ended: {end_state}"),
                ))
            }
        }
    }

    /// The seats for [`assemble`](crate::assemble::assemble): their processes and faults.
    pub fn into_ends(self) -> Vec<SeatEnd> {
        let ends = self.slots.into_iter().map(|s| SeatEnd {
            proc: s.proc,
            faults: s.faults,
        });
        ends.collect()
    }
}

impl<C: Copy> Seats<C> {
    /// `seat`'s presence (`Gone` for a seat that does not exist).
    pub fn presence(&self, seat: Seat) -> Presence<C> {
        self.get(seat).map_or(Presence::Gone, |s| s.presence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault_count(seats: &Seats<u8>, seat: Seat) -> usize {
        let detail = seats
            .get(seat)
            .map(|s| s.faults.detail())
            .unwrap_or_default();
        detail.lines().count()
    }

    #[test]
    fn a_seat_is_retired_once_and_a_built_in_never() {
        let mut seats: Seats<u8> = Seats::default();
        seats.push(None);
        let builtin = Seat(0);
        assert_eq!(seats.presence(builtin), Presence::Builtin);
        assert!(!seats.join(builtin, 7));
        let stop = Stop::Already;
        assert_eq!(seats.retire(builtin, FaultKind::Left, "x", stop), None);
        assert_eq!(fault_count(&seats, builtin), 0);
        assert_eq!(seats.retire(Seat(5), FaultKind::Left, "x", stop), None);
        assert_eq!(seats.pending(), Vec::<Seat>::new());
        assert_eq!(seats.awaited_until(Instant::now()), None);
    }

    #[test]
    fn the_end_waits_for_joined_seats_and_for_seats_that_closed_until_their_grace() {
        let mut seats: Seats<u8> = Seats::default();
        for conn in [0, 1] {
            seats.push(None);
            let slot = seats.get_mut(Seat(conn.into())).unwrap();
            slot.presence = Presence::Joined(conn);
        }
        let end = Instant::now();
        assert_eq!(seats.awaited_until(end), Some(end));
        let closed = Instant::now();
        seats.retire(Seat(0), FaultKind::Left, "closed", Stop::Grace);
        let exit_by = seats.get(Seat(0)).and_then(|s| s.exit_by);
        assert!(exit_by.is_some_and(|t| t >= closed + EXIT_GRACE));
        assert_eq!(seats.awaited_until(end), exit_by, "the later of the two");
        seats.get_mut(Seat(0)).unwrap().exited = true;
        assert_eq!(seats.awaited_until(end), Some(end));
        seats.get_mut(Seat(1)).unwrap().exited = true;
        assert_eq!(seats.awaited_until(end), None);
    }

    #[test]
    fn a_setup_error_is_the_platforms_and_an_exit_marks_the_seat() {
        let mut seats: Seats<u8> = Seats::default();
        seats.push(None);
        let setup = SeatEvent::Exited(EndState::SetupError("no bwrap".into()));
        assert!(matches!(
            seats.seat_event(Seat(0), setup, 10),
            Err(RefereeError::Sandbox { seat: 0, .. })
        ));
        assert!(seats.get(Seat(0)).is_some_and(|s| !s.exited));
        let (kind, detail) = seats
            .seat_event(Seat(0), SeatEvent::Exited(EndState::Ok), 10)
            .expect("an exit is the bot's");
        assert_eq!(kind, FaultKind::Left);
        assert!(detail.contains("exited before the match ended"), "{detail}");
        assert!(seats.get(Seat(0)).is_some_and(|s| s.exited));
        let (kind, detail) = seats
            .seat_event(Seat(0), SeatEvent::OutputLimit, 10)
            .expect("output is the bot's");
        assert_eq!(kind, FaultKind::OutputLimit);
        assert!(detail.contains("more than 10 bytes"), "{detail}");
    }
}

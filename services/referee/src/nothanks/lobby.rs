//! The lobby: `reply_room_name_and_role` → `result_room_name_and_role`.
//!
//! A match has one room (`normal`, or `learning` for repeated games). A viewer is accepted
//! any time (up to a cap). A player is accepted when it names the room: the seat is the one
//! whose process owns the connection (isolated mode; in mode `none`, the seat whose name was
//! sent, else the first seat still waiting), and the name it sends — any name, as the original
//! server takes it — is its name in the game. Bots read a name from stdin, but some send a
//! fixed nickname of their own. If another seat already goes by the name, the later one gets a
//! suffix (`-2`, …), noted in its log. Anything else is declined with a reason that says what
//! was wrong, and the connection stays in the lobby (it may try again), as in the original
//! server. A refused player claim whose connection belongs to a seat still waiting to join is
//! that seat's fault: `invalid_output`, and the seat leaves.

use croupier_games::Seat;
use croupier_sandbox::KillReason;
use serde_json::Value;

use super::room::{Presence, Role, Room, MAX_VIEWERS};
use super::wire;
use crate::hub::ConnId;
use crate::seat::Stop;
use crate::verdict::FaultKind;

impl Room {
    pub(super) fn lobby_reply(&mut self, conn: ConnId, payload: &Value) {
        let text = |key: &str| payload.get(key).and_then(Value::as_str);
        let verdict = if text("room_name") != Some(self.room.as_str()) {
            Err("Room of the name is not exist".to_owned())
        } else {
            match text("role") {
                Some("viewer") => self.accept_viewer(conn),
                Some("player") => self.accept_player(conn, text("player_name").unwrap_or("")),
                _ => Err("the role must be \"player\" or \"viewer\"".to_owned()),
            }
        };
        match verdict {
            Ok(()) => self.send(conn, &wire::room_result(None)),
            Err(reason) => {
                self.send(conn, &wire::room_result(Some(&reason)));
                let uid = self.conns.get(&conn).and_then(|c| c.uid);
                let claimant = self
                    .seats
                    .seat_of_uid(uid)
                    .filter(|s| self.presence(*s) == Presence::Pending);
                if let (Some(seat), false) = (claimant, text("role") == Some("viewer")) {
                    let detail = format!("its room reply was declined: {reason}");
                    self.retire(
                        seat,
                        FaultKind::InvalidOutput,
                        detail,
                        Stop::Now(KillReason::MatchEnded),
                    );
                    self.close(conn);
                }
            }
        }
    }

    fn accept_viewer(&mut self, conn: ConnId) -> Result<(), String> {
        let viewers = self
            .conns
            .values()
            .filter(|c| c.role == Role::Viewer)
            .count();
        if viewers >= MAX_VIEWERS {
            return Err("too many viewers".into());
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.role = Role::Viewer;
        }
        Ok(())
    }

    /// A player claim: the seat is the connection's owner (its process's slot uid); without
    /// that (sandbox mode `none`) the seat whose name was sent, else the first seat still
    /// waiting. Whatever name the bot sends is its name in the game (`playerinfo`,
    /// `turnorder`); a name another seat already holds gets a suffix, noted in the seat's log.
    fn accept_player(&mut self, conn: ConnId, sent: &str) -> Result<(), String> {
        let seat = self.claimed_seat(conn, sent)?;
        match self.presence(seat) {
            Presence::Pending => {}
            Presence::Joined(_) => {
                return Err("this player has already joined the room (one connection each)".into())
            }
            Presence::Gone | Presence::Builtin => {
                return Err("this player is no longer in the game".into())
            }
        }
        let name = self.unique_name(seat, sent);
        if name != sent.trim() {
            let note = format!(
                "sent the player name {sent:?}, which another player of the room already has: \
                 it plays as {name:?}"
            );
            self.seats.note(seat, note);
        }
        if let Some(n) = self.names.get_mut(seat.index()) {
            *n = name;
        }
        self.seats.join(seat, conn);
        if let Some(c) = self.conns.get_mut(&conn) {
            c.role = Role::Player(seat);
        }
        Ok(())
    }

    fn claimed_seat(&self, conn: ConnId, sent: &str) -> Result<Seat, String> {
        if !self.seats.uids().is_empty() {
            let uid = self.conns.get(&conn).and_then(|c| c.uid);
            return self.seats.seat_of_uid(uid).ok_or_else(|| {
                "this connection does not come from a player of this match (the room is full)"
                    .to_owned()
            });
        }
        let pending = |i: &usize| self.presence(Seat(*i)) == Presence::Pending;
        self.names
            .iter()
            .position(|n| n == sent.trim())
            .filter(pending)
            .or_else(|| (0..self.seats.len()).find(pending))
            .map(Seat)
            .ok_or_else(|| "Room is already full".to_owned())
    }

    /// `sent` (trimmed; the seat's given name if empty), or with `-2`, `-3`, … when another
    /// seat of the room already goes by it.
    fn unique_name(&self, seat: Seat, sent: &str) -> String {
        let wanted = match sent.trim() {
            "" => self
                .table
                .names
                .get(seat.index())
                .cloned()
                .unwrap_or_default(),
            name => name.to_owned(),
        };
        let taken = |name: &str| {
            self.names
                .iter()
                .enumerate()
                .any(|(i, n)| i != seat.index() && n == name && self.holds_name(Seat(i)))
        };
        if !taken(&wanted) {
            return wanted;
        }
        (2..)
            .map(|k| format!("{wanted}-{k}"))
            .find(|n| !taken(n))
            .unwrap_or(wanted)
    }

    /// Whether seat `i`'s name is settled: it joined, or it is a built-in.
    fn holds_name(&self, seat: Seat) -> bool {
        matches!(
            self.presence(seat),
            Presence::Joined(_) | Presence::Builtin | Presence::Gone
        )
    }
}

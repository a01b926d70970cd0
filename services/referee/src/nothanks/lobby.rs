//! The lobby: `reply_room_name_and_role` → `result_room_name_and_role`.
//!
//! A match has one room (`normal`, or `learning` for repeated games). A viewer is accepted
//! any time (up to a cap). A player is accepted when it names the room and the player name of a
//! seat that has not joined yet, and, when the sandbox can tell (isolated mode), the connection
//! comes from that seat's own process. Anything else is declined with a reason, and the
//! connection stays in the lobby (it may try again), as in the original server. A refused player
//! claim whose connection belongs to a seat still waiting to join is that seat's fault:
//! `invalid_output`, and the seat leaves.

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

    fn accept_player(&mut self, conn: ConnId, name: &str) -> Result<(), String> {
        let Some(i) = self.table.names.iter().position(|n| n == name) else {
            return Err("Room is already full".into());
        };
        let seat = Seat(i);
        match self.presence(seat) {
            Presence::Pending => {}
            Presence::Joined(_) | Presence::Builtin => {
                return Err(format!("the player name {name:?} is already taken"))
            }
            Presence::Gone => return Err("Room is already full".into()),
        }
        let expected = self
            .seats
            .get(i)
            .and_then(|s| s.proc.as_ref())
            .and_then(|p| p.uid);
        let uid = self.conns.get(&conn).and_then(|c| c.uid);
        match (expected, uid) {
            (Some(expected), Some(uid)) if expected != uid => {
                return Err(format!(
                    "the player name {name:?} belongs to another player"
                ))
            }
            (Some(_), None) => return Err("this connection could not be identified".into()),
            _ => {}
        }
        if let Some(slot) = self.seats.get_mut(i) {
            slot.presence = Presence::Joined(conn);
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.role = Role::Player(seat);
        }
        Ok(())
    }
}

//! The Guandan adapter: the offline platform v1006's websocket protocol
//! (`docs/protocols.md#guandan`).
//!
//! 1. **Setup.** A `MatchNet` per match with a listener on 127.0.0.1:23456 inside it (without
//!    root, in sandbox mode `none`, the host's loopback). The seat processes are started **one at
//!    a time**: seat `i` is started, and the first websocket handshake on a path under
//!    `/game/` (`/game/{user_info}`, `/game/gd/…`) after that becomes seat `i`, so the
//!    connection order is the seat order (0 and 2 partners against 1 and 3). Other paths are
//!    refused with 404 and do not count. A seat that does not connect within `join_time`
//!    is `time_limit`; one that exits first is `crashed`; the referee plays for both. Built-in
//!    seats take their place without a process. The listener closes once every seat is placed.
//! 2. **Games.** `MatchSpec::games` games (次), each from level 2 until a team wins at A (or a
//!    draw after 50 drops). Per deal: notify `beginning` to each seat; tribute: act `tribute`
//!    to each payer in turn, notify `tribute`, act `back` to each receiver, notify `back` (or
//!    notify `anti-tribute`); play: act `play` to the seat on turn, notify `play` to all four
//!    (the actor included) after each move; notify `episodeOver`. After each game notify
//!    `gameOver {curTimes, settingTimes}`, after the last also `gameResult {victoryNum, draws}`.
//! 3. **Replies.** `{"actIndex": i}` within `move_time`. An integer outside `0..=indexRange` is
//!    answered with the same `act` again, at most `bad_index_resends` times (a Guandan setting,
//!    default 3; **\[choose\]**: the original waits forever), then the seat is recorded
//!    `illegal_action`, the referee plays its first legal action, and it stays in the game.
//!    Anything else (not JSON, no integer `actIndex`, a non-UTF-8 frame, over `line_bytes`) is
//!    `invalid_output`; no answer in time is `time_limit`; a closed connection or an exit is
//!    `crashed`/`invalid_output` per the crate's table. Those seats are disconnected and killed
//!    and the referee plays their first legal action for the rest of the match (PASS when
//!    following, the first listed play when leading, the first tribute / return card).
//! 4. **End.** Bots get `end_grace` to close or exit by themselves, then every process is
//!    killed with its tree. Nothing after the last `gameResult` is a fault.
//!
//! Every message is one text frame of standard JSON; the transcript records them per seat.
//!
//! Seat theft: a bot that opens a second connection while the next seat is starting would
//! otherwise take that seat. In the isolated sandbox every seat runs as its own slot uid, and
//! a connection is accepted for seat `i` only if its client socket belongs to seat `i`'s uid
//! (the crate's `identity` lookup, one socket-diagnostics query); others are closed before
//! the handshake. Without a sandbox (mode `none`) the owner is unknown and the order alone
//! decides.

mod conn;
#[cfg(test)]
mod pinned;
mod session;
#[cfg(test)]
mod tests;
mod turn;
pub(crate) mod wire;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use croupier_games::guandan::{Action, Event as GdEvent, Guandan, Play};
use croupier_games::{Game, Seat, Turn, Viewer};
use croupier_sandbox::{KillReason, Sandbox};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use crate::assemble::assemble;
use crate::identity::Owners;
use crate::result::{MatchResult, Transcript};
use crate::seat::{SeatProc, Seats, Stop};
use crate::table::Table;
use crate::verdict::FaultKind;
use crate::{MatchSpec, RefereeError, SeatSpec};
use conn::{Conn, ConnEvent};
use session::{Event, Session};

/// The `act` message sent to the seat of `obs` (a seat's observation), as the text of its
/// frame: what `croupier bench guandan-actions` times, with the observation's `actionList`.
pub fn act_message(obs: &croupier_games::guandan::Observation) -> String {
    wire::act(obs)
}

/// How long a client may take to read the handshake's answer.
const HANDSHAKE_READ: std::time::Duration = std::time::Duration::from_secs(2);

/// The port v1006 bots hard-code.
pub(crate) const PORT: u16 = 23456;

pub(crate) async fn run(
    sandbox: &Sandbox,
    spec: &MatchSpec,
    table: Table,
) -> Result<MatchResult, RefereeError> {
    let crate::net::MatchSockets {
        net,
        mut listeners,
        owners,
    } = crate::net::open(&[PORT], &spec.seats)?;
    // None when no seat is a program: nobody connects.
    let listener = listeners
        .pop()
        .map(|listener| {
            listener.set_nonblocking(true)?;
            TcpListener::from_std(listener)
        })
        .transpose()
        .map_err(RefereeError::Network)?;
    let (conn_tx, conn_events) = mpsc::channel(conn::EVENT_QUEUE);
    let (seat_tx, seat_events) = mpsc::unbounded_channel();
    let mut session = Session {
        table,
        seats: Seats::default(),
        limits: spec.limits.clone(),
        transcript: Transcript::new(spec.limits.transcript_bytes),
        conn_events,
        conn_tx,
        seat_events,
        over: false,
    };
    for (i, seat) in spec.seats.iter().enumerate() {
        match seat {
            // The table plays these seats (it checked the bot's name).
            SeatSpec::Builtin { .. } | SeatSpec::Human { .. } => session.seats.push(None),
            SeatSpec::Program {
                bot_dir, command, ..
            } => {
                let seat_of = (bot_dir.as_path(), command.as_slice());
                let proc = SeatProc::start(
                    sandbox,
                    Seat(i),
                    seat_of,
                    net.clone(),
                    String::new(),
                    &spec.limits,
                    seat_tx.clone(),
                )
                .await?;
                session.table.meter(Seat(i), Arc::clone(&proc.meter));
                session.seats.push(Some(proc));
                let listener = listener.as_ref().ok_or_else(|| {
                    RefereeError::Internal("no listener for a program seat".into())
                })?;
                session.join(Seat(i), listener, &owners).await?;
            }
        }
    }
    drop(listener);
    drop(seat_tx);
    let games = session.table.games();
    let (mut victories, mut draws) = ([0_u32; 4], [0_u32; 4]);
    for game in 0..games {
        if game > 0 {
            session.table.next_game()?;
        }
        let winner = session.play_game().await?;
        for (s, (won, drawn)) in victories.iter_mut().zip(draws.iter_mut()).enumerate() {
            match winner {
                Some(team) if team == s % 2 => *won += 1,
                None => *drawn += 1,
                Some(_) => {}
            }
        }
        session.broadcast(|| wire::game_over(game + 1, games)).await;
    }
    session
        .broadcast(|| wire::game_result(&victories, &draws))
        .await;
    session.over = true;
    session.end().await;
    assemble(session.seats.into_ends(), session.table, session.transcript).await
}

fn typed(table: &Table) -> Result<&Guandan, RefereeError> {
    table
        .game()
        .as_any()
        .downcast_ref::<Guandan>()
        .ok_or_else(|| RefereeError::Internal("the Guandan adapter got another game".into()))
}

impl Session {
    /// Waits for the connection of the just-started `seat`, and until it has read the
    /// handshake's answer: the first frame must never arrive in the same read as the 101
    /// response (ws4py clients crash on it; the original server never sends it so early).
    async fn join(
        &mut self,
        seat: Seat,
        listener: &TcpListener,
        owners: &Owners,
    ) -> Result<(), RefereeError> {
        let deadline = Instant::now() + self.limits.join_time;
        let max = self.limits.line_bytes;
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    let Ok((stream, peer)) = accepted else { continue };
                    let own = self.seats.uid(seat);
                    let Ok(local) = stream.local_addr() else { continue };
                    if !owned_by(own, owners, peer, local) {
                        tracing::info!(%seat, "a connection from another process was refused");
                        continue;
                    }
                    // Many small notify frames follow each other: no Nagle delay.
                    let _ = stream.set_nodelay(true);
                    let left = deadline.saturating_duration_since(Instant::now());
                    match tokio::time::timeout(left, conn::accept(stream, max)).await {
                        Ok(Ok(ws)) => {
                            let left = deadline.saturating_duration_since(Instant::now());
                            if !owners.drained(peer, local, left.min(HANDSHAKE_READ)).await {
                                tracing::debug!(%seat, "the client did not read the handshake answer in time");
                            }
                            let conn = Conn::spawn(seat, ws, self.conn_tx.clone());
                            self.seats.join(seat, conn);
                            return Ok(());
                        }
                        Ok(Err(e)) => tracing::debug!(%seat, error = %e, "handshake refused"),
                        Err(_) => {}
                    }
                }
                Some((from, e)) = self.seat_events.recv() => {
                    self.handle(Event::Seat(from, e))?;
                    if from == seat && !self.seats.is_pending(seat) {
                        return Ok(());
                    }
                }
                Some((from, e)) = self.conn_events.recv() => self.handle(Event::Conn(from, e))?,
                _ = tokio::time::sleep_until(deadline.into()) => {
                    let detail = format!("did not connect within {:?}", self.limits.join_time);
                    self.retire(seat, FaultKind::TimeLimit, detail, Stop::Now(KillReason::Deadline));
                    return Ok(());
                }
            }
        }
    }

    /// One game; returns the winning team (`None`: a draw).
    async fn play_game(&mut self) -> Result<Option<usize>, RefereeError> {
        self.beginning().await?;
        loop {
            let Turn::Seat(seat) = self.table.turn() else {
                return Err(RefereeError::Internal(
                    "a Guandan game ended unnoticed".into(),
                ));
            };
            let before = typed(&self.table)?.clone();
            let pre_greater = before.trick_best().cloned();
            let action = self.turn(seat, &before).await?;
            let mut probe = before;
            let events = probe
                .apply(seat, action)
                .map_err(|e| RefereeError::Internal(format!("seat {seat}: {e}")))?;
            if let Some(winner) = self.notify(&events, pre_greater).await? {
                return Ok(winner);
            }
        }
    }

    /// notify `beginning` to every seat, from the current deal.
    async fn beginning(&mut self) -> Result<(), RefereeError> {
        for seat in Seat::all(4) {
            if !self.connected(seat) {
                continue; // nobody reads it: no observation built
            }
            let message = wire::beginning(&typed(&self.table)?.observe(Viewer::Seat(seat)));
            self.send(seat, &message).await;
        }
        Ok(())
    }

    /// The notifications for one move's events; `Some(winner)` when the game ended.
    async fn notify(
        &mut self,
        events: &[GdEvent],
        mut greater: Option<(Seat, Play)>,
    ) -> Result<Option<Option<usize>>, RefereeError> {
        for event in events {
            match event {
                GdEvent::Played { seat, action } => {
                    if let Action::Play(p) = action {
                        greater = Some((*seat, p.clone()));
                    }
                    let best = greater.as_ref();
                    self.broadcast(|| wire::play(*seat, action, best)).await;
                }
                GdEvent::Tribute { result } => {
                    self.broadcast(|| wire::exchange("tribute", result)).await;
                }
                GdEvent::Back { result } => self.broadcast(|| wire::exchange("back", result)).await,
                GdEvent::AntiTribute { anti_pos } => {
                    self.broadcast(|| wire::anti_tribute(anti_pos)).await;
                }
                GdEvent::DealOver {
                    order,
                    played_rank,
                    rest_cards,
                    ..
                } => {
                    self.broadcast(|| wire::episode_over(order, *played_rank, rest_cards))
                        .await;
                }
                GdEvent::DealStarted { .. } => self.beginning().await?,
                GdEvent::GameOver { winner } => return Ok(Some(*winner)),
                GdEvent::TrickOver { .. } | GdEvent::Out { .. } => {}
            }
        }
        Ok(None)
    }

    /// After the last `gameResult`: lets bots close or exit by themselves for `end_grace`.
    async fn end(&mut self) {
        let end = Instant::now() + self.limits.end_grace;
        while let Some(deadline) = self.seats.awaited_until(end) {
            match self.next_event(deadline).await {
                Event::Deadline => break,
                Event::Conn(seat, ConnEvent::Closed | ConnEvent::Garbage(_)) => {
                    self.seats.leave(seat);
                }
                Event::Seat(seat, _) => {
                    if let Some(slot) = self.seats.get_mut(seat) {
                        slot.exited = true;
                    }
                }
                Event::Conn(..) => {}
            }
        }
    }
}

/// Whether the client socket `peer` → `local` belongs to the seat's uid `own` (always, when
/// the owner cannot be known: mode `none`, or no socket diagnostics).
fn owned_by(own: Option<u32>, owners: &Owners, peer: SocketAddr, local: SocketAddr) -> bool {
    let Some(own) = own else {
        return true;
    };
    match owners.uid(peer, local) {
        Some(uid) => uid == own,
        None => !owners.available(),
    }
}

//! A program seat: one sandboxed process for the whole match, and the task that supervises it.
//!
//! The supervisor owns the [`Process`] and runs one biased `select!` over: a command from the
//! referee (kill now, or kill after a grace unless the bot exits first), the grace deadline,
//! and the bot's output (drained into capped tails; over the cap is `output_limit`). Dropping
//! the referee's handle is the cancellation: the command channel closes and the tree is killed.
//! When both pipes close the bot has most likely exited, so the supervisor waits for the exit
//! and reports it ([`SeatEvent::Exited`]); a bot that closed its pipes but keeps running is only
//! stopped by a command (its report is then synthesized from the kill reason, without CPU or
//! memory figures, because `Process::wait` consumes the process).
//!
//! Every seat runs in its own private writable directory ([`croupier_sandbox::SeatDir`]): a copy
//! of the bot at `/bot` (its cwd unless the spec says otherwise), capped at the seat limits'
//! `disk_bytes` together with its `/tmp` and `/dev/shm`, discarded when the seat's process is
//! gone, never shared with another seat; the submission itself is never written.
//!
//! [`Seats`] is the bookkeeping of a match's seats (presence, faults, exits) shared by the
//! adapters whose seats live for the whole match; [`Event`] is the event loop of those of them
//! that talk through the crate's hub.

mod book;
mod events;
mod meter;
mod output;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use croupier_games::Seat;
use croupier_sandbox::{
    EndState, ExitInfo, KillReason, MatchNet, Process, RunReport, Sandbox, Spec,
};
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::{MatchLimits, RefereeError};
pub(crate) use book::{Presence, Seats};
pub(crate) use events::Event;
pub(crate) use meter::{append_kept, MoveMeter, MoveUse};
pub(crate) use output::Tail;
use output::{pump, PumpEnd};

/// How long a bot whose connection closed may take to exit by itself before it is killed.
pub(crate) const EXIT_GRACE: Duration = Duration::from_secs(1);

/// How a faulty seat's process is stopped ([`SeatProc::stop`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    Now(KillReason),
    /// After [`EXIT_GRACE`], unless it exits by itself first (then its exit status counts).
    Grace,
    /// It is stopping by itself (exited, or the supervisor is killing it).
    Already,
}

/// What a supervisor tells the referee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SeatEvent {
    /// The bot's process tree ended by itself, with this classification.
    Exited(EndState),
    /// The bot wrote more than the output cap; it is being killed (`output_limit`).
    OutputLimit,
}

enum Command {
    Kill(KillReason),
    /// Kill with this reason after the grace, unless the bot exits first.
    KillAfter(KillReason, Duration),
}

/// Everything known about a seat's process once it is gone.
#[derive(Debug)]
pub(crate) struct SeatRun {
    pub report: RunReport,
    pub stdout_tail: String,
    pub stderr_tail: String,
}

/// The referee's handle on a running seat. Dropping it kills the seat.
pub(crate) struct SeatProc {
    commands: mpsc::UnboundedSender<Command>,
    task: AbortOnDrop<SeatRun>,
    pub uid: Option<u32>,
    /// Its stderr and memory peak move by move.
    pub meter: Arc<MoveMeter>,
}

impl SeatProc {
    /// Starts `command` (the first word is the program) with `stdin_text` written to its stdin,
    /// which stays open until the end.
    pub async fn start(
        sandbox: &Sandbox,
        seat: Seat,
        (bot_dir, command): (&Path, &[String]),
        net: Option<Arc<MatchNet>>,
        stdin_text: String,
        limits: &MatchLimits,
        events: mpsc::UnboundedSender<(Seat, SeatEvent)>,
    ) -> Result<Self, RefereeError> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| RefereeError::InvalidSpec(format!("seat {seat} has no command")))?;
        let mut spec = Spec::new(program.clone(), bot_dir);
        spec.args = args.to_vec();
        Self::start_spec(sandbox, seat, spec, net, stdin_text, limits, events).await
    }

    /// Like [`SeatProc::start`], for a prepared sandbox [`Spec`] (a read-only runtime at `/work`,
    /// environment variables, a cwd); its network, limits and seat dir (a copy of its `bot_dir`)
    /// are set here.
    pub async fn start_spec(
        sandbox: &Sandbox,
        seat: Seat,
        mut spec: Spec,
        net: Option<Arc<MatchNet>>,
        stdin_text: String,
        limits: &MatchLimits,
        events: mpsc::UnboundedSender<(Seat, SeatEvent)>,
    ) -> Result<Self, RefereeError> {
        spec.net = net;
        spec.limits = limits.seat.clone();
        let fault = |e: croupier_sandbox::SetupError| RefereeError::Sandbox {
            seat: seat.index(),
            reason: e.to_string(),
        };
        let dir = sandbox
            .seat_dir(&spec.bot_dir, "/bot", &limits.seat)
            .await
            .map_err(fault)?;
        spec.seat_dir = Some(dir);
        let process = sandbox.spawn(spec).await.map_err(fault)?;
        let uid = process.uid();
        let meter = Arc::new(MoveMeter::new(process.memory_meter()));
        let (tx, rx) = mpsc::unbounded_channel();
        let caps = (limits.tail_bytes, limits.output_bytes);
        let talk = (Arc::clone(&meter), stdin_text);
        let task = tokio::spawn(supervise(seat, process, rx, events, talk, caps));
        Ok(SeatProc {
            commands: tx,
            task: AbortOnDrop(task),
            uid,
            meter,
        })
    }

    pub fn kill(&self, reason: KillReason) {
        let _ = self.commands.send(Command::Kill(reason));
    }

    pub fn kill_after(&self, reason: KillReason, grace: Duration) {
        let _ = self.commands.send(Command::KillAfter(reason, grace));
    }

    /// Stops a faulty seat's process the way `how` says.
    pub fn stop(&self, how: Stop) {
        match how {
            Stop::Now(reason) => self.kill(reason),
            Stop::Grace => self.kill_after(KillReason::MatchEnded, EXIT_GRACE),
            Stop::Already => {}
        }
    }

    /// Ends the seat (`MatchEnded` unless it was told something else or has exited) and
    /// returns its run.
    pub async fn finish(mut self) -> Result<SeatRun, RefereeError> {
        self.kill(KillReason::MatchEnded);
        (&mut self.task.0)
            .await
            .map_err(|e| RefereeError::Internal(format!("seat supervisor: {e}")))
    }
}

/// Aborts the task when dropped, so no supervisor or connection outlives its match.
pub(crate) struct AbortOnDrop<T>(pub JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

async fn supervise(
    seat: Seat,
    mut process: Process,
    mut commands: mpsc::UnboundedReceiver<Command>,
    events: mpsc::UnboundedSender<(Seat, SeatEvent)>,
    (meter, stdin_text): (Arc<MoveMeter>, String),
    (tail_bytes, output_bytes): (usize, u64),
) -> SeatRun {
    let mut stdin = process.stdin.take();
    if let Some(w) = stdin.as_mut() {
        let _ =
            tokio::time::timeout(Duration::from_secs(1), w.write_all(stdin_text.as_bytes())).await;
    }
    let tails = (
        Mutex::new(Tail::new(tail_bytes)),
        Mutex::new(Tail::new(tail_bytes)),
    );
    let (stdout, stderr) = (process.stdout.take(), process.stderr.take());
    let pumps = pump(stdout, stderr, &tails, &meter, output_bytes);
    tokio::pin!(pumps);
    let mut pending: Option<(KillReason, Instant)> = None;
    let mut pumps_done = false;
    let far = || Instant::now() + Duration::from_secs(86_400);
    let reason = loop {
        let grace = tokio::time::sleep_until(pending.map_or_else(far, |p| p.1).into());
        tokio::select! {
            biased;
            command = commands.recv() => match command {
                Some(Command::Kill(reason)) => break reason,
                Some(Command::KillAfter(reason, after)) => pending = Some((reason, Instant::now() + after)),
                None => break KillReason::Cancelled,
            },
            _ = grace, if pending.is_some() => break pending.map_or(KillReason::MatchEnded, |p| p.0),
            end = &mut pumps, if !pumps_done => match end {
                PumpEnd::OverCap => {
                    pumps_done = true;
                    let _ = events.send((seat, SeatEvent::OutputLimit));
                    break KillReason::OutputLimit;
                }
                PumpEnd::Closed => {
                    let report = wait_for_exit(process, &mut commands, pending).await;
                    if let Ok(report) = &report {
                        let _ = events.send((seat, SeatEvent::Exited(report.end_state.clone())));
                    }
                    let report = report.unwrap_or_else(synthesized);
                    return run(report, &tails);
                }
            },
        }
    };
    process.kill(reason);
    let report = process.wait().await;
    if !pumps_done {
        let _ = tokio::time::timeout(Duration::from_secs(1), &mut pumps).await;
    }
    drop(stdin);
    run(report, &tails)
}

/// After the pipes closed: the exit report, or the kill reason if a command (or the grace)
/// came first, in which case the process is dropped, which kills its tree.
async fn wait_for_exit(
    process: Process,
    commands: &mut mpsc::UnboundedReceiver<Command>,
    mut pending: Option<(KillReason, Instant)>,
) -> Result<RunReport, KillReason> {
    let wait = process.wait();
    tokio::pin!(wait);
    loop {
        let at = pending.map_or_else(|| Instant::now() + Duration::from_secs(86_400), |p| p.1);
        tokio::select! {
            biased;
            report = &mut wait => return Ok(report),
            command = commands.recv() => match command {
                Some(Command::Kill(reason)) => return Err(reason),
                Some(Command::KillAfter(reason, after)) => pending = Some((reason, Instant::now() + after)),
                None => return Err(KillReason::Cancelled),
            },
            _ = tokio::time::sleep_until(at.into()), if pending.is_some() => {
                return Err(pending.map_or(KillReason::MatchEnded, |p| p.0));
            }
        }
    }
}

/// The report of a process killed by dropping it (no accounting is available then).
fn synthesized(reason: KillReason) -> RunReport {
    let mut report = RunReport::setup_error("cancelled by the platform");
    report.end_state = match reason {
        KillReason::Deadline => EndState::TimeLimit,
        KillReason::OutputLimit => EndState::OutputLimit,
        KillReason::MatchEnded => EndState::Ok,
        KillReason::Cancelled => report.end_state,
    };
    report.exit = ExitInfo::default();
    report
}

fn run(report: RunReport, tails: &(Mutex<Tail>, Mutex<Tail>)) -> SeatRun {
    let text = |t: &Mutex<Tail>| t.lock().map(|t| t.text()).unwrap_or_default();
    SeatRun {
        report,
        stdout_tail: text(&tails.0),
        stderr_tail: text(&tails.1),
    }
}

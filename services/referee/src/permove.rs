//! Program seats that run **one process per move** (Splendor, Bridge), shared by their adapters.
//!
//! A [`PerMoveSeat`] is a bot program that is started afresh for every decision: the adapter
//! builds the call's input (extra `argv` words, stdin bytes, files in the seat's directory),
//! [`PerMoveSeat::call`] runs one sandboxed process with [`Sandbox::run`] and classifies it, and
//! the adapter reads the answer from [`Call::stdout`] (or from the work dir).
//!
//! # One call
//!
//! * `argv` = the seat's command followed by the call's extra words; stdin = the given bytes,
//!   then closed; cwd `/bot`, no network.
//! * `/bot` is the seat's private writable copy of the bot ([`SeatDir`], made when the seat is
//!   created and kept for the whole match): what a call writes there (or in `/tmp`) is there for
//!   the next call, as on the original platforms where a bot ran from its own folder; it is
//!   never shared with another seat, capped at the seat limits' `disk_bytes`, and discarded with
//!   the seat. Every call of the seat runs as the seat's one slot uid.
//! * A Python bot (`python3 <entry>.py`) runs forked from a Python started once in the seat's
//!   sandbox ([`MoveRunner::warm_python`]) when [`MatchLimits::warm_python`] is on and its
//!   entry file does not opt out ([`opts_out_of_warm_python`]); what it sees is the same.
//! * Limits: the match's [`MatchLimits::seat`] limits with `wall` = [`MatchLimits::move_time`]
//!   (the per-move limit, measured from the spawn, so process start-up counts) and `cpu` = the
//!   smaller of the two (a CPU backstop per call, rounded up to whole seconds by the sandbox).
//!   stdout is capped at `seat.stdout_bytes` (more is `output_limit`, the tree is killed), stderr
//!   is truncated at `seat.stderr_bytes`.
//! * Classification ([`CallOutcome`]): exit 0 is `Ok` (the adapter then judges the output);
//!   `TimeLimit` (wall or CPU), `Crashed` (non-zero exit or a signal), `OutputLimit`,
//!   `MemoryLimit` each lose the move. A sandbox **setup error is the platform's fault**:
//!   [`RefereeError::Sandbox`], the worker retries the match.
//!
//! # Per-seat totals and the end state
//!
//! Every call adds to the seat's [`PerMoveTotals`]: calls, CPU time (sum), max RSS (max), and
//! the tails of stdout and stderr (each call's non-empty output under a `[call N]` marker, the
//! last [`MatchLimits::tail_bytes`] kept). `assemble` turns them into the seat's
//! [`SeatOutcome`](crate::SeatOutcome) like a long-lived seat's report, with the same rule as
//! [`verdict`](crate::verdict): a hard limit seen on any call (`memory_limit`, `output_limit`)
//! always shows, otherwise the **first** fault decides (a crash shows its exit code or signal).
//! The adapter records each faulty call with [`CallOutcome::fault`] and the seat **keeps
//! playing**: the next decision is a new process (the game decides what the faulty move costs —
//! Splendor: the turn is lost).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use croupier_games::Seat;
use croupier_sandbox::{EndState, ExitInfo, MoveRunner, RunReport, Sandbox, SeatDir, Spec};

use crate::result::{millis, SeatOutcome};
use crate::seat::{MoveMeter, Tail};
use crate::table::Table;
use crate::verdict::{end_state, FaultKind, Faults};
use crate::{MatchLimits, MatchSpec, RefereeError, SeatSpec};

/// How one call ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CallOutcome {
    /// Exit code 0: the output is the adapter's to judge.
    Ok,
    TimeLimit,
    /// A non-zero exit code or a signal.
    Crashed {
        code: Option<i32>,
        signal: Option<i32>,
    },
    OutputLimit,
    MemoryLimit,
}

impl CallOutcome {
    /// The fault to record for a call that lost the move, with a reason for the team; `None`
    /// for [`CallOutcome::Ok`]. `limit` is the per-move time, for the message.
    pub fn fault(&self, limit: Duration) -> Option<(FaultKind, String)> {
        Some(match self {
            CallOutcome::Ok => return None,
            CallOutcome::TimeLimit => (
                FaultKind::TimeLimit,
                format!("time limit exceeded ({limit:?})"),
            ),
            CallOutcome::Crashed {
                signal: Some(sig), ..
            } => (
                FaultKind::Left,
                format!("execution error (killed by signal {sig})"),
            ),
            CallOutcome::Crashed { code, .. } => (
                FaultKind::Left,
                format!("execution error (exit code {})", code.unwrap_or(-1)),
            ),
            CallOutcome::OutputLimit => (FaultKind::OutputLimit, "output limit exceeded".into()),
            CallOutcome::MemoryLimit => (FaultKind::Left, "memory limit exceeded".into()),
        })
    }
}

/// One finished call.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    /// 1-based count of this seat's calls over the match.
    pub number: u32,
    pub outcome: CallOutcome,
    /// From the spawn to the exit (or the kill).
    pub wall: Duration,
    /// Everything it printed (capped), also when the call failed.
    pub stdout: Vec<u8>,
}

/// A program seat played one process per move.
#[derive(Debug)]
pub(crate) struct PerMoveSeat {
    seat: Seat,
    dir: SeatDir,
    /// Every call's process, all in one sandbox of the seat's (made on the first call).
    runner: MoveRunner,
    totals: PerMoveTotals,
    /// Each call's stderr, memory peak and time, for the seat's move records.
    meter: Arc<MoveMeter>,
}

impl PerMoveSeat {
    /// `command` is the seat's command (first word the program). Makes the seat's private
    /// directory (a copy of `bot_dir`), which every call gets at `/bot`.
    pub async fn new(
        sandbox: &Sandbox,
        seat: Seat,
        (bot_dir, command): (PathBuf, Vec<String>),
        limits: &MatchLimits,
    ) -> Result<Self, RefereeError> {
        if command.is_empty() {
            return Err(RefereeError::InvalidSpec(format!(
                "seat {seat} has an empty command"
            )));
        }
        let mut per_call = limits.seat.clone();
        per_call.wall = limits.move_time;
        per_call.cpu = limits.seat.cpu.min(limits.move_time);
        let dir = sandbox
            .seat_dir(&bot_dir, "/bot", &limits.seat)
            .await
            .map_err(|e| RefereeError::Sandbox {
                seat: seat.index(),
                reason: e.to_string(),
            })?;
        let (program, fixed) = command.split_first().expect("checked non-empty above");
        let mut spec = Spec::new(program.clone(), bot_dir);
        spec.args = fixed.to_vec();
        spec.seat_dir = Some(dir.clone());
        spec.limits = per_call;
        let warm = limits.warm_python && !opts_out_of_warm_python(&spec.bot_dir, &command);
        Ok(PerMoveSeat {
            seat,
            dir,
            runner: sandbox.move_runner(spec).warm_python(warm),
            totals: PerMoveTotals::new(limits.tail_bytes),
            meter: Arc::new(MoveMeter::new(None)),
        })
    }

    /// Runs one call: the command plus `args`, `stdin` written then closed.
    pub async fn call(&mut self, args: &[String], stdin: Vec<u8>) -> Result<Call, RefereeError> {
        let report = self.runner.run(args, stdin).await;
        let outcome = match &report.end_state {
            EndState::SetupError(reason) => {
                return Err(RefereeError::Sandbox {
                    seat: self.seat.index(),
                    reason: reason.clone(),
                })
            }
            EndState::Ok => CallOutcome::Ok,
            EndState::TimeLimit => CallOutcome::TimeLimit,
            EndState::MemoryLimit => CallOutcome::MemoryLimit,
            EndState::OutputLimit => CallOutcome::OutputLimit,
            EndState::Crashed { signal, code } => CallOutcome::Crashed {
                code: *code,
                signal: *signal,
            },
            // The sandbox never decides these two; treat them as a crash without an exit.
            EndState::InvalidOutput | EndState::IllegalAction => CallOutcome::Crashed {
                code: None,
                signal: None,
            },
        };
        let number = self.totals.add(&report, &outcome);
        self.meter
            .call(&report.stderr, report.max_rss_bytes, report.wall);
        Ok(Call {
            number,
            outcome,
            wall: report.wall,
            stdout: report.stdout,
        })
    }

    /// The seat's private directory (the bot's `/bot`), for files the adapter puts there.
    pub fn dir(&self) -> &SeatDir {
        &self.dir
    }

    /// Ends the seat's sandbox (waiting until it is gone) and returns what its calls add up to.
    pub async fn close(self) -> PerMoveTotals {
        self.runner.close().await;
        self.totals
    }
}

/// The line of a Python entry file that keeps its seat cold (every move starts Python).
pub const COLD_PYTHON_PRAGMA: &str = "# croupier: cold-python";

/// Whether a per-move Python bot opts out of the warm Python: its entry file (the command's
/// `/bot/<entry>.py`, read from `bot_dir`) holds the line [`COLD_PYTHON_PRAGMA`] among its
/// first 64 lines. An unreadable entry file does not opt out (the move reports the error).
pub fn opts_out_of_warm_python(bot_dir: &std::path::Path, command: &[String]) -> bool {
    use std::io::BufRead;
    let Some(entry) = command.get(1).and_then(|c| c.strip_prefix("/bot/")) else {
        return false;
    };
    let Ok(file) = std::fs::File::open(bot_dir.join(entry)) else {
        return false;
    };
    std::io::BufReader::new(file)
        .lines()
        .take(64)
        .map_while(Result::ok)
        .any(|line| line.trim() == COLD_PYTHON_PRAGMA)
}

/// [`PerMoveSeat::close`] for every program seat, at once; `None` stays `None`.
pub(crate) async fn close_all(
    seats: impl IntoIterator<Item = Option<PerMoveSeat>>,
) -> Vec<Option<PerMoveTotals>> {
    let closing = seats
        .into_iter()
        .map(|seat| async move { Some(seat?.close().await) });
    futures_util::future::join_all(closing).await
}

/// A [`PerMoveSeat`] for every program seat of `spec`, `None` for its built-in seats, in seat
/// order; the table reads each one's calls for the seat's move records.
pub(crate) async fn program_seats(
    sandbox: &Sandbox,
    spec: &MatchSpec,
    table: &mut Table,
) -> Result<Vec<Option<PerMoveSeat>>, RefereeError> {
    let mut seats = Vec::with_capacity(spec.seats.len());
    for (i, seat) in spec.seats.iter().enumerate() {
        seats.push(match seat {
            SeatSpec::Builtin { .. } | SeatSpec::Human { .. } => None,
            SeatSpec::Program {
                bot_dir, command, ..
            } => {
                let program = (bot_dir.clone(), command.clone());
                let seat = PerMoveSeat::new(sandbox, Seat(i), program, &spec.limits).await?;
                table.meter(Seat(i), Arc::clone(&seat.meter));
                Some(seat)
            }
        });
    }
    // The seats' sandboxes start side by side rather than each at its seat's first move.
    futures_util::future::join_all(seats.iter_mut().flatten().map(|s| s.runner.prepare())).await;
    Ok(seats)
}

/// What a per-move seat's calls add up to over the match.
#[derive(Debug, Clone)]
pub(crate) struct PerMoveTotals {
    pub calls: u32,
    pub cpu: Duration,
    pub wall: Duration,
    pub max_rss_bytes: u64,
    stdout: Tail,
    stderr: Tail,
    /// The first `memory_limit` or `output_limit` of any call.
    hard: Option<EndState>,
    /// The exit of the first crashed call.
    first_crash: Option<ExitInfo>,
}

impl PerMoveTotals {
    fn new(tail_bytes: usize) -> Self {
        PerMoveTotals {
            calls: 0,
            cpu: Duration::ZERO,
            wall: Duration::ZERO,
            max_rss_bytes: 0,
            stdout: Tail::new(tail_bytes),
            stderr: Tail::new(tail_bytes),
            hard: None,
            first_crash: None,
        }
    }

    /// Adds one call; returns its 1-based number.
    fn add(&mut self, report: &RunReport, outcome: &CallOutcome) -> u32 {
        self.calls += 1;
        self.cpu += report.cpu;
        self.wall += report.wall;
        self.max_rss_bytes = self.max_rss_bytes.max(report.max_rss_bytes);
        push_call(&mut self.stdout, self.calls, &report.stdout);
        push_call(&mut self.stderr, self.calls, &report.stderr);
        match outcome {
            CallOutcome::MemoryLimit | CallOutcome::OutputLimit if self.hard.is_none() => {
                self.hard = Some(report.end_state.clone());
            }
            CallOutcome::Crashed { code, signal } if self.first_crash.is_none() => {
                self.first_crash = Some(ExitInfo {
                    code: *code,
                    signal: *signal,
                });
            }
            _ => {}
        }
        self.calls
    }

    /// Fills the seat's end state (the rule of [`end_state`], as for a long-lived seat), CPU
    /// time, max RSS and tails.
    pub fn settle(&self, seat: &mut SeatOutcome, faults: &Faults) {
        let mut report = RunReport::setup_error("");
        report.end_state = self.hard.clone().unwrap_or(EndState::Ok);
        report.exit = self.first_crash.unwrap_or(ExitInfo {
            code: Some(0),
            signal: None,
        });
        seat.end_state = end_state(faults, &report).unwrap_or(EndState::Ok);
        seat.cpu_ms = millis(self.cpu);
        seat.max_rss_bytes = self.max_rss_bytes;
        seat.stdout_tail = self.stdout.text();
        seat.stderr_tail = self.stderr.text();
    }
}

/// Adds one call's output to a seat's tail, marked with the call's number.
fn push_call(tail: &mut Tail, call: u32, bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    tail.push(format!("[call {call}]\n").as_bytes());
    tail.push(bytes);
    if !bytes.ends_with(b"\n") {
        tail.push(b"\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_file_opts_out_of_the_warm_python_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let command = |entry: &str| vec!["/usr/bin/python3".to_owned(), format!("/bot/{entry}")];
        std::fs::write(dir.path().join("warm.py"), "import sys\n# croupier: cold\n").unwrap();
        std::fs::write(
            dir.path().join("cold.py"),
            format!("#!/usr/bin/env python3\n  {COLD_PYTHON_PRAGMA}  \nimport sys\n"),
        )
        .unwrap();
        let late = format!("{}{COLD_PYTHON_PRAGMA}\n", "pass\n".repeat(64));
        std::fs::write(dir.path().join("late.py"), late).unwrap();
        assert!(!opts_out_of_warm_python(dir.path(), &command("warm.py")));
        assert!(opts_out_of_warm_python(dir.path(), &command("cold.py")));
        assert!(!opts_out_of_warm_python(dir.path(), &command("late.py")));
        assert!(!opts_out_of_warm_python(dir.path(), &command("missing.py")));
        assert!(!opts_out_of_warm_python(
            dir.path(),
            &["/bot/bot".to_owned()]
        ));
    }

    fn report(end_state: EndState, code: Option<i32>, cpu_ms: u64, stderr: &str) -> RunReport {
        let mut r = RunReport::setup_error("");
        r.end_state = end_state;
        r.exit = ExitInfo { code, signal: None };
        r.cpu = Duration::from_millis(cpu_ms);
        r.max_rss_bytes = cpu_ms * 1000;
        r.stderr = stderr.as_bytes().to_vec();
        r
    }

    fn seat() -> SeatOutcome {
        SeatOutcome {
            seat: Seat(0),
            name: "a".into(),
            rank: 1,
            score: 0,
            end_state: EndState::Ok,
            detail: String::new(),
            faults: Vec::new(),
            moves: 0,
            forced_moves: 0,
            move_ms: Vec::new(),
            move_log: Vec::new(),
            cpu_ms: 0,
            max_rss_bytes: 0,
            stderr_tail: String::new(),
            stdout_tail: String::new(),
        }
    }

    fn add(totals: &mut PerMoveTotals, faults: &mut Faults, r: RunReport, outcome: CallOutcome) {
        if let Some((kind, detail)) = outcome.fault(Duration::from_secs(2)) {
            faults.push(kind, detail);
        }
        totals.add(&r, &outcome);
    }

    #[test]
    fn the_first_faulty_call_decides_and_the_totals_add_up() {
        let (mut totals, mut faults) = (PerMoveTotals::new(1 << 10), Faults::default());
        add(
            &mut totals,
            &mut faults,
            report(EndState::Ok, Some(0), 5, "hi"),
            CallOutcome::Ok,
        );
        let crash = CallOutcome::Crashed {
            code: Some(3),
            signal: None,
        };
        add(
            &mut totals,
            &mut faults,
            report(EndState::Ok, Some(3), 7, ""),
            crash,
        );
        add(
            &mut totals,
            &mut faults,
            report(EndState::TimeLimit, None, 2, "slow"),
            CallOutcome::TimeLimit,
        );
        let mut s = seat();
        totals.settle(&mut s, &faults);
        let crashed = EndState::Crashed {
            signal: None,
            code: Some(3),
        };
        assert_eq!(s.end_state, crashed);
        assert_eq!((s.cpu_ms, s.max_rss_bytes, totals.calls), (14, 7000, 3));
        assert_eq!(s.stderr_tail, "[call 1]\nhi\n[call 3]\nslow\n");
        assert_eq!(
            faults.detail(),
            "execution error (exit code 3)\ntime limit exceeded (2s)"
        );
    }

    #[test]
    fn a_hard_limit_on_any_call_always_shows_and_no_fault_is_ok() {
        let (mut totals, mut faults) = (PerMoveTotals::new(16), Faults::default());
        let mut s = seat();
        totals.settle(&mut s, &faults);
        assert_eq!(s.end_state, EndState::Ok);
        add(
            &mut totals,
            &mut faults,
            report(EndState::TimeLimit, None, 1, ""),
            CallOutcome::TimeLimit,
        );
        add(
            &mut totals,
            &mut faults,
            report(EndState::MemoryLimit, None, 1, "0123456789abcdef"),
            CallOutcome::MemoryLimit,
        );
        totals.settle(&mut s, &faults);
        assert_eq!(s.end_state, EndState::MemoryLimit);
        assert!(s.stderr_tail.starts_with("[… "), "{}", s.stderr_tail);
        assert!(s.stderr_tail.ends_with("abcdef\n"), "{}", s.stderr_tail);
    }
}

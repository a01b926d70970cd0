//! A seat's faults during a match, and the rule that turns them and the sandbox's report into
//! the seat's end state. Protocol-independent: every adapter records faults the same way.

use croupier_sandbox::{EndState, RunReport};
use serde::{Deserialize, Serialize};

/// What a seat did wrong, as the protocol adapter saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// No answer within the move time, or never joined within the join time.
    TimeLimit,
    /// Not JSON, not an object, an unknown message type, a missing field, an over-long line,
    /// a refused lobby reply, or no longer reading its socket.
    InvalidOutput,
    /// A well-formed move the rules refuse.
    IllegalAction,
    /// More stdout + stderr than the cap.
    OutputLimit,
    /// The process ended, or its connection closed, before the match was over. The sandbox
    /// report says why.
    Left,
}

/// One fault of a seat: its kind and the reason shown to the seat's team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

/// The faults of one seat, first first, and notes for its log that are not faults.
#[derive(Debug, Clone, Default)]
pub(crate) struct Faults {
    faults: Vec<Fault>,
    notes: Vec<String>,
}

impl Faults {
    pub fn push(&mut self, kind: FaultKind, detail: impl Into<String>) {
        self.faults.push(Fault {
            kind,
            detail: detail.into(),
        });
    }

    /// Something the seat's owner should know that is not held against it.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    pub fn first(&self) -> Option<&Fault> {
        self.faults.first()
    }

    /// Every fault, first first.
    pub fn all(&self) -> &[Fault] {
        &self.faults
    }

    /// The faults' details, then the notes, one per line.
    pub fn detail(&self) -> String {
        let faults = self.faults.iter().map(|f| f.detail.as_str());
        let lines: Vec<&str> = faults
            .chain(self.notes.iter().map(String::as_str))
            .collect();
        lines.join("\n")
    }
}

/// The end state of a program seat (see the crate docs):
/// * a hard sandbox limit (`memory_limit`, `output_limit`, a wall `time_limit`) always shows;
/// * otherwise the **first** fault decides: `time_limit`, `invalid_output`, `illegal_action`,
///   `output_limit` as recorded; for `Left`, the process's own exit (`crashed` with its code or
///   signal; a clean exit 0 before the end is `crashed` with code 0; a process that was still
///   running a grace ([`EXIT_GRACE`](crate::seat::EXIT_GRACE)) after closing its connection is
///   `invalid_output`: the match's end waits that long for it);
/// * no fault: `ok`, even if the bot crashed after the match was over (except a class-based
///   Hanabi bot whose own code raised: the adapter records that as a fault, see
///   [`hanabi`](crate::hanabi)).
///
/// `Err` is a setup error in the report: the platform's fault, never the bot's.
pub(crate) fn end_state(faults: &Faults, report: &RunReport) -> Result<EndState, String> {
    if let EndState::SetupError(reason) = &report.end_state {
        return Err(reason.clone());
    }
    let hard = matches!(
        report.end_state,
        EndState::MemoryLimit | EndState::OutputLimit
    );
    if hard {
        return Ok(report.end_state.clone());
    }
    Ok(match faults.first().map(|f| f.kind) {
        None if report.end_state == EndState::TimeLimit => EndState::TimeLimit,
        None => EndState::Ok,
        Some(FaultKind::TimeLimit) => EndState::TimeLimit,
        Some(FaultKind::InvalidOutput) => EndState::InvalidOutput,
        Some(FaultKind::IllegalAction) => EndState::IllegalAction,
        Some(FaultKind::OutputLimit) => EndState::OutputLimit,
        Some(FaultKind::Left) => match (&report.end_state, report.exit.code, report.exit.signal) {
            (EndState::Ok, None, None) => EndState::InvalidOutput,
            (EndState::Ok, code, signal) => EndState::Crashed { signal, code },
            (other, _, _) => other.clone(),
        },
    })
}

#[cfg(test)]
mod tests {
    use croupier_sandbox::ExitInfo;

    use super::*;

    fn report(end_state: EndState, code: Option<i32>) -> RunReport {
        let mut r = RunReport::setup_error("");
        r.end_state = end_state;
        r.exit = ExitInfo { code, signal: None };
        r
    }

    #[test]
    fn the_first_fault_decides_and_hard_limits_always_show() {
        let mut faults = Faults::default();
        assert_eq!(
            end_state(&faults, &report(EndState::Ok, None)),
            Ok(EndState::Ok)
        );
        faults.push(FaultKind::IllegalAction, "passed with no coins");
        faults.push(FaultKind::Left, "disconnected");
        let crashed = EndState::Crashed {
            signal: None,
            code: Some(1),
        };
        assert_eq!(
            end_state(&faults, &report(crashed, Some(1))),
            Ok(EndState::IllegalAction)
        );
        let oom = report(EndState::MemoryLimit, None);
        assert_eq!(end_state(&faults, &oom), Ok(EndState::MemoryLimit));
        assert_eq!(faults.detail(), "passed with no coins\ndisconnected");
    }

    #[test]
    fn a_seat_that_left_gets_its_exit_and_a_setup_error_is_the_platforms() {
        let mut faults = Faults::default();
        faults.push(FaultKind::Left, "exited");
        let clean = end_state(&faults, &report(EndState::Ok, Some(0)));
        assert_eq!(
            clean,
            Ok(EndState::Crashed {
                signal: None,
                code: Some(0)
            })
        );
        let lingering = end_state(&faults, &report(EndState::Ok, None));
        assert_eq!(lingering, Ok(EndState::InvalidOutput));
        assert!(end_state(&faults, &report(EndState::SetupError("x".into()), None)).is_err());
    }
}

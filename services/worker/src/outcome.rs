//! Turning the referee's [`MatchResult`] into rows: seat results and the replay document.

use croupier_referee::{GameRecord, MatchResult, SeatOutcome};
use croupier_sandbox::EndState;
use croupier_store::matches::NewSeatResult;

/// The `seat_result.end_state` name of an end state (for logs).
pub(crate) fn end_state_name(state: &EndState) -> &'static str {
    stored_end_state(state).as_str()
}

/// The `seat_result.end_state` of a sandboxed seat's end state (its details go to `end_detail`).
pub(crate) fn stored_end_state(state: &EndState) -> croupier_store::EndState {
    use croupier_store::EndState as Stored;
    match state {
        EndState::Ok => Stored::Ok,
        EndState::TimeLimit => Stored::TimeLimit,
        EndState::MemoryLimit => Stored::MemoryLimit,
        EndState::Crashed { .. } => Stored::Crashed,
        EndState::OutputLimit => Stored::OutputLimit,
        EndState::InvalidOutput => Stored::InvalidOutput,
        EndState::IllegalAction => Stored::IllegalAction,
        EndState::SetupError(_) => Stored::SetupError,
    }
}

/// A seat that ended in a setup error makes the whole match a platform fault.
pub(crate) fn setup_error(result: &MatchResult) -> Option<String> {
    result.seats.iter().find_map(|s| match &s.end_state {
        EndState::SetupError(m) => Some(format!("seat {}: sandbox setup: {m}", s.seat.index())),
        EndState::Ok
        | EndState::TimeLimit
        | EndState::MemoryLimit
        | EndState::Crashed { .. }
        | EndState::OutputLimit
        | EndState::InvalidOutput
        | EndState::IllegalAction => None,
    })
}

/// The seat's row; `games` gives its score in each game of the match.
pub(crate) fn seat_row(s: &SeatOutcome, games: &[GameRecord]) -> NewSeatResult {
    let detail = match (&s.end_state, s.detail.is_empty()) {
        (EndState::Crashed { signal, code }, _) => Some(crashed(*signal, *code, &s.detail)),
        (_, true) => None,
        (_, false) => Some(s.detail.clone()),
    };
    NewSeatResult {
        seat: i32::try_from(s.seat.index()).unwrap_or(i32::MAX),
        rank: i32::try_from(s.rank).unwrap_or(i32::MAX),
        score: s.score as f64,
        end_state: stored_end_state(&s.end_state),
        end_detail: detail,
        moves: i32::try_from(s.moves).unwrap_or(i32::MAX),
        cpu_ms: i64::try_from(s.cpu_ms).unwrap_or(i64::MAX),
        max_rss_kb: i64::try_from(s.max_rss_bytes / 1024).unwrap_or(i64::MAX),
        timings: serde_json::json!(s.move_ms),
        stderr_tail: s.stderr_tail.as_bytes().to_vec(),
        move_log: match s.move_log.is_empty() {
            true => Vec::new(),
            false => serde_json::to_vec(&s.move_log).unwrap_or_default(),
        },
        game_scores: games
            .iter()
            .map(|g| g.outcome.get(s.seat).map_or(0, |r| r.score))
            .collect(),
    }
}

fn crashed(signal: Option<i32>, code: Option<i32>, detail: &str) -> String {
    let how = match (signal, code) {
        (Some(sig), _) => format!("killed by signal {sig}"),
        (None, Some(code)) => format!("exit code {code}"),
        (None, None) => "exited".to_owned(),
    };
    if detail.is_empty() {
        how
    } else {
        format!("{how}: {detail}")
    }
}

//! Finished matches as standings and ratings read them: who sat where, with what score, rank
//! and end state. The store fills these from `match`, `match_seat` and `seat_result`.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One finished match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchResult<E> {
    /// The schedule position; ratings update in this order.
    pub ordinal: u32,
    /// The duplicate set ([`PlannedMatch::group`](crate::PlannedMatch::group)).
    pub group: u32,
    /// One entry per seat, seat order.
    pub seats: Vec<SeatOutcome<E>>,
    /// Bridge only: each board's score for North-South at this table, board order. When empty,
    /// the whole table counts as one board scored by seat 0's score.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boards: Vec<i64>,
}

/// One seat's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatOutcome<E> {
    pub entrant: E,
    pub score: f64,
    /// 1 = best; tied seats share a rank and the next is skipped (1, 1, 3).
    pub rank: u32,
    pub end_state: EndState,
}

/// How a seat's bot ended, as stored in `seat_result.end_state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndState {
    Ok,
    TimeLimit,
    MemoryLimit,
    Crashed,
    OutputLimit,
    InvalidOutput,
    IllegalAction,
    /// A platform fault. A match with one should have been retried or failed; if it reaches
    /// standings anyway it is left out of them and of ratings.
    SetupError,
}

impl EndState {
    pub const ALL: [EndState; 8] = [
        EndState::Ok,
        EndState::TimeLimit,
        EndState::MemoryLimit,
        EndState::Crashed,
        EndState::OutputLimit,
        EndState::InvalidOutput,
        EndState::IllegalAction,
        EndState::SetupError,
    ];

    /// The database spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            EndState::Ok => "ok",
            EndState::TimeLimit => "time_limit",
            EndState::MemoryLimit => "memory_limit",
            EndState::Crashed => "crashed",
            EndState::OutputLimit => "output_limit",
            EndState::InvalidOutput => "invalid_output",
            EndState::IllegalAction => "illegal_action",
            EndState::SetupError => "setup_error",
        }
    }

    /// The bot's own fault (a limit, a crash, bad output or an illegal move).
    pub const fn is_fault(self) -> bool {
        !matches!(self, EndState::Ok | EndState::SetupError)
    }
}

/// A string that is no end state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown end state {0:?}")]
pub struct UnknownEndState(pub String);

impl FromStr for EndState {
    type Err = UnknownEndState;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndState::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| UnknownEndState(s.to_owned()))
    }
}

impl<E> MatchResult<E> {
    /// Whether standings and ratings use this match: it has seats and no platform fault.
    pub(crate) fn counts(&self) -> bool {
        !self.seats.is_empty()
            && self
                .seats
                .iter()
                .all(|s| s.end_state != EndState::SetupError)
    }

    /// The seats of side `side` (0: seats 0, 2, …; 1: seats 1, 3, …) in a two-sided game.
    pub(crate) fn side(&self, side: usize) -> impl Iterator<Item = &SeatOutcome<E>> {
        self.seats.iter().skip(side).step_by(2)
    }

    /// The best rank on a side (`u32::MAX` for an empty side).
    pub(crate) fn side_rank(&self, side: usize) -> u32 {
        self.side(side).map(|s| s.rank).min().unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_states_round_trip_through_the_database_spelling() {
        for state in EndState::ALL {
            assert_eq!(state.as_str().parse::<EndState>(), Ok(state));
            let json = serde_json::to_string(&state).ok();
            assert_eq!(json, Some(format!("\"{}\"", state.as_str())));
        }
        assert!("melted".parse::<EndState>().is_err());
    }
}

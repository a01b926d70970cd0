//! [`RefereeError`]: the platform could not play the match. Never a bot's fault.

use croupier_games::SettingsError;

/// Why a match could not be played. A bot's crash, timeout, garbage or illegal move is never an
/// error: it is a [`SeatOutcome`](crate::SeatOutcome) end state. The worker retries a match that
/// failed with a [retryable](RefereeError::is_retryable) error on another machine.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// The spec cannot describe a match (unknown rule set, bad settings, seat count, duplicate
    /// or empty names, unknown built-in bot, empty command). Not retryable.
    #[error("invalid match spec: {0}")]
    InvalidSpec(String),
    /// The match network namespace or its listeners could not be set up. Retryable.
    #[error("match network: {0}")]
    Network(std::io::Error),
    /// A seat's sandbox could not be started, or it reported a setup error. Retryable.
    #[error("sandbox setup for seat {seat}: {reason}")]
    Sandbox { seat: usize, reason: String },
    /// A person's turn could not be shown, or the answer read (the worker's database).
    /// Retryable.
    #[error("human seat: {0}")]
    Desk(String),
    /// A bug in the referee (an engine refusal of a move the referee chose itself, …). Retryable.
    #[error("internal referee error: {0}")]
    Internal(String),
}

impl RefereeError {
    /// Whether running the match again (elsewhere) may succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            RefereeError::Network(_)
                | RefereeError::Sandbox { .. }
                | RefereeError::Desk(_)
                | RefereeError::Internal(_)
        )
    }
}

impl From<SettingsError> for RefereeError {
    fn from(e: SettingsError) -> Self {
        RefereeError::InvalidSpec(e.to_string())
    }
}

//! The crate's one error type. Every variant is a mistake in what an admin asked for, so the web
//! crate shows it as a 400 with this message; none carries internal detail.

use croupier_games::{GameId, SettingsError};

use crate::Format;

/// Why a schedule cannot be made. All variants: 400 Bad Request, message shown as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeagueError {
    /// Too few entrants for the format (3 for triples, 2 for pairs, 1 for self-play).
    #[error("{format} needs at least {need} entrants, not {got}")]
    TooFewEntrants {
        format: Format,
        need: usize,
        got: usize,
    },
    /// The same entrant was listed twice (positions are 0-based).
    #[error("entrants {first} and {second} are the same; list each entrant once")]
    DuplicateEntrant { first: usize, second: usize },
    /// `rounds` was 0.
    #[error("a schedule needs at least one round")]
    NoRounds,
    /// The game's leaderboard has no such format (e.g. self-play for Splendor).
    #[error("{game} offers {offered}, not {format}")]
    FormatNotOffered {
        game: GameId,
        format: Format,
        offered: String,
    },
    /// A `players` override that the format cannot seat.
    #[error("{game} {format} plays at tables of {need}, not {got}")]
    Players {
        game: GameId,
        format: Format,
        need: String,
        got: String,
    },
    /// The rule set or the overrides are refused by the game.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// A Swiss plan's rounds out of range.
    #[error("a Swiss competition plays 1 to {max} rounds, not {0}", max = crate::MAX_ROUNDS)]
    SwissRounds(u32),
    /// An adaptive budget too small for one group.
    #[error("a match budget of {budget} is less than one group ({group} matches)")]
    Budget { budget: u32, group: usize },
    /// More matches than one schedule may hold.
    #[error("{count} matches is more than the limit of {limit}; use fewer entrants or rounds")]
    TooManyMatches { count: u128, limit: u32 },
}

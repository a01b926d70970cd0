//! [`Scheme`]: a game's leaderboard as the league reads it — its [`GameDef::leaderboard`]
//! (formats, scoring, rating form, score order) with the game attached. Callers hold a
//! [`GameId`] and never match on games themselves.
//!
//! [`GameDef::leaderboard`]: croupier_games::registry::GameDef::leaderboard

use croupier_games::{GameId, ScoreOrder};
use serde::Serialize;

pub use croupier_games::leaderboard::{Format, RatingForm, Scoring};

/// A game's leaderboard scheme. `Scheme::of(game)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Scheme {
    pub game: GameId,
    /// The schedule kinds offered; the first is the default.
    pub formats: &'static [Format],
    pub scoring: Scoring,
    pub rating: RatingForm,
    /// Which way game scores point (No Thanks: lower is better).
    pub score_order: ScoreOrder,
}

impl Scheme {
    pub const fn of(game: GameId) -> Scheme {
        let board = game.def().leaderboard;
        Scheme {
            game,
            formats: board.formats,
            scoring: board.scoring,
            rating: board.rating,
            score_order: board.score_order,
        }
    }

    /// The format used when a competition names none.
    pub fn default_format(&self) -> Format {
        self.game.def().leaderboard.default_format()
    }

    pub fn offers(&self, format: Format) -> bool {
        self.game.def().leaderboard.offers(format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_scheme_with_a_default_format() {
        for game in croupier_games::registry::all() {
            let scheme = Scheme::of(game);
            assert_eq!(scheme.game, game);
            assert!(scheme.offers(scheme.default_format()));
        }
        assert_eq!(
            Scheme::of(GameId::HANABI).default_format(),
            Format::SelfPlay
        );
    }
}

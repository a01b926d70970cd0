//! A competition's fitted ranking, shown under its leaderboard and in the API: one model fitted
//! over all its finished matches at once (`croupier_league::fitted`: Plackett–Luce for three or
//! more seats, Bradley–Terry for pairs and Bridge's duplicate sets, the mean score in Hanabi),
//! with each entrant's 95% interval and, for neighbours, whether their order is significant.
//! Unlike the online rating it does not depend on the order results landed in.
//!
//! Built with the board (`crate::leaderboard::build`) and kept with it (`crate::board_cache`),
//! so it is fitted once per change, not per reader. Only the listed (active) entries are
//! ranked: a ladder's replaced versions are fitted, as their matches count for their
//! opponents, but not shown, and positions count the rows shown.

use croupier_games::GameId;
use croupier_league::{CompetitionSettings, FitModel};
use croupier_store::competitions::{self, Entrant};
use croupier_store::PgPool;
use serde::Serialize;
use uuid::Uuid;

use crate::error::{Error, Result};

/// The fitted ranking as the API and the page show it.
#[derive(Debug, Clone, Serialize)]
pub struct FittedView {
    /// `bradley_terry`, `plackett_luce` or `mean_score`.
    pub model: FitModel,
    pub rows: Vec<FittedLine>,
    /// Runs of positions `(first, last)` whose order is not significant at 95%.
    pub ties: Vec<(u32, u32)>,
}

/// One entrant of the fitted ranking.
#[derive(Debug, Clone, Serialize)]
pub struct FittedLine {
    pub position: u32,
    pub submission_id: Uuid,
    pub team_name: String,
    pub version: i32,
    pub label: String,
    /// Log-strength (0 is the average entrant) or, in Hanabi, the mean score.
    pub strength: f64,
    /// The 95% interval of `strength`.
    pub low: f64,
    pub high: f64,
    /// Observations: matches (Bridge: duplicate sets; Hanabi: games).
    pub games: u32,
    /// Significantly (95%) ahead of the next row; `false` on the last row.
    pub ahead_of_next: bool,
}

impl FittedLine {
    /// `1.23 [0.85, 1.61]`.
    pub fn strength_text(&self) -> String {
        format!("{:.2} [{:.2}, {:.2}]", self.strength, self.low, self.high)
    }
}

/// The fitted ranking of competition `competition_id` (of `game`, with `settings`) over its
/// finished matches, for the listed `entries` (`None` before any match has finished), and how
/// many finished matches it counts (not those with a built-in bot or a person in a seat).
pub async fn build(
    pool: &PgPool,
    competition_id: Uuid,
    game: GameId,
    settings: &serde_json::Value,
    entries: &[Entrant],
) -> Result<(Option<FittedView>, usize)> {
    let format = CompetitionSettings::from_stored(settings)
        .map_err(Error::internal)?
        .format_of(game);
    let seats = competitions::seat_scores(pool, competition_id).await?;
    let results = croupier_board::to_results(game, format, &seats);
    if results.is_empty() {
        return Ok((None, 0));
    }
    let counted = results.len();
    let mut ranking = croupier_league::fitted(game, &results);
    // A replaced version is fitted (its matches count for its opponents) but not shown; the
    // row above it becomes the listed neighbour of the row below.
    ranking
        .rows
        .retain(|r| entries.iter().any(|e| e.submission_id == r.entrant));
    let listed = ranking.rows.len();
    for (i, r) in ranking.rows.iter_mut().enumerate() {
        r.position = u32::try_from(i + 1).unwrap_or(u32::MAX);
        r.ahead_of_next &= i + 1 < listed;
    }
    let ties = ranking.ties();
    let rows = ranking
        .rows
        .into_iter()
        .filter_map(|r| {
            let e = entries.iter().find(|e| e.submission_id == r.entrant)?;
            Some(FittedLine {
                position: r.position,
                submission_id: e.submission_id,
                team_name: e.team_name.clone(),
                version: e.version,
                label: e.label.clone(),
                strength: r.strength,
                low: r.low,
                high: r.high,
                games: r.games,
                ahead_of_next: r.ahead_of_next,
            })
        })
        .collect();
    let view = FittedView {
        model: ranking.model,
        rows,
        ties,
    };
    Ok((Some(view), counted))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_strength_is_shown_with_its_interval() {
        let line = super::FittedLine {
            position: 1,
            submission_id: uuid::Uuid::nil(),
            team_name: String::new(),
            version: 1,
            label: String::new(),
            strength: 0.0,
            low: -1.0,
            high: 1.254,
            games: 3,
            ahead_of_next: false,
        };
        assert_eq!(line.strength_text(), "0.00 [-1.00, 1.25]");
    }
}

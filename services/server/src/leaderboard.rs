//! A competition's leaderboard, read from the board kept as results land (`croupier_board`:
//! each entry's standings tally, rating and history outline, updated in the transaction that
//! records a result) and ranked with the game's scheme (`croupier_league::ranked`). A read is
//! one query over the entries, whatever the number of matches.
//!
//! Entries that have not finished a game yet are listed last, without a position. Each row
//! carries its entrant's history outline (at most `croupier_league::Outline::CAP` points of the
//! rating, or Hanabi's mean score, after each match) for the row's sparkline; the whole
//! history is read per entry ([`history`], [`histories`]) for plots and the API.

use std::collections::{BTreeMap, HashMap};

use croupier_games::GameId;
use croupier_league::{
    CompetitionSettings, Extra, HistoryPoint, Outline, RatingForm, Record, Scheme, Scoring,
};
use croupier_store::competitions::{self, Competition};
use croupier_store::PgPool;
use serde::Serialize;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::fitted::FittedView;
use crate::i18n::Lang;

#[derive(Debug, Clone, Serialize)]
pub struct Board {
    pub competition_id: Uuid,
    pub game: String,
    /// What the position is decided by ("rank points", "games won", "IMPs", "mean score").
    pub metric: &'static str,
    /// Whether the game has ratings (Hanabi is cooperative: none).
    pub rated: bool,
    /// Game scores point down (No Thanks).
    pub lower_is_better: bool,
    /// Some row has a game-specific note ([`Board::extra_text`]).
    pub has_extra: bool,
    /// How the position is decided, for the page's words in the game's own terms.
    #[serde(skip)]
    pub scoring: Scoring,
    /// The language the table is shown in (English as built; a page in another language
    /// renders a copy in its own, [`Board::in_lang`]).
    #[serde(skip)]
    pub lang: Lang,
    /// Whether the table shows a mean-score column besides the metric (not when the metric is
    /// the mean score).
    #[serde(skip)]
    pub show_mean: bool,
    /// Whether wins mean something (not in a cooperative game, where every seat shares one
    /// score and nobody wins).
    #[serde(skip)]
    pub show_wins: bool,
    /// Whether the best game score is shown (cooperative games: how close a bot came to a
    /// perfect game).
    #[serde(skip)]
    pub show_best: bool,
    /// Finished matches the board was computed from.
    pub matches: usize,
    /// Finished matches it does not count: a built-in bot or a person in a seat.
    pub uncounted: usize,
    pub rows: Vec<BoardRow>,
    /// The ranking fitted over all finished matches at once, with 95% intervals
    /// ([`crate::fitted`]); `None` before the first finished match.
    pub fitted: Option<FittedView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BoardRow {
    /// From 1, shared on equal metrics; `None` before the entry's first finished game.
    pub position: Option<u32>,
    pub submission_id: Uuid,
    pub team_id: Uuid,
    pub team_name: String,
    pub version: i32,
    pub label: String,
    pub games: u32,
    /// The sort key of the game's scheme.
    pub metric: f64,
    /// 4/2/1 for 1st/2nd/3rd (rank-point games).
    pub rank_points: u32,
    pub mean_score: f64,
    /// The best score of one seat in one match (`None` before the first finished match).
    pub best_score: Option<f64>,
    pub wins: u32,
    pub faults: u32,
    /// The metric per game: mean and the half-width of its 95% confidence interval.
    pub per_game_mean: f64,
    pub per_game_half_width: Option<f64>,
    pub rating: Option<RatingView>,
    pub extra: Extra,
    /// The rating (or mean score) after each of the entry's matches, in match order. Left out
    /// of the leaderboard's JSON (it grows with the matches): the API serves it at `…/history`.
    #[serde(skip)]
    pub history: Vec<HistoryPoint>,
    /// How many points the whole history has (`history` is its outline).
    #[serde(skip)]
    pub history_len: usize,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct RatingView {
    /// μ − 3σ, the value shown.
    pub display: f64,
    pub mu: f64,
    pub sigma: f64,
}

impl BoardRow {
    pub fn place(&self) -> String {
        self.position
            .map_or_else(|| "–".to_owned(), |p| p.to_string())
    }

    pub fn metric_text(&self) -> String {
        number(self.metric)
    }

    pub fn mean_text(&self) -> String {
        if self.games == 0 {
            "–".to_owned()
        } else {
            format!("{:.2}", self.mean_score)
        }
    }

    /// `2.33 ± 0.84`, or the bare mean with fewer than two games.
    pub fn interval_text(&self) -> String {
        match (self.games, self.per_game_half_width) {
            (0, _) => "–".to_owned(),
            (_, Some(h)) => format!("{:.2} ± {:.2}", self.per_game_mean, h),
            (_, None) => format!("{:.2}", self.per_game_mean),
        }
    }

    pub fn best_text(&self) -> String {
        self.best_score.map_or_else(|| "–".to_owned(), number)
    }

    pub fn rating_text(&self) -> String {
        self.rating
            .map_or_else(|| "–".to_owned(), |r| format!("{:.2}", r.display))
    }

    /// The history as a sparkline (empty before the first match).
    pub fn sparkline(&self) -> String {
        crate::history::outline_sparkline(&self.history, self.history_len)
    }
}

/// An integer without decimals, anything else with two.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

impl Board {
    /// The table's text for `key` in its language.
    pub fn t(&self, key: &str) -> String {
        self.lang.t(key)
    }

    /// The table's text for `key` with one argument.
    pub fn t1(&self, key: &str, name: &str, value: &dyn std::fmt::Display) -> String {
        self.lang.t_with(key, &[(name, value)])
    }

    /// What the position is decided by, in the game's own terms (the column's heading).
    pub fn metric_label(&self) -> String {
        match self.scoring {
            Scoring::RankPoints { .. } => self.t("board-metric-rank-points"),
            Scoring::GamesWon => self.t("board-metric-games-won"),
            Scoring::Imps => self.t("board-metric-imps"),
            Scoring::MeanScore => self.t("board-metric-mean-score"),
        }
    }

    /// Whether the position is decided by rank points (4, 2, 1 for 1st, 2nd, 3rd).
    pub fn by_rank_points(&self) -> bool {
        matches!(self.scoring, Scoring::RankPoints { .. })
    }

    /// The heading of the game's own column ([`Board::extra_text`]).
    pub fn extra_heading(&self) -> String {
        self.rows
            .iter()
            .find_map(|r| match r.extra {
                Extra::None => None,
                Extra::Splendor { .. } => Some(self.t("board-extra-splendor-heading")),
                Extra::Guandan { .. } => Some(self.t("board-extra-guandan-heading")),
                Extra::Bridge { .. } => Some(self.t("board-extra-bridge-heading")),
            })
            .unwrap_or_default()
    }

    /// Row `r`'s game-specific column: Splendor's battle score, Guandan's draws, Bridge's IMPs
    /// per board.
    pub fn extra_text(&self, r: &BoardRow) -> String {
        match &r.extra {
            Extra::None => String::new(),
            Extra::Splendor { battle_score } => {
                self.t1("board-extra-splendor", "score", battle_score)
            }
            Extra::Guandan { draws, .. } => self.t1("board-extra-guandan", "n", draws),
            // The mean keeps its two decimals outside the message (an argument that reads as a
            // number would lose its trailing zeros).
            Extra::Bridge {
                imps_per_board,
                boards,
                points,
                ..
            } => {
                let args: [(&str, &dyn std::fmt::Display); 2] =
                    [("boards", boards), ("points", points)];
                let rest = self.lang.t_with("board-extra-bridge", &args);
                format!("{imps_per_board:.2} {rest}")
            }
        }
    }

    /// Row `r`'s rating as μ and σ (the cell's title).
    pub fn rating_detail(&self, r: &BoardRow) -> String {
        r.rating.map_or_else(String::new, |k| {
            format!(
                "μ {:.2}, σ {:.2}: {}",
                k.mu,
                k.sigma,
                self.t("board-rating-shown")
            )
        })
    }

    /// What the fitted ranking's strength is, in the model's terms (the column's heading).
    pub fn fitted_strength_label(&self) -> String {
        match self.fitted.as_ref().map(|f| f.model) {
            Some(croupier_league::FitModel::MeanScore) => self.t("fitted-col-mean"),
            _ => self.t("fitted-col-strength"),
        }
    }

    /// The fitted ranking's ties in words ("places 3–5 and 8–9 are not yet apart at 95%"),
    /// or that every neighbour is.
    pub fn fitted_ties_text(&self) -> String {
        let Some(fitted) = &self.fitted else {
            return String::new();
        };
        if fitted.ties.is_empty() {
            return self.t("fitted-all-apart");
        }
        let runs: Vec<String> = fitted
            .ties
            .iter()
            .map(|(a, b)| format!("{a}–{b}"))
            .collect();
        self.t1("fitted-ties", "runs", &runs.join(", "))
    }

    /// The same board shown in `lang`.
    pub fn in_lang(&self, lang: Lang) -> Board {
        Board {
            lang,
            ..self.clone()
        }
    }
}

fn metric_name(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::RankPoints { .. } => "rank points",
        Scoring::GamesWon => "games won",
        Scoring::Imps => "IMPs",
        Scoring::MeanScore => "mean score",
    }
}

/// The leaderboard of `c`.
pub async fn build(pool: &PgPool, c: &Competition) -> Result<Board> {
    let game: GameId = c.game.parse().map_err(Error::internal)?;
    let scheme = Scheme::of(game);
    let entries = competitions::entries(pool, c.competition_id).await?;
    let stored = croupier_board::read(pool, c.competition_id)
        .await
        .map_err(Error::internal)?;
    let mut records: BTreeMap<Uuid, Record> = BTreeMap::new();
    let mut outlines: HashMap<Uuid, Outline> = HashMap::new();
    for e in stored.entries {
        records.insert(e.submission_id, e.record);
        outlines.insert(e.submission_id, e.outline);
    }
    let standings = croupier_league::ranked(game, &records);
    let entry = |id: &Uuid| entries.iter().find(|e| e.submission_id == *id);
    let mut rows: Vec<BoardRow> = Vec::with_capacity(entries.len());
    for s in &standings {
        let Some(e) = entry(&s.entrant) else { continue };
        let record = records.get(&s.entrant);
        rows.push(BoardRow {
            position: Some(s.position),
            submission_id: e.submission_id,
            team_id: e.team_id,
            team_name: e.team_name.clone(),
            version: e.version,
            label: e.label.clone(),
            games: s.games,
            metric: s.metric,
            rank_points: s.rank_points,
            mean_score: s.mean_score,
            best_score: record.and_then(|r| r.tally.best_score()),
            wins: s.wins,
            faults: s.faults,
            per_game_mean: s.interval.mean,
            per_game_half_width: s.interval.half_width,
            rating: record.and_then(|r| r.skill).map(|k| RatingView {
                display: k.display(),
                mu: k.mu,
                sigma: k.sigma,
            }),
            extra: s.extra.clone(),
            history_len: outlines.get(&s.entrant).map_or(0, Outline::len),
            history: outlines
                .remove(&s.entrant)
                .map(|o| o.points())
                .unwrap_or_default(),
        });
    }
    renumber(&mut rows);
    for e in &entries {
        if standings.iter().any(|s| s.entrant == e.submission_id) {
            continue;
        }
        rows.push(BoardRow {
            position: None,
            submission_id: e.submission_id,
            team_id: e.team_id,
            team_name: e.team_name.clone(),
            version: e.version,
            label: e.label.clone(),
            games: 0,
            metric: 0.0,
            rank_points: 0,
            mean_score: 0.0,
            best_score: None,
            wins: 0,
            faults: 0,
            per_game_mean: 0.0,
            per_game_half_width: None,
            rating: None,
            extra: Extra::None,
            history: Vec::new(),
            history_len: 0,
        });
    }
    let cooperative = game.def().shared_score;
    let counted = stored.counted;
    let fitted = crate::fitted::build(pool, c, game, counted, &entries).await?;
    Ok(Board {
        has_extra: rows.iter().any(|r| r.extra != Extra::None),
        scoring: scheme.scoring,
        lang: Lang::En,
        show_mean: scheme.scoring != Scoring::MeanScore,
        show_wins: !cooperative,
        show_best: cooperative,
        competition_id: c.competition_id,
        game: c.game.clone(),
        metric: metric_name(scheme.scoring),
        rated: scheme.rating != RatingForm::Unrated,
        lower_is_better: scheme.score_order == croupier_games::ScoreOrder::LowerIsBetter,
        matches: counted,
        uncounted: usize::try_from(c.progress.finished)
            .unwrap_or(0)
            .saturating_sub(counted),
        rows,
        fitted,
    })
}

/// Positions counted over the rows listed: a ladder's replaced versions are ranked (their
/// matches count for their opponents) but not listed, and must leave no gap (1, 2, 4 …). Rows
/// that shared a position still share one.
fn renumber(rows: &mut [BoardRow]) {
    let mut previous: Option<(u32, u32)> = None;
    for (i, row) in rows.iter_mut().enumerate() {
        let Some(old) = row.position else { continue };
        let new = match previous {
            Some((was, given)) if was == old => given,
            _ => u32::try_from(i + 1).unwrap_or(u32::MAX),
        };
        previous = Some((old, new));
        row.position = Some(new);
    }
}

/// One entry's whole history in `c` (for its plot).
pub async fn history(
    pool: &PgPool,
    c: &Competition,
    submission_id: Uuid,
) -> Result<Vec<HistoryPoint>> {
    croupier_board::history(pool, c.competition_id, submission_id)
        .await
        .map_err(Error::internal)
}

/// Every entry's whole history in `c`.
pub async fn histories(
    pool: &PgPool,
    c: &Competition,
) -> Result<BTreeMap<Uuid, Vec<HistoryPoint>>> {
    croupier_board::histories(pool, c.competition_id)
        .await
        .map_err(Error::internal)
}

/// Where a match's ranks decide nothing by themselves (Bridge), what the duplicate set of the
/// finished table `match_id` of `c` came to, once both its tables have finished: the other
/// table's ordinal and each side's IMPs, as `(entrant, IMPs)` with the first table's
/// North-South first.
pub async fn duplicate_of(
    pool: &PgPool,
    c: &Competition,
    match_id: Uuid,
) -> Result<Option<(u32, [(Uuid, i64); 2])>> {
    let game: GameId = c.game.parse().map_err(Error::internal)?;
    let format = CompetitionSettings::from_stored(&c.settings)
        .map_err(Error::internal)?
        .format_of(game);
    let Some((table, mut mates)) = croupier_board::with_mates(pool, game, format, match_id)
        .await
        .map_err(Error::internal)?
    else {
        return Ok(None);
    };
    let ordinal = table.ordinal;
    mates.push(table);
    Ok(croupier_league::duplicate_sets(&mates)
        .into_iter()
        .find(|set| set.ordinals.contains(&ordinal))
        .map(|set| {
            let other = set
                .ordinals
                .into_iter()
                .find(|o| *o != ordinal)
                .unwrap_or(ordinal);
            (other, [(set.first, set.imps), (set.second, -set.imps)])
        }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(position: Option<u32>) -> BoardRow {
        BoardRow {
            position,
            submission_id: Uuid::nil(),
            team_id: Uuid::nil(),
            team_name: String::new(),
            version: 1,
            label: String::new(),
            games: 1,
            metric: 0.0,
            rank_points: 0,
            mean_score: 0.0,
            best_score: None,
            wins: 0,
            faults: 0,
            per_game_mean: 0.0,
            per_game_half_width: None,
            rating: None,
            extra: Extra::None,
            history: Vec::new(),
            history_len: 0,
        }
    }

    #[test]
    fn listed_rows_are_numbered_without_the_gaps_of_replaced_versions() {
        // Ranked 1, 2, (3 replaced), 4, 4, (6 replaced), 7 → listed 1, 2, 3, 3, 5.
        let mut rows: Vec<BoardRow> = [1, 2, 4, 4, 7].map(|p| row(Some(p))).into();
        renumber(&mut rows);
        let shown: Vec<Option<u32>> = rows.iter().map(|r| r.position).collect();
        assert_eq!(shown, [1, 2, 3, 3, 5].map(Some));
    }
}

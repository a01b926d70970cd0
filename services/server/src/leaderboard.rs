//! A competition's leaderboard, computed on every read from its finished matches with the
//! game's scheme (`croupier_league::standings`) and ratings (`croupier_league::ratings`), so it
//! is never stale and needs no bookkeeping when a match finishes, fails or is re-run.
//!
//! A match's duplicate set (the league's `group`) is rebuilt from the stored matches: the
//! matches of one round (same seed) between the same entrants, or in self-play the round.
//! Entries that have not finished a game yet are listed last, without a position.
//!
//! Each row also carries its entrant's history (`croupier_league::history`: the rating, or
//! Hanabi's mean score, after each match), computed in the same pass from the same results, for
//! the row's sparkline, the submission page's plot and the API's `…/history`.

use std::collections::{BTreeMap, HashMap};

use croupier_games::GameId;
use croupier_league::{
    CompetitionSettings, EndState, Extra, Format, HistoryPoint, MatchResult, RatingForm, Scheme,
    Scoring, SeatOutcome,
};
use croupier_store::competitions::{self, Competition, SeatScore};
use croupier_store::PgPool;
use serde::Serialize;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::pages::labels::count;

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
    /// Some row has a game-specific note ([`BoardRow::extra_text`]).
    pub has_extra: bool,
    /// The heading of that column.
    #[serde(skip)]
    pub extra_heading: &'static str,
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
    pub rows: Vec<BoardRow>,
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

    /// The game's own column: Splendor's battle score, Guandan's draws, Bridge's IMPs per board.
    pub fn extra_text(&self) -> String {
        match &self.extra {
            Extra::None => String::new(),
            Extra::Splendor { battle_score } => format!("battle score {battle_score}"),
            Extra::Guandan { draws, .. } => format!("{draws} drawn"),
            Extra::Bridge {
                imps_per_board,
                boards,
                points,
                ..
            } => format!(
                "{imps_per_board:.2} IMPs/board over {}, {}",
                count(*boards, "board"),
                count(*points, "point")
            ),
        }
    }

    /// The history as a sparkline (empty before the first match).
    pub fn sparkline(&self) -> String {
        crate::history::sparkline(&self.history)
    }

    pub fn rating_detail(&self) -> String {
        self.rating.map_or_else(String::new, |r| {
            format!("μ {:.2}, σ {:.2}: shown is μ − 3σ", r.mu, r.sigma)
        })
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

/// The heading of the game's own column ([`BoardRow::extra_text`]).
fn extra_heading(rows: &[BoardRow]) -> &'static str {
    rows.iter()
        .find_map(|r| match r.extra {
            Extra::None => None,
            Extra::Splendor { .. } => Some("Battle score"),
            Extra::Guandan { .. } => Some("Draws"),
            Extra::Bridge { .. } => Some("Per board"),
        })
        .unwrap_or("")
}

/// The best score of each entrant in one seat of one match (`score_order` decides "best").
fn best_scores(
    results: &[MatchResult<Uuid>],
    order: croupier_games::ScoreOrder,
) -> HashMap<Uuid, f64> {
    let mut best: HashMap<Uuid, f64> = HashMap::new();
    for seat in results.iter().flat_map(|r| &r.seats) {
        let better = |old: f64| match order {
            croupier_games::ScoreOrder::HigherIsBetter => seat.score > old,
            croupier_games::ScoreOrder::LowerIsBetter => seat.score < old,
        };
        if best.get(&seat.entrant).is_none_or(|old| better(*old)) {
            best.insert(seat.entrant, seat.score);
        }
    }
    best
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
    let format = CompetitionSettings::from_stored(&c.settings)
        .map_err(Error::internal)?
        .format_of(game);
    let entries = competitions::entries(pool, c.competition_id).await?;
    let seats = competitions::seat_scores(pool, c.competition_id).await?;
    let results = to_results(game, format, &seats);
    let standings = croupier_league::standings(game, &results);
    let ratings: HashMap<Uuid, RatingView> = croupier_league::ratings(game, &results)
        .into_iter()
        .map(|r| {
            let view = RatingView {
                display: r.display,
                mu: r.rating,
                sigma: r.uncertainty,
            };
            (r.entrant, view)
        })
        .collect();
    let mut histories = croupier_league::history(game, &results);
    let best = best_scores(&results, scheme.score_order);
    let entry = |id: &Uuid| entries.iter().find(|e| e.submission_id == *id);
    let mut rows: Vec<BoardRow> = Vec::with_capacity(entries.len());
    for s in &standings {
        let Some(e) = entry(&s.entrant) else { continue };
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
            best_score: best.get(&s.entrant).copied(),
            wins: s.wins,
            faults: s.faults,
            per_game_mean: s.interval.mean,
            per_game_half_width: s.interval.half_width,
            rating: ratings.get(&s.entrant).copied(),
            extra: s.extra.clone(),
            history: histories.remove(&s.entrant).unwrap_or_default(),
        });
    }
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
        });
    }
    let cooperative = game.def().shared_score;
    Ok(Board {
        has_extra: rows.iter().any(|r| r.extra != Extra::None),
        extra_heading: extra_heading(&rows),
        show_mean: scheme.scoring != Scoring::MeanScore,
        show_wins: !cooperative,
        show_best: cooperative,
        competition_id: c.competition_id,
        game: c.game.clone(),
        metric: metric_name(scheme.scoring),
        rated: scheme.rating != RatingForm::Unrated,
        lower_is_better: scheme.score_order == croupier_games::ScoreOrder::LowerIsBetter,
        matches: results.len(),
        rows,
    })
}

/// Where a match's ranks decide nothing by themselves (Bridge), what the duplicate set of the
/// table `ordinal` of `c` came to, once both its tables have finished: the other table's
/// ordinal and each side's IMPs, as `(entrant, IMPs)` with the first table's North-South first.
pub async fn duplicate_of(
    pool: &PgPool,
    c: &Competition,
    ordinal: i32,
) -> Result<Option<(u32, [(Uuid, i64); 2])>> {
    let game: GameId = c.game.parse().map_err(Error::internal)?;
    let format = CompetitionSettings::from_stored(&c.settings)
        .map_err(Error::internal)?
        .format_of(game);
    let seats = competitions::seat_scores(pool, c.competition_id).await?;
    let results = to_results(game, format, &seats);
    let ordinal = u32::try_from(ordinal).unwrap_or(u32::MAX);
    Ok(croupier_league::duplicate_sets(&results)
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

/// The finished matches as the league reads them. `seats` come in (ordinal, match, seat) order.
fn to_results(game: GameId, format: Format, seats: &[SeatScore]) -> Vec<MatchResult<Uuid>> {
    let mut by_match: BTreeMap<(i32, Uuid), Vec<&SeatScore>> = BTreeMap::new();
    for s in seats {
        by_match.entry((s.ordinal, s.match_id)).or_default().push(s);
    }
    let mut groups: HashMap<(i64, Vec<Uuid>), u32> = HashMap::new();
    let mut results = Vec::with_capacity(by_match.len());
    for ((ordinal, _), seats) in by_match {
        // Built-in bots are no entrants: such a match is no competition match.
        let Some(entrants) = seats
            .iter()
            .map(|s| s.submission_id)
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let seed = seats.first().map_or(0, |s| s.seed);
        let mut set = entrants.clone();
        set.sort();
        set.dedup();
        if format == Format::SelfPlay {
            set.clear();
        }
        let next = u32::try_from(groups.len()).unwrap_or(u32::MAX);
        let group = *groups.entry((seed, set)).or_insert(next);
        results.push(MatchResult {
            ordinal: u32::try_from(ordinal).unwrap_or(0),
            group,
            seats: seats
                .iter()
                .zip(entrants)
                .map(|(s, entrant)| SeatOutcome {
                    entrant,
                    score: s.score,
                    rank: u32::try_from(s.rank).unwrap_or(u32::MAX),
                    end_state: end_state(s.end_state),
                })
                .collect(),
            // IMP scoring (Bridge): North-South's score on each board of this table (seat 0 is
            // North).
            boards: if Scheme::of(game).scoring == Scoring::Imps {
                seats
                    .first()
                    .map(|s| s.game_scores.clone())
                    .unwrap_or_default()
            } else {
                Vec::new()
            },
        });
    }
    results
}

/// The league's name for a stored seat end state.
fn end_state(stored: croupier_store::EndState) -> EndState {
    use croupier_store::EndState as Stored;
    match stored {
        Stored::Ok => EndState::Ok,
        Stored::TimeLimit => EndState::TimeLimit,
        Stored::MemoryLimit => EndState::MemoryLimit,
        Stored::Crashed => EndState::Crashed,
        Stored::OutputLimit => EndState::OutputLimit,
        Stored::InvalidOutput => EndState::InvalidOutput,
        Stored::IllegalAction => EndState::IllegalAction,
        Stored::SetupError => EndState::SetupError,
    }
}

//! Standings of a `croupier play` run: the matches tallied per bot with the game's leaderboard
//! scheme (`croupier_league::standings`), end-state counts, and the table / JSON output.
//!
//! A bot can hold several seats of a match (the same `--bot` twice, partners, self-play), so
//! every row compares like with like: it says how many *seat-games* the bot played and shows
//! per-seat-game averages, never sums over seats: `points` is the scheme's metric per
//! seat-game (No Thanks, Splendor: rank points 4/2/1; Guandan: games won, draws ½; Bridge:
//! IMPs per board; Hanabi: the score), `wins` counts seat-games ranked 1st and `win_rate` is
//! their share. Rows are ordered by `points`, then by mean score.

use std::collections::BTreeMap;

use anyhow::Result;
use croupier_games::{GameId, ScoreOrder};
use croupier_league::{Scheme, Scoring};
use croupier_referee::MatchResult;
use croupier_sandbox::EndState;
use serde::Serialize;
use serde_json::{json, Value};

/// One bot's line, best first.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    #[serde(skip)]
    pub position: u32,
    pub bot: String,
    /// Seats the bot held, summed over the matches.
    pub seat_games: u32,
    /// The leaderboard metric per seat-game (see the module docs).
    pub points: Value,
    /// Score per seat-game.
    pub mean_score: f64,
    /// Seat-games ranked 1st (shared 1st included); absent for a cooperative game (Hanabi),
    /// where every seat shares the team's score and rank.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<u32>,
    /// `wins / seat_games`; absent with `wins`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_rate: Option<f64>,
    pub end_states: BTreeMap<&'static str, u32>,
}

/// One bot's seats over the run.
#[derive(Debug, Clone, Default)]
struct Seats {
    games: u32,
    rank_points: u32,
    score: f64,
    wins: u32,
}

/// The matches so far.
pub struct Tally {
    game: GameId,
    labels: Vec<String>,
    results: Vec<croupier_league::MatchResult<usize>>,
    end_states: Vec<BTreeMap<&'static str, u32>>,
    seats: Vec<Seats>,
    timing: Timing,
}

/// Wall time of the matches and what the program seats used, summed over the run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Timing {
    pub wall_ms: u64,
    pub bot_cpu_ms: u64,
    /// Answers the program seats gave (built-in seats are not counted).
    pub bot_moves: u64,
}

impl Tally {
    /// `labels[i]` names entrant `i` (entrants that are never seated are left out).
    pub fn new(game: GameId, labels: Vec<String>) -> Self {
        Tally {
            game,
            end_states: vec![BTreeMap::new(); labels.len()],
            seats: vec![Seats::default(); labels.len()],
            labels,
            results: Vec::new(),
            timing: Timing::default(),
        }
    }

    pub fn timing(&self) -> Timing {
        self.timing.clone()
    }

    /// Match `ordinal` of duplicate set `group`, where seat `s` was played by entrant `order[s]`.
    pub fn add(&mut self, ordinal: u32, group: u32, order: &[usize], result: &MatchResult) {
        self.timing.wall_ms += result.wall_ms;
        for seat in result.seats.iter().filter(|s| s.cpu_ms > 0) {
            self.timing.bot_cpu_ms += seat.cpu_ms;
            self.timing.bot_moves += u64::from(seat.moves);
        }
        let seats = result.seats.iter().zip(order).map(|(seat, &bot)| {
            let name = end_state_name(&seat.end_state);
            *self.end_states[bot].entry(name).or_default() += 1;
            let seats = &mut self.seats[bot];
            seats.games += 1;
            seats.rank_points += croupier_league::rank_points(seat.rank);
            seats.score += seat.score as f64;
            seats.wins += u32::from(seat.rank == 1);
            croupier_league::SeatOutcome {
                entrant: bot,
                score: seat.score as f64,
                rank: seat.rank,
                end_state: name.parse().unwrap_or(croupier_league::EndState::Ok),
            }
        });
        // IMP scoring (Bridge): North-South's score on each board, for the comparison of the
        // two tables.
        let boards = if Scheme::of(self.game).scoring == Scoring::Imps {
            (result.games.iter())
                .map(|g| {
                    g.outcome
                        .get(croupier_games::Seat(0))
                        .map_or(0, |r| r.score)
                })
                .collect()
        } else {
            Vec::new()
        };
        self.results.push(croupier_league::MatchResult {
            ordinal,
            group,
            seats: seats.collect(),
            boards,
        });
    }

    /// The rows, best first: ordered by points per seat-game, then mean score per seat-game
    /// (in the game's score order); equal on both share a position.
    pub fn standings(&self) -> Vec<Row> {
        let scheme = Scheme::of(self.game);
        let cooperative = self.game.def().shared_score;
        let row = |entrant: usize, points: f64| {
            let seats = &self.seats[entrant];
            let per_seat = |x: f64| x / f64::from(seats.games.max(1));
            let row = Row {
                position: 0,
                bot: self.labels[entrant].clone(),
                seat_games: seats.games,
                points: number(points),
                mean_score: round3(per_seat(seats.score)),
                wins: (!cooperative).then_some(seats.wins),
                win_rate: (!cooperative).then(|| round3(per_seat(f64::from(seats.wins)))),
                end_states: self.end_states[entrant].clone(),
            };
            (row, points)
        };
        let own_points = |entrant: usize| {
            let seats = &self.seats[entrant];
            let per_seat = |x: f64| x / f64::from(seats.games.max(1));
            match scheme.scoring {
                Scoring::RankPoints { .. } => per_seat(f64::from(seats.rank_points)),
                Scoring::GamesWon => per_seat(f64::from(seats.wins)),
                // Against itself a bot's two tables cancel out.
                Scoring::Imps => 0.0,
                Scoring::MeanScore => per_seat(seats.score),
            }
        };
        let standings = croupier_league::standings(self.game, &self.results);
        let mut rows: Vec<(Row, f64)> = (standings.iter())
            .map(|s| {
                let points = match scheme.scoring {
                    Scoring::GamesWon => s.metric / f64::from(s.games.max(1)),
                    Scoring::Imps => s.interval.mean,
                    Scoring::RankPoints { .. } | Scoring::MeanScore => own_points(s.entrant),
                };
                row(s.entrant, points)
            })
            .collect();
        // A bot that only ever met itself (the same `--bot` on both sides of a team game) has
        // no place in the scheme's standings; it still gets its row, from its own seats.
        for entrant in 0..self.seats.len() {
            let placed = standings.iter().any(|s| s.entrant == entrant);
            if !placed && self.seats[entrant].games > 0 {
                rows.push(row(entrant, own_points(entrant)));
            }
        }
        let better_score = |a: f64, b: f64| match scheme.score_order {
            ScoreOrder::HigherIsBetter => b.total_cmp(&a),
            ScoreOrder::LowerIsBetter => a.total_cmp(&b),
        };
        let order = |a: &(Row, f64), b: &(Row, f64)| {
            (b.1.total_cmp(&a.1)).then_with(|| better_score(a.0.mean_score, b.0.mean_score))
        };
        rows.sort_by(|a, b| order(a, b).then_with(|| a.0.bot.cmp(&b.0.bot)));
        let mut out: Vec<Row> = Vec::with_capacity(rows.len());
        for i in 0..rows.len() {
            let position = match i.checked_sub(1).and_then(|p| rows.get(p)) {
                Some(prev) if order(prev, &rows[i]).is_eq() => out[i - 1].position,
                _ => u32::try_from(i + 1).unwrap_or(u32::MAX),
            };
            let mut row = rows[i].0.clone();
            row.position = position;
            out.push(row);
        }
        out
    }
}

/// Three decimals are enough for a table and keep the JSON stable.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9e15 {
        json!(x as i64)
    } else {
        json!(round3(x))
    }
}

/// The `seat_result.end_state` spelling.
fn end_state_name(state: &EndState) -> &'static str {
    state.as_str()
}

/// `--json`: exactly one object.
pub fn json(game: &GameId, rules: &str, games: u32, rows: &[Row], timing: &Timing) -> Value {
    json!({ "game": game, "rules": rules, "games": games, "standings": rows, "timing": timing })
}

/// The human table: per seat-game figures, with the seat-games each bot played (and the share
/// won, unless the game is cooperative).
pub fn table(rows: &[Row]) -> String {
    let width = rows
        .iter()
        .map(|r| r.bot.chars().count())
        .max()
        .unwrap_or(3);
    let width = width.clamp(3, 60);
    let wins = rows.iter().any(|r| r.win_rate.is_some());
    let mut out = format!(
        "{:>3}  {:<width$}  {:>10}  {:>11}  {:>10}  {}end states\n",
        "#",
        "bot",
        "seat-games",
        "points/game",
        "mean score",
        if wins { "  wins  " } else { "" }
    );
    for r in rows {
        let states: Vec<String> = r
            .end_states
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let won = match r.win_rate {
            Some(rate) => format!("{:>5.0}%  ", rate * 100.0),
            None => String::new(),
        };
        out += &format!(
            "{:>3}  {:<width$}  {:>10}  {:>11}  {:>10.2}  {won}{}\n",
            r.position,
            r.bot,
            r.seat_games,
            r.points.to_string(),
            r.mean_score,
            states.join(", ")
        );
    }
    out
}

/// The replay document (format 1) as the service hands it out: the stored document
/// ([`MatchResult::replay_document`]) with every game's events derived.
pub fn replay_json(result: &MatchResult) -> Result<Vec<u8>> {
    Ok(croupier_games::document::with_events(
        &result.replay_document()?,
    )?)
}

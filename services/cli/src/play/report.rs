//! Standings of a `croupier play` run: the matches tallied per bot with the game's leaderboard
//! scheme (`croupier_league::standings`), end-state counts, and the table / JSON output.

use std::collections::BTreeMap;

use anyhow::Result;
use croupier_games::GameId;
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
    /// The leaderboard metric (No Thanks: rank points 4/2/1).
    pub points: Value,
    pub mean_score: f64,
    pub wins: u32,
    pub end_states: BTreeMap<&'static str, u32>,
}

/// The matches so far.
pub struct Tally {
    game: GameId,
    labels: Vec<String>,
    results: Vec<croupier_league::MatchResult<usize>>,
    end_states: Vec<BTreeMap<&'static str, u32>>,
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
            croupier_league::SeatOutcome {
                entrant: bot,
                score: seat.score as f64,
                rank: seat.rank,
                end_state: name.parse().unwrap_or(croupier_league::EndState::Ok),
            }
        });
        // Bridge: North-South's score on each board, for the IMP comparison of the two tables.
        let boards = match self.game {
            GameId::Bridge => (result.games.iter())
                .map(|g| {
                    g.outcome
                        .get(croupier_games::Seat(0))
                        .map_or(0, |r| r.score)
                })
                .collect(),
            _ => Vec::new(),
        };
        self.results.push(croupier_league::MatchResult {
            ordinal,
            group,
            seats: seats.collect(),
            boards,
        });
    }

    pub fn standings(&self) -> Vec<Row> {
        let rank_points = matches!(Scheme::of(self.game).scoring, Scoring::RankPoints { .. });
        croupier_league::standings(self.game, &self.results)
            .into_iter()
            .map(|s| Row {
                position: s.position,
                bot: self.labels[s.entrant].clone(),
                points: if rank_points {
                    json!(s.rank_points)
                } else {
                    number(s.metric)
                },
                mean_score: s.mean_score,
                wins: s.wins,
                end_states: self.end_states[s.entrant].clone(),
            })
            .collect()
    }
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9e15 {
        json!(x as i64)
    } else {
        json!(x)
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

/// The human table.
pub fn table(rows: &[Row]) -> String {
    let width = rows
        .iter()
        .map(|r| r.bot.chars().count())
        .max()
        .unwrap_or(3);
    let width = width.clamp(3, 60);
    let mut out = format!(
        "{:>3}  {:<width$}  {:>6}  {:>10}  {:>5}  end states\n",
        "#", "bot", "points", "mean score", "wins"
    );
    for r in rows {
        let states: Vec<String> = r
            .end_states
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        out += &format!(
            "{:>3}  {:<width$}  {:>6}  {:>10.2}  {:>5}  {}\n",
            r.position,
            r.bot,
            r.points.to_string(),
            r.mean_score,
            r.wins,
            states.join(", ")
        );
    }
    out
}

/// The replay document the hosted service stores (format 1): players, every game's replay and
/// outcome, the protocol transcript.
pub fn replay_json(result: &MatchResult) -> Result<Vec<u8>> {
    Ok(serde_json::to_vec(&json!({
        "format": 1,
        "players": result.seats.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        "games": result.games,
        "outcome": result.outcome,
        "transcript": result.transcript,
        "transcript_truncated": result.transcript_truncated,
        "wall_ms": result.wall_ms,
    }))?)
}

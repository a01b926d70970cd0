//! Simulated play, for benchmarks and tests that need no real matches: a field of entrants
//! with known strengths plays a schedule or a round-by-round [`Plan`], and the recovered order
//! is compared with the truth ([`kendall_tau`], [`top_k_found`]).
//!
//! **The skill model** (per match, each entrant draws a performance `θ + noise`, independent
//! between matches; seeds come from the base seed and the match's ordinal, so a run repeats):
//!
//! | game | noise | outcome |
//! |---|---|---|
//! | No Thanks, Splendor | Gumbel | seats ranked by performance: exactly Plackett–Luce in θ |
//! | Guandan | Gumbel | the better side wins the match: exactly Bradley–Terry in θ |
//! | Bridge | logistic | each table scores `100·(θ_NS − θ_EW + noise)` for North-South; the set is won on IMPs |
//! | Hanabi | normal, sd 3 | every seat scores `15 + 3·mean θ + noise`, rounded, 0 to 25 |
//!
//! The simulated field has `θ ~ Normal(0, spread²)`. `docs/performance.md` says which spread the
//! benchmark uses and why (the built-in bots' results against random ones).

use croupier_games::{GameId, ScoreOrder};

use crate::results::{EndState, MatchResult, SeatOutcome};
use crate::seed::SplitMix64;
use crate::{
    next_round, LeagueError, Plan, PlannedMatch, Progress, RatingForm, RoundStart, ScheduleSpec,
    Scheme,
};

/// `n` strengths drawn from Normal(0, spread²), seeded.
pub fn field(n: usize, spread: f64, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::order(seed, u32::MAX);
    (0..n).map(|_| spread * normal(&mut rng)).collect()
}

/// Plays `planned` under the skill model; entrant `e`'s strength is `strength(e)`.
pub fn simulate<E: Clone + PartialEq>(
    game: GameId,
    planned: &[PlannedMatch<E>],
    strength: impl Fn(&E) -> f64,
    seed: u64,
) -> Vec<MatchResult<E>> {
    let scheme = Scheme::of(game);
    planned
        .iter()
        .map(|m| {
            let mut rng = SplitMix64::order(seed, m.ordinal);
            // One performance per distinct entrant of the match.
            let mut drawn: Vec<(&E, f64)> = Vec::new();
            for e in &m.seats {
                if !drawn.iter().any(|(d, _)| *d == e) {
                    let noise = match scheme.rating {
                        RatingForm::Duplicate => logistic(&mut rng),
                        _ => gumbel(&mut rng),
                    };
                    drawn.push((e, strength(e) + noise));
                }
            }
            let perf = |e: &E| drawn.iter().find(|(d, _)| *d == e).map_or(0.0, |d| d.1);
            let seats: Vec<(f64, u32)> = match scheme.rating {
                RatingForm::FreeForAll => {
                    let p: Vec<f64> = m.seats.iter().map(perf).collect();
                    let sign = if scheme.score_order == ScoreOrder::LowerIsBetter {
                        -1.0
                    } else {
                        1.0
                    };
                    p.iter()
                        .map(|&x| (sign * x, 1 + p.iter().filter(|&&y| y > x).count() as u32))
                        .collect()
                }
                RatingForm::Teams => {
                    let side0 = m.seats.first().map_or(0.0, perf);
                    let side1 = m.seats.get(1).map_or(0.0, perf);
                    let won = side0 >= side1;
                    (0..m.seats.len())
                        .map(|s| {
                            let winner = (s % 2 == 0) == won;
                            let rank = if winner {
                                1 + s as u32 / 2
                            } else {
                                3 + s as u32 / 2
                            };
                            (f64::from(u8::from(winner)), rank)
                        })
                        .collect()
                }
                RatingForm::Duplicate => {
                    let ns = m.seats.first().map_or(0.0, &strength);
                    let ew = m.seats.get(1).map_or(0.0, &strength);
                    let noise = drawn.first().map_or(0.0, |d| d.1 - strength(d.0));
                    let score = (100.0 * (ns - ew + noise)).round();
                    (0..m.seats.len())
                        .map(|s| {
                            let mine = if s % 2 == 0 { score } else { -score };
                            (mine, if mine >= 0.0 { 1 } else { 2 })
                        })
                        .collect()
                }
                RatingForm::Unrated => {
                    let mean =
                        m.seats.iter().map(&strength).sum::<f64>() / m.seats.len().max(1) as f64;
                    let score = (15.0 + 3.0 * mean + 3.0 * normal(&mut rng))
                        .round()
                        .clamp(0.0, 25.0);
                    m.seats.iter().map(|_| (score, 1)).collect()
                }
            };
            let boards = if scheme.rating == RatingForm::Duplicate {
                vec![seats.first().map_or(0, |s| s.0 as i64)]
            } else {
                Vec::new()
            };
            MatchResult {
                ordinal: m.ordinal,
                group: m.group,
                seats: m
                    .seats
                    .iter()
                    .zip(seats)
                    .map(|(e, (score, rank))| SeatOutcome {
                        entrant: e.clone(),
                        score,
                        rank,
                        end_state: EndState::Ok,
                    })
                    .collect(),
                boards,
            }
        })
        .collect()
}

/// A round-by-round plan played out by simulation.
#[derive(Debug, Clone)]
pub struct Played {
    /// Entrants are indices into the strengths.
    pub results: Vec<MatchResult<usize>>,
    /// Rounds played.
    pub rounds: u32,
    /// The progress reported when the plan said it was done.
    pub progress: Progress,
}

/// Plays `plan` for entrants `0..strengths.len()` with strengths `strengths`, asking
/// [`next_round`] after each round until it has none.
pub fn play_plan(
    game: GameId,
    spec: &ScheduleSpec,
    plan: &Plan,
    strengths: &[f64],
    seed: u64,
) -> Result<Played, LeagueError> {
    continue_plan(game, spec, plan, strengths, seed, Vec::new(), 0)
}

/// Plays `plan` on from `results` (an earlier stage's, `rounds` rounds) as [`play_plan`] does:
/// the plan sees them as its own, so a final stage is seeded from the earlier one.
pub fn continue_plan(
    game: GameId,
    spec: &ScheduleSpec,
    plan: &Plan,
    strengths: &[f64],
    seed: u64,
    results: Vec<MatchResult<usize>>,
    rounds: u32,
) -> Result<Played, LeagueError> {
    let entrants: Vec<usize> = (0..strengths.len()).collect();
    let mut results = results;
    let mut start = RoundStart {
        round: rounds,
        ordinal: results.iter().map(|r| r.ordinal + 1).max().unwrap_or(0),
        group: results.iter().map(|r| r.group + 1).max().unwrap_or(0),
    };
    loop {
        let next = next_round(game, spec, plan, &entrants, &results, start)?;
        if next.matches.is_empty() {
            return Ok(Played {
                results,
                rounds: start.round,
                progress: next.progress,
            });
        }
        let strength = |e: &usize| strengths.get(*e).copied().unwrap_or(0.0);
        results.extend(simulate(game, &next.matches, strength, seed));
        start = RoundStart {
            round: start.round + 1,
            ordinal: start.ordinal + next.matches.len() as u32,
            group: next
                .matches
                .iter()
                .map(|m| m.group + 1)
                .max()
                .unwrap_or(start.group),
        };
    }
}

/// Kendall's τ-b between two scorings of the same items (1: same order, −1: reversed).
pub fn kendall_tau(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (mut concordant, mut discordant, mut ties_a, mut ties_b) = (0_i64, 0_i64, 0_i64, 0_i64);
    for i in 0..n {
        for j in i + 1..n {
            let (da, db) = (a[i] - a[j], b[i] - b[j]);
            match (da == 0.0, db == 0.0) {
                (true, true) => {}
                (true, false) => ties_a += 1,
                (false, true) => ties_b += 1,
                (false, false) if (da > 0.0) == (db > 0.0) => concordant += 1,
                (false, false) => discordant += 1,
            }
        }
    }
    let pairs = |ties: i64| (concordant + discordant + ties) as f64;
    let denominator = (pairs(ties_a) * pairs(ties_b)).sqrt();
    if denominator == 0.0 {
        0.0
    } else {
        (concordant - discordant) as f64 / denominator
    }
}

/// How many of the `k` highest by `truth` are among the `k` highest by `estimate`.
pub fn top_k_found(truth: &[f64], estimate: &[f64], k: usize) -> usize {
    let top = |v: &[f64]| -> Vec<usize> {
        let mut order: Vec<usize> = (0..v.len()).collect();
        order.sort_by(|&a, &b| v[b].total_cmp(&v[a]).then(a.cmp(&b)));
        order.truncate(k);
        order
    };
    let (t, e) = (top(truth), top(estimate));
    t.iter().filter(|i| e.contains(i)).count()
}

fn uniform(rng: &mut SplitMix64) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1_u64 << 53) as f64
}

fn gumbel(rng: &mut SplitMix64) -> f64 {
    -(-uniform(rng).ln()).ln()
}

fn logistic(rng: &mut SplitMix64) -> f64 {
    let u = uniform(rng);
    (u / (1.0 - u)).ln()
}

/// Box–Muller.
fn normal(rng: &mut SplitMix64) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kendall_tau_of_known_orders() {
        assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]), 1.0);
        assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0);
        // One swapped pair of three: (2 − 1) / 3.
        assert!((kendall_tau(&[1.0, 2.0, 3.0], &[2.0, 1.0, 3.0]) - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(
            top_k_found(&[5.0, 4.0, 3.0, 2.0], &[1.0, 4.0, 3.0, 2.0], 2),
            1
        );
    }

    #[test]
    fn a_simulated_pair_wins_at_the_bradley_terry_rate() {
        // θ 1 against 0: Bradley–Terry gives e / (1 + e) ≈ 0.731.
        let planned: Vec<PlannedMatch<usize>> = (0..4000)
            .map(|ordinal| PlannedMatch {
                ordinal,
                round: 0,
                group: ordinal,
                seed: 0,
                seats: vec![0, 1, 0, 1],
                settings: serde_json::Value::Null,
            })
            .collect();
        let played = simulate(
            GameId::GUANDAN,
            &planned,
            |&e| if e == 0 { 1.0 } else { 0.0 },
            5,
        );
        let wins = played.iter().filter(|r| r.seats[0].rank == 1).count() as f64;
        let rate = wins / 4000.0;
        assert!((rate - 0.731).abs() < 0.025, "{rate}");
    }
}

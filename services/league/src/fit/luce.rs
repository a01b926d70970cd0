//! The Plackett–Luce model fitted by maximum a posteriori: entrant `i` has strength
//! `γᵢ = exp(θᵢ)`, and a match's finishing order is a sequence of choices, each "who finishes
//! next among those left", made by `i` with probability `γᵢ / Σ γ` over those left. With two
//! entrants this is Bradley–Terry.
//!
//! * **Ties** (Breslow's rule, as in survival analysis): a group of `g` entrants sharing a rank
//!   with `r` entrants still left makes `c = min(g, r − 1)` choices among the `r`, each member
//!   credited `c / g` of them. A 2-entrant draw is therefore half a win each, as in chess.
//! * **Prior**: each entrant also has [`PRIOR`] of a win and as much of a loss against a
//!   fixed average entrant (`θ = 0`). This keeps every strength finite (a bot that never won
//!   still has one), anchors the scale and ties a field that never met into one; it weighs as
//!   one drawn game, so it fades after a few matches.
//! * **Fit**: for fields above 300, Hunter's MM iterations (2004) to get within 0.01 first
//!   (a Newton step costs n³/3 there); then Newton steps with a halving line
//!   search on the log posterior (concave), until no strength moves by 10⁻¹⁰.
//! * **Uncertainty**: the covariance of θ is the inverse of the observed information (the
//!   negated Hessian of the log posterior) at the fit. Matches are treated as independent; the
//!   seatings of a duplicate group share a deal, which makes them, if anything, less noisy
//!   than that, so the intervals err wide.

use super::matrix::{inverse, solve, Square};

/// The prior's weight: this much of a win and of a loss against the average entrant.
pub(crate) const PRIOR: f64 = 0.5;

/// Fields up to this size go straight to Newton steps (each costs a Cholesky factor, n³/3).
const NEWTON_ONLY: usize = 300;

/// A fitted field: log-strengths and their covariance.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fit {
    pub(crate) theta: Vec<f64>,
    pub(crate) cov: Square,
}

impl Fit {
    /// The variance of `θᵢ − θⱼ`.
    pub(crate) fn diff_variance(&self, i: usize, j: usize) -> f64 {
        (self.cov.get(i, i) + self.cov.get(j, j) - 2.0 * self.cov.get(i, j)).max(0.0)
    }

    /// How many standard errors `θᵢ` is above `θⱼ`.
    pub(crate) fn z(&self, i: usize, j: usize) -> f64 {
        let d =
            self.theta.get(i).copied().unwrap_or(0.0) - self.theta.get(j).copied().unwrap_or(0.0);
        let sd = self.diff_variance(i, j).sqrt();
        if sd > 0.0 {
            d / sd
        } else if d == 0.0 {
            0.0
        } else {
            d.signum() * f64::INFINITY
        }
    }
}

/// One choice stage: `risk` (indices into [`Stages::members`]) chose `choices` times; the
/// winners' credit is already in the wins.
struct Stage {
    start: usize,
    end: usize,
    choices: f64,
}

struct Stages {
    members: Vec<usize>,
    stages: Vec<Stage>,
    /// Each entrant's credited choices, the prior's win included.
    wins: Vec<f64>,
    /// Each stage's winners with their credit, for the log posterior.
    credits: Vec<(usize, f64)>,
}

/// Breaks rankings (entrant index, rank with 1 best) into choice stages. Entries with an
/// index outside `0..n` are ignored.
fn stages(n: usize, rankings: &[Vec<(usize, u32)>], prior: f64) -> Stages {
    let mut out = Stages {
        members: Vec::new(),
        stages: Vec::new(),
        wins: vec![prior; n],
        credits: Vec::new(),
    };
    for ranking in rankings {
        let mut places: Vec<(usize, u32)> =
            ranking.iter().copied().filter(|(i, _)| *i < n).collect();
        places.sort_by_key(|&(i, rank)| (rank, i));
        let mut at = 0;
        while at < places.len() {
            let rank = places[at].1;
            let group = places[at..].iter().take_while(|p| p.1 == rank).count();
            let left = places.len() - at;
            let choices = group.min(left.saturating_sub(1));
            if choices > 0 {
                let start = out.members.len();
                out.members.extend(places[at..].iter().map(|p| p.0));
                out.stages.push(Stage {
                    start,
                    end: out.members.len(),
                    choices: choices as f64,
                });
                let credit = choices as f64 / group as f64;
                for &(i, _) in &places[at..at + group] {
                    out.wins[i] += credit;
                    out.credits.push((i, credit));
                }
            }
            at += group;
        }
    }
    out
}

/// Fits `n` entrants to `rankings` (each a list of (entrant index, rank), rank 1 best) with a
/// prior of weight `prior` (above 0).
pub(crate) fn fit(n: usize, rankings: &[Vec<(usize, u32)>], prior: f64) -> Fit {
    let data = stages(n, rankings, prior);
    let mut gamma = vec![1.0_f64; n];
    // MM: γᵢ ← wᵢ / (Σ_stages∋i cₛ / Γₛ + 2a / (γᵢ + 1)), only where Newton steps are dear.
    let mm_rounds = if n > NEWTON_ONLY { 100 } else { 0 };
    for _ in 0..mm_rounds {
        let mut denominator: Vec<f64> = gamma.iter().map(|g| 2.0 * prior / (g + 1.0)).collect();
        for stage in &data.stages {
            let risk = &data.members[stage.start..stage.end];
            let total: f64 = risk.iter().map(|&k| gamma[k]).sum();
            for &k in risk {
                denominator[k] += stage.choices / total;
            }
        }
        let mut moved = 0.0_f64;
        for i in 0..n {
            let next = data.wins[i] / denominator[i];
            moved = moved.max((next.ln() - gamma[i].ln()).abs());
            gamma[i] = next;
        }
        if moved < 1e-2 {
            break;
        }
    }
    let mut theta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    let mut info = information(&data, &theta, prior);
    for _ in 0..50 {
        let Some(l) = info.cholesky() else { break };
        let step = solve(&l, &gradient(&data, &theta, prior));
        let before = log_posterior(&data, &theta, prior);
        let mut scale = 1.0;
        let mut moved = false;
        for _ in 0..30 {
            let trial: Vec<f64> = theta
                .iter()
                .zip(&step)
                .map(|(t, s)| t + scale * s)
                .collect();
            if log_posterior(&data, &trial, prior) >= before {
                theta = trial;
                moved = true;
                break;
            }
            scale /= 2.0;
        }
        info = information(&data, &theta, prior);
        let largest = step.iter().fold(0.0_f64, |m, s| m.max((scale * s).abs()));
        if !moved || largest < 1e-10 {
            break;
        }
    }
    let cov = match info.cholesky() {
        Some(l) => inverse(&l),
        None => {
            // Not reached with a positive prior; a diagonal bound keeps the fit usable.
            let mut diag = Square::zero(n);
            for i in 0..n {
                diag.add(i, i, 1.0 / info.get(i, i).max(1e-12));
            }
            diag
        }
    };
    Fit { theta, cov }
}

/// The largest strength of a risk set and the sum of `e^(θ − top)` over it (a stable
/// log-sum-exp: `top + ln(total)`).
fn shifted_total(risk: &[usize], theta: &[f64]) -> (f64, f64) {
    let top = risk
        .iter()
        .map(|&k| theta[k])
        .fold(f64::NEG_INFINITY, f64::max);
    let total = risk.iter().map(|&k| (theta[k] - top).exp()).sum();
    (top, total)
}

/// Choice probabilities of one stage's risk set.
fn probabilities<'a>(
    data: &'a Stages,
    stage: &Stage,
    theta: &[f64],
) -> impl Iterator<Item = (usize, f64)> + 'a {
    let risk = &data.members[stage.start..stage.end];
    let (top, total) = shifted_total(risk, theta);
    let weights: Vec<f64> = risk
        .iter()
        .map(|&k| (theta[k] - top).exp() / total)
        .collect();
    risk.iter().copied().zip(weights)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn log_posterior(data: &Stages, theta: &[f64], prior: f64) -> f64 {
    let mut sum: f64 = data.credits.iter().map(|&(i, c)| c * theta[i]).sum();
    for stage in &data.stages {
        let (top, total) = shifted_total(&data.members[stage.start..stage.end], theta);
        sum -= stage.choices * (top + total.ln());
    }
    // a·ln q + a·ln(1 − q) with q = σ(θ): a·θ − 2a·ln(1 + e^θ).
    sum + theta
        .iter()
        .map(|&t| prior * t - 2.0 * prior * (t.max(0.0) + (-t.abs()).exp().ln_1p()))
        .sum::<f64>()
}

fn gradient(data: &Stages, theta: &[f64], prior: f64) -> Vec<f64> {
    let mut g = data.wins.clone();
    for (i, t) in theta.iter().enumerate() {
        g[i] -= 2.0 * prior * sigmoid(*t);
    }
    for stage in &data.stages {
        for (k, p) in probabilities(data, stage, theta) {
            g[k] -= stage.choices * p;
        }
    }
    g
}

/// The observed information: Σ cₛ (diag p − p pᵀ) over stages, plus the prior's 2a·q(1 − q).
fn information(data: &Stages, theta: &[f64], prior: f64) -> Square {
    let n = theta.len();
    let mut info = Square::zero(n);
    for (i, t) in theta.iter().enumerate() {
        let q = sigmoid(*t);
        info.add(i, i, 2.0 * prior * q * (1.0 - q));
    }
    for stage in &data.stages {
        let p: Vec<(usize, f64)> = probabilities(data, stage, theta).collect();
        for &(k, pk) in &p {
            info.add(k, k, stage.choices * pk);
            for &(l, pl) in &p {
                info.add(k, l, -stage.choices * pk * pl);
            }
        }
    }
    info
}

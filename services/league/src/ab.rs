//! A/B tests: two of one's own submissions played against each other on duplicate seeds, with
//! a test that may be checked after every game and stops as soon as the answer is known.
//!
//! **Input.** One number per completed group (both seatings played on one seed): A's score minus
//! B's, averaged over the group's seatings, in the game's own score units and oriented so that
//! *positive means A did better*. The caller orients it (for No Thanks, where lower is better,
//! it passes B's score minus A's); see [`Scheme::score_order`](crate::Scheme). Non-finite values
//! are ignored.
//!
//! **Method.** A fixed-n t interval is only valid at one sample size fixed in advance; checked
//! after every game it would declare a winner between identical bots far more often than 5% of
//! the time. The stopping rule therefore uses a *confidence sequence*: an interval that covers
//! the true mean difference at every game count at once with probability 1 − α, so it may be
//! looked at after every game. It is Lai's confidence sequence for a normal mean with unknown
//! variance (T. L. Lai, "On confidence sequences", Annals of Statistics 4, 1976; see H. Wang and
//! A. Ramdas, "Anytime-valid t-tests and confidence sequences for Gaussian means with unknown
//! variance", Sequential Analysis 2025): the scale-invariant mixture likelihood ratio, with a
//! normal prior N(0, 1/c) on the standardized difference and the scale-invariant prior on σ,
//!
//! ```text
//! M_t(μ₀) = √(c / (t + c)) · (1 − S² / ((t + c) Q))^(−t/2),   S = Σ(xᵢ − μ₀),  Q = Σ(xᵢ − μ₀)²,
//! ```
//!
//! is a nonnegative martingale starting at 1 when μ₀ is the true mean, so by Ville's inequality
//! `{μ₀ : M_t(μ₀) < 1/α}` misses it at *any* time with probability at most α. Solved for μ₀ it
//! is `x̄ ± √(r (t + c) SS / (t (t − r (t + c))))` with SS the sum of squared deviations,
//! `r = 1 − K⁻¹` and `K = (√((t + c)/c) / α)^(2/t)`: unbounded for the first games (up to 10
//! with the defaults), then shrinking like the t interval times a slowly growing factor. `c` is
//! set so the sequence is narrowest near [`AbConfig::tuned_for`] games,
//! `c = t* / (2 ln(1/α) + ln(2 ln(1/α) + 1))` (Howard, Ramdas, McAuliffe and Sekhon,
//! "Time-uniform, nonparametric, nonasymptotic confidence sequences", Annals of Statistics 2021).
//!
//! The guarantee is exact for normally distributed differences and needs no bound on the
//! scores (the games declare none). Game scores are lumpy rather than normal; the tests measure
//! about 3% false winners over 500 games both for normal noise and for whole-number
//! differences that are mostly draws.
//!
//! **Verdict**, checked after each game from [`AbConfig::min_games`] to
//! [`AbConfig::max_games`]; the first one reached is final, so games that were already queued
//! when the test stopped do not change it:
//!
//! * the sequence lies inside ±[`AbConfig::margin`]: [`Verdict::NoMeaningfulDifference`]
//!   (whichever side is ahead, by less than the margin);
//! * else it lies above 0: [`Verdict::ABetter`]; below 0: [`Verdict::BBetter`];
//! * no verdict by `max_games`: [`Verdict::Inconclusive`]; before that, [`Verdict::Continue`].

use serde::{Deserialize, Serialize};

use crate::{Interval, Moments};

/// The test's parameters. Deserializes from settings; every field has a default.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AbConfig {
    /// Error rate of the confidence sequence, in (0, 1) (0.05: 95%).
    pub alpha: f64,
    /// Differences smaller than this (score units, ≥ 0) do not matter (0: never concluded).
    pub margin: f64,
    /// No verdict before this many games (10).
    pub min_games: u32,
    /// [`Verdict::Inconclusive`] when undecided after this many games (1000).
    pub max_games: u32,
    /// The game count at which the sequence is tuned to be narrowest (100).
    pub tuned_for: u32,
}

impl Default for AbConfig {
    fn default() -> Self {
        AbConfig {
            alpha: 0.05,
            margin: 0.0,
            min_games: 10,
            max_games: 1000,
            tuned_for: 100,
        }
    }
}

/// Where an A/B test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Not decided yet: play more games.
    Continue,
    /// A is better (the confidence sequence lies above 0).
    ABetter,
    /// B is better (the confidence sequence lies below 0).
    BBetter,
    /// The difference is within ±margin either way.
    NoMeaningfulDifference,
    /// `max_games` played without a decision.
    Inconclusive,
}

/// The state of an A/B test after all the games given.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AbReport {
    /// Games counted (finite differences).
    pub games: u32,
    /// Mean of A − B over all of them.
    pub mean_diff: f64,
    /// The fixed-n 95% t interval ([`Interval::of`]): for display, not for stopping.
    pub ci95: Interval,
    /// The anytime-valid (1 − α) confidence sequence at `games`: infinite while the games are
    /// too few to bound it (up to 10 with the defaults), which JSON shows as null.
    pub always_valid: (f64, f64),
    pub verdict: Verdict,
    /// The game count at which the verdict was reached (`None` while [`Verdict::Continue`]).
    pub decided_at: Option<u32>,
}

/// Runs the sequential test over `diffs` (A − B per completed group, positive when A did
/// better; method in `docs/rules.md#ab-tests`) as if it had been checked after every game.
pub fn ab_test(diffs: &[f64], config: &AbConfig) -> AbReport {
    let mut moments = Moments::default();
    let mut band = (f64::NEG_INFINITY, f64::INFINITY);
    let mut decision = None;
    for &d in diffs.iter().filter(|d| d.is_finite()) {
        moments.push(d);
        band = sequence(&moments, config);
        let t = moments.n;
        if decision.is_none() && t >= config.min_games && t <= config.max_games {
            decision = decide(band, config.margin).map(|v| (v, t));
        }
        if decision.is_none() && t >= config.max_games {
            decision = Some((Verdict::Inconclusive, config.max_games));
        }
    }
    let ci95 = moments.interval();
    AbReport {
        games: ci95.n,
        mean_diff: ci95.mean,
        ci95,
        always_valid: band,
        verdict: decision.map_or(Verdict::Continue, |(v, _)| v),
        decided_at: decision.map(|(_, t)| t),
    }
}

/// The verdict a confidence sequence `(low, high)` allows, if any.
fn decide((low, high): (f64, f64), margin: f64) -> Option<Verdict> {
    if -margin < low && high < margin {
        Some(Verdict::NoMeaningfulDifference)
    } else if low > 0.0 {
        Some(Verdict::ABetter)
    } else if high < 0.0 {
        Some(Verdict::BBetter)
    } else {
        None
    }
}

/// Lai's confidence sequence after the games in `sample` (see the module docs): every μ₀ with
/// `(x̄ − μ₀)² · t · (t − r(t + c)) ≤ r (t + c) · SS`, where SS is the sum of squared
/// deviations, `r = 1 − K^(−1)` and `K = (√((t + c)/c) / α)^(2/t)`; unbounded while
/// `r(t + c) ≥ t` (the first few games).
fn sequence(sample: &Moments, config: &AbConfig) -> (f64, f64) {
    let t = f64::from(sample.n);
    let log_alpha = (1.0 / config.alpha).ln();
    let c = f64::from(config.tuned_for.max(1)) / (2.0 * log_alpha + (2.0 * log_alpha + 1.0).ln());
    let exponent = 2.0 / t * (log_alpha + 0.5 * ((t + c) / c).ln());
    let r = -(-exponent).exp_m1();
    let room = t - r * (t + c);
    if sample.n < 2 || room <= 0.0 || !room.is_finite() {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let half = (r * (t + c) * sample.m2.max(0.0) / (t * room)).sqrt();
    (sample.mean() - half, sample.mean() + half)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::SplitMix64;

    /// `n` differences `shift + sd · N(0, 1)` from a seeded generator (Box-Muller).
    fn normal(run: u32, n: usize, shift: f64, sd: f64) -> Vec<f64> {
        let mut rng = SplitMix64::order(0xAB, run);
        let mut uniform = move || ((rng.next_u64() >> 11) as f64 + 0.5) / (1_u64 << 53) as f64;
        (0..n)
            .map(|_| {
                let (u, v) = (uniform(), uniform());
                shift + sd * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
            })
            .collect()
    }

    /// `n` whole-number differences in -3..=3 around 0, many of them draws (like card games).
    fn lumpy(run: u32, n: usize) -> Vec<f64> {
        let mut rng = SplitMix64::order(0xC0FFEE, run);
        let faces = [-3.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 3.0];
        (0..n)
            .map(|_| faces[(rng.next_u64() % faces.len() as u64) as usize])
            .collect()
    }

    #[test]
    fn a_clear_difference_stops_early_on_the_right_side() {
        let config = AbConfig::default();
        let report = ab_test(&normal(1, 1000, 1.0, 3.0), &config);
        assert_eq!(report.verdict, Verdict::ABetter);
        let at = report.decided_at.unwrap_or(u32::MAX);
        assert!((10..300).contains(&at), "decided at {at}");

        let flipped: Vec<f64> = normal(1, 1000, 1.0, 3.0).iter().map(|d| -d).collect();
        let report = ab_test(&flipped, &config);
        assert_eq!(
            (report.verdict, report.decided_at),
            (Verdict::BBetter, Some(at))
        );
        assert!(report.always_valid.1 < 0.0 && report.mean_diff < -0.5);
    }

    #[test]
    fn identical_bots_rarely_get_a_winner_when_checked_after_every_game() {
        const RUNS: u32 = 1000;
        let config = AbConfig {
            max_games: 500,
            ..AbConfig::default()
        };
        for (name, sample) in [
            (
                "normal",
                &(|run| normal(run, 500, 0.0, 5.0)) as &dyn Fn(u32) -> Vec<f64>,
            ),
            ("lumpy", &|run| lumpy(run, 500)),
        ] {
            let verdicts: Vec<Verdict> = (0..RUNS)
                .map(|run| ab_test(&sample(run), &config).verdict)
                .collect();
            let winners = verdicts
                .iter()
                .filter(|v| matches!(v, Verdict::ABetter | Verdict::BBetter))
                .count();
            // At most 5%; the measured rate over 4000 runs is about 3% for both samples.
            assert!(
                winners * 20 <= RUNS as usize,
                "{name}: {winners} false winners in {RUNS} runs"
            );
            assert!(verdicts.iter().all(|v| *v != Verdict::Continue), "{name}");
        }
    }

    #[test]
    fn a_difference_within_the_margin_is_no_meaningful_difference() {
        let config = AbConfig {
            margin: 0.5,
            max_games: 2000,
            ..AbConfig::default()
        };
        let report = ab_test(&normal(3, 2000, 0.05, 1.0), &config);
        assert_eq!(report.verdict, Verdict::NoMeaningfulDifference);
        let at = report.decided_at.unwrap_or(u32::MAX);
        assert!(at < 500, "decided at {at}");
        // Identical deterministic bots: every difference 0. With an unknown variance the
        // sequence is unbounded up to 10 games (by default), then a point.
        let config = AbConfig {
            margin: 0.1,
            ..config
        };
        let report = ab_test(&[0.0; 10], &config);
        assert_eq!(report.verdict, Verdict::Continue);
        assert_eq!(report.always_valid, (f64::NEG_INFINITY, f64::INFINITY));
        let report = ab_test(&[0.0; 11], &config);
        assert_eq!(report.verdict, Verdict::NoMeaningfulDifference);
        assert_eq!(report.always_valid, (0.0, 0.0));
    }

    #[test]
    fn the_fixed_n_interval_is_the_students_t_interval_and_narrower_than_the_sequence() {
        let diffs = normal(4, 60, 0.3, 2.0);
        let report = ab_test(&diffs, &AbConfig::default());
        assert_eq!(report.ci95, Interval::of(&diffs));
        assert_eq!((report.games, report.mean_diff), (60, report.ci95.mean));
        let (low, high) = report.always_valid;
        assert!(((low + high) / 2.0 - report.mean_diff).abs() < 1e-9);
        assert!(low < report.ci95.low().unwrap_or(0.0) && high > report.ci95.high().unwrap_or(0.0));
    }

    #[test]
    fn no_verdict_before_the_minimum_then_inconclusive_at_the_maximum() {
        let config = AbConfig {
            min_games: 10,
            max_games: 40,
            ..AbConfig::default()
        };
        let report = ab_test(&[5.0, 5.0, 5.1, 4.9, 5.0], &config);
        assert_eq!(
            (report.verdict, report.decided_at),
            (Verdict::Continue, None)
        );
        assert_eq!(
            ab_test(&[], &config).always_valid,
            (f64::NEG_INFINITY, f64::INFINITY)
        );

        let noise = normal(5, 60, 0.0, 5.0);
        let report = ab_test(&noise[..40], &config);
        assert_eq!(
            (report.verdict, report.decided_at),
            (Verdict::Inconclusive, Some(40))
        );
        // Games finished after the decision change the numbers, not the verdict.
        let later = ab_test(&noise, &config);
        assert_eq!(
            (later.verdict, later.decided_at, later.games),
            (Verdict::Inconclusive, Some(40), 60)
        );
    }

    #[test]
    fn non_finite_differences_are_ignored() {
        let report = ab_test(&[1.0, f64::NAN, 3.0, f64::INFINITY], &AbConfig::default());
        assert_eq!((report.games, report.mean_diff), (2, 2.0));
    }
}

//! Means and 95% confidence intervals (Student's t), and the normal quantile.
//!
//! The interval of a sample x₁…xₙ is `mean ± t(0.975, n−1) · s / √n`, with `s` the sample
//! standard deviation (n − 1 in the denominator). The t quantile is exact to 4 decimals for
//! 1–30 degrees of freedom (a table) and the Cornish–Fisher expansion beyond (error below
//! 10⁻⁴ from 30 on, tending to 1.959964). With fewer than 2 values there is no interval.

use serde::{Deserialize, Serialize};

/// The mean of a sample and the half-width of its 95% confidence interval,
/// `t(0.975, n−1) · s / √n` with `s` the sample standard deviation (see [`t_975`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Sample size.
    pub n: u32,
    pub mean: f64,
    /// `None` for fewer than 2 values; the interval is `mean ± half_width`.
    pub half_width: Option<f64>,
}

impl Interval {
    /// The interval of `values` (mean 0 and no width for an empty sample).
    pub fn of(values: &[f64]) -> Interval {
        let mut moments = Moments::default();
        values.iter().for_each(|&x| moments.push(x));
        moments.interval()
    }

    pub fn low(&self) -> Option<f64> {
        self.half_width.map(|h| self.mean - h)
    }

    pub fn high(&self) -> Option<f64> {
        self.half_width.map(|h| self.mean + h)
    }
}

/// A sample kept in O(1): its size, sum and sum of squared deviations, the last updated one
/// value at a time with Welford's method (stable over millions of values, unlike a sum of
/// squares); the mean is the plain `sum / n`, exactly what a two-pass mean gives. The
/// leaderboard stores one per entrant and adds each result as it lands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    pub n: u32,
    pub sum: f64,
    /// Σ (x − mean)².
    pub m2: f64,
}

impl Moments {
    pub fn push(&mut self, x: f64) {
        let before = self.mean();
        self.n = self.n.saturating_add(1);
        self.sum += x;
        self.m2 += (x - before) * (x - self.mean());
    }

    /// The mean (0 for an empty sample).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum / f64::from(self.n)
        }
    }

    /// The mean and its 95% confidence interval (see [`Interval`]).
    pub fn interval(&self) -> Interval {
        if self.n == 0 {
            return Interval {
                n: 0,
                mean: 0.0,
                half_width: None,
            };
        }
        let n = f64::from(self.n);
        let half_width = (self.n >= 2).then(|| {
            let sd = (self.m2.max(0.0) / (n - 1.0)).sqrt();
            t_975(self.n - 1) * sd / n.sqrt()
        });
        Interval {
            n: self.n,
            mean: self.mean(),
            half_width,
        }
    }
}

/// The standard normal quantile Φ⁻¹(p) for p in (0, 1) by Acklam's rational approximation
/// (relative error below 1.2·10⁻⁹); ±∞ at 0 and 1.
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_833_025e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const LOW: f64 = 0.02425;
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// t(0.975, df) for df = 1..=30.
const T_975: [f64; 30] = [
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
    2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687,
    2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/// The 97.5% quantile of Student's t with `df` degrees of freedom (`df` 0 is treated as 1):
/// a 4-decimal table for 1–30, the Cornish–Fisher expansion (4 terms) beyond, which is within
/// 10⁻⁴ of the exact value there and tends to the normal 1.959964.
pub fn t_975(df: u32) -> f64 {
    if let Some(&t) = T_975.get(df.max(1) as usize - 1) {
        return t;
    }
    let z: f64 = 1.959_963_984_540_054;
    let n = f64::from(df);
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * n)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * n * n)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * n.powi(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn the_t_quantile_matches_published_values_and_tends_to_the_normal() {
        for (df, t) in [(1, 12.7062), (5, 2.5706), (30, 2.0423), (40, 2.0211)] {
            assert!(close(t_975(df), t, 1e-4), "df {df}: {}", t_975(df));
        }
        for (df, t) in [(31, 2.0395), (60, 2.0003), (120, 1.9799), (1000, 1.9623)] {
            assert!(close(t_975(df), t, 1e-4), "df {df}: {}", t_975(df));
        }
        assert!(close(t_975(1_000_000), 1.959_964, 1e-5));
        assert!((1..500).all(|df| t_975(df) > t_975(df + 1)));
    }

    #[test]
    fn the_normal_quantile_matches_published_values() {
        for (p, z) in [
            (0.5, 0.0),
            (0.975, 1.959_963_985),
            (0.995, 2.575_829_304),
            (0.999_875, 3.662_259_931),
            (0.01, -2.326_347_874),
        ] {
            assert!(
                close(normal_quantile(p), z, 1e-6),
                "{p}: {}",
                normal_quantile(p)
            );
        }
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
    }

    #[test]
    fn the_interval_of_a_small_sample_uses_students_t() {
        let interval = Interval::of(&[1.0, 2.0, 3.0, 4.0]);
        // s = 1.2910, t(3) = 3.1824: half-width 3.1824 × 1.2910 / 2 = 2.0543.
        assert!(close(interval.mean, 2.5, 1e-12));
        assert!(close(interval.half_width.unwrap_or(0.0), 2.0543, 1e-4));
    }

    #[test]
    fn the_interval_shrinks_with_more_games_and_is_symmetric_around_the_mean() {
        let games = |n: usize| -> Vec<f64> { (0..n).map(|i| [4.0, 2.0, 1.0][i % 3]).collect() };
        let widths: Vec<f64> = [3, 6, 30, 300]
            .into_iter()
            .map(|n| {
                let interval = Interval::of(&games(n));
                let (low, high) = (
                    interval.low().unwrap_or(0.0),
                    interval.high().unwrap_or(0.0),
                );
                assert!(close(interval.mean - low, high - interval.mean, 1e-12));
                high - low
            })
            .collect();
        assert!(widths.windows(2).all(|w| w[1] < w[0]), "{widths:?}");
    }

    #[test]
    fn moments_kept_one_value_at_a_time_give_the_two_pass_interval() {
        let values: Vec<f64> = (0..1000).map(|i| f64::from((i * 37) % 11) - 3.5).collect();
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let sd = (values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let interval = Interval::of(&values);
        assert!(close(interval.mean, mean, 1e-12));
        let half = interval.half_width.unwrap_or(0.0);
        assert!(close(half, t_975(999) * sd / n.sqrt(), 1e-12));
    }

    #[test]
    fn fewer_than_two_games_have_no_interval() {
        assert_eq!(Interval::of(&[]).half_width, None);
        let one = Interval::of(&[7.0]);
        assert_eq!((one.mean, one.half_width, one.low()), (7.0, None, None));
        assert_eq!(Interval::of(&[3.0, 3.0]).half_width, Some(0.0));
    }
}

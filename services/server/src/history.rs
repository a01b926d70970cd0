//! Rating and score histories as pictures ([`crate::plot`]): a leaderboard row's sparkline and
//! a submission's plot per competition, from the histories [`crate::leaderboard`] computes.
//!
//! Rated games plot μ with the band μ ± 3σ, whose low end is the rating the leaderboard shows
//! (μ − 3σ); the sparkline follows that shown rating. Unrated games (Hanabi) plot the mean
//! score so far with its 95% confidence interval, the leaderboard's own metric and interval.

use croupier_league::{HistoryPoint, HistoryStep};
use uuid::Uuid;

use crate::i18n;
use crate::plot::{self, BandPoint, PlotText};

/// One competition's plot on a submission page.
pub struct HistoryPlot {
    pub competition_id: Uuid,
    pub competition_name: String,
    /// The submission's place on that leaderboard (`–` before its first match).
    pub place: String,
    /// SVG text from [`plot()`], put in the page unescaped.
    pub svg: String,
    pub caption: String,
}

/// Most competitions plotted on a submission page (the newest).
pub const MAX_PLOTS: usize = 10;

fn is_rating(history: &[HistoryPoint]) -> bool {
    history
        .first()
        .is_some_and(|p| matches!(p.step, HistoryStep::Rating { .. }))
}

/// What the shown value is called.
fn shown_name(history: &[HistoryPoint]) -> String {
    if is_rating(history) {
        i18n::t("history-name-rating")
    } else {
        i18n::t("history-name-mean")
    }
}

/// The shown value's first and last point, `rating 0.00 → 12.34 over 9 matches`.
fn summary(history: &[HistoryPoint]) -> String {
    summary_of(history, history.len())
}

/// [`summary`] of an outline of a history of `n` points.
fn summary_of(history: &[HistoryPoint], n: usize) -> String {
    let (Some(first), Some(last)) = (history.first(), history.last()) else {
        return i18n::t("history-no-matches");
    };
    let (what, from, to) = (
        shown_name(history),
        format!("{:.2}", first.shown()),
        format!("{:.2}", last.shown()),
    );
    i18n::t_with(
        "history-summary",
        &[("what", &what), ("first", &from), ("last", &to), ("n", &n)],
    )
}

/// A leaderboard cell: the shown value after each match (empty before the first).
pub fn sparkline(history: &[HistoryPoint]) -> String {
    outline_sparkline(history, history.len())
}

/// [`sparkline`] drawn from an outline (`croupier_league::Outline`: a bounded, evenly spread
/// subset) of a history of `matches` points.
pub fn outline_sparkline(outline: &[HistoryPoint], matches: usize) -> String {
    let values: Vec<f64> = outline.iter().map(HistoryPoint::shown).collect();
    plot::sparkline(&summary_of(outline, matches), &values)
}

/// A submission's plot for one competition; `id` must be unique on the page.
pub fn plot(id: &str, competition: &str, history: &[HistoryPoint]) -> String {
    let points: Vec<BandPoint> = history
        .iter()
        .map(|p| {
            let (low, high) = p.band();
            BandPoint {
                value: p.centre(),
                low,
                high,
            }
        })
        .collect();
    let (y_label, x_label) = if is_rating(history) {
        (i18n::t("history-y-rating"), i18n::t("history-x-rated"))
    } else {
        (i18n::t("history-y-mean"), i18n::t("history-x-played"))
    };
    let title = format!("{competition}: {}", shown_name(history));
    let desc = summary(history);
    plot::line_plot(
        &PlotText {
            id,
            title: &title,
            desc: &desc,
            x_label: &x_label,
            y_label: &y_label,
        },
        &points,
    )
}

/// The caption under a plot: what the line and the band are.
pub fn caption(history: &[HistoryPoint]) -> String {
    let two = |x: f64| format!("{x:.2}");
    let now = history.last().map_or(String::new(), |p| match p.step {
        HistoryStep::Rating { mu, sigma, display } => {
            let (mu, sigma, display) = (two(mu), two(sigma), two(display));
            i18n::t_with(
                "history-now-rating",
                &[("mu", &mu), ("sigma", &sigma), ("display", &display)],
            )
        }
        HistoryStep::Score {
            mean, half_width, ..
        } => match half_width {
            Some(h) => {
                let (mean, h) = (two(mean), two(h));
                i18n::t_with("history-now-interval", &[("mean", &mean), ("h", &h)])
            }
            None => i18n::t_with("history-now-mean", &[("mean", &two(mean))]),
        },
    });
    let line = if is_rating(history) {
        i18n::t("history-caption-rating")
    } else {
        i18n::t("history-caption-mean")
    };
    if now.is_empty() {
        line
    } else {
        format!("{line} {now}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(ordinal: u32, mu: f64, sigma: f64) -> HistoryPoint {
        HistoryPoint {
            ordinal,
            step: HistoryStep::Rating {
                mu,
                sigma,
                display: mu - 3.0 * sigma,
            },
        }
    }

    #[test]
    fn a_rating_sparkline_follows_the_shown_rating_and_says_so() {
        let history = [
            rating(0, 26.0, 8.0),
            rating(4, 28.0, 6.0),
            rating(9, 30.0, 5.0),
        ];

        let spark = sparkline(&history);

        assert!(
            spark.contains("<title>rating 2.00 → 15.00 over 3 matches</title>"),
            "{spark}"
        );
        assert_eq!(spark.matches("<polyline").count(), 1);
    }

    #[test]
    fn a_score_plot_bands_the_confidence_interval_and_names_its_axes() {
        let point = |ordinal, mean, half_width| HistoryPoint {
            ordinal,
            step: HistoryStep::Score {
                score: mean,
                mean,
                half_width,
            },
        };
        let history = [point(1, 18.0, None), point(5, 19.0, Some(1.5))];

        let svg = plot("h1", "Hanabi <cup>", &history);

        assert!(svg.contains("<title id=\"h1-title\">Hanabi &lt;cup&gt;: mean score</title>"));
        assert!(svg.contains(">mean score (band: 95% CI)</text>"));
        assert!(svg.contains("mean score 18.00 → 19.00 over 2 matches"));
        assert_eq!(caption(&history), "The line is the mean score so far; the band is its 95% confidence interval. Now 19.00 ± 1.50.");
    }

    #[test]
    fn nothing_played_draws_no_sparkline() {
        assert_eq!(sparkline(&[]), "");
    }

    #[test]
    fn an_outline_sparkline_counts_the_whole_history() {
        let history: Vec<HistoryPoint> = (0..3)
            .map(|i| rating(i, 25.0 + f64::from(i), 8.0))
            .collect();
        let spark = outline_sparkline(&history, 5_000);
        assert!(
            spark.contains("over 5,000 matches") || spark.contains("over 5000 matches"),
            "{spark}"
        );
    }
}

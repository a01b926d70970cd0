//! Small server-side SVG charts: a line plot with an uncertainty band, and a sparkline. Pure
//! functions returning SVG text to put in a page as is: no script, every label escaped, an
//! accessible `<title>`/`<desc>`, and a `viewBox` with `width="100%"` so a plot shrinks to a
//! 390 px phone. Non-finite values are dropped, so the output never holds `NaN`.

use std::fmt::Write;

/// One point of a [`line_plot`]: a value and its band.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BandPoint {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The words of a [`line_plot`].
pub struct PlotText<'a> {
    /// Unique on the page: the `<title>` and `<desc>` ids derive from it.
    pub id: &'a str,
    pub title: &'a str,
    pub desc: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
}

/// Most points drawn; longer series are thinned evenly (the first and last point are kept).
pub const MAX_PLOT_POINTS: usize = 400;
/// Most points in a sparkline.
pub const MAX_SPARK_POINTS: usize = 40;

const WIDTH: f64 = 400.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 46.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 40.0;
const INK: &str = "#5f6b7a";
const LINE: &str = "#0f766e";
const BAND: &str = "#0f766e";

/// A line plot of `points` over matches 1..=n (the x axis), with the band between each
/// point's `low` and `high` shaded and labelled axes.
pub fn line_plot(text: &PlotText<'_>, points: &[BandPoint]) -> String {
    let points: Vec<(usize, BandPoint)> = thin(points, MAX_PLOT_POINTS)
        .into_iter()
        .filter(|(_, p)| p.value.is_finite() && p.low.is_finite() && p.high.is_finite())
        .collect();
    let id = escape(text.id);
    let mut svg = format!(
        r#"<svg class="plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" aria-labelledby="{id}-title {id}-desc" font-family="sans-serif" font-size="12"><title id="{id}-title">{}</title><desc id="{id}-desc">{}</desc>"#,
        escape(text.title),
        escape(text.desc),
    );
    let n = points.last().map_or(1, |(i, _)| i + 1).max(2);
    let (lo, hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (_, p)| {
            (lo.min(p.low).min(p.value), hi.max(p.high).max(p.value))
        });
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let (lo, hi) = if hi - lo < 1e-9 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    let ticks = ticks(lo, hi);
    let (lo, hi) = (lo.min(ticks[0]), hi.max(ticks[ticks.len() - 1]));
    let x = |i: usize| LEFT + (WIDTH - LEFT - RIGHT) * i as f64 / (n - 1) as f64;
    let y = |v: f64| TOP + (HEIGHT - TOP - BOTTOM) * (hi - v) / (hi - lo);
    let decimals = decimals(ticks.get(1).map_or(1.0, |t| t - ticks[0]));

    // Axes, grid and tick labels.
    let (x0, x1, y0) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM);
    let _ = write!(
        svg,
        r#"<g class="axes" stroke="{INK}" stroke-width="1"><line x1="{x0}" y1="{TOP}" x2="{x0}" y2="{y0}"/><line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}"/></g>"#
    );
    let _ = write!(svg, r#"<g class="ticks" fill="{INK}">"#);
    for t in &ticks {
        let ty = y(*t);
        let _ = write!(
            svg,
            r#"<line x1="{x0}" y1="{ty:.1}" x2="{x1}" y2="{ty:.1}" stroke="{INK}" stroke-opacity="0.2"/><text x="{:.1}" y="{:.1}" text-anchor="end">{t:.decimals$}</text>"#,
            x0 - 4.0,
            ty + 4.0,
        );
    }
    for (i, anchor) in [(0, "start"), (n - 1, "end")] {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="{anchor}">{}</text>"#,
            x(i),
            y0 + 15.0,
            i + 1
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text><text transform="translate(12 {:.1}) rotate(-90)" text-anchor="middle">{}</text></g>"#,
        (x0 + x1) / 2.0,
        HEIGHT - 6.0,
        escape(text.x_label),
        (TOP + y0) / 2.0,
        escape(text.y_label),
    );

    if !points.is_empty() {
        // The band: along the high ends, back along the low ends.
        let mut band = String::new();
        for (k, (i, p)) in points.iter().enumerate() {
            let _ = write!(
                band,
                "{}{:.1},{:.1} ",
                if k == 0 { 'M' } else { 'L' },
                x(*i),
                y(p.high)
            );
        }
        for (i, p) in points.iter().rev() {
            let _ = write!(band, "L{:.1},{:.1} ", x(*i), y(p.low));
        }
        let _ = write!(
            svg,
            r#"<path class="band" d="{}Z" fill="{BAND}" fill-opacity="0.15" stroke="none"/>"#,
            band.trim_end()
        );
        let line: Vec<String> = points
            .iter()
            .map(|(i, p)| format!("{:.1},{:.1}", x(*i), y(p.value)))
            .collect();
        let _ = write!(
            svg,
            r#"<polyline class="line" points="{}" fill="none" stroke="{LINE}" stroke-width="2" stroke-linejoin="round"/>"#,
            line.join(" ")
        );
        if let Some((i, p)) = points.last() {
            let _ = write!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{LINE}"/>"#,
                x(*i),
                y(p.value)
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

/// A tiny line of `values` without axes (a leaderboard cell); empty for no finite value.
pub fn sparkline(title: &str, values: &[f64]) -> String {
    let values: Vec<(usize, f64)> = thin(values, MAX_SPARK_POINTS)
        .into_iter()
        .filter(|(_, v)| v.is_finite())
        .collect();
    let Some(&(last, _)) = values.last() else {
        return String::new();
    };
    let (w, h, pad) = (100.0, 24.0, 2.0);
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (_, v)| {
            (lo.min(*v), hi.max(*v))
        });
    let span = if hi - lo < 1e-9 { 1.0 } else { hi - lo };
    let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / last.max(1) as f64;
    let y = |v: f64| {
        if hi - lo < 1e-9 {
            h / 2.0
        } else {
            pad + (h - 2.0 * pad) * (hi - v) / span
        }
    };
    let line: Vec<String> = values
        .iter()
        .map(|(i, v)| format!("{:.1},{:.1}", x(*i), y(*v)))
        .collect();
    let (lx, ly) = values.last().map_or((0.0, 0.0), |(i, v)| (x(*i), y(*v)));
    format!(
        r#"<svg class="spark" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{title}"><title>{title}</title><polyline points="{}" fill="none" stroke="{LINE}" stroke-width="1.5" stroke-linejoin="round"/><circle cx="{lx:.1}" cy="{ly:.1}" r="2" fill="{LINE}"/></svg>"#,
        line.join(" "),
        title = escape(title),
    )
}

/// At most `max` of `items` with their indices, evenly spread, the first and last kept.
fn thin<T: Copy>(items: &[T], max: usize) -> Vec<(usize, T)> {
    let n = items.len();
    if n <= max || max < 2 {
        return items.iter().copied().enumerate().collect();
    }
    let mut picked: Vec<usize> = (0..max).map(|k| k * (n - 1) / (max - 1)).collect();
    picked.dedup();
    picked.into_iter().map(|i| (i, items[i])).collect()
}

/// Round tick values covering `lo..=hi`: 1, 2 or 5 × 10^k apart, about four intervals.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let raw = (hi - lo) / 4.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let first = (lo / step).floor() * step;
    let count = ((hi - first) / step).ceil() as usize;
    (0..=count.min(20))
        .map(|k| first + step * k as f64)
        .collect()
}

/// Decimals needed to tell ticks `step` apart.
fn decimals(step: f64) -> usize {
    if step >= 1.0 || step <= 0.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    }
}

/// Text as SVG/XML character data or an attribute value.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;

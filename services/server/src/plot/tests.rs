use super::*;

/// Checks that `svg` is well-formed XML as far as tags go: every element closed, in order,
/// attribute values quoted, no stray `<` or `&`.
fn assert_well_formed(svg: &str) {
    let mut open: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        assert!(!text.contains('>'), "stray > in {text:?}");
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "bare & in {text:?}"
            );
        }
        let end = rest[start..].find('>').expect("a closed tag") + start;
        let tag = &rest[start + 1..end];
        assert!(!tag.contains('<'), "< inside tag {tag:?}");
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in {tag:?}"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(name), "closing {name}");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().expect("a name");
            open.push(name.to_owned());
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "unclosed {open:?}");
    assert!(rest.trim().is_empty());
}

fn attribute<'a>(svg: &'a str, element: &str, name: &str) -> &'a str {
    let at = svg.find(&format!("<{element} ")).expect("the element");
    let tail = &svg[at..];
    let key = format!(" {name}=\"");
    let from = tail.find(&key).expect("the attribute") + key.len();
    let len = tail[from..].find('"').expect("a closing quote");
    &tail[from..from + len]
}

fn text<'a>(id: &'a str, title: &'a str) -> PlotText<'a> {
    PlotText {
        id,
        title,
        desc: "μ over 5 matches",
        x_label: "matches",
        y_label: "rating",
    }
}

fn points(n: usize) -> Vec<BandPoint> {
    (0..n)
        .map(|i| {
            let v = 25.0 + i as f64 * 0.5;
            BandPoint {
                value: v,
                low: v - 10.0 / (1.0 + i as f64),
                high: v + 10.0 / (1.0 + i as f64),
            }
        })
        .collect()
}

#[test]
fn a_line_plot_is_well_formed_svg_with_one_line_vertex_per_point_and_a_band() {
    let svg = line_plot(&text("p1", "Rating"), &points(5));

    assert_well_formed(&svg);
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
    assert_eq!(attribute(&svg, "polyline", "points").split(' ').count(), 5);
    let band = attribute(&svg, "path", "d");
    assert_eq!(
        band.matches(['M', 'L']).count(),
        10,
        "five high ends, five low ends"
    );
    assert!(band.ends_with('Z'));
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
}

#[test]
fn a_line_plot_is_accessible_and_scales_to_a_phone() {
    let svg = line_plot(&text("p2", "Rating"), &points(3));

    assert_eq!(attribute(&svg, "svg", "width"), "100%");
    assert_eq!(attribute(&svg, "svg", "viewBox"), "0 0 400 220");
    assert_eq!(attribute(&svg, "svg", "role"), "img");
    assert_eq!(
        attribute(&svg, "svg", "aria-labelledby"),
        "p2-title p2-desc"
    );
    assert!(svg.contains(r#"<title id="p2-title">Rating</title>"#));
    assert!(svg.contains(r#"<desc id="p2-desc">μ over 5 matches</desc>"#));
    assert!(svg.contains(">matches</text>") && svg.contains(">rating</text>"));
}

#[test]
fn plot_text_is_escaped() {
    let svg = line_plot(&text("x\"y", "<script>alert('&')</script>"), &points(2));

    assert_well_formed(&svg);
    assert!(!svg.contains("<script>"));
    assert!(svg.contains("&lt;script&gt;alert(&#39;&amp;&#39;)&lt;/script&gt;"));
    assert!(svg.contains("x&quot;y-title"));
}

#[test]
fn non_finite_values_are_left_out_and_never_printed() {
    let mut series = points(6);
    series[2].value = f64::NAN;
    series[4].high = f64::INFINITY;

    let svg = line_plot(&text("p3", "Rating"), &series);
    let spark = sparkline("trend", &[1.0, f64::NAN, 3.0, f64::NEG_INFINITY, 2.0]);

    assert_well_formed(&svg);
    assert_well_formed(&spark);
    assert_eq!(attribute(&svg, "polyline", "points").split(' ').count(), 4);
    assert_eq!(
        attribute(&spark, "polyline", "points").split(' ').count(),
        3
    );
    for s in [&svg, &spark] {
        assert!(!s.contains("NaN") && !s.contains("inf"), "{s}");
    }
}

#[test]
fn an_empty_or_flat_series_still_draws_axes_without_dividing_by_zero() {
    let empty = line_plot(&text("p4", "Nothing yet"), &[]);
    let flat = line_plot(
        &text("p5", "Flat"),
        &[BandPoint {
            value: 20.0,
            low: 20.0,
            high: 20.0,
        }],
    );

    for svg in [&empty, &flat] {
        assert_well_formed(svg);
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        assert!(svg.contains(r#"<g class="axes""#));
    }
    assert!(!empty.contains("<polyline"));
    assert_eq!(attribute(&flat, "polyline", "points").split(' ').count(), 1);
    assert_eq!(sparkline("none", &[]), "");
}

#[test]
fn long_series_are_thinned_keeping_the_first_and_last_point() {
    let svg = line_plot(&text("p6", "Long"), &points(5000));
    let spark = sparkline("long", &(0..1000).map(f64::from).collect::<Vec<_>>());

    let vertices: Vec<&str> = attribute(&svg, "polyline", "points").split(' ').collect();
    assert_eq!(vertices.len(), MAX_PLOT_POINTS);
    assert!(
        vertices[0].starts_with("46.0,"),
        "the first match is at the left axis"
    );
    assert!(
        vertices[vertices.len() - 1].starts_with("390.0,"),
        "the last at the right end"
    );
    assert_eq!(
        attribute(&spark, "polyline", "points").split(' ').count(),
        MAX_SPARK_POINTS
    );
}

#[test]
fn a_sparkline_is_tiny_titled_and_rises_with_its_values() {
    let spark = sparkline("rating 1.0 → 3.0", &[1.0, 2.0, 3.0]);

    assert_well_formed(&spark);
    assert_eq!(attribute(&spark, "svg", "width"), "100");
    assert!(spark.contains("<title>rating 1.0 → 3.0</title>"));
    assert!(!spark.contains("<text"), "no axes or labels");
    let ys: Vec<f64> = attribute(&spark, "polyline", "points")
        .split(' ')
        .map(|p| {
            p.split(',')
                .nth(1)
                .and_then(|y| y.parse().ok())
                .expect("a y")
        })
        .collect();
    assert!(
        ys.windows(2).all(|w| w[1] < w[0]),
        "higher values are drawn higher: {ys:?}"
    );
}

#[test]
fn ticks_are_round_and_cover_the_range() {
    let t = ticks(0.3, 38.0);
    assert_eq!(t, [0.0, 10.0, 20.0, 30.0, 40.0]);
    let t = ticks(18.2, 18.9);
    assert!(t[0] <= 18.2 && t[t.len() - 1] >= 18.9);
    assert_eq!(decimals(t[1] - t[0]), 1);
}

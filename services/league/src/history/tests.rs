use uuid::Uuid;

use super::*;
use crate::results::EndState;
use crate::{ratings, standings};

const RATED: [GameId; 4] = [
    GameId::NO_THANKS,
    GameId::SPLENDOR,
    GameId::GUANDAN,
    GameId::BRIDGE,
];

/// A schedule for entrants 1..=n on this file's seed; see [`crate::testing::played`].
fn played(
    game: GameId,
    n: u128,
    rounds: u32,
    score: impl Fn(u128, u32) -> f64,
) -> Vec<MatchResult<Uuid>> {
    crate::testing::played(game, n, (rounds, 11), score)
}

fn pecking_order(game: GameId, n: u128, rounds: u32) -> Vec<MatchResult<Uuid>> {
    played(game, n, rounds, |e, _| -(e as f64))
}

#[test]
fn the_last_point_of_every_rated_history_is_the_final_rating() {
    for game in RATED {
        // Arrange
        let results = pecking_order(game, 5, 2);

        // Act
        let history = history(game, &results);
        let rated = ratings(game, &results);

        // Assert
        assert_eq!(history.len(), rated.len(), "{game}");
        for rating in &rated {
            let points = &history[&rating.entrant];
            assert_eq!(points.len(), rating.games as usize, "{game}");
            let last = points.last().expect("a point");
            let HistoryStep::Rating { mu, sigma, display } = last.step else {
                panic!("{game}: a rated game has rating points");
            };
            assert_eq!(
                (mu, sigma, display),
                (rating.rating, rating.uncertainty, rating.display)
            );
            assert_eq!(last.shown(), rating.display);
            assert_eq!(
                last.band().0,
                rating.display,
                "the band's low end is the shown rating"
            );
        }
    }
}

#[test]
fn points_follow_the_match_order_whatever_order_the_results_come_in() {
    for game in RATED {
        let results = pecking_order(game, 4, 2);
        let mut reversed = results.clone();
        reversed.reverse();

        let history = history(game, &results);

        assert_eq!(history, super::history(game, &reversed), "{game}");
        for points in history.values() {
            assert!(
                points.windows(2).all(|w| w[0].ordinal < w[1].ordinal),
                "{game}"
            );
        }
    }
}

#[test]
fn a_bot_that_always_wins_climbs_and_grows_more_certain() {
    let results = pecking_order(GameId::NO_THANKS, 4, 3);

    let best = &history(GameId::NO_THANKS, &results)[&Uuid::from_u128(1)];

    let first = best.first().expect("a first match");
    let last = best.last().expect("a last match");
    assert!(first.centre() > 25.0, "a win lifts μ above the start");
    assert!(last.shown() > first.shown());
    let width = |p: &HistoryPoint| p.band().1 - p.band().0;
    assert!(width(last) < width(first));
}

#[test]
fn matches_with_a_platform_fault_are_no_points() {
    let mut results = pecking_order(GameId::SPLENDOR, 3, 2);
    let broken = results[0].ordinal;
    results[0].seats[1].end_state = EndState::SetupError;

    let history = history(GameId::SPLENDOR, &results);

    for points in history.values() {
        assert_eq!(points.len(), 5, "six matches, one left out");
        assert!(points.iter().all(|p| p.ordinal != broken));
    }
}

#[test]
fn hanabi_keeps_each_match_score_and_the_running_mean_the_leaderboard_ends_on() {
    // Arrange: entrant e scores (e + ordinal) % 7 + 15 in every seat
    let game = GameId::HANABI;
    let results = played(game, 3, 6, |e, ordinal| {
        ((e + u128::from(ordinal)) % 7 + 15) as f64
    });

    // Act
    let history = history(game, &results);
    let table = standings(game, &results);

    // Assert
    assert_eq!(history.len(), 3);
    for row in &table {
        let points = &history[&row.entrant];
        assert_eq!(points.len(), row.games as usize);
        let scores: Vec<f64> = points
            .iter()
            .map(|p| match p.step {
                HistoryStep::Score { score, .. } => score,
                HistoryStep::Rating { .. } => panic!("Hanabi is unrated"),
            })
            .collect();
        let e = row.entrant.as_u128();
        let expected: Vec<f64> = points
            .iter()
            .map(|p| ((e + u128::from(p.ordinal)) % 7 + 15) as f64)
            .collect();
        assert_eq!(scores, expected);
        let HistoryStep::Score {
            half_width: first, ..
        } = points[0].step
        else {
            unreachable!()
        };
        assert_eq!(first, None, "no interval from one match");
        let last = points.last().expect("a point");
        let HistoryStep::Score {
            mean, half_width, ..
        } = last.step
        else {
            unreachable!()
        };
        assert!((mean - row.interval.mean).abs() < 1e-9);
        assert!((mean - row.metric).abs() < 1e-9);
        let (ours, theirs) = (
            half_width.expect("a width"),
            row.interval.half_width.expect("a width"),
        );
        assert!((ours - theirs).abs() < 1e-9, "{ours} vs {theirs}");
        let (low, high) = last.band();
        assert!((low - (mean - ours)).abs() < 1e-12 && (high - (mean + ours)).abs() < 1e-12);
    }
}

#[test]
fn points_serialize_with_their_kind() {
    let point = HistoryPoint {
        ordinal: 7,
        step: HistoryStep::Score {
            score: 20.0,
            mean: 19.5,
            half_width: None,
        },
    };
    let json = serde_json::to_value(point).expect("json");
    assert_eq!(
        json,
        serde_json::json!({ "ordinal": 7, "kind": "score", "score": 20.0, "mean": 19.5, "half_width": null })
    );
    assert_eq!(
        serde_json::from_value::<HistoryPoint>(json).ok(),
        Some(point)
    );
}

#[test]
fn an_outline_spans_the_whole_history_in_a_bounded_number_of_points() {
    let point = |i: u32| HistoryPoint {
        ordinal: i,
        step: HistoryStep::Score {
            score: f64::from(i),
            mean: f64::from(i),
            half_width: None,
        },
    };
    let mut outline = Outline::default();
    for i in 0..10 {
        outline.push(point(i));
    }
    let all: Vec<u32> = outline.points().iter().map(|p| p.ordinal).collect();
    assert_eq!(
        all,
        (0..10).collect::<Vec<_>>(),
        "a short history is kept whole"
    );
    for i in 10..100_000 {
        outline.push(point(i));
    }
    let kept: Vec<u32> = outline.points().iter().map(|p| p.ordinal).collect();
    assert!(kept.len() <= Outline::CAP + 1, "{}", kept.len());
    assert!(kept.len() > Outline::CAP / 2, "{}", kept.len());
    assert_eq!((kept[0], kept[kept.len() - 1]), (0, 99_999));
    assert_eq!(
        outline.len(),
        100_000,
        "it knows how long the whole history is"
    );
    let gaps: Vec<u32> = kept.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps[..gaps.len() - 1].windows(2).all(|g| g[0] == g[1]),
        "even: {gaps:?}"
    );
}

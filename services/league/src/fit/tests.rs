use croupier_games::GameId;

use super::luce::fit;
use super::*;
use crate::seed::SplitMix64;
use crate::testing::played;

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn bradley_terry_with_three_wins_in_four_gives_odds_of_three() {
    // A (0) beats B (1) three times and loses once. With a vanishing prior the MLE is
    // γA/γB = 3, and the information of the difference is 4·p(1 − p) = 4 · 3/4 · 1/4 = 3/4.
    let mut games = vec![vec![(0, 1), (1, 2)]; 3];
    games.push(vec![(0, 2), (1, 1)]);
    let fitted = fit(2, &games, 1e-7);
    assert!(
        close(fitted.theta[0] - fitted.theta[1], 3_f64.ln(), 1e-6),
        "{:?}",
        fitted.theta
    );
    assert!(
        close(fitted.diff_variance(0, 1), 4.0 / 3.0, 1e-4),
        "{}",
        fitted.diff_variance(0, 1)
    );
}

#[test]
fn a_draw_is_half_a_win_each() {
    // One win each and two draws is the same evidence as two wins each: equal strengths, and
    // the same information as four decisive games.
    let games = vec![
        vec![(0, 1), (1, 2)],
        vec![(0, 2), (1, 1)],
        vec![(0, 1), (1, 1)],
        vec![(0, 1), (1, 1)],
    ];
    let fitted = fit(2, &games, 1e-7);
    assert!(close(fitted.theta[0], fitted.theta[1], 1e-9));
    assert!(close(fitted.diff_variance(0, 1), 1.0, 1e-4)); // 1 / (4 · ½ · ½)
}

#[test]
fn every_finishing_order_once_makes_three_equal_entrants() {
    let orders = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let games: Vec<Vec<(usize, u32)>> = orders
        .iter()
        .map(|o| {
            o.iter()
                .enumerate()
                .map(|(place, &i)| (i, place as u32 + 1))
                .collect()
        })
        .collect();
    let fitted = fit(3, &games, PRIOR_FOR_TESTS);
    for t in &fitted.theta {
        assert!(close(*t, 0.0, 1e-9), "{:?}", fitted.theta);
    }
}

const PRIOR_FOR_TESTS: f64 = super::luce::PRIOR;

/// A Plackett–Luce finishing order of `table` under strengths `theta`: sorting by
/// θ + Gumbel noise draws exactly from the model.
fn finish(theta: &[f64], table: &[usize], rng: &mut SplitMix64) -> Vec<(usize, u32)> {
    let mut noisy: Vec<(f64, usize)> = table
        .iter()
        .map(|&i| {
            let u = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
            (theta[i] - (-u.ln()).ln(), i)
        })
        .collect();
    noisy.sort_by(|a, b| b.0.total_cmp(&a.0));
    noisy
        .iter()
        .enumerate()
        .map(|(place, &(_, i))| (i, place as u32 + 1))
        .collect()
}

#[test]
fn plackett_luce_recovers_known_strengths_with_honest_intervals() {
    let n = 40;
    let truth: Vec<f64> = (0..n)
        .map(|i| -1.5 + 3.0 * i as f64 / (n - 1) as f64)
        .collect();
    let mut rng = SplitMix64::order(2026, 0);
    let mut games = Vec::new();
    for _ in 0..3000 {
        let mut table: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut table);
        games.push(finish(&truth, &table[..3], &mut rng));
    }
    let fitted = fit(n, &games, PRIOR_FOR_TESTS);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (mt, mf) = (mean(&truth), mean(&fitted.theta));
    let cov: f64 = truth
        .iter()
        .zip(&fitted.theta)
        .map(|(t, f)| (t - mt) * (f - mf))
        .sum();
    let var = |v: &[f64], m: f64| v.iter().map(|x| (x - m).powi(2)).sum::<f64>();
    let r = cov / (var(&truth, mt) * var(&fitted.theta, mf)).sqrt();
    assert!(r > 0.97, "correlation {r}");
    let covered = (0..n)
        .filter(|&i| (fitted.theta[i] - truth[i]).abs() <= Z_95 * fitted.cov.get(i, i).sqrt())
        .count();
    assert!(
        covered >= 34,
        "{covered} of {n} intervals hold the true strength"
    );
    // Strongest and weakest are far apart; close neighbours are not.
    assert!(fitted.z(n - 1, 0) > 10.0);
    assert!(fitted.z(n - 1, n - 2).abs() < Z_95 * 2.0);
}

#[test]
fn a_pecking_order_is_recovered_in_every_game() {
    for game in croupier_games::registry::all() {
        // Lower ids rank first; Hanabi's score is higher for lower ids.
        let results = played(game, 5, (3, 4), |e, _| 10.0 - e as f64);
        let ranking = fitted(game, &results);
        let order: Vec<u128> = ranking.rows.iter().map(|r| r.entrant.as_u128()).collect();
        assert_eq!(order, [1, 2, 3, 4, 5], "{game}");
        assert_eq!(ranking.model, FitModel::of(game));
        for row in &ranking.rows {
            assert!(
                row.low <= row.strength && row.strength <= row.high,
                "{game}"
            );
        }
        assert!(!ranking.rows[4].ahead_of_next);
    }
}

#[test]
fn hanabi_uses_the_mean_score_and_its_student_t_interval() {
    let results = played(GameId::HANABI, 3, (4, 9), |e, o| {
        e as f64 * 5.0 + f64::from(o % 3)
    });
    let ranking = fitted(GameId::HANABI, &results);
    let table = crate::standings(GameId::HANABI, &results);
    for row in &ranking.rows {
        let standing = table
            .iter()
            .find(|s| s.entrant == row.entrant)
            .expect("a standing");
        assert!(close(row.strength, standing.interval.mean, 1e-12));
        let half = standing.interval.half_width.unwrap_or(0.0);
        assert!(close(row.high - row.strength, half, 1e-12));
    }
    // Means 15, 10, 5 (± about 1): every neighbour is significantly apart.
    assert!(ranking.rows[..2].iter().all(|r| r.ahead_of_next));
    assert!(ranking.ties().is_empty());
}

#[test]
fn an_even_field_is_one_tie_and_a_platform_fault_is_left_out() {
    // Seat 0 always wins: every entrant sits in every seat equally often, so all are equal.
    let mut results = played(GameId::NO_THANKS, 4, (1, 3), |_, _| 0.0);
    for r in &mut results {
        for (seat, s) in r.seats.iter_mut().enumerate() {
            s.rank = seat as u32 + 1;
        }
    }
    let ranking = fitted(GameId::NO_THANKS, &results);
    assert_eq!(ranking.ties(), [(1, 4)]);
    assert!(ranking
        .rows
        .iter()
        .all(|r| r.games == 9 && close(r.strength, 0.0, 1e-9)));
    let mut faulted = results.clone();
    faulted[0].seats[0].end_state = crate::EndState::SetupError;
    let games: u32 = fitted(GameId::NO_THANKS, &faulted)
        .rows
        .iter()
        .map(|r| r.games)
        .sum();
    assert_eq!(games, 4 * 9 - 3);
}

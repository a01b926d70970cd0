//! The leaderboard: computed from the finished matches' seat results with the game's scheme.

use axum::http::{Method, StatusCode};
use sqlx::PgPool;

use super::{finish, schedule, set_status, League, Result3};
use crate::helpers::TestApp;

/// Owls always win; Bats come 2nd in the first four matches and 3rd in the last two; Cats the
/// other way round, and Cats time out once.
fn result_of(team: &str, ordinal: usize) -> Result3 {
    let bats_ahead = ordinal < 4;
    match team {
        "Owls" => (1, 10.0, "ok"),
        "Bats" if bats_ahead => (2, 20.0, "ok"),
        "Bats" => (3, 30.0, "ok"),
        _ if bats_ahead && ordinal == 0 => (3, 30.0, "time_limit"),
        _ if bats_ahead => (3, 30.0, "ok"),
        _ => (2, 20.0, "ok"),
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_leaderboard_orders_bots_as_their_results_imply_with_points_and_intervals(
    pool: PgPool,
) {
    // Arrange: 6 matches, all finished as the worker would write them
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("2").await;
    for (ordinal, (match_id, seats)) in schedule(&pool, competition_id)
        .await
        .into_iter()
        .enumerate()
    {
        let results: Vec<Result3> = seats
            .iter()
            .map(|s| result_of(league.team_of(*s), ordinal))
            .collect();
        finish(&pool, match_id, &results, None).await;
    }

    // Act
    let visitor = TestApp::new(pool.clone());
    let reply = visitor
        .api(
            Method::GET,
            &format!("/api/v1/competitions/{competition_id}/leaderboard"),
            None,
            None,
        )
        .await;
    let mut browser = TestApp::new(pool.clone());
    let page = browser
        .get(&format!("/competitions/{competition_id}/leaderboard"))
        .await;

    // Assert: positions, rank points (4/2/1), mean score, wins, faults
    reply.assert_status(StatusCode::OK);
    assert_eq!(reply.json["competition"]["status"], "finished");
    let board = &reply.json["leaderboard"];
    assert_eq!(board["metric"], "rank points");
    assert_eq!(board["matches"], 6);
    let rows = board["rows"].as_array().unwrap();
    let column = |key: &str| rows.iter().map(|r| r[key].clone()).collect::<Vec<_>>();
    assert_eq!(column("team_name"), ["Owls", "Bats", "Cats"]);
    assert_eq!(column("position"), [1, 2, 3]);
    assert_eq!(column("rank_points"), [24, 10, 8]);
    assert_eq!(column("games"), [6, 6, 6]);
    assert_eq!(column("wins"), [6, 0, 0]);
    assert_eq!(column("faults"), [0, 0, 1]);
    let mean = |i: usize| rows[i]["mean_score"].as_f64().unwrap();
    assert!((mean(0) - 10.0).abs() < 1e-9 && (mean(1) - 70.0 / 3.0).abs() < 1e-9);

    // Assert: the 95% interval of rank points per game. Bats: 2,2,2,2,1,1 → mean 1.6667,
    // s = 0.5164, t(5) = 2.5706, half-width 2.5706 × 0.5164 / √6 = 0.5419.
    assert_eq!(rows[0]["per_game_mean"], 4.0);
    assert_eq!(rows[0]["per_game_half_width"], 0.0);
    let bats_half = rows[1]["per_game_half_width"].as_f64().unwrap();
    assert!((bats_half - 0.5419).abs() < 1e-3, "{bats_half}");

    // Assert: ratings follow the results
    let rating = |i: usize| rows[i]["rating"]["display"].as_f64().unwrap();
    assert!(rating(0) > rating(1) && rating(1) > rating(2));

    // Assert: the page shows the same table, in the same order
    page.assert_status(StatusCode::OK);
    page.assert_shows("1.67 ± 0.54");
    page.assert_shows("4.00 ± 0.00");
    let at = |name: &str| {
        page.body
            .find(name)
            .unwrap_or_else(|| panic!("{name} missing"))
    };
    assert!(at("Owls") < at("Bats") && at("Bats") < at("Cats"));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn failed_and_unplayed_matches_do_not_count_and_bots_without_a_game_are_listed_last(
    pool: PgPool,
) {
    // Arrange: four teams, 12 matches; the first finished, the second failed
    let mut league = League::with_teams(&pool, 4).await;
    let competition_id = league.create("1").await;
    let matches = schedule(&pool, competition_id).await;
    let (first, seats) = &matches[0];
    let ranks: Vec<Result3> = (1..=3).map(|r| (r, f64::from(r), "ok")).collect();
    finish(&pool, *first, &ranks, None).await;
    set_status(&pool, matches[1].0, "failed", "failed").await;
    let idle = league
        .submissions()
        .into_iter()
        .find(|s| !seats.contains(s))
        .unwrap();

    // Act
    let page = league
        .admin
        .get(&format!("/competitions/{competition_id}"))
        .await;
    let reply = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/competitions/{competition_id}/leaderboard"),
            None,
            None,
        )
        .await;
    let index = TestApp::new(pool.clone()).get("/competitions").await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows("1 of 12 matches played · 10 queued · 1 failed");
    page.assert_shows("Re-run 1 failed");
    assert_eq!(reply.json["competition"]["status"], "running");
    assert_eq!(reply.json["leaderboard"]["matches"], 1);
    let rows = reply.json["leaderboard"]["rows"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["team_name"], league.team_of(seats[0]));
    assert_eq!(rows[0]["rank_points"], 4);
    assert!(rows[..3].iter().all(|r| r["games"] == 1));
    assert_eq!(rows[3]["team_name"], league.team_of(idle));
    assert_eq!(rows[3]["games"], 0);
    assert!(rows[3]["position"].is_null());
    index.assert_status(StatusCode::OK);
    index.assert_shows("Spring cup");
    index.assert_shows("1 of 12 matches played · 10 queued · 1 failed");
}

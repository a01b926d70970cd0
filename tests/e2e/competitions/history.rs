//! Rating history: a sparkline per leaderboard row, a plot per competition on the submission
//! page, and the points over the API, all ending where the leaderboard stands.

use axum::http::{Method, StatusCode};
use sqlx::PgPool;

use super::{finish, ready_submission, schedule, League, Result3};
use crate::helpers::TestApp;

/// Owls always win, Bats come 2nd, Cats 3rd.
fn result_of(team: &str) -> Result3 {
    match team {
        "Owls" => (1, 10.0, "ok"),
        "Bats" => (2, 20.0, "ok"),
        _ => (3, 30.0, "ok"),
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_finished_competition_shows_a_sparkline_per_row_and_a_plot_on_each_submission_page(
    pool: PgPool,
) {
    // Arrange: 6 matches; before any is finished the submission page plots nothing
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("2").await;
    let owls = league.entrants[0].submission_id;
    let before = league.entrants[0]
        .app
        .get(&format!("/submissions/{owls}"))
        .await;
    before.assert_status(StatusCode::OK);
    assert!(!before.body.contains("<h2 id=\"history\">"));
    for (match_id, seats) in schedule(&pool, competition_id).await {
        let results: Vec<Result3> = seats
            .iter()
            .map(|s| result_of(league.team_of(*s)))
            .collect();
        finish(&pool, match_id, &results, None).await;
    }

    // Act
    let mut visitor = TestApp::new(pool.clone());
    let board_page = visitor
        .get(&format!("/competitions/{competition_id}/leaderboard"))
        .await;
    let submission_page = league.entrants[0]
        .app
        .get(&format!("/submissions/{owls}"))
        .await;
    let board = visitor
        .api(
            Method::GET,
            &format!("/api/v1/competitions/{competition_id}/leaderboard"),
            None,
            None,
        )
        .await;
    let history = visitor
        .api(
            Method::GET,
            &format!("/api/v1/competitions/{competition_id}/history"),
            None,
            None,
        )
        .await;

    // Assert: one sparkline per row, each with its six matches
    board_page.assert_status(StatusCode::OK);
    let sparks: Vec<&str> = board_page
        .body
        .split("<svg class=\"spark\"")
        .skip(1)
        .collect();
    assert_eq!(sparks.len(), 3, "a sparkline per row");
    for spark in &sparks {
        let points = spark
            .split("points=\"")
            .nth(1)
            .and_then(|p| p.split('"').next())
            .expect("a polyline");
        assert_eq!(points.split(' ').count(), 6);
        assert!(spark.contains("over 6 matches</title>"));
    }

    // Assert: the submission page plots Owls' rating in the competition, with its band
    submission_page.assert_status(StatusCode::OK);
    submission_page.assert_shows("<h2 id=\"history\">History</h2>");
    submission_page.assert_shows("Spring cup");
    let plot = submission_page
        .body
        .split("<svg class=\"plot\"")
        .nth(1)
        .expect("a plot");
    assert!(plot.contains("<title id=\"history-") && plot.contains("<path class=\"band\""));
    let line = plot
        .split("<polyline class=\"line\" points=\"")
        .nth(1)
        .and_then(|p| p.split('"').next())
        .expect("a line");
    assert_eq!(line.split(' ').count(), 6);
    assert!(!plot.contains("NaN"));

    // Assert: the API's history is in leaderboard order and ends on the leaderboard's ratings
    history.assert_status(StatusCode::OK);
    assert_eq!(history.json["kind"], "rating");
    let rows = board.json["leaderboard"]["rows"].as_array().expect("rows");
    let entries = history.json["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 3);
    for (row, entry) in rows.iter().zip(entries) {
        assert_eq!(row["submission_id"], entry["submission_id"]);
        let points = entry["points"].as_array().expect("points");
        assert_eq!(points.len(), 6);
        let last = &points[5];
        assert_eq!(last["kind"], "rating");
        assert_eq!(last["display"], row["rating"]["display"]);
        assert_eq!(last["mu"], row["rating"]["mu"]);
        assert_eq!(last["sigma"], row["rating"]["sigma"]);
    }
    assert!(
        rows.iter().all(|r| r.get("history").is_none()),
        "the leaderboard's JSON stays small: histories are at …/history"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn unrated_hanabi_plots_the_running_mean_score_with_its_interval(pool: PgPool) {
    // Arrange: a self-play Hanabi competition of Owls and Bats, 3 rounds; Owls score
    // 20, 21, 22 in their three matches, Bats 10 every time
    let mut league = League::with_teams(&pool, 2).await;
    let (owls, bats) = (league.entrants[0].team_id, league.entrants[1].team_id);
    let owls_bot = ready_submission(&pool, owls, "alice", "hanabi").await;
    let bats_bot = ready_submission(&pool, bats, "bob", "hanabi").await;
    let root = league.admin.api_user("api-root").await;
    crate::helpers::make_admin(&pool, "api-root").await;
    let body = serde_json::json!({ "name": "Fireworks", "game": "hanabi", "rounds": 3,
                                   "submissions": [owls_bot, bats_bot] });
    let created = league
        .admin
        .api(
            Method::POST,
            "/api/v1/admin/competitions",
            Some(&root),
            Some(body),
        )
        .await;
    created.assert_status(StatusCode::CREATED);
    let competition_id = created.json["competition"]["competition_id"]
        .as_str()
        .and_then(|id| id.parse::<uuid::Uuid>().ok())
        .expect("an id");
    let mut owls_played = 0.0;
    for (match_id, seats) in schedule(&pool, competition_id).await {
        let score = if seats[0] == owls_bot {
            owls_played += 1.0;
            19.0 + owls_played
        } else {
            10.0
        };
        let results: Vec<Result3> = seats.iter().map(|_| (1, score, "ok")).collect();
        finish(&pool, match_id, &results, None).await;
    }

    // Act
    let mut visitor = TestApp::new(pool.clone());
    let board_page = visitor
        .get(&format!("/competitions/{competition_id}/leaderboard"))
        .await;
    let history = visitor
        .api(
            Method::GET,
            &format!("/api/v1/competitions/{competition_id}/history"),
            None,
            None,
        )
        .await;
    let submission_page = league.entrants[0]
        .app
        .get(&format!("/submissions/{owls_bot}"))
        .await;

    // Assert: score points, Owls first, ending on the leaderboard's mean
    history.assert_status(StatusCode::OK);
    assert_eq!(history.json["kind"], "score");
    let entries = history.json["entries"].as_array().expect("entries");
    assert_eq!(entries[0]["submission_id"], owls_bot.to_string());
    let points = entries[0]["points"].as_array().expect("points");
    let scores: Vec<f64> = points.iter().filter_map(|p| p["score"].as_f64()).collect();
    assert_eq!(scores, [20.0, 21.0, 22.0]);
    assert_eq!(points[2]["kind"], "score");
    assert_eq!(points[2]["mean"], 21.0);
    assert!(points[0]["half_width"].is_null());
    assert!(points[2]["half_width"].as_f64().is_some_and(|h| h > 0.0));

    // Assert: a sparkline per row, and the plot names the mean score and its interval
    assert_eq!(board_page.body.matches("<svg class=\"spark\"").count(), 2);
    board_page.assert_shows("mean score 20.00 → 21.00 over 3 matches");
    submission_page.assert_status(StatusCode::OK);
    submission_page.assert_shows("Fireworks");
    submission_page.assert_shows("mean score (band: 95% CI)");
    submission_page.assert_shows("the band is its 95% confidence interval. Now 21.00 ± 2.48.");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_history_of_an_unknown_competition_is_a_json_404(pool: PgPool) {
    let visitor = TestApp::new(pool);

    let reply = visitor
        .api(
            Method::GET,
            &format!("/api/v1/competitions/{}/history", uuid::Uuid::nil()),
            None,
            None,
        )
        .await;

    reply.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(reply.json["status"], 404);
}

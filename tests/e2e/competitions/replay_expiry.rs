//! Replay retention as visitors meet it: once an old match's replay has expired, its page says
//! so and when, the API's record has no replay and says when it expired, the downloads answer
//! 410 with the same words, and the results stay.

use axum::http::{Method, StatusCode};
use serde_json::json;
use sqlx::PgPool;

use super::{cancel_the_rest, finish, schedule, League};

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_expired_replay_is_said_to_have_expired_and_the_results_stay(pool: PgPool) {
    // Arrange: a finished competition, one match finished 40 days ago with its replay.
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("1").await;
    let matches = schedule(&pool, competition_id).await;
    let (match_id, _) = matches[0];
    cancel_the_rest(&pool, competition_id, match_id).await;
    let doc = json!({ "format": 1, "players": ["a", "b", "c"], "games": [], "transcript": [],
                      "transcript_truncated": false, "wall_ms": 3 });
    finish(
        &pool,
        match_id,
        &[(1, 30.0, "ok"), (2, 20.0, "ok"), (3, 10.0, "ok")],
        Some(&doc),
    )
    .await;
    sqlx::query("update match set finished_at = now() - interval '40 days' where match_id = $1")
        .bind(match_id)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("update competition set status = 'finished' where competition_id = $1")
        .bind(competition_id)
        .execute(&pool)
        .await
        .unwrap();
    let before = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/matches/{match_id}/replay"),
            None,
            None,
        )
        .await;
    before.assert_status(StatusCode::OK);

    // Act: a retention of 30 days.
    let expired = croupier_store::retention::expire(&pool, 30, false)
        .await
        .unwrap();

    // Assert
    assert_eq!(expired.matches, 1, "{expired:?}");
    assert_eq!(expired.blobs, 1, "{expired:?}");
    let page = league.admin.get(&format!("/matches/{match_id}")).await;
    page.assert_status(StatusCode::OK);
    assert!(page.body.contains("expired on"), "{}", page.body);
    assert!(page.body.contains("its results stay"), "{}", page.body);
    let record = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/matches/{match_id}"),
            None,
            None,
        )
        .await;
    record.assert_status(StatusCode::OK);
    assert!(record.json["match"]["replay"].is_null(), "{}", record.raw);
    assert!(
        record.json["match"]["replay_expired_at"].is_string(),
        "{}",
        record.raw
    );
    let ranks: Vec<i64> = record.json["match"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["rank"].as_i64().unwrap())
        .collect();
    assert_eq!(ranks, [1, 2, 3], "the results stay");
    let download = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/matches/{match_id}/replay"),
            None,
            None,
        )
        .await;
    download.assert_status(StatusCode::GONE);
    assert!(download.raw.contains("expired on"), "{}", download.raw);
    let file = league
        .admin
        .get(&format!("/matches/{match_id}/replay.json"))
        .await;
    file.assert_status(StatusCode::GONE);
    let frames = league
        .admin
        .get(&format!("/matches/{match_id}/frames.json?view=omniscient"))
        .await;
    frames.assert_status(StatusCode::GONE);
}

//! The table an upload is for (`rules`, `players`): chosen on the form or over the API, checked
//! against the game's rule sets and player counts, defaulting to the newest open competition's,
//! stored with the submission and shown on its page with the validation game's seed, which
//! comes from the uploaded bytes and that table. A ready bot's validation warning is shown on
//! its page, the team's list and in the API.

use axum::http::{Method, StatusCode};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::{alice_and_her_team, submission_of};
use crate::helpers::{make_admin, Stored, TestApp, Upload, BOT_PY, PASSWORD};

/// The stored table and seed of a submission.
async fn table_of(pool: &PgPool, id: Uuid) -> (String, Option<i32>, i64) {
    sqlx::query_as(
        "select rules, players, validation_seed from submission where submission_id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await
    .unwrap()
}

fn hanabi() -> Upload {
    Upload::python("player.py", BOT_PY).game("hanabi")
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_hanabi_bot_for_three_rainbow_players_is_stored_and_shown_so(pool: PgPool) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let form = alice.get(&format!("/teams/{team_id}/upload")).await;
    form.assert_shows(r#"<select name="rules""#);
    form.assert_shows(r#"<option value="rainbow">rainbow</option>"#);
    form.assert_shows(r#"<input name="players""#);
    form.assert_shows("(No Thanks! 3–7, Hanabi 2–5)");

    // Act: the same bytes for 3 rainbow players twice, and for the usual table
    let three = hanabi().table("rainbow", "3");
    let first = submission_of(&alice.upload(team_id, &three).await);
    let again = submission_of(&alice.upload(team_id, &three).await);
    let usual = submission_of(&alice.upload(team_id, &hanabi()).await);

    // Assert: stored, shown, and one seed per bytes and table
    let (rules, players, seed) = table_of(&pool, first).await;
    assert_eq!((rules.as_str(), players), ("rainbow", Some(3)));
    assert_eq!(table_of(&pool, again).await, (rules, players, seed));
    let (rules, players, other) = table_of(&pool, usual).await;
    assert_eq!((rules.as_str(), players), ("standard", Some(4)));
    assert_ne!(other, seed);
    let page = alice.get(&format!("/submissions/{first}")).await;
    page.assert_shows(&format!(
        r#"<dt>Validation game</dt><dd>rainbow, 3 players · seed <span class="mono">{seed}</span>"#
    ));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_table_the_game_does_not_have_is_refused_at_its_field(pool: PgPool) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let splendor = Upload::python("bot.py", BOT_PY).game("splendor");
    let refusals = [
        (
            hanabi().table("pastel", ""),
            "rules",
            "Hanabi has no rule set pastel: choose one of standard, rainbow",
        ),
        (
            hanabi().table("rainbow", "6"),
            "players",
            "Hanabi (rainbow) takes 2 to 5 players",
        ),
        (
            splendor.table("", "4"),
            "players",
            "Splendor (hackathon) is always played by 3 players: leave the number of players empty",
        ),
    ];

    for (upload, field, message) in refusals {
        // Act
        let page = alice.upload(team_id, &upload).await;

        // Assert
        page.assert_status(StatusCode::BAD_REQUEST);
        page.assert_shows(message);
        assert!(
            page.body.contains(&format!(r#"id="error-{field}""#)),
            "{}",
            page.body
        );
        assert_eq!(Stored::now(&pool).await, Stored::NOTHING);
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_api_upload_without_a_table_takes_the_newest_open_competitions(pool: PgPool) {
    // Arrange: a running Hanabi ladder for 3 rainbow players
    let app = TestApp::new(pool.clone());
    let token = app.api_user("alice").await;
    make_admin(&pool, "alice").await;
    let ladder = app
        .api(
            Method::POST,
            "/api/v1/admin/competitions",
            Some(&token),
            Some(
                json!({ "name": "Rainbow three", "game": "hanabi", "kind": "ladder",
                         "rules": "rainbow", "settings": { "players": 3 } }),
            ),
        )
        .await;
    ladder.assert_status(StatusCode::CREATED);
    let team = app
        .api(
            Method::POST,
            "/api/v1/teams",
            Some(&token),
            Some(json!({ "name": "Owls" })),
        )
        .await;
    let team_id = team.json["team"]["team_id"].as_str().unwrap().to_owned();
    let path = format!("/api/v1/teams/{team_id}/submissions");

    // Act: one upload without a table, one that names 2 players of the same rule set
    let usual = hanabi();
    let two = hanabi().table("", "2");
    let first = app.api_multipart(&path, &token, &usual.api_parts()).await;
    let second = app.api_multipart(&path, &token, &two.api_parts()).await;

    // Assert
    first.assert_status(StatusCode::CREATED);
    second.assert_status(StatusCode::CREATED);
    let (a, b) = (&first.json["submission"], &second.json["submission"]);
    assert_eq!((&a["rules"], &a["players"]), (&json!("rainbow"), &json!(3)));
    assert_eq!((&b["rules"], &b["players"]), (&json!("rainbow"), &json!(2)));
    assert!(a["validation_seed"].as_i64().is_some(), "{a}");
    assert_eq!(a["validation_warning"], json!(null));
    let games = app.api(Method::GET, "/api/v1/games", None, None).await;
    let listed = games.json["games"].as_array().unwrap();
    let hanabi = listed.iter().find(|g| g["id"] == "hanabi").unwrap();
    assert_eq!(hanabi["players"]["rainbow"], json!([2, 3, 4, 5]));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_ready_bots_warning_is_on_its_page_its_teams_list_and_in_the_api(pool: PgPool) {
    // Arrange: a bot the worker found ready with two illegal moves
    let mut app = TestApp::new(pool.clone());
    let token = app.api_user("alice").await;
    let team = app
        .api(
            Method::POST,
            "/api/v1/teams",
            Some(&token),
            Some(json!({ "name": "Owls" })),
        )
        .await;
    let team_id = team.json["team"]["team_id"].as_str().unwrap().to_owned();
    let upload = Upload::python("bot.py", BOT_PY);
    let path = format!("/api/v1/teams/{team_id}/submissions");
    let created = app.api_multipart(&path, &token, &upload.api_parts()).await;
    let id: Uuid = created.json["submission"]["submission_id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let warning = json!({ "faults": 2,
        "kinds": [{ "kind": "illegal_action", "count": 2 }],
        "reasons": ["game 1, round 3 (call 3): two gold", "game 1, round 6 (call 6): two gold"] });
    sqlx::query(
        "update submission set status = 'ready', validation_warning = $2 where submission_id = $1",
    )
    .bind(id)
    .bind(&warning)
    .execute(&pool)
    .await
    .unwrap();

    // Act
    let shown = app
        .api(
            Method::GET,
            &format!("/api/v1/submissions/{id}"),
            Some(&token),
            None,
        )
        .await;
    app.log_in("alice", PASSWORD).await;
    let page = app.get(&format!("/submissions/{id}")).await;
    let listed = app.get(&format!("/teams/{team_id}")).await;

    // Assert
    assert_eq!(shown.json["submission"]["validation_warning"], warning);
    page.assert_shows(
        "2 faults in its validation game, which it played on after: tried a move the rules forbid × 2",
    );
    page.assert_shows("game 1, round 6 (call 6): two gold");
    assert!(
        listed.body.contains(r#"class="status warned""#),
        "{}",
        listed.body
    );
    listed.assert_shows("2 faults");
}

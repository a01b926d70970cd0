//! The entry point of an upload (`entry`): the file that starts a folder of one client per
//! seat, or a Hanabi class with its arguments. Chosen on the form or over the API, checked
//! against the upload's files, stored with the submission; an ambiguous Python upload without
//! one is refused listing the candidates.

use axum::http::{Method, StatusCode};
use sqlx::PgPool;

use super::{alice_and_her_team, scalar, submission_of};
use crate::helpers::archives::zip;
use crate::helpers::{Stored, TestApp, Upload, BOT_PY};

/// A Guandan contest folder: one client per seat, no `bot.py`.
fn four_clients() -> Vec<u8> {
    zip(&[
        ("gd/client0.py", BOT_PY),
        ("gd/client1.py", BOT_PY),
        ("gd/client2.py", BOT_PY),
        ("gd/client3.py", BOT_PY),
        ("gd/README.md", b"one client per seat\n"),
    ])
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_upload_form_has_an_entry_field_and_a_chosen_client_is_stored(pool: PgPool) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let form = alice.get(&format!("/teams/{team_id}/upload")).await;
    form.assert_shows(r#"<input name="entry""#);
    form.assert_shows("player.py:cautious(0.3)");
    let upload = Upload::python("gd.zip", &four_clients())
        .game("guandan")
        .entry("client2.py");

    // Act
    let page = alice.upload(team_id, &upload).await;

    // Assert: the bare name found the only client2.py, in its folder
    let id = submission_of(&page);
    let entry: String = scalar(
        &pool,
        "select entry from submission where submission_id = $1",
        id,
    )
    .await;
    assert_eq!(entry, "gd/client2.py");
    alice
        .get(&format!("/submissions/{id}"))
        .await
        .assert_shows("gd/client2.py</dd>");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_folder_of_clients_without_an_entry_is_refused_listing_the_candidates(pool: PgPool) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let upload = Upload::python("gd.zip", &four_clients()).game("guandan");

    // Act
    let page = alice.upload(team_id, &upload).await;

    // Assert
    page.assert_status(StatusCode::BAD_REQUEST);
    page.assert_shows("cannot tell which file starts your bot");
    page.assert_shows("gd/client0.py, gd/client1.py, gd/client2.py, gd/client3.py");
    assert_eq!(Stored::now(&pool).await, Stored::NOTHING);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_api_upload_takes_an_entry_with_a_hanabi_class_and_refuses_bad_entries(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    let token = app.api_user("alice").await;
    let created = app
        .api(
            Method::POST,
            "/api/v1/teams",
            Some(&token),
            Some(serde_json::json!({ "name": "Owls" })),
        )
        .await;
    let team_id = created.json["team"]["team_id"].as_str().unwrap().to_owned();
    let path = format!("/api/v1/teams/{team_id}/submissions");
    let class_bot = Upload::python("player.py", b"class player: pass\n").game("hanabi");

    // Act
    let chosen = app
        .api_multipart(
            &path,
            &token,
            &class_bot
                .clone()
                .entry("player.py:cautious(0.3)")
                .api_parts(),
        )
        .await;
    let refused = [
        (
            Upload::python("gd.zip", &four_clients()).game("guandan"),
            "gd/client0.py, gd/client1.py",
        ),
        (
            Upload::python("gd.zip", &four_clients())
                .game("guandan")
                .entry("../client0.py"),
            "may not contain `..`",
        ),
        (
            Upload::python("gd.zip", &four_clients())
                .game("guandan")
                .entry("client7.py"),
            "the entry file client7.py is not in the upload",
        ),
        (
            Upload::python("gd.zip", &four_clients())
                .game("guandan")
                .entry("gd/README.md"),
            "not a python3 file",
        ),
        (
            Upload::python("gd.zip", &four_clients())
                .game("guandan")
                .entry("client0.py:Player"),
            "Guandan 掼蛋 bots are programs",
        ),
        (
            class_bot.clone().entry("player.py:os.system('x')"),
            "must be `Name` or `Name(args)`",
        ),
    ];

    // Assert
    chosen.assert_status(StatusCode::CREATED);
    assert_eq!(
        chosen.json["submission"]["entry"],
        "player.py:cautious(0.3)"
    );
    for (upload, message) in &refused {
        let reply = app.api_multipart(&path, &token, &upload.api_parts()).await;
        reply.assert_error(StatusCode::BAD_REQUEST, message);
    }
    assert_eq!(Stored::now(&pool).await.submissions, 1);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_openapi_document_describes_the_entry_field(pool: PgPool) {
    let app = TestApp::new(pool);

    let doc = app
        .api(Method::GET, "/api/v1/openapi.json", None, None)
        .await
        .json;

    let schema = &doc["paths"]["/teams/{team_id}/submissions"]["post"]["requestBody"]["content"]
        ["multipart/form-data"]["schema"];
    let entry = &schema["properties"]["entry"];
    assert_eq!(entry["type"], "string");
    assert_eq!(entry["example"], "player.py:cautious(0.3)");
    let described = entry["description"].as_str().unwrap_or_default();
    assert!(
        described.contains("client0.py") && described.contains("Python literals"),
        "{described}"
    );
    assert!(
        !schema["required"]
            .as_array()
            .unwrap()
            .contains(&"entry".into()),
        "the entry is optional"
    );
}

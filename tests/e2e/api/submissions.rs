//! Uploads and submissions over the API, and tokens made (and revoked) on the team page.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use sqlx::PgPool;

use crate::helpers::archives::zip;
use crate::helpers::{Stored, TestApp, Upload, BOT_PY};

/// A token for a new user who owns a new team; returns (token, team id).
async fn owner_of(app: &TestApp, username: &str, team: &str) -> (String, String) {
    let token = app.api_user(username).await;
    let created = app
        .api(
            Method::POST,
            "/api/v1/teams",
            Some(&token),
            Some(json!({ "name": team })),
        )
        .await;
    created.assert_status(StatusCode::CREATED);
    let team_id = created.json["team"]["team_id"]
        .as_str()
        .expect("team id")
        .to_owned();
    (token, team_id)
}

fn paths(files: &Value) -> Vec<&str> {
    files
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("path"))
        .collect()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_bot_uploaded_over_the_api_is_201_with_its_submission_and_files(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    let (token, team_id) = owner_of(&app, "alice", "Owls").await;
    let archive = zip(&[("main.py", BOT_PY), ("lib/util.py", b"X = 1\n")]);
    let upload = Upload::python("bot.zip", &archive);

    // Act
    let reply = app
        .api_multipart(
            &format!("/api/v1/teams/{team_id}/submissions"),
            &token,
            &upload.api_parts(),
        )
        .await;

    // Assert
    reply.assert_status(StatusCode::CREATED);
    let submission = &reply.json["submission"];
    assert_eq!(submission["version"], 1);
    assert_eq!(submission["status"], "pending");
    assert_eq!(submission["game"], "nothanks");
    assert_eq!(submission["bundle_kind"], "zip");
    assert_eq!(submission["submitted_by"], "alice");
    assert_eq!(paths(&reply.json["files"]), ["lib/util.py", "main.py"]);
    let id = submission["submission_id"].as_str().unwrap();
    let listed = app
        .api(
            Method::GET,
            &format!("/api/v1/teams/{team_id}/submissions"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(listed.json["submissions"][0]["submission_id"], id);
    let shown = app
        .api(
            Method::GET,
            &format!("/api/v1/submissions/{id}"),
            Some(&token),
            None,
        )
        .await;
    shown.assert_status(StatusCode::OK);
    assert_eq!(paths(&shown.json["files"]), ["lib/util.py", "main.py"]);
    let source = app
        .api(
            Method::GET,
            &format!("/api/v1/submissions/{id}/source"),
            Some(&token),
            None,
        )
        .await;
    source.assert_status(StatusCode::OK);
    assert_eq!(source.bytes, archive);
    assert_eq!(
        Stored::now(&pool).await,
        Stored {
            submissions: 1,
            blobs: 1,
            files: 2,
            jobs: 1
        }
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_api_upload_over_the_cap_is_413_json_naming_the_cap_and_stores_nothing(pool: PgPool) {
    // Arrange
    let app = TestApp::with_upload_cap(pool.clone(), 64 * 1024);
    let (token, team_id) = owner_of(&app, "alice", "Owls").await;
    let path = format!("/api/v1/teams/{team_id}/submissions");

    for size in [64 * 1024 + 1, 1024 * 1024] {
        // Act
        let upload = Upload::python("bot.py", &vec![b'#'; size]);
        let reply = app.api_multipart(&path, &token, &upload.api_parts()).await;

        // Assert
        reply.assert_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the upload is larger than the 64 KiB limit",
        );
        assert_eq!(Stored::now(&pool).await, Stored::NOTHING);
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_invalid_api_upload_is_400_json_and_stores_nothing(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    let (token, team_id) = owner_of(&app, "alice", "Owls").await;
    let path = format!("/api/v1/teams/{team_id}/submissions");
    let escaping = zip(&[("../evil.py", BOT_PY)]);

    // Act
    let bad_game = app
        .api_multipart(
            &path,
            &token,
            &Upload::python("bot.py", BOT_PY).game("chess").api_parts(),
        )
        .await;
    let bad_archive = app
        .api_multipart(
            &path,
            &token,
            &Upload::python("bot.zip", &escaping).api_parts(),
        )
        .await;

    // Assert
    bad_game.assert_error(StatusCode::BAD_REQUEST, r#"unknown game "chess""#);
    bad_archive.assert_error(StatusCode::BAD_REQUEST, r#"contains a ".." component"#);
    assert_eq!(Stored::now(&pool).await, Stored::NOTHING);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn another_teams_submissions_are_404_over_the_api(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    let (alice, owls) = owner_of(&app, "alice", "Owls").await;
    let (bob, _ravens) = owner_of(&app, "bob", "Ravens").await;
    let owls_uploads = format!("/api/v1/teams/{owls}/submissions");
    let created = app
        .api_multipart(
            &owls_uploads,
            &alice,
            &Upload::python("bot.py", BOT_PY).api_parts(),
        )
        .await;
    created.assert_status(StatusCode::CREATED);
    let id = created.json["submission"]["submission_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let before = Stored::now(&pool).await;

    // Act
    let replies = [
        app.api(
            Method::GET,
            &format!("/api/v1/submissions/{id}"),
            Some(&bob),
            None,
        )
        .await,
        app.api(
            Method::GET,
            &format!("/api/v1/submissions/{id}/source"),
            Some(&bob),
            None,
        )
        .await,
        app.api(Method::GET, &owls_uploads, Some(&bob), None).await,
        app.api_multipart(
            &owls_uploads,
            &bob,
            &Upload::python("evil.py", BOT_PY).api_parts(),
        )
        .await,
    ];

    // Assert
    for reply in &replies {
        reply.assert_error(StatusCode::NOT_FOUND, "not found");
        assert!(!reply.raw.contains("bot.py"));
    }
    assert_eq!(Stored::now(&pool).await, before);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_token_made_on_the_team_page_works_until_it_is_revoked_there(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let team_id = alice.create_team("Owls").await;
    let team_page = format!("/teams/{team_id}");
    alice
        .submit_form(
            &team_page,
            &format!("{team_page}/tokens"),
            &[("name", "laptop")],
        )
        .await
        .assert_redirect(&format!("{team_page}#tokens"));
    let page = alice.get(&team_page).await;
    page.assert_shows("copy it now, it is shown only once");
    const SHOWN: &str = r#"<p class="code-box mono">"#;
    let start = page
        .body
        .find(&format!("{SHOWN}cr_"))
        .expect("the new token is shown")
        + SHOWN.len();
    let token = page.body[start..].split('<').next().unwrap().to_owned();
    let me = alice
        .api(Method::GET, "/api/v1/me", Some(&token), None)
        .await;
    me.assert_status(StatusCode::OK);
    assert_eq!(me.json["token_team_id"], team_id.to_string());
    assert!(
        !alice.get(&team_page).await.body.contains(&token),
        "the token is shown only once"
    );
    let revoke = crate::helpers::uuid_after(&page.body, &format!("{team_page}/tokens/"));

    // Act
    let revoked = alice
        .submit_form(
            &team_page,
            &format!("{team_page}/tokens/{revoke}/revoke"),
            &[],
        )
        .await;

    // Assert
    revoked.assert_redirect(&format!("{team_page}#tokens"));
    alice
        .get(&team_page)
        .await
        .assert_shows("The token was revoked.");
    let after = alice
        .api(Method::GET, "/api/v1/me", Some(&token), None)
        .await;
    after.assert_error(StatusCode::UNAUTHORIZED, "a valid API token is required");
    let upload = Upload::python("bot.py", BOT_PY);
    let refused = alice
        .api_multipart(
            &format!("/api/v1/teams/{team_id}/submissions"),
            &token,
            &upload.api_parts(),
        )
        .await;
    refused.assert_status(StatusCode::UNAUTHORIZED);
    assert_eq!(Stored::now(&pool).await, Stored::NOTHING);
}

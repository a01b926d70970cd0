//! Sign-up, tokens, `/me`, teams and admin endpoints over the API.

use axum::http::{Method, StatusCode};
use serde_json::json;
use sqlx::PgPool;

use crate::helpers::{count, TestApp, PASSWORD};

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn signing_up_and_exchanging_the_password_for_a_token_identifies_the_user(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    let signup = json!({ "username": "alice", "password": PASSWORD, "email": "alice@example.org" });

    // Act
    let created = app
        .api(Method::POST, "/api/v1/users", None, Some(signup))
        .await;
    let login = json!({ "username": "ALICE", "password": PASSWORD, "name": "laptop" });
    let token = app
        .api(Method::POST, "/api/v1/tokens", None, Some(login))
        .await;
    let secret = token.json["token"].as_str().unwrap_or_default().to_owned();
    let me = app
        .api(Method::GET, "/api/v1/me", Some(&secret), None)
        .await;

    // Assert
    created.assert_status(StatusCode::CREATED);
    assert_eq!(created.json["user"]["username"], "alice");
    assert_eq!(created.json["user"]["is_admin"], false);
    assert!(
        !created.raw.contains("argon2"),
        "the hash leaked: {}",
        created.raw
    );
    token.assert_status(StatusCode::CREATED);
    assert!(
        secret.starts_with("cr_") && secret.len() > 40,
        "odd token {secret}"
    );
    assert_eq!(token.json["api_token"]["name"], "laptop");
    me.assert_status(StatusCode::OK);
    assert_eq!(me.json["user"]["username"], "alice");
    assert_eq!(me.json["user"]["email"], "alice@example.org");
    assert_eq!(me.json["teams"], json!([]));
    let stored: Vec<u8> = sqlx::query_scalar("select token_hash from api_token")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(stored.len(), 32, "only a SHA-256 of the token is kept");
    assert_ne!(stored, secret.as_bytes());
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_taken_username_or_a_short_password_is_refused_with_a_json_error(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    app.api_user("alice").await;

    // Act
    let taken = json!({ "username": "Alice", "password": PASSWORD });
    let taken = app
        .api(Method::POST, "/api/v1/users", None, Some(taken))
        .await;
    let short = json!({ "username": "bob", "password": "short" });
    let short = app
        .api(Method::POST, "/api/v1/users", None, Some(short))
        .await;

    // Assert
    taken.assert_error(
        StatusCode::CONFLICT,
        r#"the username "Alice" is already taken"#,
    );
    short.assert_error(StatusCode::BAD_REQUEST, "at least 8 characters");
    assert_eq!(count(&pool, "app_user").await, 1);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_wrong_password_gets_401_json_and_no_token(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    app.api_user("alice").await;
    let tokens_before = count(&pool, "api_token").await;

    // Act
    let wrong = json!({ "username": "alice", "password": "not the password" });
    let reply = app
        .api(Method::POST, "/api/v1/tokens", None, Some(wrong))
        .await;

    // Assert
    reply.assert_error(StatusCode::UNAUTHORIZED, "wrong username or password");
    assert!(reply.json.get("token").is_none());
    assert_eq!(count(&pool, "api_token").await, tokens_before);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn requests_without_or_with_a_garbage_token_get_401_json(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    app.api_user("alice").await;

    // Act
    let none = app.api(Method::GET, "/api/v1/me", None, None).await;
    let garbage = app
        .api(Method::GET, "/api/v1/me", Some("garbage"), None)
        .await;
    let well_formed = app
        .api(
            Method::GET,
            "/api/v1/me",
            Some("cr_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            None,
        )
        .await;
    let teams = app
        .api(Method::GET, "/api/v1/teams", Some("garbage"), None)
        .await;

    // Assert
    for reply in [&none, &garbage, &well_formed, &teams] {
        reply.assert_error(StatusCode::UNAUTHORIZED, "a valid API token is required");
        assert!(reply.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json"));
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn teams_can_be_created_joined_and_listed(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    let alice = app.api_user("alice").await;
    let bob = app.api_user("bob").await;
    let eve = app.api_user("eve").await;

    // Act
    let created = app
        .api(
            Method::POST,
            "/api/v1/teams",
            Some(&alice),
            Some(json!({ "name": "Owls" })),
        )
        .await;
    let team_id = created.json["team"]["team_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let code = created.json["team"]["invite_code"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    let joined = app
        .api(
            Method::POST,
            "/api/v1/teams/join",
            Some(&bob),
            Some(json!({ "invite_code": code })),
        )
        .await;
    let listed = app
        .api(Method::GET, "/api/v1/teams", Some(&bob), None)
        .await;
    let shown = app
        .api(
            Method::GET,
            &format!("/api/v1/teams/{team_id}"),
            Some(&alice),
            None,
        )
        .await;

    // Assert
    created.assert_status(StatusCode::CREATED);
    joined.assert_status(StatusCode::OK);
    assert_eq!(joined.json["team"]["name"], "Owls");
    assert_eq!(
        listed.json["teams"],
        json!([{ "team_id": team_id, "name": "Owls", "role": "member" }])
    );
    shown.assert_status(StatusCode::OK);
    let members: Vec<(&str, &str)> = shown.json["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["username"].as_str().unwrap(), m["role"].as_str().unwrap()))
        .collect();
    assert_eq!(members, [("alice", "owner"), ("bob", "member")]);

    // ... and the refusals
    let taken = app
        .api(
            Method::POST,
            "/api/v1/teams",
            Some(&eve),
            Some(json!({ "name": "OWLS" })),
        )
        .await;
    taken.assert_error(
        StatusCode::CONFLICT,
        r#"the team name "OWLS" is already taken"#,
    );
    let unknown = app
        .api(
            Method::POST,
            "/api/v1/teams/join",
            Some(&eve),
            Some(json!({ "invite_code": "NOPE" })),
        )
        .await;
    unknown.assert_error(StatusCode::BAD_REQUEST, "no team has this invite code");
    let twice = app
        .api(
            Method::POST,
            "/api/v1/teams/join",
            Some(&bob),
            Some(json!({ "invite_code": code })),
        )
        .await;
    twice.assert_error(StatusCode::CONFLICT, "you are already a member of Owls");
    let private = app
        .api(
            Method::GET,
            &format!("/api/v1/teams/{team_id}"),
            Some(&eve),
            None,
        )
        .await;
    private.assert_error(StatusCode::NOT_FOUND, "not found");
    assert_eq!(count(&pool, "team").await, 1);
    assert_eq!(count(&pool, "team_member").await, 2);
}

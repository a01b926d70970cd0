//! Admin endpoints over the API.

use axum::http::{Method, StatusCode};
use serde_json::json;
use sqlx::PgPool;

use crate::helpers::{make_admin, user_id, TestApp};

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn admin_endpoints_are_403_for_users_and_work_for_an_admin(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    let root = app.api_user("root").await;
    let bob = app.api_user("bob").await;
    app.api(
        Method::POST,
        "/api/v1/teams",
        Some(&bob),
        Some(json!({ "name": "Owls" })),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let bob_id = user_id(&pool, "bob").await;
    let promote = format!("/api/v1/admin/users/{bob_id}/admin");

    // Act + Assert: a normal user
    for (method, path, body) in [
        (Method::GET, "/api/v1/admin/users", None),
        (Method::GET, "/api/v1/admin/teams", None),
        (
            Method::POST,
            promote.as_str(),
            Some(json!({ "admin": true })),
        ),
    ] {
        app.api(method, path, Some(&bob), body)
            .await
            .assert_error(StatusCode::FORBIDDEN, "administrators only");
    }
    let admins: i64 = sqlx::query_scalar("select count(*) from app_user where is_admin")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(admins, 0);

    // Act + Assert: an admin
    make_admin(&pool, "root").await;
    let users = app
        .api(Method::GET, "/api/v1/admin/users", Some(&root), None)
        .await;
    users.assert_status(StatusCode::OK);
    let names: Vec<&str> = users.json["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["username"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["root", "bob"]);
    let teams = app
        .api(Method::GET, "/api/v1/admin/teams", Some(&root), None)
        .await;
    teams.assert_status(StatusCode::OK);
    assert_eq!(teams.json["teams"][0]["name"], "Owls");
    assert_eq!(teams.json["teams"][0]["members"], 1);
    let promoted = app
        .api(
            Method::POST,
            &promote,
            Some(&root),
            Some(json!({ "admin": true })),
        )
        .await;
    promoted.assert_status(StatusCode::OK);
    assert_eq!(promoted.json["user"]["is_admin"], true);
    let is_admin: bool = sqlx::query_scalar("select is_admin from app_user where user_id = $1")
        .bind(bob_id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(is_admin);
    let root_id = user_id(&pool, "root").await;
    let demote_self = format!("/api/v1/admin/users/{root_id}/admin");
    app.api(
        Method::POST,
        &demote_self,
        Some(&root),
        Some(json!({ "admin": false })),
    )
    .await
    .assert_error(
        StatusCode::BAD_REQUEST,
        "you cannot remove your own admin role",
    );
}

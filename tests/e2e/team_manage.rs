//! Managing a team from its page and over the API: leaving, the owner removing a member and
//! handing the team over, deleting a team that never uploaded; an admin opening any team page.

use axum::http::{Method, StatusCode};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::{count, invite_code, make_admin, user_id, TestApp, Upload, BOT_PY};
use crate::teams::role;

/// Alice owns Owls; Bob has joined it. Their browsers, and the team.
async fn owls(pool: &PgPool) -> (TestApp, TestApp, Uuid) {
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let team_id = alice.create_team("Owls").await;
    let mut bob = alice.new_visitor();
    bob.sign_up("bob").await;
    bob.join_team(&invite_code(pool, team_id).await)
        .await
        .assert_status(StatusCode::SEE_OTHER);
    (alice, bob, team_id)
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_member_leaves_and_their_tokens_for_the_team_stop_working_but_the_owner_cannot_leave(
    pool: PgPool,
) {
    // Arrange
    let (mut alice, mut bob, team_id) = owls(&pool).await;
    let page = format!("/teams/{team_id}");
    bob.submit_form(&page, &format!("{page}/tokens"), &[("name", "laptop")])
        .await
        .assert_status(StatusCode::SEE_OTHER);

    // Act
    let left = bob.submit_form(&page, &format!("{page}/leave"), &[]).await;
    let refused = alice
        .submit_form(&page, &format!("{page}/leave"), &[])
        .await;

    // Assert
    left.assert_redirect("/teams");
    bob.get("/teams").await.assert_shows("You left Owls.");
    bob.get(&page).await.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(role(&pool, team_id, "bob").await, None);
    let live: i64 = sqlx::query_scalar(
        "select count(*) from api_token where team_id = $1 and revoked_at is null",
    )
    .bind(team_id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(live, 0, "the leaver's token for the team is revoked");
    refused.assert_redirect(&page);
    let shown = alice.get(&page).await;
    shown.assert_shows("Nothing changed: the owner cannot leave");
    assert_eq!(
        role(&pool, team_id, "alice").await.as_deref(),
        Some("owner")
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_owner_hands_the_team_over_and_the_new_owner_removes_the_old_one(pool: PgPool) {
    // Arrange
    let (mut alice, mut bob, team_id) = owls(&pool).await;
    let page = format!("/teams/{team_id}");
    let (alice_id, bob_id) = (user_id(&pool, "alice").await, user_id(&pool, "bob").await);
    bob.submit_form(&page, &format!("{page}/members/{alice_id}/remove"), &[])
        .await
        .assert_status(StatusCode::FORBIDDEN);
    alice
        .get(&page)
        .await
        .assert_shows(&format!("/teams/{team_id}/members/{bob_id}/owner"));

    // Act
    let handed = alice
        .submit_form(&page, &format!("{page}/members/{bob_id}/owner"), &[])
        .await;
    let removed = bob
        .submit_form(&page, &format!("{page}/members/{alice_id}/remove"), &[])
        .await;

    // Assert
    handed.assert_redirect(&page);
    removed.assert_redirect(&page);
    assert_eq!(role(&pool, team_id, "bob").await.as_deref(), Some("owner"));
    assert_eq!(role(&pool, team_id, "alice").await, None);
    bob.get(&page)
        .await
        .assert_shows("alice is no longer a member.");
    alice.get(&page).await.assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_team_is_deleted_only_with_its_name_typed_and_only_if_it_never_uploaded(pool: PgPool) {
    // Arrange
    let (mut alice, _bob, team_id) = owls(&pool).await;
    let page = format!("/teams/{team_id}");
    let delete = format!("{page}/delete");
    let mut carol = alice.new_visitor();
    carol.sign_up("carol").await;
    let busy = carol.create_team("Larks").await;
    carol
        .upload(busy, &Upload::python("bot.py", BOT_PY))
        .await
        .assert_status(StatusCode::SEE_OTHER);

    // Act
    let mistyped = alice
        .submit_form(&page, &delete, &[("confirm", "owls")])
        .await;
    let deleted = alice
        .submit_form(&page, &delete, &[("confirm", "Owls")])
        .await;
    let larks = format!("/teams/{busy}");
    let kept = carol
        .submit_form(&larks, &format!("{larks}/delete"), &[("confirm", "Larks")])
        .await;

    // Assert
    mistyped.assert_redirect(&page);
    deleted.assert_redirect("/teams");
    alice
        .get("/teams")
        .await
        .assert_shows("The team Owls was deleted.");
    alice.get(&page).await.assert_status(StatusCode::NOT_FOUND);
    kept.assert_redirect(&larks);
    let shown = carol.get(&larks).await;
    shown.assert_shows("the team has 1 submission and keeps its history");
    assert_eq!(count(&pool, "team").await, 1);
    assert_eq!(count(&pool, "team_member").await, 1);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_admin_opens_any_team_page_without_its_secrets(pool: PgPool) {
    // Arrange
    let (_alice, _bob, team_id) = owls(&pool).await;
    let mut root = TestApp::new(pool.clone());
    root.sign_up("root").await;
    make_admin(&pool, "root").await;
    let code = invite_code(&pool, team_id).await;

    // Act
    let page = root.get(&format!("/teams/{team_id}")).await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows("<h1>Owls</h1>");
    page.assert_shows("alice <span class=\"muted\">owner</span>");
    page.assert_shows("you are not one of its members");
    for hidden in [
        code.as_str(),
        "Upload a bot",
        "Create token",
        "Leave the team",
    ] {
        assert!(
            !page.body.contains(hidden),
            "an admin's view shows {hidden:?}"
        );
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_api_leaves_hands_over_removes_and_deletes_with_clear_refusals(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool.clone());
    let (alice, bob, eve) = (
        app.api_user("alice").await,
        app.api_user("bob").await,
        app.api_user("eve").await,
    );
    let created = app
        .api(
            Method::POST,
            "/api/v1/teams",
            Some(&alice),
            Some(json!({ "name": "Owls" })),
        )
        .await;
    let team_id = created.json["team"]["team_id"].as_str().unwrap().to_owned();
    let code = created.json["team"]["invite_code"]
        .as_str()
        .unwrap()
        .to_owned();
    for token in [&bob, &eve] {
        app.api(
            Method::POST,
            "/api/v1/teams/join",
            Some(token),
            Some(json!({ "invite_code": code })),
        )
        .await
        .assert_status(StatusCode::OK);
    }
    let team = format!("/api/v1/teams/{team_id}");
    let bob_id = user_id(&pool, "bob").await;
    let eve_id = user_id(&pool, "eve").await;

    // Act and assert
    app.api(Method::POST, &format!("{team}/leave"), Some(&alice), None)
        .await
        .assert_status(StatusCode::CONFLICT);
    app.api(
        Method::DELETE,
        &format!("{team}/members/{eve_id}"),
        Some(&bob),
        None,
    )
    .await
    .assert_status(StatusCode::FORBIDDEN);
    let removed = app
        .api(
            Method::DELETE,
            &format!("{team}/members/{eve_id}"),
            Some(&alice),
            None,
        )
        .await;
    removed.assert_status(StatusCode::OK);
    assert_eq!(removed.json["members"].as_array().unwrap().len(), 2);
    app.api(Method::GET, &team, Some(&eve), None)
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let handed = app
        .api(
            Method::POST,
            &format!("{team}/owner"),
            Some(&alice),
            Some(json!({ "user_id": bob_id })),
        )
        .await;
    handed.assert_status(StatusCode::OK);
    app.api(Method::POST, &format!("{team}/leave"), Some(&alice), None)
        .await
        .assert_status(StatusCode::OK);
    app.api(Method::DELETE, &team, Some(&alice), None)
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.api(Method::DELETE, &team, Some(&bob), None)
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(count(&pool, "team").await, 0);
}

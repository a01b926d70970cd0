//! A person's ways in after their password changes: other browsers are signed out, API tokens
//! revoked (unless kept), and the account page lists and ends sessions one by one or all.

use axum::http::{Method, StatusCode};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::{served::Served, uuid_after, TestApp, PASSWORD};

const NEW: &str = "a new and long passphrase";

/// A token for `username` from `POST /api/v1/tokens`.
async fn token(app: &TestApp, username: &str, password: &str) -> String {
    let reply = app
        .api(
            Method::POST,
            "/api/v1/tokens",
            None,
            Some(json!({ "username": username, "password": password })),
        )
        .await;
    reply.assert_status(StatusCode::CREATED);
    reply.json["token"].as_str().expect("token").to_owned()
}

/// The status `GET /api/v1/me` answers with `token`.
async fn me_status(app: &TestApp, token: &str) -> StatusCode {
    app.api(Method::GET, "/api/v1/me", Some(token), None)
        .await
        .status
}

/// Whether this browser is signed in (the teams page shows, not the log-in redirect).
async fn signed_in(browser: &mut TestApp) -> bool {
    let page = browser.get("/teams").await;
    match page.status {
        StatusCode::OK => true,
        s if s.is_redirection() => {
            assert_eq!(page.location(), Some("/login"));
            false
        }
        s => panic!("unexpected status {s}"),
    }
}

/// Changes alice's password on the account page in `browser`.
async fn change_password(browser: &mut TestApp, keep_tokens: bool) -> crate::helpers::Page {
    let mut fields = vec![
        ("current", PASSWORD),
        ("password", NEW),
        ("password_again", NEW),
    ];
    if keep_tokens {
        fields.push(("keep_tokens", "on"));
    }
    browser
        .submit_form("/account", "/account/password", &fields)
        .await
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_password_change_signs_out_every_other_browser_and_revokes_the_tokens(pool: PgPool) {
    // Arrange: alice in two browsers, with an API token
    let mut laptop = TestApp::new(pool.clone());
    laptop.sign_up("alice").await;
    let mut phone = laptop.new_visitor();
    phone
        .log_in("alice", PASSWORD)
        .await
        .assert_redirect("/teams");
    let cli = token(&laptop, "alice", PASSWORD).await;
    let listed = laptop.get("/account").await;
    listed.assert_status(StatusCode::OK);
    assert_eq!(
        listed.body.matches("/account/sessions/").count(),
        2,
        "{}",
        listed.body
    );
    listed.assert_shows("(this browser)");
    // A session saved by a request still in flight on the phone when the password changes.
    let stale: Vec<(String, Vec<u8>)> =
        sqlx::query_as("select session_id, data from session where user_id is not null")
            .fetch_all(&pool)
            .await
            .expect("sessions");
    assert_eq!(stale.len(), 2, "both browsers' sessions name alice");

    // Act
    let changed = change_password(&mut laptop, false).await;

    // Assert: this browser stays in and says what ended; the phone and the token are out
    changed.assert_redirect("/account");
    let page = laptop.get("/account").await;
    page.assert_shows("1 other browser is signed out; 1 API token is revoked.");
    assert!(signed_in(&mut laptop).await);
    assert!(
        !signed_in(&mut phone).await,
        "the other browser is signed out"
    );
    assert_eq!(me_status(&laptop, &cli).await, StatusCode::UNAUTHORIZED);
    // Even a session row written back by a request in flight no longer signs anyone in.
    let mut revived = 0;
    for (id, data) in &stale {
        revived += sqlx::query(
            "insert into session (session_id, data, expiry_date) values ($1, $2, now() + interval '1 day') on conflict do nothing",
        )
        .bind(id)
        .bind(data)
        .execute(&pool)
        .await
        .expect("revive")
        .rows_affected();
    }
    assert!(revived >= 1, "the phone's old session is back in the table");
    let mut old_phone = phone.new_visitor();
    for (id, _) in &stale {
        old_phone.clear_cookies();
        old_phone.set_cookie("croupier_session", id);
        assert!(
            !signed_in(&mut old_phone).await,
            "a session from before the change is signed out"
        );
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn tokens_survive_a_password_change_only_when_kept(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let kept = token(&alice, "alice", PASSWORD).await;
    let form = alice.get("/account").await;
    form.assert_shows("Keep my API tokens working (1 live)");

    // Act: ticking "keep"
    change_password(&mut alice, true)
        .await
        .assert_redirect("/account");

    // Assert
    alice
        .get("/account")
        .await
        .assert_shows("No other browser was signed in; no API token was revoked.");
    assert_eq!(me_status(&alice, &kept).await, StatusCode::OK);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_account_page_signs_out_one_browser_or_every_other(pool: PgPool) {
    // Arrange: alice in three browsers; bob in one
    let mut laptop = TestApp::new(pool.clone());
    laptop.sign_up("alice").await;
    let mut phone = laptop.new_visitor();
    phone.log_in("alice", PASSWORD).await;
    let mut tablet = laptop.new_visitor();
    tablet.log_in("alice", PASSWORD).await;
    let mut bob = laptop.new_visitor();
    bob.sign_up("bob").await;
    // The laptop's list has a sign-out button for each other browser (not for itself).
    let listed = laptop.get("/account").await;
    assert_eq!(
        listed.body.matches("/account/sessions/").count(),
        3,
        "two buttons and 'everywhere else'"
    );
    let other = uuid_after(&listed.body, "/account/sessions/");

    // Act: bob tries alice's handle; alice signs out that one browser
    let foreign = bob
        .submit_form("/account", &format!("/account/sessions/{other}/end"), &[])
        .await;
    let one = laptop
        .submit_form("/account", &format!("/account/sessions/{other}/end"), &[])
        .await;

    // Assert: bob's attempt is 404 and changes nothing; exactly one of alice's others is out
    foreign.assert_status(StatusCode::NOT_FOUND);
    one.assert_redirect("/account#sessions");
    let still_in = [signed_in(&mut phone).await, signed_in(&mut tablet).await];
    assert_eq!(
        still_in.iter().filter(|in_| **in_).count(),
        1,
        "{still_in:?}"
    );
    assert!(signed_in(&mut bob).await);

    // Act: every other
    let all = laptop
        .submit_form("/account", "/account/sessions/end-others", &[])
        .await;

    // Assert
    all.assert_redirect("/account#sessions");
    laptop
        .get("/account")
        .await
        .assert_shows("1 other browser is signed out.");
    assert!(signed_in(&mut laptop).await);
    assert!(!signed_in(&mut phone).await && !signed_in(&mut tablet).await);
    assert!(signed_in(&mut bob).await, "other people are not touched");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn signing_out_this_browser_from_the_list_is_logging_out(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let handle: Uuid = sqlx::query_scalar("select handle from session where user_id is not null")
        .fetch_one(&pool)
        .await
        .expect("alice's session");

    // Act
    let out = alice
        .submit_form("/account", &format!("/account/sessions/{handle}/end"), &[])
        .await;

    // Assert
    out.assert_redirect("/login");
    assert!(!signed_in(&mut alice).await);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_reset_link_signs_out_every_browser_of_the_person(pool: PgPool) {
    // Arrange: alice signed in somewhere (perhaps someone else is), with a token; root is admin
    let mut stolen = TestApp::new(pool.clone());
    stolen.sign_up("alice").await;
    let cli = token(&stolen, "alice", PASSWORD).await;
    let alice_id = crate::helpers::user_id(&pool, "alice").await;
    let mut root = stolen.new_visitor();
    root.sign_up("root").await;
    crate::helpers::make_admin(&pool, "root").await;
    root.submit_form("/admin", &format!("/admin/users/{alice_id}/reset"), &[])
        .await;
    let link = crate::accounts::shown_link(&root.get("/admin").await);

    // Act: alice sets a new password with the link, in a fresh browser
    let mut fresh = TestApp::new(pool.clone());
    fresh
        .get(&link)
        .await
        .assert_shows("Keep my API tokens working (1 live)");
    fresh
        .submit_form(&link, &link, &[("password", NEW), ("password_again", NEW)])
        .await
        .assert_redirect("/login");

    // Assert
    assert!(
        !signed_in(&mut stolen).await,
        "the old browser is signed out"
    );
    assert_eq!(me_status(&fresh, &cli).await, StatusCode::UNAUTHORIZED);
    fresh.log_in("alice", NEW).await.assert_redirect("/teams");
    assert!(signed_in(&mut root).await, "nobody else is touched");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_api_changes_a_password_over_real_http(pool: PgPool) {
    // Arrange: a served Croupier; alice signed in with a browser, holding two tokens
    let served = Served::start(&pool).await;
    let app = TestApp::new(pool.clone());
    let mut browser = app.new_visitor();
    browser.sign_up("alice").await;
    let asking = token(&app, "alice", PASSWORD).await;
    let other = token(&app, "alice", PASSWORD).await;
    let http = reqwest::Client::new();
    let url = format!("{}/api/v1/me/password", served.base);
    let post = |body: serde_json::Value| http.post(&url).bearer_auth(&asking).json(&body).send();

    // Act: a wrong current password, a weak new one, then the right change
    let wrong = post(json!({ "current": "not it at all", "new": NEW }))
        .await
        .expect("answer");
    let weak = post(json!({ "current": PASSWORD, "new": "password" }))
        .await
        .expect("answer");
    let done = post(json!({ "current": PASSWORD, "new": NEW }))
        .await
        .expect("answer");

    // Assert: refused with JSON errors; then changed, and the counts said
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(weak.status(), StatusCode::BAD_REQUEST);
    assert_eq!(done.status(), StatusCode::OK);
    let said: serde_json::Value = done.json().await.expect("json");
    assert_eq!(said["signed_out_sessions"], 1, "{said}");
    assert_eq!(said["revoked_tokens"], 1, "{said}");
    assert!(!signed_in(&mut browser).await);
    assert_eq!(me_status(&app, &asking).await, StatusCode::OK);
    assert_eq!(me_status(&app, &other).await, StatusCode::UNAUTHORIZED);
    let sessions = http
        .get(format!("{}/api/v1/me/sessions", served.base))
        .bearer_auth(&asking)
        .send()
        .await
        .expect("answer");
    assert_eq!(sessions.status(), StatusCode::OK);
    let listed: serde_json::Value = sessions.json().await.expect("json");
    assert_eq!(listed["sessions"], json!([]));
    served.stop().await;
}

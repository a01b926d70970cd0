//! Sign up, log in, log out, the login rate limit and session expiry.

use axum::http::StatusCode;
use sqlx::PgPool;

use crate::helpers::{count, urlencode, TestApp, PASSWORD};

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn signing_up_logs_the_user_in_and_stores_an_argon2id_hash(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool.clone());

    // Act
    app.sign_up("alice").await;
    let teams = app.get("/teams").await;

    // Assert
    teams.assert_status(StatusCode::OK);
    teams.assert_shows("Welcome, alice!");
    teams.assert_shows("Log out");
    let hashes: Vec<String> =
        sqlx::query_scalar("select password_hash from app_user where username = 'alice'")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(hashes.len(), 1);
    assert!(
        hashes[0].starts_with("$argon2id$"),
        "not an argon2id hash: {}",
        hashes[0]
    );
    assert!(!hashes[0].contains(PASSWORD));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_username_taken_in_another_case_is_refused_with_409_naming_it(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let mut impostor = alice.new_visitor();

    // Act
    let page = impostor
        .submit_form(
            "/signup",
            "/signup",
            &[
                ("username", "ALICE"),
                ("password", PASSWORD),
                ("password_again", PASSWORD),
            ],
        )
        .await;

    // Assert
    page.assert_status(StatusCode::CONFLICT);
    page.assert_shows(r#"the username "ALICE" is already taken"#);
    let rows: i64 =
        sqlx::query_scalar("select count(*) from app_user where lower(username) = 'alice'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(rows, 1);
    impostor.get("/teams").await.assert_redirect("/login");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_wrong_password_gets_a_401_page_and_no_session(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool.clone());
    app.sign_up("alice").await;
    let mut visitor = app.new_visitor();

    // Act
    let wrong_password = visitor.log_in("alice", "not the password").await;
    let unknown_user = visitor.log_in("nobody", PASSWORD).await;

    // Assert
    for page in [&wrong_password, &unknown_user] {
        page.assert_status(StatusCode::UNAUTHORIZED);
        page.assert_shows("wrong username or password");
    }
    visitor.get("/teams").await.assert_redirect("/login");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn logging_in_with_the_right_password_in_any_case_opens_the_team_pages(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool.clone());
    app.sign_up("alice").await;
    let mut laptop = app.new_visitor();

    // Act
    let page = laptop.log_in("Alice", PASSWORD).await;

    // Assert
    page.assert_redirect("/teams");
    laptop.get("/teams").await.assert_status(StatusCode::OK);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn after_logging_out_pages_redirect_to_the_login_page(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool.clone());
    app.sign_up("alice").await;
    let team_id = app.create_team("Owls").await;

    // Act
    let page = app.submit_form("/teams", "/logout", &[]).await;

    // Assert
    page.assert_redirect("/");
    app.get("/teams").await.assert_redirect("/login");
    app.get(&format!("/teams/{team_id}"))
        .await
        .assert_redirect("/login");
    app.get(&format!("/teams/{team_id}/upload"))
        .await
        .assert_redirect("/login");
    app.get("/login").await.assert_status(StatusCode::OK);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn after_ten_failed_logins_even_the_right_password_gets_429(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool.clone());
    app.sign_up("alice").await;
    let mut attacker = app.new_visitor();
    for _ in 0..10 {
        attacker
            .log_in("alice", "guess-guess")
            .await
            .assert_status(StatusCode::UNAUTHORIZED);
    }
    let mut owner = app.new_visitor();

    // Act
    let page = owner.log_in("ALICE", PASSWORD).await;

    // Assert
    page.assert_status(StatusCode::TOO_MANY_REQUESTS);
    page.assert_shows("too many failed logins");
    owner.get("/teams").await.assert_redirect("/login");
    let failures: i64 =
        sqlx::query_scalar("select count(*) from login_attempt where not succeeded")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(
        failures, 10,
        "the refused attempt is not counted as another failure"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_expired_session_is_treated_as_logged_out(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool.clone());
    app.sign_up("alice").await;
    app.get("/teams").await.assert_status(StatusCode::OK);
    assert!(count(&pool, "session").await >= 1);

    // Act
    sqlx::query("update session set expiry_date = now() - interval '1 minute'")
        .execute(&pool)
        .await
        .unwrap();
    let page = app.get("/teams").await;

    // Assert
    page.assert_redirect("/login");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_person_changes_their_password_with_the_current_one(pool: PgPool) {
    // Arrange: alice, signed in
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let form = "/account";
    let change = "/account/password";
    let new = "a new and long passphrase";

    // Act: a wrong current password, then two new ones that differ
    let wrong = alice
        .submit_form(
            form,
            change,
            &[
                ("current", "not it at all"),
                ("password", new),
                ("password_again", new),
            ],
        )
        .await;
    let differ = alice
        .submit_form(
            form,
            change,
            &[
                ("current", PASSWORD),
                ("password", new),
                ("password_again", "something else entirely"),
            ],
        )
        .await;

    // Assert: both refused with the reason, nothing changed
    wrong.assert_status(StatusCode::FORBIDDEN);
    wrong.assert_shows("That is not your current password.");
    differ.assert_status(StatusCode::BAD_REQUEST);
    differ.assert_shows("the two new passwords differ");

    // Act: the right current password
    let changed = alice
        .submit_form(
            form,
            change,
            &[
                ("current", PASSWORD),
                ("password", new),
                ("password_again", new),
            ],
        )
        .await;

    // Assert: changed; the new password logs in, the old one no longer does
    changed.assert_redirect("/account");
    let mut later = TestApp::new(pool.clone());
    later
        .log_in("alice", PASSWORD)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    later.log_in("alice", new).await.assert_redirect("/teams");
    // A visitor is sent to log in first.
    let visitor = TestApp::new(pool).get(form).await;
    assert!(visitor.status.is_redirection(), "{}", visitor.status);
}

/// The reset link the admin page shows once after "Reset link".
pub(crate) fn shown_link(page: &crate::helpers::Page) -> String {
    let at = page
        .body
        .find("/account/reset/")
        .expect("the admin page shows the new link");
    let rest = &page.body[at..];
    let end = rest.find('<').expect("the link ends");
    rest[..end].trim().to_owned()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_admins_reset_link_sets_a_forgotten_password_once(pool: PgPool) {
    // Arrange: alice forgot her password; root is an admin
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let alice_id = crate::helpers::user_id(&pool, "alice").await;
    let mut root = alice.new_visitor();
    root.sign_up("root").await;
    crate::helpers::make_admin(&pool, "root").await;
    alice
        .submit_form("/teams", &format!("/admin/users/{alice_id}/reset"), &[])
        .await
        .assert_status(StatusCode::FORBIDDEN);

    // Act: root makes two links (the first stops working) and alice uses the second
    let reset = format!("/admin/users/{alice_id}/reset");
    root.submit_form("/admin", &reset, &[]).await;
    let first = shown_link(&root.get("/admin").await);
    root.submit_form("/admin", &reset, &[])
        .await
        .assert_redirect("/admin#reset-link");
    let admin_page = root.get("/admin").await;
    let link = shown_link(&admin_page);
    assert!(
        !root.get("/admin").await.body.contains(&link),
        "the link is shown once"
    );
    let mut visitor = TestApp::new(pool.clone());
    visitor.get(&first).await.assert_status(StatusCode::GONE);
    let form = visitor.get(&link).await;
    form.assert_status(StatusCode::OK);
    form.assert_shows("a new password for <strong>alice</strong>");
    let new = "a long and fresh passphrase";
    let differ = visitor
        .submit_form(
            &link,
            &link,
            &[("password", new), ("password_again", "not the same one")],
        )
        .await;
    let set = visitor
        .submit_form(&link, &link, &[("password", new), ("password_again", new)])
        .await;

    // Assert: set once; the new password logs in, the old one does not; the link is spent
    differ.assert_status(StatusCode::BAD_REQUEST);
    differ.assert_shows("the two passwords differ");
    set.assert_redirect("/login");
    visitor
        .get("/login")
        .await
        .assert_shows("The password of alice is set: log in with it.");
    let mut later = TestApp::new(pool.clone());
    later
        .log_in("alice", PASSWORD)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    later.log_in("alice", new).await.assert_redirect("/teams");
    let spent = TestApp::new(pool).get(&link).await;
    spent.assert_status(StatusCode::GONE);
    spent.assert_shows("This link has expired or was already used.");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_account_pages_and_their_messages_speak_chinese_once_chosen(pool: PgPool) {
    // Arrange: the footer's link to 简体中文 (it sets the `lang` cookie)
    let mut app = TestApp::new(pool.clone());
    let switched = app.get("/lang/zh-CN?next=/login").await;
    assert_eq!(switched.location(), Some("/login"));

    // Act
    let login = app.get("/login").await;
    let signup = app.get("/signup").await;
    let refused = app
        .submit_form(
            "/signup",
            "/signup",
            &[
                ("username", "bob"),
                ("password", PASSWORD),
                ("password_again", "not the same password"),
            ],
        )
        .await;
    let short = app
        .submit_form(
            "/signup",
            "/signup",
            &[
                ("username", "bob"),
                ("password", "short"),
                ("password_again", "short"),
            ],
        )
        .await;
    app.sign_up("bob").await;
    let teams = app.get("/teams").await;

    // Assert
    login.assert_status(StatusCode::OK);
    assert!(
        login.body.contains(r#"<html lang="zh-CN">"#),
        "{}",
        login.body
    );
    login.assert_shows("<h1>登录</h1>");
    login.assert_shows("用户名");
    login.assert_shows("第一次来？");
    login.assert_lacks("New here?");
    signup.assert_status(StatusCode::OK);
    assert!(signup.body.contains(r#"<html lang="zh-CN">"#));
    signup.assert_shows("<h1>注册账户</h1>");
    signup.assert_shows("<button>注册</button>");
    signup.assert_lacks("Password again");
    refused.assert_status(StatusCode::BAD_REQUEST);
    refused.assert_shows("两次输入的密码不一致");
    refused.assert_lacks("the two passwords differ");
    short.assert_status(StatusCode::BAD_REQUEST);
    short.assert_shows("密码至少需要 8 个字符");
    teams.assert_shows("欢迎，bob！");
    teams.assert_shows("<h1>我的队伍</h1>");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_browser_asking_for_chinese_gets_a_chinese_log_in_refusal(pool: PgPool) {
    // Arrange: no cookie, only the browser's preference
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let mut visitor = alice.new_visitor();
    let csrf = visitor.csrf("/login").await;
    let request = axum::http::Request::post("/login")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept-language", "zh-CN,zh;q=0.9,en;q=0.5")
        .body(axum::body::Body::from(format!(
            "csrf={}&username=alice&password=wrong-password-here",
            urlencode(&csrf)
        )))
        .unwrap();

    // Act
    let page = visitor.send(request).await;

    // Assert
    page.assert_status(StatusCode::UNAUTHORIZED);
    assert!(page.body.contains(r#"<html lang="zh-CN">"#));
    page.assert_shows("用户名或密码错误");
    page.assert_lacks("wrong username or password");
}

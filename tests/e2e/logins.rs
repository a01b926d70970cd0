//! Login hardening through the router: concurrent wrong logins cannot slip past the rate
//! limit, password hashing is bounded (503 with `Retry-After` beyond its queue), weak new
//! passwords are refused saying why. Also, ignored: the memory measurement of a login burst.

use std::time::Instant;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use croupier_server::config::HashingLimits;
use croupier_server::ServerConfig;
use serde_json::json;
use sqlx::PgPool;
use tokio::task::JoinSet;

use crate::helpers::{TestApp, PASSWORD};

/// Sends `/api/v1/tokens` for each `(username, password)` at once; returns the statuses and
/// whether each 503 / 429 carried `Retry-After`. With `distinct_clients`, each request comes
/// from its own address (`X-Forwarded-For`, for an app that trusts it).
async fn concurrent_logins(
    app: &TestApp,
    logins: Vec<(String, String)>,
    distinct_clients: bool,
) -> Vec<(u16, bool)> {
    let mut tasks = JoinSet::new();
    for (i, (username, password)) in logins.into_iter().enumerate() {
        let mut visitor = app.new_visitor();
        tasks.spawn(async move {
            let body = json!({ "username": username, "password": password });
            let mut request =
                Request::post("/api/v1/tokens").header(header::CONTENT_TYPE, "application/json");
            if distinct_clients {
                request = request.header(
                    "x-forwarded-for",
                    format!("10.0.{}.{}", i / 250, i % 250 + 1),
                );
            }
            let page = visitor
                .send(request.body(Body::from(body.to_string())).unwrap())
                .await;
            (
                page.status.as_u16(),
                page.headers.contains_key("retry-after"),
            )
        });
    }
    let mut answers = Vec::new();
    while let Some(answer) = tasks.join_next().await {
        answers.push(answer.expect("the login task"));
    }
    answers
}

fn tally(answers: &[(u16, bool)], status: u16) -> usize {
    answers.iter().filter(|(s, _)| *s == status).count()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_hundred_concurrent_wrong_logins_have_at_most_the_limit_evaluated(pool: PgPool) {
    // Arrange: an account, and the default limit of 10 failures per username
    let app = TestApp::new(pool.clone());
    app.api_user("alice").await;
    let limit = ServerConfig::default().login_limits.per_username;

    // Act: 100 wrong passwords at once
    let wrong = (0..100)
        .map(|i| ("alice".to_owned(), format!("wrong guess {i}")))
        .collect();
    let answers = concurrent_logins(&app, wrong, false).await;

    // Assert: only up to the limit were checked (401), the rest refused (429 + Retry-After)
    let evaluated = tally(&answers, 401);
    let refused = tally(&answers, 429);
    assert!(
        (1..=limit as usize).contains(&evaluated),
        "{evaluated} wrong passwords were checked: {answers:?}"
    );
    assert_eq!(evaluated + refused, 100, "{answers:?}");
    assert!(answers.iter().filter(|(s, _)| *s == 429).all(|(_, r)| *r));
    let failures: i64 =
        sqlx::query_scalar("select count(*) from login_attempt where not succeeded")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(failures, evaluated as i64);
    let owner = json!({ "username": "alice", "password": PASSWORD });
    app.api(Method::POST, "/api/v1/tokens", None, Some(owner))
        .await
        .assert_status(StatusCode::TOO_MANY_REQUESTS);
}

/// `n` users who all have the password [`PASSWORD`] (one hash, stored for each).
async fn users_with_the_password(pool: &PgPool, n: usize) -> Vec<(String, String)> {
    let hash = croupier_server::auth::password::hash(PASSWORD.to_owned())
        .await
        .unwrap();
    let names: Vec<String> = (0..n).map(|i| format!("user{i}")).collect();
    sqlx::query("insert into app_user (username, password_hash) select unnest($1::text[]), $2")
        .bind(&names)
        .bind(&hash)
        .execute(pool)
        .await
        .unwrap();
    names
        .into_iter()
        .map(|n| (n, PASSWORD.to_owned()))
        .collect()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn logins_beyond_the_hashing_queue_get_503_with_retry_after_and_are_not_held_against_anyone(
    pool: PgPool,
) {
    // Arrange: one hash at a time, one waiting
    let config = ServerConfig {
        hashing: HashingLimits {
            running: 1,
            queued: 1,
        },
        ..ServerConfig::default()
    };
    let app = TestApp::with_config(pool.clone(), config);
    let logins = users_with_the_password(&pool, 40).await;

    // Act: 40 right passwords at once
    let answers = concurrent_logins(&app, logins, false).await;

    // Assert: each one logged in or was told to come back; no busy answer counts as a failure
    let (ok, busy) = (tally(&answers, 201), tally(&answers, 503));
    assert_eq!(ok + busy, 40, "{answers:?}");
    assert!(ok >= 1 && busy >= 1, "{answers:?}");
    assert!(answers.iter().filter(|(s, _)| *s == 503).all(|(_, r)| *r));
    let failures: i64 =
        sqlx::query_scalar("select count(*) from login_attempt where not succeeded")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(failures, 0);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_burst_of_right_logins_from_one_address_is_not_taken_for_failures(pool: PgPool) {
    // Arrange: more users than the 50 failures an address may have, a queue that holds them all
    let config = ServerConfig {
        hashing: HashingLimits {
            running: 2,
            queued: 100,
        },
        ..ServerConfig::default()
    };
    let limit = config.login_limits.per_ip as usize;
    let app = TestApp::with_config(pool.clone(), config);
    let logins = users_with_the_password(&pool, limit + 10).await;

    // Act: all of them log in at once, from the same address
    let answers = concurrent_logins(&app, logins, false).await;

    // Assert
    assert_eq!(tally(&answers, 201), limit + 10, "{answers:?}");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn weak_passwords_are_refused_at_sign_up_saying_why(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool.clone());

    // Act
    let form = app
        .submit_form(
            "/signup",
            "/signup",
            &[
                ("username", "alice"),
                ("email", ""),
                ("password", "password"),
                ("password_again", "password"),
            ],
        )
        .await;
    let api = app
        .api(
            Method::POST,
            "/api/v1/users",
            None,
            Some(json!({ "username": "bob", "password": "password-1" })),
        )
        .await;

    // Assert
    form.assert_status(StatusCode::BAD_REQUEST);
    form.assert_shows("too easy to guess");
    api.assert_error(StatusCode::BAD_REQUEST, "too easy to guess");
    let users: i64 = sqlx::query_scalar("select count(*) from app_user")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(users, 0);
}

/// The resident set size of this process, in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
}

/// 200 concurrent right-password logins of 200 users from 200 addresses through the router
/// (as after a class is told to log in); prints the RSS
/// before and after and how many were evaluated. `running`/`queued` size the hashing gate
/// (`CROUPIER_MEASURE_RUNNING=200 CROUPIER_MEASURE_QUEUED=0`: unbounded, as before).
///
/// `cargo test -p croupier-tests --test e2e -- --ignored --nocapture measure_200_concurrent_logins`
#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
#[ignore = "a measurement, not a check: run by hand"]
async fn measure_200_concurrent_logins(pool: PgPool) {
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let defaults = HashingLimits::default();
    let hashing = HashingLimits {
        running: env("CROUPIER_MEASURE_RUNNING", defaults.running),
        queued: env("CROUPIER_MEASURE_QUEUED", defaults.queued),
    };
    let config = ServerConfig {
        hashing,
        trust_proxy_headers: true,
        ..ServerConfig::default()
    };
    let app = TestApp::with_config(pool.clone(), config);
    let logins = users_with_the_password(&pool, 200).await;
    let before = rss_kib();
    let started = Instant::now();
    let answers = concurrent_logins(&app, logins, true).await;
    let seconds = started.elapsed().as_secs_f64();
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let after = rss_kib();
    println!(
        "hashing {hashing:?}: 200 concurrent logins in {seconds:.1} s: {} evaluated (201), {} busy (503), {} other; RSS {} MiB -> {} MiB (+{} MiB)",
        tally(&answers, 201),
        tally(&answers, 503),
        answers.len() - tally(&answers, 201) - tally(&answers, 503),
        before / 1024,
        after / 1024,
        after.saturating_sub(before) / 1024
    );
}

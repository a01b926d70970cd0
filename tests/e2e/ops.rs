//! Operations and administration: health, metrics, request ids, 404 pages, the admin page.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use sqlx::PgPool;

use croupier_server::{AppState, ServerConfig};
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::helpers::{make_admin, user_id, Page, TestApp};

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn healthz_reports_ok_when_the_database_answers(pool: PgPool) {
    let app = TestApp::new(pool);
    let reply = app.api(Method::GET, "/healthz", None, None).await;
    reply.assert_status(StatusCode::OK);
    assert_eq!(reply.json["status"], "ok");
}

#[tokio::test]
async fn healthz_answers_503_within_a_second_when_the_database_does_not_answer() {
    // Arrange: a "database" that accepts connections and never says a word, as PostgreSQL
    // does when it is stopped (SIGSTOP) or its host is cut off.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            open.push(socket);
        }
    });
    let pool = sqlx::postgres::PgPoolOptions::new()
        .acquire_timeout(Duration::from_secs(10))
        .connect_lazy(&format!("postgres://croupier@127.0.0.1:{port}/croupier"))
        .unwrap();
    let app = TestApp::new(pool);

    // Act
    let started = std::time::Instant::now();
    let reply = app.api(Method::GET, "/healthz", None, None).await;
    let took = started.elapsed();

    // Assert
    reply.assert_status(StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(reply.json["database"], "no answer");
    // The answer comes from the health check's own 0.9 s bound, not the pool's 10 s wait (the
    // margin is for a loaded machine: this is not a speed test).
    assert!(took < Duration::from_secs(5), "answered after {took:?}");
    held.abort();
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn slow_clients_are_cut_off_so_they_cannot_hold_the_servers_descriptors(pool: PgPool) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    // Arrange: the real server, with a 1 s bound for slow clients.
    let timeout = Duration::from_secs(1);
    let config = ServerConfig {
        slow_client_timeout: timeout,
        ..ServerConfig::default()
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(croupier_server::serve(
        listener,
        AppState::new(pool, config),
        async move {
            let _ = stopped.await;
        },
    ));

    // Act: 1,000 clients that start a request and never finish its headers, one that trickles
    // a header line a byte at a time, and one that sends half of a promised body.
    let mut stalled = Vec::new();
    for _ in 0..1000 {
        let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
        socket
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        stalled.push(socket);
    }
    let mut trickler = tokio::net::TcpStream::connect(addr).await.unwrap();
    let trickle = tokio::spawn(async move {
        for &byte in
            b"GET /healthz HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        {
            if trickler.write_all(&[byte]).await.is_err() {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        false
    });
    let mut half_body = tokio::net::TcpStream::connect(addr).await.unwrap();
    half_body
        .write_all(b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nuser=")
        .await
        .unwrap();

    // Assert: the server closes every one of them (a read sees the end, or a reset).
    let closed = |mut socket: tokio::net::TcpStream| async move {
        let mut buf = [0_u8; 4096];
        loop {
            match tokio::time::timeout(Duration::from_secs(30), socket.read(&mut buf)).await {
                Ok(Ok(0) | Err(_)) => return true,
                Ok(Ok(_)) => continue,
                Err(_) => return false,
            }
        }
    };
    let mut checks = tokio::task::JoinSet::new();
    for socket in stalled {
        checks.spawn(closed(socket));
    }
    let still_open = checks.join_all().await.into_iter().filter(|&c| !c).count();
    assert_eq!(still_open, 0, "connections the server kept open");
    assert!(closed(half_body).await, "a stalled body is cut off");
    assert!(
        trickle.await.unwrap(),
        "a trickled header is cut off before it ends"
    );
    // And the server still serves.
    let mut fresh = tokio::net::TcpStream::connect(addr).await.unwrap();
    fresh
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    fresh.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_answer_carries_the_security_headers_and_https_adds_hsts(pool: PgPool) {
    // Arrange
    let mut plain = TestApp::new(pool.clone());
    let mut https = TestApp::with_config(
        pool,
        ServerConfig {
            secure_cookies: true,
            ..ServerConfig::default()
        },
    );

    for path in [
        "/",
        "/login",
        "/admin",
        "/no-such-page",
        "/api/v1/games",
        "/static/croupier.css",
    ] {
        // Act
        let page = plain.get(path).await;

        // Assert
        let header = |name: &str| {
            page.headers
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
                .unwrap_or_else(|| panic!("{path}: no {name}"))
        };
        let csp = header("content-security-policy");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("script-src 'self' 'unsafe-inline'"),
            "{path}: {csp}"
        );
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(header("referrer-policy"), "same-origin", "{path}");
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert!(
            page.headers.get("strict-transport-security").is_none(),
            "{path}: HSTS over HTTP"
        );
        let secure = https.get(path).await;
        assert!(
            secure
                .headers
                .get("strict-transport-security")
                .is_some_and(|v| v.to_str().unwrap().starts_with("max-age=31536000")),
            "{path}: no HSTS over HTTPS"
        );
    }
}

#[test]
fn no_page_template_has_an_inline_script_or_event_handler() {
    let templates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/templates");
    for entry in std::fs::read_dir(&templates).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let inline_script = line.contains("<script") && !line.contains("src=");
            let handler = [
                " onclick=",
                " onload=",
                " onchange=",
                " onsubmit=",
                " oninput=",
                "javascript:",
            ]
            .iter()
            .any(|h| line.contains(h));
            assert!(
                !inline_script && !handler,
                "{}:{}: the content security policy refuses inline script: {line}",
                path.display(),
                n + 1
            );
        }
    }
}

const METRICS_TOKEN: &str = "operators-only-0123456789";

/// The app with `/metrics` open to [`METRICS_TOKEN`].
fn app_with_metrics_token(pool: PgPool) -> TestApp {
    let config = ServerConfig {
        metrics_token: Some(METRICS_TOKEN.to_owned()),
        ..ServerConfig::default()
    };
    TestApp::with_config(pool, config)
}

/// `GET /metrics` with an optional `Authorization` header value.
async fn get_metrics(app: &mut TestApp, authorization: Option<&str>) -> Page {
    let mut request = Request::get("/metrics");
    if let Some(value) = authorization {
        request = request.header("authorization", value);
    }
    app.send(request.body(Body::empty()).unwrap()).await
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn metrics_are_prometheus_text_counting_http_requests(pool: PgPool) {
    // Arrange
    let mut app = app_with_metrics_token(pool);
    app.api(Method::GET, "/healthz", None, None)
        .await
        .assert_status(StatusCode::OK);

    // Act
    let reply = get_metrics(&mut app, Some(&format!("Bearer {METRICS_TOKEN}"))).await;

    // Assert
    reply.assert_status(StatusCode::OK);
    assert!(reply.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    assert!(
        reply.body.contains("# TYPE http_requests_total counter"),
        "{}",
        reply.body
    );
    // (Other tests share the process's recorder: look for this request's sample among theirs.)
    assert!(
        reply
            .body
            .lines()
            .any(|l| l.starts_with("http_requests_total{")
                && l.contains(r#"method="GET""#)
                && l.contains(r#"route="/healthz""#)
                && l.contains(r#"status="200""#)),
        "no GET /healthz 200 sample in:\n{}",
        reply.body
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn metrics_on_the_public_address_need_the_configured_token(pool: PgPool) {
    // Arrange
    let mut closed = TestApp::new(pool.clone());
    let mut app = app_with_metrics_token(pool);

    // Act
    let no_token_configured =
        get_metrics(&mut closed, Some(&format!("Bearer {METRICS_TOKEN}"))).await;
    let without = get_metrics(&mut app, None).await;
    let wrong = get_metrics(&mut app, Some("Bearer operators-only-0123456780")).await;
    let right = get_metrics(&mut app, Some(&format!("Bearer {METRICS_TOKEN}"))).await;

    // Assert
    no_token_configured.assert_status(StatusCode::NOT_FOUND);
    assert!(!no_token_configured.body.contains("http_requests_total"));
    for refused in [&without, &wrong] {
        refused.assert_status(StatusCode::UNAUTHORIZED);
        assert!(
            !refused.body.contains("http_requests_total"),
            "{}",
            refused.body
        );
    }
    right.assert_status(StatusCode::OK);
    assert!(right.body.contains("http_requests_total"));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_operator_metrics_app_serves_metrics_without_a_token(pool: PgPool) {
    // Arrange
    let metrics = croupier_server::ops::metrics_app(AppState::new(pool, ServerConfig::default()));

    // Act
    let response = metrics
        .oneshot(Request::get("/metrics").body(Body::empty()).unwrap())
        .await
        .unwrap();

    // Assert
    assert_eq!(response.status(), StatusCode::OK);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&body).contains("db_pool_connections"));
}

/// The value of the sample `name{kind="…"}` in a Prometheus text page.
fn sample(page: &str, name: &str, kind: &str) -> Option<f64> {
    let prefix = format!("{name}{{kind=\"{kind}\"}} ");
    page.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|v| v.trim().parse().ok())
}

/// The job queue's depth, read from `/metrics`: queued, delayed, running for `kind`.
async fn queue_depth(app: &mut TestApp, kind: &str) -> [Option<f64>; 3] {
    let page = get_metrics(app, Some(&format!("Bearer {METRICS_TOKEN}"))).await;
    page.assert_status(StatusCode::OK);
    [
        "croupier_jobs_queued",
        "croupier_jobs_delayed",
        "croupier_jobs_running",
    ]
    .map(|name| sample(&page.body, name, kind))
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn metrics_count_the_queued_and_running_jobs_by_kind(pool: PgPool) {
    // Arrange: an upload queues its compile job
    let mut app = app_with_metrics_token(pool.clone());
    let empty = queue_depth(&mut app, "compile").await;
    let user = croupier_store::users::create(&pool, "queue-metrics", None, "-", false)
        .await
        .unwrap();
    let team = croupier_store::teams::create(&pool, "queue-metrics", "queue-invite", user.user_id)
        .await
        .unwrap();
    let bot = b"print('pass')\n";
    let upload = croupier_store::submissions::NewSubmission {
        team_id: team.team_id,
        game: "nothanks",
        language: croupier_store::Language::Python3,
        label: "queued",
        filename: "bot.py",
        entry: "",
        bundle_kind: croupier_store::BundleKind::File,
        bytes: bot,
        unpacked_size: bot.len() as u64,
        files: vec![croupier_store::submissions::NewFile {
            path: "bot.py".into(),
            size: bot.len() as u64,
            executable: false,
        }],
        submitted_by: user.user_id,
        rules: "",
        players: None,
    };
    croupier_store::submissions::create(&pool, &upload)
        .await
        .unwrap();

    // Act
    let queued = queue_depth(&mut app, "compile").await;
    let matches = queue_depth(&mut app, "match").await;
    let claimed = croupier_store::jobs::claim(&pool, "metrics-test", Duration::from_secs(60))
        .await
        .unwrap();
    let running = queue_depth(&mut app, "compile").await;

    // Assert
    assert_eq!(empty, [Some(0.0); 3], "an empty queue reports zeros");
    assert_eq!(queued, [Some(1.0), Some(0.0), Some(0.0)]);
    assert_eq!(matches, [Some(0.0); 3], "every kind is reported, zeros too");
    assert!(claimed.is_some());
    assert_eq!(running, [Some(0.0), Some(0.0), Some(1.0)]);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_worker_autoscaler_reads_gauges_the_server_exports(pool: PgPool) {
    // Arrange: the metrics the Prometheus adapter's rules query (deploy/k8s)
    let path = croupier_tests::repo_root().join("deploy/k8s/prometheus-adapter/values.yaml");
    let values: serde_norway::Value =
        serde_norway::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let queried: Vec<String> = values["rules"]["external"]
        .as_sequence()
        .expect("external rules")
        .iter()
        .flat_map(|rule| {
            let query = rule["metricsQuery"].as_str().expect("a metricsQuery");
            query
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|word| word.starts_with("croupier_"))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut app = app_with_metrics_token(pool);

    // Act
    let page = get_metrics(&mut app, Some(&format!("Bearer {METRICS_TOKEN}"))).await;

    // Assert
    assert!(!queried.is_empty());
    for name in &queried {
        assert!(
            page.body.contains(&format!("# TYPE {name} gauge")),
            "the adapter queries {name}, which /metrics does not export:\n{}",
            page.body
        );
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn http_metrics_are_labelled_by_route_template_and_a_fixed_set_of_methods(pool: PgPool) {
    // Arrange
    let mut app = app_with_metrics_token(pool);
    let team = uuid::Uuid::new_v4();

    // Act: a made-up method, and a path with an id in it
    let brew = Method::from_bytes(b"BREWCOFFEE").unwrap();
    app.send(
        Request::builder()
            .method(brew)
            .uri("/healthz")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    app.get(&format!("/teams/{team}")).await;
    let page = get_metrics(&mut app, Some(&format!("Bearer {METRICS_TOKEN}"))).await;

    // Assert
    page.assert_status(StatusCode::OK);
    let samples: Vec<&str> = page
        .body
        .lines()
        .filter(|l| l.starts_with("http_requests_total{"))
        .collect();
    assert!(
        !page.body.contains("BREWCOFFEE") && !page.body.contains(&team.to_string()),
        "{}",
        page.body
    );
    assert!(
        samples
            .iter()
            .any(|l| l.contains(r#"method="other""#) && l.contains(r#"route="/healthz""#)),
        "{samples:#?}"
    );
    assert!(
        samples
            .iter()
            .any(|l| l.contains(r#"route="/teams/{team_id}""#)),
        "{samples:#?}"
    );
    for sample in &samples {
        let method = sample
            .split(r#"method=""#)
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_default();
        assert!(
            ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"].contains(&method),
            "{sample}"
        );
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_response_carries_a_request_id_and_a_given_one_is_echoed(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool);

    // Act
    let answers = [
        app.get("/").await.headers,
        app.get("/no/such/page").await.headers,
        app.get("/teams").await.headers,
        app.api(Method::GET, "/api/v1/me", None, None).await.headers,
        app.api(Method::GET, "/healthz", None, None).await.headers,
    ];
    let given = Request::get("/healthz")
        .header("x-request-id", "e2e-trace-42")
        .body(Body::empty())
        .unwrap();
    let echoed = app.send(given).await;

    // Assert
    let mut ids: Vec<&str> = answers
        .iter()
        .map(|h| {
            h.get("x-request-id")
                .expect("x-request-id")
                .to_str()
                .unwrap()
        })
        .collect();
    assert!(
        ids.iter().all(|id| uuid::Uuid::parse_str(id).is_ok()),
        "{ids:?}"
    );
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), answers.len(), "request ids repeat");
    assert_eq!(echoed.headers["x-request-id"], "e2e-trace-42");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_unknown_page_is_a_404_html_page(pool: PgPool) {
    let mut app = TestApp::new(pool);
    let page = app.get("/no/such/page").await;
    page.assert_status(StatusCode::NOT_FOUND);
    assert!(page.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    page.assert_shows("404 · Not Found");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_admin_page_is_403_for_a_normal_user_and_a_login_redirect_for_a_visitor(pool: PgPool) {
    // Arrange
    let mut bob = TestApp::new(pool);
    let mut visitor = bob.new_visitor();
    bob.sign_up("bob").await;

    // Act
    let page = bob.get("/admin").await;

    // Assert
    page.assert_status(StatusCode::FORBIDDEN);
    page.assert_shows("this page is for administrators");
    assert!(
        !bob.get("/teams").await.body.contains(r#"href="/admin""#),
        "no admin link for users"
    );
    visitor.get("/admin").await.assert_redirect("/login");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_admin_page_lists_users_and_teams_for_an_admin(pool: PgPool) {
    // Arrange
    let mut root = TestApp::new(pool.clone());
    root.sign_up("root").await;
    make_admin(&pool, "root").await;
    let mut bob = root.new_visitor();
    bob.sign_up("bob").await;
    bob.create_team("Owls").await;

    // Act
    let page = root.get("/admin").await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows("Users (2)");
    page.assert_shows("<td>root</td>");
    page.assert_shows("<td>bob</td>");
    page.assert_shows("Teams (1)");
    page.assert_shows("\">Owls</a></td><td>1</td><td>0</td>");
    page.assert_shows("Reset link");
    assert!(
        root.get("/teams").await.body.contains(r#"href="/admin""#),
        "an admin link for admins"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_admin_can_make_another_user_admin_through_the_admin_form(pool: PgPool) {
    // Arrange
    let mut root = TestApp::new(pool.clone());
    root.sign_up("root").await;
    make_admin(&pool, "root").await;
    let mut bob = root.new_visitor();
    bob.sign_up("bob").await;
    let bob_id = user_id(&pool, "bob").await;
    bob.get("/admin").await.assert_status(StatusCode::FORBIDDEN);

    // Act
    let page = root
        .submit_form(
            "/admin",
            &format!("/admin/users/{bob_id}/admin"),
            &[("admin", "true")],
        )
        .await;

    // Assert
    page.assert_redirect("/admin");
    root.get("/admin")
        .await
        .assert_shows("bob is now an administrator.");
    let is_admin: bool = sqlx::query_scalar("select is_admin from app_user where user_id = $1")
        .bind(bob_id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(is_admin);
    bob.get("/admin").await.assert_status(StatusCode::OK);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_admin_page_shows_the_worker_fleet_alive_silent_and_stopped(pool: PgPool) {
    // Arrange: three workers' heartbeats, one of them silent for ten minutes, one stopped
    use croupier_store::workers::{beat, stopped, WorkerIdentity};
    for (id, pid) in [("box-a:11", 11), ("box-b:22", 22), ("box-c:33", 33)] {
        let me = WorkerIdentity {
            worker_id: id.into(),
            host: id.split(':').next().unwrap_or_default().into(),
            pid,
            version: "9.9.9".into(),
        };
        beat(&pool, &me).await.unwrap();
    }
    sqlx::query("update worker set heartbeat_at = now() - interval '10 minutes' where worker_id = 'box-b:22'")
        .execute(&pool)
        .await
        .unwrap();
    stopped(&pool, "box-c:33").await.unwrap();
    let mut root = TestApp::new(pool.clone());
    root.sign_up("root").await;
    make_admin(&pool, "root").await;
    let token = root.api_user("eve").await;

    // Act
    let page = root.get("/admin").await;
    let refused = root
        .api(Method::GET, "/api/v1/admin/workers", Some(&token), None)
        .await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows("<title>Admin");
    let title = &page.body[..page.body.find("</title>").unwrap_or(0)];
    assert!(
        !title.contains("Workers"),
        "the page's title is its title: {title}"
    );
    page.assert_shows("Workers (3)");
    page.assert_shows("box-a:11");
    page.assert_shows("<td>alive</td>");
    page.assert_shows("<td>silent for 10 min</td>");
    page.assert_shows("<td>stopped</td>");
    page.assert_shows("pid 22 · v9.9.9");
    refused.assert_status(StatusCode::FORBIDDEN);
}

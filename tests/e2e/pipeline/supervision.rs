//! `croupier up` for operators. It supervises its private PostgreSQL: the postmaster is
//! SIGKILLed in the middle of a round-robin, `up` notices and restarts it, the web app and the
//! in-process workers recover on their own, and every scheduled match is played and counted
//! exactly once; a competition page's live event stream, open all along, hears the end too
//! (the live-update listener listens again after each restart). And its metrics are served on
//! the operator's address only.

use std::path::Path;
use std::time::Duration;

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use serde_json::{json, Value};
use sqlx::postgres::PgConnectOptions;
use sqlx::PgPool;

use super::api::{three_ready_bots, Api};
use super::procs::{eventually, scratch, Proc};
use crate::helpers::served::EventStream;

/// `(pid, connection options)` of the private PostgreSQL, from its `postmaster.pid` (line 1:
/// pid, line 4: port, line 5: socket directory), once line 8 says it is `ready` (a postmaster
/// still starting has written its pid but maybe not yet its socket directory).
fn postmaster(data: &Path) -> Option<(i32, PgConnectOptions)> {
    let text = std::fs::read_to_string(data.join("postgres/postmaster.pid")).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    if lines.get(7)?.trim() != "ready" {
        return None;
    }
    let pid = lines.first()?.trim().parse().ok()?;
    let port = lines.get(3)?.trim().parse().ok()?;
    let socket = lines.get(4)?.trim();
    let options = PgConnectOptions::new()
        .socket(socket)
        .port(port)
        .username("croupier")
        .database("croupier");
    Some((pid, options))
}

/// The competition's leaderboard, or `None` while the server cannot answer.
async fn board(api: &Api, competition_id: &str) -> Option<Value> {
    api.try_get(&format!(
        "/api/v1/competitions/{competition_id}/leaderboard"
    ))
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn up_restarts_its_postgresql_killed_twice_and_the_round_robin_finishes_with_every_match_once(
) {
    // Arrange: `croupier up` with 2 workers and a short lease, three ready bots (one slow, so
    // matches take a few seconds), and a 2-round round-robin of 6 matches.
    let dir = scratch();
    let data = dir.path().join("data");
    let up = Proc::up_with(dir.path(), "2", &["--lease-secs", "4"]).await;
    let base = up.url();
    three_ready_bots(&base).await;
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let created = admin
        .post(
            "/api/v1/admin/competitions",
            json!({ "name": "Supervised", "game": "nothanks", "rounds": 2 }),
        )
        .await;
    let competition_id = created["competition"]["competition_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let mut live = EventStream::open(&format!("{base}/competitions/{competition_id}/events")).await;
    // Act: SIGKILL the postmaster twice in the middle of the round-robin, after the first and
    // after the third finished match.
    let mut restarted = None;
    for finished in [1, 3] {
        eventually(
            Duration::from_secs(180),
            "finished matches before a kill",
            || async {
                let board = board(&admin, &competition_id).await?;
                let done = board["competition"]["progress"]["finished"].as_i64();
                (done >= Some(finished)).then_some(())
            },
        )
        .await;
        let (pid, _) = postmaster(&data).expect("postmaster.pid");
        kill(Pid::from_raw(pid), Signal::SIGKILL).expect("kill the postmaster");
        restarted = Some(
            eventually(
                Duration::from_secs(60),
                "a restarted PostgreSQL",
                || async { postmaster(&data).filter(|(new, _)| *new != pid) },
            )
            .await,
        );
    }
    let restarted = restarted.expect("restarted twice");
    let board = eventually(
        Duration::from_secs(300),
        "every match of the competition to finish",
        || async {
            let board = board(&admin, &competition_id).await?;
            let p = &board["competition"]["progress"];
            (p["queued"] == 0 && p["running"] == 0).then_some(board)
        },
    )
    .await;

    // Assert: restarted and said so; every match played once, one result per seat, each
    // team's games counted once; the web app healthy again.
    let text = up.log_text();
    assert!(
        text.contains("restarting it") && text.contains("was restarted"),
        "{text}"
    );
    assert!(
        text.contains("live updates: listening again")
            || text.contains("live updates: lost the database connection and reconnected"),
        "the live-update listener said it reconnected: {text}"
    );
    live.until("progress", |p| p["finished"] == 6).await;
    assert!(
        board["competition"]["progress"]["finished"] == 6
            && board["competition"]["progress"]["failed"] == 0,
        "{board:#}"
    );
    let now = eventually(Duration::from_secs(60), "a ready PostgreSQL", || async {
        postmaster(&data)
    })
    .await;
    assert_eq!(now.0, restarted.0, "restarted twice, not more: {text}");
    let pool = PgPool::connect_with(now.1).await.expect("connect");
    let per_match: Vec<(String, i64)> = sqlx::query_as(
        "select m.status, (select count(*) from seat_result r where r.match_id = m.match_id) from match m order by m.ordinal",
    )
    .fetch_all(&pool)
    .await
    .expect("matches");
    assert_eq!(per_match, vec![("finished".to_owned(), 3); 6], "{board:#}");
    for row in board["leaderboard"]["rows"].as_array().expect("rows") {
        assert_eq!(row["games"], 6, "{row:#}");
    }
    let health = reqwest::get(format!("{base}/healthz"))
        .await
        .expect("healthz");
    assert_eq!(health.status(), reqwest::StatusCode::OK);
    pool.close().await;
    up.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn up_serves_metrics_on_the_metrics_address_and_not_on_the_public_one() {
    // Arrange
    let dir = scratch();
    let up = Proc::up_with(dir.path(), "0", &["--metrics-bind", "127.0.0.1:0"]).await;
    let base = up.url();
    let metrics = up
        .banner
        .iter()
        .find_map(|l| l.strip_prefix("Metrics for operators at "))
        .unwrap_or_else(|| panic!("no metrics address in {:?}", up.banner))
        .trim()
        .to_owned();

    // Act
    let health = reqwest::get(format!("{base}/healthz"))
        .await
        .expect("healthz");
    let public = reqwest::get(format!("{base}/metrics"))
        .await
        .expect("public");
    let operators = reqwest::get(&metrics).await.expect("operators");

    // Assert
    assert_eq!(health.status(), reqwest::StatusCode::OK);
    assert_eq!(public.status(), reqwest::StatusCode::NOT_FOUND);
    assert_eq!(operators.status(), reqwest::StatusCode::OK);
    let text = operators.text().await.expect("text");
    assert!(
        text.lines()
            .any(|l| l.starts_with("http_requests_total{") && l.contains(r#"route="/healthz""#)),
        "{text}"
    );
    up.stop().await;
}

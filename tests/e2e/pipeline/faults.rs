//! Platform faults during a round-robin: a worker killed with SIGKILL in the middle of a match,
//! and a PostgreSQL restart. Nothing is lost and no match is counted twice.
//!
//! Here every piece is its own process, as on a real deployment: `croupier db` (a private
//! PostgreSQL), `croupier serve`, and `croupier work` with a short lease so that a dead
//! worker's match is retried within seconds rather than a minute.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::json;
use sqlx::PgPool;

use super::api::{three_ready_bots, Api};
use super::procs::{eventually, scratch, Proc};
use crate::binary::process::croupier;

const LEASE: &str = "4";
/// The administrator's password (strong enough for the sign-up rules).
pub(super) const BOSS_PASSWORD: &str = "umbrella walrus quietly ledger";

pub(super) struct Platform {
    db: Option<Proc>,
    pub(super) serve: Proc,
    pub(super) db_url: String,
    pub(super) base: String,
    pub(super) pool: PgPool,
}

async fn start_db(dir: &Path) -> Proc {
    let data = dir.join("db");
    Proc::start(
        &["db", "--data-dir", data.to_str().expect("utf-8")],
        &[],
        &dir.join("db.log"),
        Some("postgres"),
    )
    .await
}

pub(super) async fn platform(dir: &Path) -> Platform {
    let db = start_db(dir).await;
    let db_url = db.ready_line.trim().to_owned();
    let serve = Proc::start(
        &["serve", "--bind", "127.0.0.1:0"],
        &[("DATABASE_URL", &db_url)],
        &dir.join("serve.log"),
        Some("Croupier is running at "),
    )
    .await;
    let mut admin = croupier()
        .args(["admin", "create-user", "boss", "--admin"])
        .env("DATABASE_URL", &db_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("admin create-user");
    admin
        .stdin
        .take()
        .expect("stdin")
        .write_all(format!("{BOSS_PASSWORD}\n").as_bytes())
        .expect("password");
    assert!(admin.wait().expect("wait").success());
    let pool = PgPool::connect(&db_url).await.expect("connect");
    Platform {
        base: serve.url(),
        serve,
        db: Some(db),
        db_url,
        pool,
    }
}

pub(super) async fn worker(p: &Platform, dir: &Path, name: &str) -> Proc {
    Proc::start(
        &["work", "--workers", "1", "--lease-secs", LEASE],
        &[("DATABASE_URL", &p.db_url)],
        &dir.join(format!("{name}.log")),
        None,
    )
    .await
}

/// Three teams with ready bots (one of them slow, so matches last a few seconds) and a
/// one-round No Thanks competition of 3 matches; returns the admin's client and its id.
pub(super) async fn three_bots_and_a_competition(p: &Platform, rounds: u32) -> (Api, String) {
    three_ready_bots(&p.base).await;
    let admin = Api::user(&p.base, "boss", BOSS_PASSWORD, false).await;
    let created = admin
        .post(
            "/api/v1/admin/competitions",
            json!({ "name": "Faults", "game": "nothanks", "rounds": rounds }),
        )
        .await;
    (
        admin,
        created["competition"]["competition_id"]
            .as_str()
            .expect("id")
            .to_owned(),
    )
}

pub(super) async fn results_per_match(pool: &PgPool) -> Vec<(String, i64)> {
    sqlx::query_as::<_, (String, i64)>(
        "select m.status, (select count(*) from seat_result r where r.match_id = m.match_id) from match m order by m.ordinal",
    )
    .fetch_all(pool)
    .await
    .expect("matches")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_worker_killed_in_the_middle_of_a_match_loses_nothing_and_the_match_counts_once() {
    // Arrange
    let dir = scratch();
    let p = platform(dir.path()).await;
    let first = worker(&p, dir.path(), "worker-1").await;
    let (admin, competition_id) = three_bots_and_a_competition(&p, 1).await;
    let running: uuid::Uuid = eventually(Duration::from_secs(60), "a match to start", || async {
        sqlx::query_scalar::<_, uuid::Uuid>(
            "select match_id from match where status = 'running' limit 1",
        )
        .fetch_optional(&p.pool)
        .await
        .expect("query")
    })
    .await;

    // Act: the worker dies mid-match; another one takes over.
    first.kill_hard().await;
    let _second = worker(&p, dir.path(), "worker-2").await;
    let board = admin
        .wait_finished(&competition_id, Duration::from_secs(180))
        .await;

    // Assert: every match finished once, with one result per seat; the killed one was retried.
    let per_match = results_per_match(&p.pool).await;
    assert_eq!(per_match, vec![("finished".to_owned(), 3); 3], "{board:#}");
    let attempts: i32 =
        sqlx::query_scalar("select attempt from job where match_id = $1 and status = 'done'")
            .bind(running)
            .fetch_one(&p.pool)
            .await
            .expect("the killed match's job is done");
    assert_eq!(attempts, 2, "the killed attempt was retried exactly once");
    for row in board["leaderboard"]["rows"].as_array().expect("rows") {
        assert_eq!(row["games"], 3, "{row:#}");
    }
    drop(p.serve);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_round_robin_completes_across_a_postgresql_restart() {
    // Arrange
    let dir = scratch();
    let mut p = platform(dir.path()).await;
    let _worker = worker(&p, dir.path(), "worker").await;
    let (admin, competition_id) = three_bots_and_a_competition(&p, 2).await;
    eventually(
        Duration::from_secs(120),
        "a first finished match",
        || async {
            let n: i64 = sqlx::query_scalar("select count(*) from match where status = 'finished'")
                .fetch_one(&p.pool)
                .await
                .expect("query");
            (n >= 1).then_some(())
        },
    )
    .await;

    // Act: PostgreSQL goes away for a moment in the middle of the round-robin.
    p.db.take().expect("db").stop().await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let db = start_db(dir.path()).await;
    assert_eq!(
        db.ready_line.trim(),
        p.db_url,
        "the restarted PostgreSQL keeps its address"
    );
    let board = admin
        .wait_finished(&competition_id, Duration::from_secs(240))
        .await;

    // Assert
    let per_match = results_per_match(&p.pool).await;
    assert_eq!(per_match, vec![("finished".to_owned(), 3); 6], "{board:#}");
    for row in board["leaderboard"]["rows"].as_array().expect("rows") {
        assert_eq!(row["games"], 6, "{row:#}");
    }
    drop(db);
}

/// Bench-style (run by `scripts/bench/chaos`, not in CI): a worker is SIGKILLed mid-match, and
/// a new one started, `CHAOS_KILLS` times (default 100) during a round-robin of 40 rounds (120
/// matches). Every match must be played to the end exactly once: none lost, none doubled.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "bench-style: scripts/bench/chaos"]
async fn a_hundred_worker_kills_during_a_round_robin_lose_and_double_nothing() {
    let kills: u32 = std::env::var("CHAOS_KILLS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(100);
    let dir = scratch();
    let p = platform(dir.path()).await;
    let mut current = worker(&p, dir.path(), "worker-0").await;
    let (admin, competition_id) = three_bots_and_a_competition(&p, 40).await;
    let t0 = std::time::Instant::now();
    let mut hit = 0;
    for k in 1..=kills {
        // Wait for a match to be running on the current worker, let it play a little, kill.
        let running = eventually(Duration::from_secs(60), "a running match", || async {
            let n: i64 = sqlx::query_scalar("select count(*) from match where status = 'running'")
                .fetch_one(&p.pool)
                .await
                .expect("query");
            let queued: i64 = sqlx::query_scalar(
                "select count(*) from job where status in ('queued', 'running')",
            )
            .fetch_one(&p.pool)
            .await
            .expect("query");
            (n > 0 || queued == 0).then_some(n > 0)
        })
        .await;
        if !running {
            break; // the round-robin is over before every kill was spent
        }
        let pause = 200 + (u64::from(k) * 7919) % 1300; // 0.2–1.5 s, spread, repeatable
        tokio::time::sleep(Duration::from_millis(pause)).await;
        current.kill_hard().await;
        hit += 1;
        current = worker(&p, dir.path(), &format!("worker-{k}")).await;
    }
    let board = admin
        .wait_finished(&competition_id, Duration::from_secs(1800))
        .await;
    let per_match = results_per_match(&p.pool).await;
    let finished = per_match.iter().filter(|(s, _)| s == "finished").count();
    let doubled = per_match.iter().filter(|(_, n)| *n > 3).count();
    let retried: i64 =
        sqlx::query_scalar("select count(*) from job where match_id is not null and attempt > 1")
            .fetch_one(&p.pool)
            .await
            .expect("retries");
    eprintln!(
        "chaos: {hit} worker SIGKILLs in {:?}; {} matches, {finished} finished once, {} lost, \
         {doubled} doubled, {retried} retried",
        t0.elapsed(),
        per_match.len(),
        per_match.len() - finished
    );
    assert_eq!(
        per_match,
        vec![("finished".to_owned(), 3); 120],
        "{board:#}"
    );
    drop(current);
}

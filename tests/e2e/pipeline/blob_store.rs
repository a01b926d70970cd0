//! Blobs outside PostgreSQL: a platform that kept its uploads, builds, replays and logs in the
//! database moves them to an object store (`croupier blobs migrate`), then runs on with new
//! blobs going there too; every old and new replay and upload still downloads, byte for byte
//! what was stored, and the database no longer holds the bytes.
//!
//! The object store here is a directory (`file:///…`); an S3-compatible one (MinIO, Garage,
//! AWS) goes through the same `object_store` calls (see docs/operations.md#blobs).

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};
use sqlx::PgPool;

use super::api::Api;
use super::faults::{platform, results_per_match, three_bots_and_a_competition, BOSS_PASSWORD};
use super::procs::Proc;
use crate::binary::process::croupier;

async fn blob_rows(pool: &PgPool) -> (i64, i64) {
    sqlx::query_as(
        "select count(*) filter (where stored = 'db'), count(*) filter (where stored = 'object' and data is null) from blob",
    )
    .fetch_one(pool)
    .await
    .expect("blob rows")
}

/// `croupier blobs <args>` against `db_url`; its stdout.
fn blobs_command(args: &[&str], db_url: &str, store: &str) -> String {
    let out = croupier()
        .arg("blobs")
        .args(args)
        .env("DATABASE_URL", db_url)
        .env("CROUPIER_BLOB_STORE", store)
        .output()
        .expect("croupier blobs");
    assert!(
        out.status.success(),
        "croupier blobs {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every finished match's replay and every submission's upload, as the API gives them.
async fn downloads(api: &Api, pool: &PgPool) -> Vec<(String, Value)> {
    let matches: Vec<uuid::Uuid> = sqlx::query_scalar(
        "select match_id from match where status = 'finished' order by match_id",
    )
    .fetch_all(pool)
    .await
    .expect("matches");
    let mut out = Vec::new();
    for m in matches {
        let replay = api.get(&format!("/api/v1/matches/{m}/replay")).await;
        out.push((format!("replay {m}"), replay));
    }
    out
}

fn objects_in(dir: &Path) -> usize {
    walk(dir)
}

fn walk(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .map(|e| {
                let p = e.path();
                if p.is_dir() {
                    walk(&p)
                } else {
                    1
                }
            })
            .sum()
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn blobs_move_from_postgresql_to_an_object_store_and_new_ones_go_there() {
    // Arrange: a platform keeping blobs in PostgreSQL, with a finished round-robin.
    let dir = super::procs::scratch();
    let p = platform(dir.path()).await;
    let first_worker = super::faults::worker(&p, dir.path(), "worker-1").await;
    let (admin, competition_id) = three_bots_and_a_competition(&p, 1).await;
    admin
        .wait_finished(&competition_id, Duration::from_secs(180))
        .await;
    let (in_db, in_objects) = blob_rows(&p.pool).await;
    assert!(
        in_db >= 6,
        "uploads, builds and replays are in PostgreSQL ({in_db})"
    );
    assert_eq!(in_objects, 0);
    let before = downloads(&admin, &p.pool).await;
    let size_before: i64 = sqlx::query_scalar("select pg_total_relation_size('blob')")
        .fetch_one(&p.pool)
        .await
        .expect("size");

    // Act 1: the operator moves the blobs out, with the platform running.
    let objects = dir.path().join("objects");
    let store = format!("file://{}", objects.display());
    let report = blobs_command(&["migrate", "--batch", "4"], &p.db_url, &store);
    assert!(
        report.contains(&format!("{in_db} blobs moved to {store}")),
        "{report}"
    );
    assert!(
        report.contains("in PostgreSQL: 0 blobs, 0 bytes"),
        "{report}"
    );
    assert_eq!(blob_rows(&p.pool).await, (0, in_db));
    assert_eq!(objects_in(&objects), usize::try_from(in_db).unwrap());
    sqlx::query("vacuum full blob")
        .execute(&p.pool)
        .await
        .expect("vacuum");
    let size_after: i64 = sqlx::query_scalar("select pg_total_relation_size('blob')")
        .fetch_one(&p.pool)
        .await
        .expect("size");
    eprintln!(
        "blob table: {size_before} bytes before, {size_after} after moving {in_db} blobs out"
    );
    assert!(size_after < size_before, "{size_after} >= {size_before}");
    // Running it again moves nothing and loses nothing.
    let again = blobs_command(&["migrate"], &p.db_url, &store);
    assert!(again.contains("0 blobs moved"), "{again}");

    // Act 2: web server and worker restarted with the object store; a new round-robin.
    first_worker.stop().await;
    let env = [
        ("DATABASE_URL", p.db_url.as_str()),
        ("CROUPIER_BLOB_STORE", store.as_str()),
    ];
    let serve = Proc::start(
        &["serve", "--bind", "127.0.0.1:0"],
        &env,
        &dir.path().join("serve-2.log"),
        Some("Croupier is running at "),
    )
    .await;
    let _worker = Proc::start(
        &["work", "--workers", "1"],
        &env,
        &dir.path().join("worker-2.log"),
        None,
    )
    .await;
    let admin = Api::user(&serve.url(), "boss", BOSS_PASSWORD, false).await;
    let created = admin
        .post(
            "/api/v1/admin/competitions",
            json!({ "name": "Objects", "game": "nothanks", "rounds": 1 }),
        )
        .await;
    let second = created["competition"]["competition_id"]
        .as_str()
        .expect("id")
        .to_owned();
    admin.wait_finished(&second, Duration::from_secs(180)).await;

    // Assert: the old replays read back the same from the object store; the new matches'
    // blobs went straight there; PostgreSQL holds no blob bytes at all.
    let after = downloads(&admin, &p.pool).await;
    assert_eq!(after.len(), before.len() + 3);
    for (what, doc) in &before {
        let now = after.iter().find(|(w, _)| w == what).expect("still there");
        assert_eq!(&now.1, doc, "{what} changed");
    }
    let (in_db, in_objects) = blob_rows(&p.pool).await;
    assert_eq!(in_db, 0, "a new blob went to PostgreSQL");
    assert_eq!(objects_in(&objects), usize::try_from(in_objects).unwrap());
    assert_eq!(
        results_per_match(&p.pool).await,
        vec![("finished".to_owned(), 3); 6]
    );
    // An upload's bytes come back from the object store too.
    let submission: uuid::Uuid = sqlx::query_scalar("select submission_id from submission limit 1")
        .fetch_one(&p.pool)
        .await
        .expect("submission");
    let source = reqwest::Client::new()
        .get(format!(
            "{}/api/v1/submissions/{submission}/source",
            serve.url()
        ))
        .bearer_auth(admin.token())
        .send()
        .await
        .expect("source");
    assert_eq!(source.status(), 200);
    assert!(!source.bytes().await.expect("bytes").is_empty());
    let stats = blobs_command(&["stats"], &p.db_url, &store);
    assert!(stats.contains("in PostgreSQL: 0 blobs"), "{stats}");
    drop(p.serve);
}

//! Blobs outside PostgreSQL: a platform that kept its uploads, builds, replays and logs in the
//! database moves them to an object store (`croupier blobs migrate`), then runs on with new
//! blobs going there too; every old and new replay and upload still downloads, byte for byte
//! what was stored, and the database no longer holds the bytes.
//!
//! The same story twice: with a directory (`file:///…`), and with a real S3-compatible server
//! (moto's, see [`super::moto`]; skipped, saying so, where it is not installed). Downloads are
//! streamed: a replay of 24 MB comes out of PostgreSQL slice by slice and out of the object
//! store as it is read, with its Content-Length; an object changed behind the platform's back
//! is refused, not served.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use sqlx::PgPool;

use super::api::Api;
use super::faults::{platform, results_per_match, three_bots_and_a_competition, BOSS_PASSWORD};
use super::moto::Moto;
use super::procs::Proc;
use crate::binary::process::croupier;

/// Where the blobs go.
enum Objects {
    Dir(PathBuf),
    S3 { moto: Moto, prefix: &'static str },
}

impl Objects {
    /// The `CROUPIER_BLOB_STORE` setting.
    fn setting(&self) -> String {
        match self {
            Objects::Dir(dir) => format!("file://{}", dir.display()),
            Objects::S3 { prefix, .. } => format!("s3://{}/{prefix}", super::moto::BUCKET),
        }
    }

    /// `CROUPIER_BLOB_STORE` and what else the processes need to reach the store.
    fn env(&self) -> Vec<(&'static str, String)> {
        let mut env = vec![("CROUPIER_BLOB_STORE", self.setting())];
        if let Objects::S3 { moto, .. } = self {
            env.extend(moto.env());
        }
        env
    }

    async fn count(&self) -> usize {
        match self {
            Objects::Dir(dir) => files_in(dir),
            Objects::S3 { moto, prefix } => moto.count(&format!("{prefix}/")).await,
        }
    }

    /// Replaces blob `sha`'s object with `bytes`.
    async fn overwrite(&self, sha: &[u8], bytes: Vec<u8>) {
        let hex: String = sha.iter().map(|b| format!("{b:02x}")).collect();
        let key = format!("blobs/{}/{hex}", &hex[..2]);
        match self {
            Objects::Dir(dir) => std::fs::write(dir.join(key), bytes).expect("overwrite"),
            Objects::S3 { moto, prefix } => moto.overwrite(&format!("{prefix}/{key}"), bytes).await,
        }
    }
}

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .map(|e| {
                let p = e.path();
                if p.is_dir() {
                    files_in(&p)
                } else {
                    1
                }
            })
            .sum()
    })
}

async fn blob_rows(pool: &PgPool) -> (i64, i64) {
    sqlx::query_as(
        "select count(*) filter (where stored = 'db'), count(*) filter (where stored in ('object', 'object-gzip') and data is null) from blob",
    )
    .fetch_one(pool)
    .await
    .expect("blob rows")
}

/// `croupier blobs <args>` against `db_url`; its stdout.
fn blobs_command(args: &[&str], db_url: &str, objects: &Objects) -> String {
    let out = croupier()
        .arg("blobs")
        .args(args)
        .env("DATABASE_URL", db_url)
        .envs(objects.env())
        .output()
        .expect("croupier blobs");
    assert!(
        out.status.success(),
        "croupier blobs {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every finished match's replay, as the API gives them.
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

/// `GET path` as `api`'s user: the status, the Content-Length it announced, and the body (or
/// why it could not be read whole).
async fn fetch(api: &Api, base: &str, path: &str) -> (u16, Option<u64>, Result<Vec<u8>, String>) {
    let resp = reqwest::Client::new()
        .get(format!("{base}{path}"))
        .bearer_auth(api.token())
        .send()
        .await
        .expect("get");
    let status = resp.status().as_u16();
    let length = resp
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok()?.parse().ok());
    let body = resp
        .bytes()
        .await
        .map(|b| b.to_vec())
        .map_err(|e| e.to_string());
    (status, length, body)
}

/// A replay of about 24 MB (a valid replay document's size for a long ladder match is far
/// less; this is about the download path), as JSON, different at every position.
fn big_replay() -> Vec<u8> {
    let mut text = String::from("{\"format\":1,\"padding\":\"");
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while text.len() < 24 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        text.push_str(&format!("{x:016x}"));
    }
    text.push_str("\"}");
    text.into_bytes()
}

/// Puts `bytes` (in PostgreSQL, as the platform did before the move) as the replay of finished
/// match `match_id`.
async fn replace_replay(pool: &PgPool, match_id: uuid::Uuid, bytes: &[u8]) -> [u8; 32] {
    let sha = croupier_store::blobs::digest(bytes);
    sqlx::query("insert into blob (sha256, size, data, stored) values ($1, $2, $3, 'db')")
        .bind(&sha[..])
        .bind(i64::try_from(bytes.len()).expect("size"))
        .bind(bytes)
        .execute(pool)
        .await
        .expect("blob");
    sqlx::query("update replay set sha256 = $1 where match_id = $2")
        .bind(&sha[..])
        .bind(match_id)
        .execute(pool)
        .await
        .expect("replay");
    sha
}

/// The streamed downloads give `bytes` whole, with the right Content-Length (API and page).
async fn downloads_whole(api: &Api, base: &str, match_id: uuid::Uuid, bytes: &[u8]) {
    for path in [
        format!("/api/v1/matches/{match_id}/replay"),
        format!("/matches/{match_id}/replay.json"),
    ] {
        let (status, length, body) = fetch(api, base, &path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(length, Some(bytes.len() as u64), "{path}");
        let body = body.unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            body == bytes,
            "{path}: other bytes ({} of them)",
            body.len()
        );
    }
}

async fn blobs_move_out_and_new_ones_go_there(dir: &Path, objects: Objects) {
    // Arrange: a platform keeping blobs in PostgreSQL, with a finished round-robin, one of
    // whose replays is big.
    let p = platform(dir).await;
    let first_worker = super::faults::worker(&p, dir, "worker-1").await;
    let (admin, competition_id) = three_bots_and_a_competition(&p, 1).await;
    admin
        .wait_finished(&competition_id, Duration::from_secs(180))
        .await;
    let big = big_replay();
    let big_match: uuid::Uuid =
        sqlx::query_scalar("select match_id from match where status = 'finished' limit 1")
            .fetch_one(&p.pool)
            .await
            .expect("a match");
    let big_sha = replace_replay(&p.pool, big_match, &big).await;
    downloads_whole(&admin, &p.base, big_match, &big).await;
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
    let store = objects.setting();
    let report = blobs_command(&["migrate", "--batch", "4"], &p.db_url, &objects);
    assert!(
        report.contains(&format!("{in_db} blobs moved to {store}")),
        "{report}"
    );
    assert!(
        report.contains("in PostgreSQL: 0 blobs, 0 bytes"),
        "{report}"
    );
    assert_eq!(blob_rows(&p.pool).await, (0, in_db));
    assert_eq!(objects.count().await, usize::try_from(in_db).unwrap());
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
    let again = blobs_command(&["migrate"], &p.db_url, &objects);
    assert!(again.contains("0 blobs moved"), "{again}");

    // Act 2: web server and worker restarted with the object store; a new round-robin.
    first_worker.stop().await;
    let env = objects.env();
    let mut env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.push(("DATABASE_URL", p.db_url.as_str()));
    let serve = Proc::start(
        &["serve", "--bind", "127.0.0.1:0"],
        &env,
        &dir.join("serve-2.log"),
        Some("Croupier is running at "),
    )
    .await;
    let _worker = Proc::start(
        &["work", "--workers", "1"],
        &env,
        &dir.join("worker-2.log"),
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

    // Assert: the old replays read back the same from the object store (the big one streamed,
    // with its length); the new matches' blobs went straight there; PostgreSQL holds no blob
    // bytes at all.
    let after = downloads(&admin, &p.pool).await;
    assert_eq!(after.len(), before.len() + 3);
    for (what, doc) in &before {
        let now = after.iter().find(|(w, _)| w == what).expect("still there");
        assert_eq!(&now.1, doc, "{what} changed");
    }
    downloads_whole(&admin, &serve.url(), big_match, &big).await;
    let (in_db, in_objects) = blob_rows(&p.pool).await;
    assert_eq!(in_db, 0, "a new blob went to PostgreSQL");
    assert_eq!(objects.count().await, usize::try_from(in_objects).unwrap());
    assert_eq!(
        results_per_match(&p.pool).await,
        vec![("finished".to_owned(), 3); 6]
    );
    // An upload's bytes come back from the object store too, with their length.
    let (submission, source_size): (uuid::Uuid, i64) = sqlx::query_as(
        "select s.submission_id, b.size from submission s join blob b on b.sha256 = s.source_sha256 limit 1",
    )
    .fetch_one(&p.pool)
    .await
    .expect("submission");
    let path = format!("/api/v1/submissions/{submission}/source");
    let (status, length, body) = fetch(&admin, &serve.url(), &path).await;
    assert_eq!((status, length), (200, Some(source_size as u64)));
    assert_eq!(body.expect("source").len() as u64, source_size as u64);
    let stats = blobs_command(&["stats"], &p.db_url, &objects);
    assert!(stats.contains("in PostgreSQL: 0 blobs"), "{stats}");

    // Act 3: objects changed behind the platform's back (same size, other bytes; another
    // size) are refused, not served.
    let mut tampered = big.clone();
    tampered[big.len() / 2] ^= 1;
    objects.overwrite(&big_sha, tampered).await;
    let path = format!("/api/v1/matches/{big_match}/replay");
    let (status, _, body) = fetch(&admin, &serve.url(), &path).await;
    eprintln!(
        "a changed 24 MB replay: {status}, {}",
        body.as_ref().map_or_else(
            |e| format!("body cut: {e}"),
            |b| format!("{} bytes", b.len())
        )
    );
    assert!(
        status != 200 || body.is_err(),
        "a changed replay was served whole ({status})"
    );
    let small: (uuid::Uuid, Vec<u8>) = sqlx::query_as(
        "select match_id, sha256 from replay where match_id <> $1 order by match_id limit 1",
    )
    .bind(big_match)
    .fetch_one(&p.pool)
    .await
    .expect("a replay");
    let original = fetch(
        &admin,
        &serve.url(),
        &format!("/api/v1/matches/{}/replay", small.0),
    )
    .await
    .2
    .expect("replay");
    let mut other = original.clone();
    other[0] ^= 0x20;
    for bytes in [other, b"{}".to_vec()] {
        objects.overwrite(&small.1, bytes).await;
        let path = format!("/api/v1/matches/{}/replay", small.0);
        let (status, _, _) = fetch(&admin, &serve.url(), &path).await;
        assert_eq!(status, 500, "a changed replay of one chunk is an error");
    }
    drop(p.serve);
}

#[tokio::test(flavor = "multi_thread")]
async fn blobs_move_from_postgresql_to_a_directory_and_new_ones_go_there() {
    let dir = super::procs::scratch();
    let objects = Objects::Dir(dir.path().join("objects"));
    blobs_move_out_and_new_ones_go_there(dir.path(), objects).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn blobs_move_from_postgresql_to_an_s3_server_and_new_ones_go_there() {
    let dir = super::procs::scratch();
    let Some(moto) = Moto::start(&dir.path().join("moto.log")).await else {
        return;
    };
    let objects = Objects::S3 {
        moto,
        prefix: "platform",
    };
    blobs_move_out_and_new_ones_go_there(dir.path(), objects).await;
}

//! Blobs in an object store (a directory here, through the same `object_store` calls as S3;
//! the S3 one is tested end to end against a real S3-compatible server in the e2e tests):
//! streamed in with one PUT or a multipart upload, streamed out, moved out of PostgreSQL, and
//! refused when the object no longer matches.
//!
//! The blob store is set once per process, so every test here shares one directory (blobs
//! are named by their content: the tests' blobs differ).

use std::path::PathBuf;
use std::sync::OnceLock;

use croupier_store::blobs::{self, write::PART, Location};
use sqlx::PgPool;

fn objects() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let url = format!("file://{}", dir.display());
        blobs::configure(Location::parse(&url).unwrap()).unwrap();
        dir
    })
}

fn object_file(sha: &[u8]) -> PathBuf {
    let hex: String = sha.iter().map(|b| format!("{b:02x}")).collect();
    objects().join("blobs").join(&hex[..2]).join(hex)
}

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(17) % 253) as u8 ^ seed)
        .collect()
}

async fn stored(pool: &PgPool, sha: &[u8]) -> (String, bool) {
    sqlx::query_as("select stored, data is null from blob where sha256 = $1")
        .bind(sha)
        .fetch_one(pool)
        .await
        .expect("row")
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn files_go_to_the_object_store_in_parts_and_come_back_as_streams(pool: PgPool) {
    objects();
    let dir = tempfile::tempdir().unwrap();
    // Smaller than a part (one PUT), and several parts (a multipart upload).
    for (n, len) in [10, 2 * PART + 1].into_iter().enumerate() {
        let bytes = pattern(len, 10 + n as u8);
        let path = dir.path().join(format!("f{n}"));
        std::fs::write(&path, &bytes).unwrap();
        let sha = blobs::put_file(&pool, &path).await.expect("put_file");
        assert_eq!(stored(&pool, &sha).await, ("object".to_owned(), true));
        assert_eq!(std::fs::read(object_file(&sha)).unwrap(), bytes);
        let blob = blobs::open(&pool, &sha).await.expect("open");
        assert_eq!(blob.size(), len as u64);
        assert!(blob.bytes().await.expect("bytes") == bytes);
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn blobs_move_out_of_postgresql_as_streams(pool: PgPool) {
    objects();
    // Written as PostgreSQL rows (as before an object store was configured).
    let big = pattern(2 * PART + 7, 20);
    let small = pattern(100, 21);
    for bytes in [&big, &small, &Vec::new()] {
        sqlx::query(
            "insert into blob (sha256, size, data, stored) values ($1, $2, $3, 'db') on conflict do nothing",
        )
        .bind(&blobs::digest(bytes)[..])
        .bind(bytes.len() as i64)
        .bind(&bytes[..])
        .execute(&pool)
        .await
        .expect("row");
    }
    // Read from PostgreSQL, with an object store configured.
    let sha = blobs::digest(&big);
    assert!(
        blobs::open(&pool, &sha)
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap()
            == big
    );
    assert_eq!(blobs::move_out(&pool, 2).await.expect("move"), 2);
    assert_eq!(blobs::move_out(&pool, 2).await.expect("move"), 1);
    assert_eq!(blobs::move_out(&pool, 2).await.expect("move"), 0);
    for bytes in [&big, &small] {
        let sha = blobs::digest(bytes);
        assert_eq!(stored(&pool, &sha).await, ("object".to_owned(), true));
        assert!(std::fs::read(object_file(&sha)).unwrap() == *bytes);
        assert!(
            blobs::open(&pool, &sha)
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap()
                == *bytes
        );
    }
    let empty = blobs::open(&pool, &blobs::digest(b""))
        .await
        .expect("empty");
    assert_eq!(empty.size(), 0);
    assert!(empty.bytes().await.unwrap().is_empty());
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_object_that_no_longer_matches_is_refused(pool: PgPool) {
    objects();
    let dir = tempfile::tempdir().unwrap();
    let big = pattern(PART + 3, 30);
    let small = pattern(50, 31);
    let mut shas = Vec::new();
    for (n, bytes) in [&big, &small].into_iter().enumerate() {
        let path = dir.path().join(format!("f{n}"));
        std::fs::write(&path, bytes).unwrap();
        shas.push(blobs::put_file(&pool, &path).await.expect("put_file"));
    }
    // Same size, other bytes: the big one's stream ends in an error, short of the whole.
    let mut other = big.clone();
    other[PART] ^= 1;
    std::fs::write(object_file(&shas[0]), &other).unwrap();
    let blob = blobs::open(&pool, &shas[0]).await.expect("open");
    let e = blob.bytes().await.unwrap_err().to_string();
    assert!(e.contains("does not match its hash"), "{e}");
    // Another size: refused when opened.
    std::fs::write(object_file(&shas[1]), b"short").unwrap();
    let e = blobs::open(&pool, &shas[1]).await.unwrap_err().to_string();
    assert!(e.contains("has 5 bytes, not 50"), "{e}");
    // Gone: an error too.
    std::fs::remove_file(object_file(&shas[1])).unwrap();
    assert!(blobs::open(&pool, &shas[1]).await.is_err());
}

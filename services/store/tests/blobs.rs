//! Blobs in PostgreSQL (the default place), read and written as streams against a real
//! PostgreSQL: sizes around the chunk boundaries, the empty blob, and a blob whose bytes no
//! longer match its hash (refused, never given out whole).

use croupier_store::blobs::{self, read::DB_CHUNK, write::PART};
use futures_util::StreamExt;
use sqlx::PgPool;

/// Bytes that differ from one position to the next (so a misplaced chunk shows).
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(31) % 251) as u8 ^ seed)
        .collect()
}

/// The chunks an open blob gives, and the error that ended them, if any.
async fn read(pool: &PgPool, sha: &[u8]) -> (u64, Vec<usize>, Vec<u8>, Option<String>) {
    let blob = blobs::open(pool, sha).await.expect("open");
    let size = blob.size();
    let mut chunks = blob.into_stream();
    let (mut sizes, mut bytes) = (Vec::new(), Vec::new());
    while let Some(chunk) = chunks.next().await {
        match chunk {
            Ok(c) => {
                sizes.push(c.len());
                bytes.extend_from_slice(&c);
            }
            Err(e) => return (size, sizes, bytes, Some(e.to_string())),
        }
    }
    (size, sizes, bytes, None)
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn blobs_stream_out_of_postgresql_one_slice_at_a_time(pool: PgPool) {
    let chunk = usize::try_from(DB_CHUNK).unwrap();
    for (n, len) in [1, chunk - 1, chunk, chunk + 1, 3 * chunk + 17]
        .into_iter()
        .enumerate()
    {
        let bytes = pattern(len, n as u8);
        let sha = blobs::put(&pool, &bytes).await.expect("put");
        let (size, sizes, back, err) = read(&pool, &sha).await;
        assert_eq!(err, None, "{len} bytes");
        assert_eq!(size, len as u64);
        assert!(back == bytes, "{len} bytes came back different");
        assert_eq!(sizes.len(), len.div_ceil(chunk), "{len} bytes: {sizes:?}");
        assert!(sizes.iter().all(|&s| s <= chunk), "{sizes:?}");
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_empty_blob_opens_with_no_bytes(pool: PgPool) {
    let sha = blobs::put(&pool, b"").await.expect("put");
    let (size, sizes, back, err) = read(&pool, &sha).await;
    assert_eq!((size, sizes.len(), back.len(), err), (0, 0, 0, None));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_blob_that_no_longer_matches_its_hash_is_refused(pool: PgPool) {
    let small = pattern(1000, 1);
    let big = pattern(3 * usize::try_from(DB_CHUNK).unwrap() + 5, 2);
    let small_sha = blobs::put(&pool, &small).await.expect("put");
    let big_sha = blobs::put(&pool, &big).await.expect("put");
    sqlx::query("update blob set data = overlay(data placing '\\x00ff'::bytea from 500) where sha256 = any($1)")
        .bind(vec![small_sha.to_vec(), big_sha.to_vec()])
        .execute(&pool)
        .await
        .expect("corrupt");
    // One chunk: checked before anything is given out.
    let e = blobs::open(&pool, &small_sha)
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("does not match its hash"), "{e}");
    // Several: the stream ends in the error, short of the whole blob.
    let (size, _, back, err) = read(&pool, &big_sha).await;
    assert_eq!(size, big.len() as u64);
    assert!(
        err.as_deref()
            .is_some_and(|e| e.contains("does not match its hash")),
        "{err:?}"
    );
    assert!(back.len() < big.len(), "{} bytes given out", back.len());
    // A row that says more bytes than it holds: refused too.
    sqlx::query("update blob set size = size + 1 where sha256 = $1")
        .bind(&small_sha[..])
        .execute(&pool)
        .await
        .expect("size");
    assert!(blobs::open(&pool, &small_sha).await.is_err());
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_file_is_stored_without_being_read_whole(pool: PgPool) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.json");
    let bytes = pattern(2 * PART + 123, 3);
    std::fs::write(&path, &bytes).unwrap();
    let sha = blobs::put_file(&pool, &path).await.expect("put_file");
    assert_eq!(sha, blobs::digest(&bytes));
    assert_eq!(
        blobs::get(&pool, &sha).await.expect("get"),
        bytes,
        "appended part by part, in order"
    );
    // Again: shared, not stored twice; an empty file is a blob too.
    assert_eq!(blobs::put_file(&pool, &path).await.unwrap(), sha);
    let empty = dir.path().join("empty");
    std::fs::write(&empty, b"").unwrap();
    let none = blobs::put_file(&pool, &empty).await.expect("empty");
    assert_eq!(read(&pool, &none).await.0, 0);
    let rows: i64 = sqlx::query_scalar("select count(*) from blob")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(rows, 2);
}

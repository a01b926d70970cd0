//! Blobs in an object store (a directory here, through the same `object_store` calls as S3;
//! the S3 one is tested end to end against a real S3-compatible server in the e2e tests):
//! streamed in with one PUT or a multipart upload, streamed out, moved out of PostgreSQL, and
//! refused when the object no longer matches. Objects are gzip-compressed (`object-gzip`);
//! raw ones (`object`, written before compression) stay readable.
//!
//! The blob store is set once per process, so every test here shares one directory (blobs
//! are named by their content: the tests' blobs differ).

use std::path::PathBuf;
use std::sync::OnceLock;

use std::io::{Read, Write};

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

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// The object of blob `sha`, decompressed (any gzip reader, not the store's own code).
fn gunzipped_object(sha: &[u8]) -> Vec<u8> {
    let packed = std::fs::read(object_file(sha)).unwrap();
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&packed[..])
        .read_to_end(&mut out)
        .unwrap();
    out
}

async fn read_back(pool: &PgPool, sha: &[u8]) -> Vec<u8> {
    blobs::open(pool, sha).await.unwrap().bytes().await.unwrap()
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
    // Empty, smaller than a part (one PUT), and several parts (a multipart upload, whose
    // compressed parts are themselves bigger than a part: random bytes do not compress).
    let random: Vec<u8> = (0..2 * PART as u64 + 5)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8)
        .collect();
    let cases = [
        Vec::new(),
        pattern(10, 10),
        pattern(2 * PART + 1, 11),
        random,
    ];
    for (n, bytes) in cases.iter().enumerate() {
        let len = bytes.len();
        let path = dir.path().join(format!("f{n}"));
        std::fs::write(&path, bytes).unwrap();
        let sha = blobs::put_file(&pool, &path).await.expect("put_file");
        assert_eq!(stored(&pool, &sha).await, ("object-gzip".to_owned(), true));
        assert!(gunzipped_object(&sha) == *bytes);
        let blob = blobs::open(&pool, &sha).await.expect("open");
        assert_eq!(blob.size(), len as u64);
        assert!(blob.bytes().await.expect("bytes") == *bytes);
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
    assert!(read_back(&pool, &sha).await == big);
    assert_eq!(blobs::move_out(&pool, 2).await.expect("move"), 2);
    assert_eq!(blobs::move_out(&pool, 2).await.expect("move"), 1);
    assert_eq!(blobs::move_out(&pool, 2).await.expect("move"), 0);
    // The big one is smaller compressed (a 100-byte one is not: gzip's header and trailer).
    let on_disk = std::fs::metadata(object_file(&blobs::digest(&big)))
        .unwrap()
        .len();
    assert!(on_disk * 2 < big.len() as u64, "{on_disk} of {}", big.len());
    for bytes in [&big, &small] {
        let sha = blobs::digest(bytes);
        assert_eq!(stored(&pool, &sha).await, ("object-gzip".to_owned(), true));
        assert!(gunzipped_object(&sha) == *bytes);
        assert!(read_back(&pool, &sha).await == *bytes);
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
    // A whole gzip of other bytes of the same size: the big one's stream ends in an error,
    // short of the whole.
    let mut other = big.clone();
    other[PART] ^= 1;
    std::fs::write(object_file(&shas[0]), gzip(&other)).unwrap();
    let blob = blobs::open(&pool, &shas[0]).await.expect("open");
    let e = blob.bytes().await.unwrap_err().to_string();
    assert!(e.contains("does not match its hash"), "{e}");
    // A corrupted gzip (a byte flipped in its middle), a truncated one, the raw bytes, a gzip
    // with bytes after it: refused, whether streamed or read whole.
    let packed = gzip(&small);
    let mut flipped = packed.clone();
    flipped[packed.len() / 2] ^= 0x40;
    let trailing = [&packed[..], b"junk"].concat();
    for (what, bytes) in [
        ("flipped", flipped),
        ("truncated", packed[..packed.len() - 4].to_vec()),
        ("raw", small.clone()),
        ("trailing", trailing),
    ] {
        std::fs::write(object_file(&shas[1]), &bytes).unwrap();
        let read = match blobs::open(&pool, &shas[1]).await {
            Ok(blob) => blob.bytes().await,
            Err(e) => Err(e),
        };
        assert!(read.is_err(), "{what} served");
        // `get` reads no `stored`: it takes an object that matches the hash raw (the right
        // bytes, as an `object` row's), and refuses the others.
        match blobs::get(&pool, &shas[1]).await {
            Ok(got) => assert!(what == "raw" && got == small, "{what} served whole"),
            Err(e) => assert!(e.to_string().contains("does not match its hash"), "{e}"),
        }
    }
    // Gone: an error too.
    std::fs::remove_file(object_file(&shas[1])).unwrap();
    assert!(blobs::open(&pool, &shas[1]).await.is_err());
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn blobs_given_whole_are_compressed_and_raw_objects_stay_readable(pool: PgPool) {
    objects();
    // `put` (and the match results' blobs, through `place`): gzip-compressed.
    let replay = pattern(300_000, 40);
    let sha = blobs::put(&pool, &replay).await.expect("put");
    assert_eq!(stored(&pool, &sha).await, ("object-gzip".to_owned(), true));
    assert!(gunzipped_object(&sha) == replay);
    assert!(blobs::get(&pool, &sha).await.unwrap() == replay);
    assert!(read_back(&pool, &sha).await == replay);
    // An object written raw before compression (`object`), and a raw one that is itself a
    // gzip (an uploaded .tar.gz): read back as they are, streamed or whole.
    let raw = pattern(PART + 11, 41);
    let tarball = gzip(&pattern(5000, 42));
    for bytes in [&raw, &tarball] {
        let sha = blobs::digest(bytes);
        let file = object_file(&sha);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, bytes).unwrap();
        sqlx::query(
            "insert into blob (sha256, size, data, stored) values ($1, $2, null, 'object')",
        )
        .bind(&sha[..])
        .bind(bytes.len() as i64)
        .execute(&pool)
        .await
        .expect("row");
        assert!(read_back(&pool, &sha).await == *bytes);
        assert!(blobs::get(&pool, &sha).await.unwrap() == *bytes);
    }
    // A row cannot say gzip and hold bytes too.
    let both = sqlx::query(
        "insert into blob (sha256, size, data, stored) values ($1, 1, 'x', 'object-gzip')",
    )
    .bind(&blobs::digest(b"x")[..])
    .execute(&pool)
    .await;
    assert!(both.is_err());
    // Stats: raw and gzip-compressed objects counted apart, compressed sizes sampled.
    let stats = blobs::stats(&pool).await.unwrap();
    assert_eq!((stats.in_objects, stats.in_gzip_objects), (2, 1));
    assert_eq!(stats.gzip_object_raw_bytes, replay.len() as i64);
    let (packed, unpacked) = blobs::gzip_sample(&pool, 100).await.unwrap();
    assert_eq!(unpacked, replay.len() as u64);
    assert_eq!(packed, std::fs::metadata(object_file(&sha)).unwrap().len());
}

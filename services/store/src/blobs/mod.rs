//! Content-addressed bytes (uploads, artifacts, replays, logs), keyed by SHA-256.
//!
//! Where the bytes live is the deployment's choice, made once per process with [`configure`]:
//! in PostgreSQL (`bytea`: the default, and what `croupier up` uses), or in an object store
//! through the `object_store` crate — any S3-compatible service (AWS S3, MinIO, Garage, …) or
//! a local directory. The `blob` row is the index either way (hash, size, where); in an object
//! store a blob is the object `blobs/<first two hex digits>/<hash in hex>`, written before its
//! row, so a row never names an object that is not there (a rolled-back upload can leave an
//! unreferenced object behind: harmless, content-addressed, written again when needed).
//! Objects are gzip-compressed as they are written ([`gzip`], `stored = 'object-gzip'`); raw
//! ones (`stored = 'object'`, written before compression) stay readable.
//!
//! Blobs written while PostgreSQL held them stay readable after a switch: a row says where its
//! bytes are. `croupier blobs migrate` moves them out ([`move_out`]), `croupier blobs stats`
//! tells where they are ([`stats`]).
//!
//! Downloads read a blob as a stream ([`open`], in [`read`]), never whole, checked against
//! its hash as it passes; [`put_file`] and [`move_out`] write one as a stream ([`write`]).
//! [`get`] and [`resolve`] give the bytes whole, for the callers that parse them anyway.

use std::sync::{Arc, OnceLock};

use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, PutPayload};
use sha2::{Digest, Sha256};
use sqlx::{PgExecutor, PgPool};

use crate::StoreError;

pub mod gzip;
pub mod read;
pub mod write;

pub use read::{open, Blob, Chunks};
pub use write::{move_out, put_chunks, put_file};

/// Where new blobs go.
#[derive(Clone)]
pub enum Location {
    /// In PostgreSQL, in the `blob` row itself.
    Database,
    /// In an object store; `url` is how the operator named it (for messages).
    Objects {
        store: Arc<dyn ObjectStore>,
        url: String,
    },
}

impl std::fmt::Debug for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Location {
    /// Reads a setting: `postgres` (or empty) for the database; `file:///srv/blobs` for a
    /// directory (created if missing); `s3://bucket` or `s3://bucket/prefix` for an
    /// S3-compatible store, credentials and region from the usual `AWS_*` variables
    /// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ENDPOINT` for MinIO,
    /// Garage and the like, `AWS_ALLOW_HTTP=true` for a plain-HTTP endpoint).
    pub fn parse(setting: &str) -> Result<Location, StoreError> {
        let setting = setting.trim();
        let bad = |why: String| StoreError::Blobs(format!("blob store {setting:?}: {why}"));
        if setting.is_empty() || setting == "postgres" || setting == "postgresql" {
            return Ok(Location::Database);
        }
        let store: Arc<dyn ObjectStore> = if let Some(dir) = setting.strip_prefix("file://") {
            if !dir.starts_with('/') {
                return Err(bad("a directory must be absolute: file:///path".into()));
            }
            std::fs::create_dir_all(dir).map_err(|e| bad(e.to_string()))?;
            let fs = object_store::local::LocalFileSystem::new_with_prefix(dir)
                .map_err(|e| bad(e.to_string()))?;
            Arc::new(fs)
        } else if let Some(rest) = setting.strip_prefix("s3://") {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            if bucket.is_empty() {
                return Err(bad("no bucket: s3://bucket[/prefix]".into()));
            }
            let s3 = object_store::aws::AmazonS3Builder::from_env()
                .with_bucket_name(bucket)
                .build()
                .map_err(|e| bad(e.to_string()))?;
            let prefix = prefix.trim_matches('/');
            if prefix.is_empty() {
                Arc::new(s3)
            } else {
                Arc::new(object_store::prefix::PrefixStore::new(s3, prefix))
            }
        } else {
            return Err(bad(
                "expected postgres, file:///path or s3://bucket[/prefix]".into(),
            ));
        };
        Ok(Location::Objects {
            store,
            url: setting.to_owned(),
        })
    }

    /// For logs and `croupier blobs stats`.
    pub fn describe(&self) -> String {
        match self {
            Location::Database => "postgres".to_owned(),
            Location::Objects { url, .. } => url.clone(),
        }
    }
}

static LOCATION: OnceLock<Location> = OnceLock::new();

/// Sets where this process puts new blobs (once, at start; later calls with the same setting
/// are no-ops, a different one is an error). Unset means PostgreSQL.
pub fn configure(location: Location) -> Result<(), StoreError> {
    let wanted = location.describe();
    let set = LOCATION.get_or_init(|| location);
    if set.describe() == wanted {
        Ok(())
    } else {
        Err(StoreError::Blobs(format!(
            "blob store already set to {} in this process, not {wanted}",
            set.describe()
        )))
    }
}

/// Where this process puts new blobs.
pub fn location() -> &'static Location {
    LOCATION.get_or_init(|| Location::Database)
}

/// The SHA-256 of `bytes`.
pub fn digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// A hash in hex, for names and messages.
fn hex(sha256: &[u8]) -> String {
    sha256.iter().map(|b| format!("{b:02x}")).collect()
}

/// The object holding the blob `sha256`.
fn object(sha256: &[u8]) -> ObjectPath {
    let hex = hex(sha256);
    ObjectPath::from(format!("blobs/{}/{hex}", &hex[..2.min(hex.len())]))
}

fn store_error(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Blobs(format!("{what}: {e}"))
}

/// Stores `bytes` (once: identical content is shared) and returns its hash.
pub async fn put(db: impl PgExecutor<'_>, bytes: &[u8]) -> Result<[u8; 32], StoreError> {
    let sha = digest(bytes);
    let size = i64::try_from(bytes.len()).unwrap_or(i64::MAX);
    let (data, stored) = place(bytes).await?;
    // language=PostgreSQL
    sqlx::query!(
        r#"insert into blob (sha256, size, data, stored) values ($1, $2, $3, $4)
           on conflict (sha256) do nothing"#,
        &sha[..],
        size,
        data,
        stored
    )
    .execute(db)
    .await?;
    Ok(sha)
}

/// For a statement that writes blob rows itself (a match's results, in one round trip): puts
/// `bytes` where blobs go and returns what its row holds — the bytes and `db`, or no bytes
/// and `object-gzip` once the object store has them (gzip-compressed, [`gzip`]).
pub async fn place(bytes: &[u8]) -> Result<(Option<&[u8]>, &'static str), StoreError> {
    match location() {
        Location::Database => Ok((Some(bytes), "db")),
        Location::Objects { store, .. } => {
            let sha = digest(bytes);
            let raw = bytes.to_vec();
            let packed = tokio::task::spawn_blocking(move || gzip::compress_whole(&raw))
                .await
                .map_err(|e| store_error("compressing a blob", e))?;
            store
                .put(&object(&sha), PutPayload::from(packed))
                .await
                .map_err(|e| store_error("writing a blob", e))?;
            Ok((None, gzip::STORED))
        }
    }
}

/// The bytes of a blob whose row a query has read (`data` and all): `data` itself when the
/// database holds it, else the object store's copy, checked against its hash.
pub async fn resolve(sha256: &[u8], data: Option<Vec<u8>>) -> Result<Vec<u8>, StoreError> {
    if let Some(data) = data {
        return Ok(data);
    }
    let Location::Objects { store, .. } = location() else {
        return Err(StoreError::Blobs(
            "a blob lives in the object store, but this process has none configured \
             (set CROUPIER_BLOB_STORE as on the other processes)"
                .to_owned(),
        ));
    };
    let bytes = store
        .get(&object(sha256))
        .await
        .map_err(|e| store_error("reading a blob", e))?
        .bytes()
        .await
        .map_err(|e| store_error("reading a blob", e))?;
    // The caller read no `stored`: the hash tells a gzip-compressed object (`object-gzip`,
    // the usual) from a raw one (`object`, written before compression) — a raw blob that is
    // itself a gzip (an uploaded .tar.gz) decompresses to bytes of another hash.
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let packed = bytes.clone();
        let unpacked = tokio::task::spawn_blocking(move || gzip::decompress_whole(&packed))
            .await
            .map_err(|e| store_error("decompressing a blob", e))?;
        if let Ok(unpacked) = unpacked {
            if digest(&unpacked)[..] == *sha256 {
                return Ok(unpacked);
            }
        }
    }
    if digest(&bytes)[..] != *sha256 {
        tracing::error!(
            blob = hex(sha256),
            "a blob's object does not match its hash: refused"
        );
        return Err(StoreError::Blobs(
            "a blob read from the object store does not match its hash".to_owned(),
        ));
    }
    Ok(bytes.to_vec())
}

/// The bytes of blob `sha256`, wherever they live (checked against the hash when they come
/// from an object store).
pub async fn get(db: impl PgExecutor<'_>, sha256: &[u8]) -> Result<Vec<u8>, StoreError> {
    // language=PostgreSQL
    let data = sqlx::query_scalar!(r#"select data from blob where sha256 = $1"#, sha256)
        .fetch_optional(db)
        .await?
        .ok_or(StoreError::NotFound)?;
    resolve(sha256, data).await
}

/// Where the blobs are: count and (raw) bytes in PostgreSQL, in the object store raw (written
/// before compression) and gzip-compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    pub in_database: i64,
    pub database_bytes: i64,
    /// Raw objects (`stored = 'object'`).
    pub in_objects: i64,
    pub object_bytes: i64,
    /// Gzip-compressed objects (`stored = 'object-gzip'`); their raw size.
    pub in_gzip_objects: i64,
    pub gzip_object_raw_bytes: i64,
}

pub async fn stats(pool: &PgPool) -> Result<Stats, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"select count(*) filter (where stored = 'db') as "in_database!",
                  coalesce(sum(size) filter (where stored = 'db'), 0)::bigint as "database_bytes!",
                  count(*) filter (where stored = 'object') as "in_objects!",
                  coalesce(sum(size) filter (where stored = 'object'), 0)::bigint as "object_bytes!",
                  count(*) filter (where stored = 'object-gzip') as "in_gzip_objects!",
                  coalesce(sum(size) filter (where stored = 'object-gzip'), 0)::bigint as "gzip_object_raw_bytes!"
           from blob"#
    )
    .fetch_one(pool)
    .await?;
    Ok(Stats {
        in_database: row.in_database,
        database_bytes: row.database_bytes,
        in_objects: row.in_objects,
        object_bytes: row.object_bytes,
        in_gzip_objects: row.in_gzip_objects,
        gzip_object_raw_bytes: row.gzip_object_raw_bytes,
    })
}

/// The compressed and raw bytes of up to `n` gzip-compressed blobs, from the object store
/// (one HEAD each), picked from a random point of the hash order (hashes are uniform, so a
/// fair sample), for `croupier blobs stats` to estimate the object store's compression.
pub async fn gzip_sample(pool: &PgPool, n: i64) -> Result<(u64, u64), StoreError> {
    let Location::Objects { store, .. } = location() else {
        return Ok((0, 0));
    };
    let from: [u8; 32] = digest(format!("{:?}", std::time::SystemTime::now()).as_bytes());
    // language=PostgreSQL
    let mut rows: Vec<(Vec<u8>, i64)> = sqlx::query!(
        r#"select sha256, size from blob where stored = 'object-gzip' and sha256 >= $1
           order by sha256 limit $2"#,
        &from[..],
        n
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| (r.sha256, r.size))
    .collect();
    let missing = n - i64::try_from(rows.len()).unwrap_or(n);
    if missing > 0 {
        // language=PostgreSQL
        let wrapped = sqlx::query!(
            r#"select sha256, size from blob where stored = 'object-gzip' and sha256 < $1
               order by sha256 limit $2"#,
            &from[..],
            missing
        )
        .fetch_all(pool)
        .await?;
        rows.extend(wrapped.into_iter().map(|r| (r.sha256, r.size)));
    }
    let (mut packed, mut raw) = (0u64, 0u64);
    for (sha256, size) in rows {
        let meta = store
            .head(&object(&sha256))
            .await
            .map_err(|e| store_error("sizing a blob", e))?;
        packed += meta.size;
        raw += u64::try_from(size).unwrap_or(0);
    }
    Ok((packed, raw))
}

/// Deletes from the object store the blobs whose rows were deleted (replay retention,
/// `crate::retention`); an object already gone is fine. A blob written again meanwhile writes
/// its object again before its new row.
pub async fn delete_objects(sha256s: &[Vec<u8>]) -> Result<(), StoreError> {
    if sha256s.is_empty() {
        return Ok(());
    }
    let Location::Objects { store, .. } = location() else {
        return Err(StoreError::Blobs(
            "blobs to delete live in the object store, but this process has none configured \
             (set CROUPIER_BLOB_STORE as on the other processes)"
                .to_owned(),
        ));
    };
    for sha in sha256s {
        match store.delete(&object(sha)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
            Err(e) => return Err(store_error("deleting a blob", e)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_a_place_or_say_what_is_wrong() {
        assert!(matches!(Location::parse("").unwrap(), Location::Database));
        assert!(matches!(
            Location::parse("postgres").unwrap(),
            Location::Database
        ));
        let dir = tempfile::tempdir().unwrap();
        let url = format!("file://{}/blobs", dir.path().display());
        let local = Location::parse(&url).unwrap();
        assert_eq!(local.describe(), url);
        assert!(dir.path().join("blobs").is_dir());
        for bad in ["file://relative/dir", "s3://", "ftp://x", "nonsense"] {
            let e = Location::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
    }

    #[test]
    fn objects_are_named_by_their_hash() {
        let sha = digest(b"hello");
        let path = object(&sha).to_string();
        assert!(
            path.starts_with("blobs/2c/2cf24dba5fb0a30e26e83b2ac5b9e29e"),
            "{path}"
        );
    }
}

//! Writing a blob from a stream of chunks, never whole: to an object store with one PUT when
//! it is smaller than a part, else a multipart upload of [`PART`]-sized parts (two in flight at
//! most); to PostgreSQL one chunk appended at a time inside one transaction. The bytes are
//! checked against the hash they are stored under as they pass ([`super::read::verified`]): a
//! stream that does not match aborts the upload (or rolls the row back) and is an error.
//!
//! Used by [`put_file`] and by [`move_out`] (`croupier blobs migrate`), which moves a blob from
//! PostgreSQL to the object store slice by slice and reads it back as a stream to check it.

use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::stream::{self, StreamExt, TryStreamExt};
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, PutPayload, WriteMultipart};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use tokio::io::AsyncReadExt;

use super::read::{db_chunks, object_chunks, verified, Chunks};
use super::{gzip, location, object, store_error, Location};
use crate::StoreError;

/// The size of a multipart upload's parts (S3's smallest but for the last), and of the
/// chunks [`put_file`] reads.
pub const PART: usize = 5 << 20;

/// Writes `chunks` to `path`: one PUT when they come to less than [`PART`], else a multipart
/// upload, aborted when the chunks end in an error.
pub(super) async fn write_object(
    store: &Arc<dyn ObjectStore>,
    path: &ObjectPath,
    mut chunks: Chunks,
) -> Result<(), StoreError> {
    let writing = |e| store_error("writing a blob", e);
    let mut first = Vec::new();
    let mut buffered = 0;
    while buffered < PART {
        match chunks.try_next().await? {
            Some(chunk) => {
                buffered += chunk.len();
                first.push(chunk);
            }
            None => {
                let payload: PutPayload = first.into_iter().collect();
                store.put(path, payload).await.map_err(writing)?;
                return Ok(());
            }
        }
    }
    let upload = store.put_multipart(path).await.map_err(writing)?;
    let mut parts = WriteMultipart::new_with_chunk_size(upload, PART);
    for chunk in first {
        parts.put(chunk);
    }
    loop {
        let next = match chunks.try_next().await {
            Ok(next) => next,
            Err(e) => {
                abort(parts).await;
                return Err(e);
            }
        };
        let Some(chunk) = next else { break };
        if let Err(e) = parts.wait_for_capacity(2).await {
            abort(parts).await;
            return Err(writing(e));
        }
        parts.put(chunk);
    }
    parts.finish().await.map_err(writing)?;
    Ok(())
}

async fn abort(parts: WriteMultipart) {
    if let Err(e) = parts.abort().await {
        tracing::warn!("aborting a blob's multipart upload: {e}");
    }
}

/// Stores the file at `path` as a blob (once: identical content is shared) without holding it
/// in memory — read once to hash it, once to write it (checked against that hash, so a file
/// that changed meanwhile is an error) — and returns its hash.
pub async fn put_file(pool: &PgPool, path: &Path) -> Result<[u8; 32], StoreError> {
    let reading = |e| store_error(&format!("reading {}", path.display()), e);
    let mut file = tokio::fs::File::open(path).await.map_err(reading)?;
    let mut hasher = Sha256::new();
    let mut size = 0u64;
    let mut buf = vec![0; 1 << 16];
    loop {
        let n = file.read(&mut buf).await.map_err(reading)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        size += n as u64;
    }
    let sha: [u8; 32] = hasher.finalize().into();
    let file = tokio::fs::File::open(path).await.map_err(reading)?;
    let what = path.display().to_string();
    let chunks = stream::try_unfold(file, move |mut file| {
        let what = what.clone();
        async move {
            let mut chunk = Vec::with_capacity(PART);
            while chunk.len() < PART {
                let n = (&mut file)
                    .take((PART - chunk.len()) as u64)
                    .read_to_end(&mut chunk)
                    .await
                    .map_err(|e| store_error(&format!("reading {what}"), e))?;
                if n == 0 {
                    break;
                }
            }
            Ok((!chunk.is_empty()).then(|| (Bytes::from(chunk), file)))
        }
    })
    .boxed();
    put_chunks(pool, &sha, size, chunks).await?;
    Ok(sha)
}

/// Stores the blob `sha256` of `size` bytes from `chunks`, unless it is there already.
pub async fn put_chunks(
    pool: &PgPool,
    sha256: &[u8; 32],
    size: u64,
    chunks: Chunks,
) -> Result<(), StoreError> {
    let size_i64 = i64::try_from(size).unwrap_or(i64::MAX);
    let chunks = verified(sha256.to_vec(), size, chunks);
    match location() {
        Location::Objects { store, .. } => {
            // language=PostgreSQL
            let known = sqlx::query_scalar!(
                r#"select 1 as "one!" from blob where sha256 = $1"#,
                &sha256[..]
            )
            .fetch_optional(pool)
            .await?;
            if known.is_some() {
                return Ok(());
            }
            write_object(store, &object(sha256), gzip::compress(chunks)).await?;
            // language=PostgreSQL
            sqlx::query!(
                r#"insert into blob (sha256, size, data, stored) values ($1, $2, null, 'object-gzip')
                   on conflict (sha256) do nothing"#,
                &sha256[..],
                size_i64
            )
            .execute(pool)
            .await?;
        }
        Location::Database => {
            let mut tx = pool.begin().await?;
            // language=PostgreSQL
            let new = sqlx::query!(
                r#"insert into blob (sha256, size, data, stored) values ($1, $2, '', 'db')
                   on conflict (sha256) do nothing"#,
                &sha256[..],
                size_i64
            )
            .execute(&mut *tx)
            .await?;
            if new.rows_affected() == 0 {
                return Ok(());
            }
            let mut chunks = chunks;
            while let Some(chunk) = chunks.try_next().await? {
                // language=PostgreSQL
                sqlx::query!(
                    r#"update blob set data = data || $2 where sha256 = $1"#,
                    &sha256[..],
                    &chunk[..]
                )
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        }
    }
    Ok(())
}

/// Moves up to `batch` blobs held in PostgreSQL to the configured object store; returns how
/// many moved (0 when none is left). Each blob is streamed out (slice by slice, checked
/// against its hash), then read back from the object store as a stream and checked again,
/// before its row lets go of the bytes — so a crash between the two loses nothing, and
/// processes reading meanwhile find the bytes in one place or the other.
pub async fn move_out(pool: &PgPool, batch: i64) -> Result<usize, StoreError> {
    let Location::Objects { store, .. } = location() else {
        return Err(StoreError::Blobs(
            "no object store is configured: set CROUPIER_BLOB_STORE (or --blob-store)".to_owned(),
        ));
    };
    // language=PostgreSQL
    let rows = sqlx::query!(
        r#"select sha256, size from blob where stored = 'db' order by sha256 limit $1"#,
        batch
    )
    .fetch_all(pool)
    .await?;
    for row in &rows {
        let size = u64::try_from(row.size).unwrap_or(0);
        let out = verified(
            row.sha256.clone(),
            size,
            db_chunks(pool.clone(), row.sha256.clone(), size),
        );
        write_object(store, &object(&row.sha256), gzip::compress(out)).await?;
        let back = verified(
            row.sha256.clone(),
            size,
            object_chunks(&row.sha256, 0, size, true).await?,
        );
        back.try_for_each(|_| async { Ok(()) }).await?;
        // language=PostgreSQL
        sqlx::query!(
            r#"update blob set data = null, stored = 'object-gzip' where sha256 = $1 and stored = 'db'"#,
            &row.sha256
        )
        .execute(pool)
        .await?;
    }
    Ok(rows.len())
}

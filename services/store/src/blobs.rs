//! Content-addressed bytes (uploads, artifacts, replays, logs), keyed by SHA-256.

use sha2::{Digest, Sha256};
use sqlx::PgExecutor;

use crate::StoreError;

/// The SHA-256 of `bytes`.
pub fn digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Stores `bytes` (once: identical content is shared) and returns its hash.
pub async fn put(db: impl PgExecutor<'_>, bytes: &[u8]) -> Result<[u8; 32], StoreError> {
    let sha = digest(bytes);
    let size = i64::try_from(bytes.len()).unwrap_or(i64::MAX);
    // language=PostgreSQL
    sqlx::query!(
        r#"insert into blob (sha256, size, data) values ($1, $2, $3) on conflict (sha256) do nothing"#,
        &sha[..],
        size,
        bytes
    )
    .execute(db)
    .await?;
    Ok(sha)
}

pub async fn get(db: impl PgExecutor<'_>, sha256: &[u8]) -> Result<Vec<u8>, StoreError> {
    // language=PostgreSQL
    sqlx::query_scalar!(r#"select data from blob where sha256 = $1"#, sha256)
        .fetch_optional(db)
        .await?
        .ok_or(StoreError::NotFound)
}

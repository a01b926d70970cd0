//! Reading a blob as a stream of chunks, never whole: from PostgreSQL one slice of the `bytea`
//! at a time (`substring(data from … for …)`, one query per [`DB_CHUNK`]), from an object store
//! as its GET streams it. Either way the bytes are hashed as they pass and checked against the
//! blob's SHA-256 and size at the end; a blob that does not match is refused, not served.

use bytes::Bytes;
use futures_util::stream::{self, BoxStream, StreamExt, TryStreamExt};
use object_store::GetOptions;
use sha2::{Digest, Sha256};
use sqlx::PgPool;

use super::{gzip, hex, location, object, store_error, Location};
use crate::StoreError;

/// How many bytes one query reads from a blob PostgreSQL holds.
pub const DB_CHUNK: u64 = 1 << 20;

/// Chunks of a blob, as they are read.
pub type Chunks = BoxStream<'static, Result<Bytes, StoreError>>;

/// An open blob: its size (known before the first byte, for a `Content-Length`) and its bytes
/// as a stream of checked chunks.
pub struct Blob {
    size: u64,
    chunks: Chunks,
}

impl std::fmt::Debug for Blob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Blob({} bytes)", self.size)
    }
}

impl Blob {
    /// How many bytes the stream gives.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The bytes. The last chunk comes only once the whole blob has been checked: a blob that
    /// does not match its hash ends with an error instead of its last chunk (and is logged).
    pub fn into_stream(self) -> Chunks {
        self.chunks
    }

    /// All the bytes, for a caller that needs them whole (checked as by [`Blob::into_stream`]).
    pub async fn bytes(self) -> Result<Vec<u8>, StoreError> {
        let mut out = Vec::with_capacity(usize::try_from(self.size).unwrap_or(0));
        let mut chunks = self.chunks;
        while let Some(chunk) = chunks.next().await {
            out.extend_from_slice(&chunk?);
        }
        Ok(out)
    }
}

/// Opens blob `sha256`, wherever it lives. Its first [`DB_CHUNK`] bytes are read before this
/// returns — so a missing object, or a blob of up to that size that does not match its hash,
/// is an error here, before a response has begun; a bigger one that does not match ends its
/// stream in an error, before its last chunk.
pub async fn open(pool: &PgPool, sha256: &[u8]) -> Result<Blob, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(r#"select size, stored from blob where sha256 = $1"#, sha256)
        .fetch_optional(pool)
        .await?
        .ok_or(StoreError::NotFound)?;
    let size = u64::try_from(row.size).map_err(|_| StoreError::Blobs("a negative size".into()))?;
    let raw = if row.stored == "db" {
        db_chunks(pool.clone(), sha256.to_vec(), size)
    } else {
        object_chunks(sha256, 0, size, row.stored == gzip::STORED).await?
    };
    let mut checked = verified(sha256.to_vec(), size, raw);
    let mut head = Vec::new();
    while (head.len() as u64) < DB_CHUNK {
        match checked.try_next().await? {
            Some(chunk) => head.extend_from_slice(&chunk),
            None => {
                let whole = (!head.is_empty()).then(|| Ok(Bytes::from(head)));
                return Ok(Blob {
                    size,
                    chunks: stream::iter(whole).boxed(),
                });
            }
        }
    }
    Ok(Blob {
        size,
        chunks: stream::iter([Ok(Bytes::from(head))]).chain(checked).boxed(),
    })
}

/// Where [`db_chunks`] reads next.
enum Source {
    Database,
    /// The row let go of its bytes while they were being read (`croupier blobs migrate`
    /// moved them): the rest comes from the object store.
    Objects(Chunks),
}

struct DbRead {
    pool: PgPool,
    sha256: Vec<u8>,
    size: u64,
    offset: u64,
    source: Source,
}

/// The bytes of a blob PostgreSQL holds, one query per [`DB_CHUNK`] (a pooled connection is
/// held for one query at a time, however slowly the reader takes the chunks).
pub(super) fn db_chunks(pool: PgPool, sha256: Vec<u8>, size: u64) -> Chunks {
    let read = DbRead {
        pool,
        sha256,
        size,
        offset: 0,
        source: Source::Database,
    };
    stream::try_unfold(read, |mut r| async move {
        loop {
            if let Source::Objects(rest) = &mut r.source {
                return Ok(rest.try_next().await?.map(|chunk| (chunk, r)));
            }
            if r.offset >= r.size {
                return Ok(None);
            }
            let len = DB_CHUNK.min(r.size - r.offset);
            let too_big = |_| StoreError::Blobs("a blob too big for PostgreSQL to slice".into());
            let from = i32::try_from(r.offset + 1).map_err(too_big)?;
            let len = i32::try_from(len).map_err(too_big)?;
            // language=PostgreSQL
            let row = sqlx::query!(
                r#"select substring(data from $2 for $3) as slice, stored from blob where sha256 = $1"#,
                &r.sha256,
                from,
                len
            )
            .fetch_optional(&r.pool)
            .await?
            .ok_or_else(|| StoreError::Blobs("a blob was deleted while being read".into()))?;
            match row.slice {
                Some(bytes) if bytes.is_empty() => {
                    return Err(StoreError::Blobs(format!(
                        "blob {} ends before its size",
                        hex(&r.sha256)
                    )))
                }
                Some(bytes) => {
                    r.offset += bytes.len() as u64;
                    return Ok(Some((Bytes::from(bytes), r)));
                }
                None => {
                    let gzipped = row.stored == gzip::STORED;
                    let rest = object_chunks(&r.sha256, r.offset, r.size, gzipped).await?;
                    r.source = Source::Objects(rest);
                }
            }
        }
    })
    .boxed()
}

/// Bytes `from..size` of blob `sha256` from its object, as the object store streams them
/// (decompressed as they come when `gzipped`); a raw object whose size is not the blob's is
/// refused before a byte is read.
pub(super) async fn object_chunks(
    sha256: &[u8],
    from: u64,
    size: u64,
    gzipped: bool,
) -> Result<Chunks, StoreError> {
    let Location::Objects { store, .. } = location() else {
        return Err(StoreError::Blobs(
            "a blob lives in the object store, but this process has none configured \
             (set CROUPIER_BLOB_STORE as on the other processes)"
                .to_owned(),
        ));
    };
    if gzipped {
        // A gzip is read from its start (an empty blob too: its object must be a whole gzip).
        let got = store
            .get(&object(sha256))
            .await
            .map_err(|e| store_error("reading a blob", e))?;
        let packed = got
            .into_stream()
            .map_err(|e| store_error("reading a blob", e))
            .boxed();
        return Ok(skip(gzip::decompress(packed), from));
    }
    if size == 0 {
        return Ok(stream::empty().boxed());
    }
    let options = GetOptions {
        range: (from > 0).then(|| (from..size).into()),
        ..GetOptions::default()
    };
    let got = store
        .get_opts(&object(sha256), options)
        .await
        .map_err(|e| store_error("reading a blob", e))?;
    if got.meta.size != size {
        tracing::error!(
            blob = hex(sha256),
            object_bytes = got.meta.size,
            blob_bytes = size,
            "a blob's object has the wrong size: refused"
        );
        return Err(StoreError::Blobs(format!(
            "blob {} in the object store has {} bytes, not {size}",
            hex(sha256),
            got.meta.size
        )));
    }
    Ok(got
        .into_stream()
        .map_err(|e| store_error("reading a blob", e))
        .boxed())
}

/// `chunks` without their first `n` bytes.
fn skip(chunks: Chunks, n: u64) -> Chunks {
    if n == 0 {
        return chunks;
    }
    let mut left = n;
    chunks
        .try_filter_map(move |chunk| {
            let out = if left >= chunk.len() as u64 {
                left -= chunk.len() as u64;
                None
            } else {
                let rest = chunk.slice(usize::try_from(left).unwrap_or(0)..);
                left = 0;
                Some(rest)
            };
            async move { Ok(out) }
        })
        .boxed()
}

struct Check {
    raw: Chunks,
    sha256: Vec<u8>,
    size: u64,
    hasher: Sha256,
    seen: u64,
    /// The chunk read last, given out only once the next one has come (or the end, checked).
    held: Option<Bytes>,
    done: bool,
}

/// `raw`, checked: each chunk hashed as it passes, one chunk held back, and at the end the
/// count and hash compared with `size` and `sha256` — the held chunk if they match, an error
/// (logged) if not. So a reader never receives the whole of a blob that does not match.
pub fn verified(sha256: Vec<u8>, size: u64, raw: Chunks) -> Chunks {
    let check = Check {
        raw,
        sha256,
        size,
        hasher: Sha256::new(),
        seen: 0,
        held: None,
        done: false,
    };
    stream::try_unfold(check, |mut c| async move {
        if c.done {
            return Ok(None);
        }
        while let Some(chunk) = c.raw.try_next().await? {
            if chunk.is_empty() {
                continue;
            }
            c.seen += chunk.len() as u64;
            if c.seen > c.size {
                return Err(mismatch(&c.sha256, "is longer than its size"));
            }
            c.hasher.update(&chunk);
            if let Some(previous) = c.held.replace(chunk) {
                return Ok(Some((previous, c)));
            }
        }
        c.done = true;
        if c.seen != c.size {
            return Err(mismatch(&c.sha256, "is shorter than its size"));
        }
        if c.hasher.clone().finalize()[..] != c.sha256[..] {
            return Err(mismatch(&c.sha256, "does not match its hash"));
        }
        Ok(c.held.take().map(|last| (last, c)))
    })
    .boxed()
}

fn mismatch(sha256: &[u8], what: &str) -> StoreError {
    let blob = hex(sha256);
    tracing::error!(blob, "a blob read back {what}: refused");
    StoreError::Blobs(format!("blob {blob} {what}: refused"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blobs::digest;

    fn chunked(bytes: &[u8], sizes: &[usize]) -> Chunks {
        let mut chunks = Vec::new();
        let mut rest = bytes;
        for &n in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (head, tail) = rest.split_at(n.min(rest.len()));
            chunks.push(Ok(Bytes::copy_from_slice(head)));
            rest = tail;
        }
        stream::iter(chunks).boxed()
    }

    async fn collect(chunks: Chunks) -> (Vec<u8>, Option<String>) {
        let mut out = Vec::new();
        let mut chunks = chunks;
        while let Some(chunk) = chunks.next().await {
            match chunk {
                Ok(c) => out.extend_from_slice(&c),
                Err(e) => return (out, Some(e.to_string())),
            }
        }
        (out, None)
    }

    #[tokio::test]
    async fn a_blob_passes_whole_whatever_its_chunks() {
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let sha = digest(&bytes).to_vec();
        for sizes in [
            &[1][..],
            &[3, 1000, 7],
            &[4096],
            &[9_999],
            &[10_000],
            &[50_000],
        ] {
            let (out, err) = collect(verified(sha.clone(), 10_000, chunked(&bytes, sizes))).await;
            assert_eq!(err, None, "chunks of {sizes:?}");
            assert_eq!(out, bytes, "chunks of {sizes:?}");
        }
    }

    #[tokio::test]
    async fn skipping_drops_exactly_the_first_bytes() {
        // What a read that resumes from a gzip object (the row moved meanwhile) relies on.
        let bytes: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        for n in [0u64, 1, 999, 1000, 1001, 4999, 5000] {
            for sizes in [&[1000][..], &[7], &[5000]] {
                let (out, err) = collect(skip(chunked(&bytes, sizes), n)).await;
                assert_eq!(err, None);
                assert!(out == bytes[n as usize..], "skip {n}, chunks of {sizes:?}");
            }
        }
    }

    #[tokio::test]
    async fn an_empty_blob_is_no_chunk_at_all() {
        let sha = digest(b"").to_vec();
        let (out, err) = collect(verified(sha, 0, stream::empty().boxed())).await;
        assert_eq!((out, err), (Vec::new(), None));
    }

    #[tokio::test]
    async fn a_blob_that_does_not_match_never_arrives_whole() {
        let bytes = vec![7u8; 5000];
        let sha = digest(&bytes).to_vec();
        let mut other = bytes.clone();
        other[4321] = 8;
        for sizes in [&[1000][..], &[5000], &[1]] {
            let (out, err) = collect(verified(sha.clone(), 5000, chunked(&other, sizes))).await;
            assert!(
                err.as_deref()
                    .is_some_and(|e| e.contains("does not match its hash")),
                "{err:?}"
            );
            assert!(out.len() < bytes.len(), "{} bytes given out", out.len());
        }
        // Longer or shorter than the row says: refused too.
        let (out, err) =
            collect(verified(sha.clone(), 5000, chunked(&bytes[..4999], &[100]))).await;
        assert!(err.unwrap().contains("shorter"));
        assert!(out.len() < 4999);
        let longer = [&bytes[..], b"x"].concat();
        let (_, err) = collect(verified(sha, 5000, chunked(&longer, &[5000]))).await;
        assert!(err.unwrap().contains("longer"));
    }
}

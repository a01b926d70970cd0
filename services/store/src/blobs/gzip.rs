//! Blobs in an object store are gzip-compressed (replays are JSON: several times smaller), as
//! they stream: each chunk goes through the encoder on its way to the object store, and through
//! the decoder on its way back. The row says so (`stored = 'object-gzip'`); the hash and size
//! stay those of the raw bytes, checked after decompression ([`super::read::verified`]).
//!
//! A gzip that is corrupted, truncated (no complete trailer) or followed by other bytes is an
//! error, never bytes served.

use std::io::Write;

use bytes::Bytes;
use flate2::write::{GzDecoder, GzEncoder};
use flate2::Compression;
use futures_util::stream::{self, StreamExt, TryStreamExt};

use super::read::Chunks;
use super::store_error;
use crate::StoreError;

/// `stored` of a blob whose object is gzip-compressed.
pub const STORED: &str = "object-gzip";

/// How hard to compress. Level 6 (flate2's default) on replays: see docs/operations.md#blobs.
fn level() -> Compression {
    Compression::default()
}

/// Chunks bigger than this are compressed on a blocking thread, not on the runtime's.
const INLINE: usize = 64 << 10;

/// `bytes`, gzip-compressed (for a blob given whole).
pub fn compress_whole(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(bytes.len() / 4 + 64), level());
    // Writing to a Vec cannot fail.
    encoder.write_all(bytes).expect("gzip into memory");
    encoder.finish().expect("gzip into memory")
}

/// `bytes` (a whole object), decompressed: an error unless it is exactly one complete gzip.
pub fn decompress_whole(bytes: &[u8]) -> Result<Vec<u8>, StoreError> {
    let mut decoder = GzDecoder::new(Vec::with_capacity(bytes.len() * 4));
    decoder.write_all(bytes).map_err(bad_gzip)?;
    decoder.finish().map_err(bad_gzip)
}

fn bad_gzip(e: std::io::Error) -> StoreError {
    store_error("a blob's object is not a complete gzip", e)
}

/// `raw`, gzip-compressed as it streams (an empty chunk is never given out; the last one is
/// the gzip trailer, given once `raw` has ended without an error).
pub fn compress(raw: Chunks) -> Chunks {
    let state = (raw, Some(GzEncoder::new(Vec::new(), level())));
    stream::try_unfold(state, |(mut raw, mut encoder)| async move {
        loop {
            let Some(enc) = encoder.take() else {
                return Ok(None);
            };
            match raw.try_next().await? {
                Some(chunk) => {
                    let (enc, out) = if chunk.len() > INLINE {
                        tokio::task::spawn_blocking(move || encode(enc, &chunk))
                            .await
                            .map_err(|e| store_error("compressing a blob", e))?
                    } else {
                        encode(enc, &chunk)
                    };
                    encoder = Some(enc);
                    if !out.is_empty() {
                        return Ok(Some((Bytes::from(out), (raw, encoder))));
                    }
                }
                None => {
                    let last = enc
                        .finish()
                        .map_err(|e| store_error("compressing a blob", e))?;
                    return Ok(Some((Bytes::from(last), (raw, None))));
                }
            }
        }
    })
    .boxed()
}

fn encode(mut enc: GzEncoder<Vec<u8>>, chunk: &[u8]) -> (GzEncoder<Vec<u8>>, Vec<u8>) {
    enc.write_all(chunk).expect("gzip into memory");
    let out = std::mem::take(enc.get_mut());
    (enc, out)
}

/// `compressed`, decompressed as it streams: what each chunk gave (empty ones left out); an
/// error when the gzip is corrupted, followed by other bytes, or ends before its trailer.
pub fn decompress(compressed: Chunks) -> Chunks {
    let state = (compressed, Some(GzDecoder::new(Vec::new())));
    stream::try_unfold(state, |(mut compressed, mut decoder)| async move {
        loop {
            let Some(mut dec) = decoder.take() else {
                return Ok(None);
            };
            match compressed.try_next().await? {
                Some(chunk) => {
                    dec.write_all(&chunk).map_err(bad_gzip)?;
                    let out = std::mem::take(dec.get_mut());
                    decoder = Some(dec);
                    if !out.is_empty() {
                        return Ok(Some((Bytes::from(out), (compressed, decoder))));
                    }
                }
                None => {
                    let rest = dec.finish().map_err(bad_gzip)?;
                    if rest.is_empty() {
                        return Ok(None);
                    }
                    return Ok(Some((Bytes::from(rest), (compressed, None))));
                }
            }
        }
    })
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(bytes: &[u8], size: usize) -> Chunks {
        let parts: Vec<Result<Bytes, StoreError>> = bytes
            .chunks(size.max(1))
            .map(|c| Ok(Bytes::copy_from_slice(c)))
            .collect();
        stream::iter(parts).boxed()
    }

    async fn collect(c: Chunks) -> Result<Vec<u8>, StoreError> {
        let all: Vec<Bytes> = c.try_collect().await?;
        Ok(all.concat())
    }

    fn json_like(n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| format!("{{\"turn\":{i},\"move\":\"take\",\"chips\":{}}},", i % 11))
            .collect::<String>()
            .into_bytes()
    }

    #[tokio::test]
    async fn round_trips_whatever_the_chunks() {
        let raw = json_like(50_000);
        for size in [1usize, 7, 4096, 100_000, 1 << 20, raw.len()] {
            let packed = collect(compress(chunks(&raw, size))).await.unwrap();
            assert!(
                packed.len() * 4 < raw.len(),
                "{} of {}",
                packed.len(),
                raw.len()
            );
            assert_eq!(decompress_whole(&packed).unwrap(), raw);
            for back in [1usize, 13, 8192, packed.len()] {
                let out = collect(decompress(chunks(&packed, back))).await.unwrap();
                assert!(out == raw, "chunks of {size} then {back}");
            }
        }
        let empty = collect(compress(stream::empty().boxed())).await.unwrap();
        assert_eq!(empty, compress_whole(b""));
        assert!(collect(decompress(chunks(&empty, 3)))
            .await
            .unwrap()
            .is_empty());
    }

    #[tokio::test]
    async fn a_broken_gzip_is_an_error() {
        let packed = compress_whole(&json_like(1000));
        let truncated = &packed[..packed.len() - 3];
        let mut trailing = packed.clone();
        trailing.extend_from_slice(b"more");
        let mut flipped = packed.clone();
        flipped[packed.len() / 2] ^= 0x10;
        for (what, bytes) in [
            ("truncated", truncated),
            ("trailing", &trailing[..]),
            ("flipped", &flipped[..]),
            ("raw", &b"{\"not\":\"gzip\"}"[..]),
        ] {
            assert!(decompress_whole(bytes).is_err(), "{what}");
            assert!(
                collect(decompress(chunks(bytes, 100))).await.is_err(),
                "{what}"
            );
        }
    }
}

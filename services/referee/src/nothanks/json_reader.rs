//! Reading a bot's byte stream as a sequence of JSON values.

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt};

/// Reads JSON values off a byte stream as they complete. Cancel-safe: bytes are only ever moved
/// into `buf` after a read completes.
pub(crate) struct JsonReader<R> {
    read: R,
    buf: Vec<u8>,
    cap: usize,
}

impl<R: AsyncRead + Unpin> JsonReader<R> {
    /// Reads from `read`; a value longer than `cap` bytes is an error.
    pub fn new(read: R, cap: usize) -> Self {
        JsonReader {
            read,
            buf: Vec::new(),
            cap,
        }
    }

    /// The next value and its text; `Ok(None)` at a clean end of stream.
    pub async fn next(&mut self) -> Result<Option<(Value, String)>, String> {
        loop {
            let start = self.buf.iter().position(|b| !b.is_ascii_whitespace());
            if let Some(start) = start {
                let rest = self.buf.get(start..).unwrap_or_default();
                let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
                match values.next() {
                    Some(Ok(value)) => {
                        let end = start + values.byte_offset();
                        let text =
                            String::from_utf8_lossy(self.buf.get(start..end).unwrap_or_default())
                                .into_owned();
                        self.buf.drain(..end);
                        return Ok(Some((value, text)));
                    }
                    Some(Err(e)) if e.is_eof() => {}
                    Some(Err(e)) => {
                        return Err(format!(
                            "sent something that is not JSON ({e}): {}",
                            snippet(rest)
                        ))
                    }
                    None => self.buf.clear(),
                }
            } else {
                self.buf.clear();
            }
            if self.buf.len() > self.cap {
                return Err(format!("sent a message longer than {} bytes", self.cap));
            }
            let mut chunk = [0_u8; 8192];
            // A reset connection is a closed one (the bot exited before reading everything).
            let n = self.read.read(&mut chunk).await.unwrap_or(0);
            if n == 0 {
                return match self.buf.iter().any(|b| !b.is_ascii_whitespace()) {
                    true => Err(format!(
                        "closed the connection in the middle of a message: {}",
                        snippet(&self.buf)
                    )),
                    false => Ok(None),
                };
            }
            self.buf
                .extend_from_slice(chunk.get(..n).unwrap_or_default());
        }
    }
}

fn snippet(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes.get(..bytes.len().min(120)).unwrap_or_default());
    format!("{:?}", text.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn read_all(input: &[u8]) -> Vec<Result<Option<String>, String>> {
        let mut reader = JsonReader::new(input, 64);
        let mut out = Vec::new();
        loop {
            let item = reader.next().await.map(|v| v.map(|(_, text)| text));
            let last = !matches!(item, Ok(Some(_)));
            out.push(item);
            if last {
                return out;
            }
        }
    }

    #[tokio::test]
    async fn values_are_read_one_per_line_or_back_to_back() {
        let items = read_all(b"{\"a\": 1}\n\n{\"b\":[2]}{\"c\":3}\n").await;
        let texts: Vec<_> = items.iter().map(|i| i.clone().ok().flatten()).collect();
        assert_eq!(
            texts,
            [
                Some("{\"a\": 1}".into()),
                Some("{\"b\":[2]}".into()),
                Some("{\"c\":3}".into()),
                None
            ]
        );
    }

    #[tokio::test]
    async fn garbage_an_overlong_line_and_a_cut_message_are_errors() {
        assert!(read_all(b"{\"a\":1}\npick\n")
            .await
            .last()
            .unwrap()
            .is_err());
        assert!(read_all(&[b'['; 100]).await.last().unwrap().is_err());
        assert!(read_all(b"{\"a\":").await.last().unwrap().is_err());
    }
}

//! Draining a seat's stdout and stderr: both are read to the end so the bot never blocks on a
//! full pipe, the last bytes of each are kept for its team, and the total is capped.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tokio::io::{AsyncRead, AsyncReadExt};

use super::meter::MoveMeter;

/// How draining ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PumpEnd {
    /// Both pipes reached end of file: the bot (and everything it started) closed them.
    Closed,
    /// stdout + stderr went over the cap.
    OverCap,
}

/// The last `cap` bytes of a stream, and how much was seen.
#[derive(Debug, Clone)]
pub(crate) struct Tail {
    buf: Vec<u8>,
    cap: usize,
    seen: u64,
}

impl Tail {
    pub fn new(cap: usize) -> Self {
        Tail {
            buf: Vec::new(),
            cap,
            seen: 0,
        }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.seen += bytes.len() as u64;
        self.buf.extend_from_slice(bytes);
        if self.buf.len() > self.cap.saturating_mul(2).max(4096) {
            let cut = self.buf.len() - self.cap;
            self.buf.drain(..cut);
        }
    }

    /// The kept end as text, saying how much was cut before it.
    pub fn text(&self) -> String {
        let start = self.buf.len().saturating_sub(self.cap);
        let kept = self.buf.get(start..).unwrap_or_default();
        let cut = self.seen - kept.len() as u64;
        let text = String::from_utf8_lossy(kept);
        if cut > 0 {
            format!("[… {cut} earlier bytes not kept …]\n{text}")
        } else {
            text.into_owned()
        }
    }
}

/// Reads `stdout` and `stderr` until both close or stdout exceeds `cap` bytes. stderr is the
/// bot's log, in every protocol alike: its end is kept (the tail) and its lines go to the
/// seat's move meter (within its budget); the rest is read and dropped, and never ends the
/// seat (`docs/sandbox.md#output`).
pub(crate) async fn pump(
    stdout: Option<impl AsyncRead + Unpin>,
    stderr: Option<impl AsyncRead + Unpin>,
    tails: &(Mutex<Tail>, Mutex<Tail>),
    meter: &MoveMeter,
    cap: u64,
) -> PumpEnd {
    let (written, logged) = (AtomicU64::new(0), AtomicU64::new(0));
    let out = pump_one(stdout, &tails.0, None, &written, cap);
    let err = pump_one(stderr, &tails.1, Some(meter), &logged, u64::MAX);
    tokio::pin!(out, err);
    let (mut out_done, mut err_done) = (false, false);
    while !(out_done && err_done) {
        let end = tokio::select! {
            end = &mut out, if !out_done => { out_done = true; end }
            end = &mut err, if !err_done => { err_done = true; end }
        };
        if end == PumpEnd::OverCap {
            return PumpEnd::OverCap;
        }
    }
    PumpEnd::Closed
}

async fn pump_one(
    reader: Option<impl AsyncRead + Unpin>,
    tail: &Mutex<Tail>,
    meter: Option<&MoveMeter>,
    total: &AtomicU64,
    cap: u64,
) -> PumpEnd {
    let Some(mut reader) = reader else {
        return PumpEnd::Closed;
    };
    let mut buf = vec![0_u8; 16 << 10];
    loop {
        let n = match reader.read(&mut buf).await {
            Ok(0) | Err(_) => return PumpEnd::Closed,
            Ok(n) => n,
        };
        let bytes = buf.get(..n).unwrap_or_default();
        if let Ok(mut tail) = tail.lock() {
            tail.push(bytes);
        }
        if let Some(meter) = meter {
            meter.stderr(bytes);
        }
        if total.fetch_add(n as u64, Ordering::Relaxed) + n as u64 > cap {
            return PumpEnd::OverCap;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tail_keeps_the_last_bytes_and_says_how_many_were_cut() {
        let mut tail = Tail::new(4);
        tail.push(b"hello ");
        tail.push(b"world");
        for _ in 0..2000 {
            tail.push(b"x");
        }
        tail.push(b"end!");
        let text = tail.text();
        assert!(text.ends_with("\nend!"), "{text}");
        assert!(text.starts_with("[… 2011 earlier bytes"), "{text}");
        assert_eq!(Tail::new(8).text(), "");
    }
}

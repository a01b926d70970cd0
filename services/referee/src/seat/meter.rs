//! What a program seat did during each of its moves, for its owner: the stderr lines it wrote
//! and its memory peak ([`MoveMeter`]), read by the [`Table`](crate::table::Table) when the move
//! arrives and kept as a [`MoveRecord`](crate::MoveRecord).
//!
//! A long-lived seat's supervisor copies every stderr chunk here as it drains the pipe, with
//! the time it arrived; the meter also holds the seat's [`MemoryMeter`] (the sandbox cgroup's
//! peak, reset at each move). A per-move seat's call gives both from the call's own report.
//!
//! Stderr is attributed by **when the seat's turn began**: a move's record holds what arrived
//! from the moment the turn passed to the seat until its answer, and what arrives after an
//! answer and before the seat's next turn is added to that answer's record (a line written just
//! before answering can reach the referee after the answer, on another channel; it still lands
//! with its own move). Each record keeps its last [`MOVE_STDERR_BYTES`], a seat at most
//! [`SEAT_MOVE_STDERR_BYTES`] over the match; the whole stream stays in the seat's stderr tail.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use croupier_sandbox::MemoryMeter;

/// The stderr kept for one move (its last bytes).
pub const MOVE_STDERR_BYTES: usize = 2 << 10;
/// The stderr kept over all of a seat's moves in one match.
pub const SEAT_MOVE_STDERR_BYTES: usize = 256 << 10;

/// What a seat used since the previous take ([`MoveMeter::take`]).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct MoveUse {
    /// Stderr that arrived before the given instant (it belongs to the previous move).
    pub earlier: String,
    /// Stderr that arrived from then on.
    pub stderr: String,
    pub peak_bytes: Option<u64>,
    /// A per-move seat's call: from spawn to exit.
    pub call_wall: Option<Duration>,
}

#[derive(Debug)]
struct Period {
    chunks: Vec<(Instant, Vec<u8>)>,
    /// Stderr bytes the seat may still keep in its move records this match.
    budget: usize,
    /// Some stderr of this period went over what the seat may keep.
    over_budget: bool,
    call: Option<(u64, Duration)>,
}

/// One seat's meter; shared by its supervisor (or per-move runner) and the table.
#[derive(Debug)]
pub(crate) struct MoveMeter {
    period: Mutex<Period>,
    memory: Option<MemoryMeter>,
}

impl MoveMeter {
    pub fn new(memory: Option<MemoryMeter>) -> Self {
        MoveMeter {
            period: Mutex::new(Period {
                chunks: Vec::new(),
                budget: SEAT_MOVE_STDERR_BYTES,
                over_budget: false,
                call: None,
            }),
            memory,
        }
    }

    /// Stderr bytes as they arrive.
    pub fn stderr(&self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if let Ok(mut p) = self.period.lock() {
            let n = bytes.len().min(p.budget);
            p.budget -= n;
            p.over_budget |= n < bytes.len();
            if let Some(kept) = bytes.get(..n).filter(|k| !k.is_empty()) {
                p.chunks.push((Instant::now(), kept.to_vec()));
            }
        }
    }

    /// A per-move seat's call ended: its stderr, memory peak and wall time.
    pub fn call(&self, stderr: &[u8], peak_bytes: u64, wall: Duration) {
        self.stderr(stderr);
        if let Ok(mut p) = self.period.lock() {
            p.call = Some((peak_bytes, wall));
        }
    }

    /// Whether a per-move call ended since the previous take (one the referee is about to
    /// play for after it failed).
    pub fn call_pending(&self) -> bool {
        self.period.lock().is_ok_and(|p| p.call.is_some())
    }

    /// What the seat used since the previous take, its stderr split at `turn_began`, and starts
    /// the next period.
    pub fn take(&self, turn_began: Instant) -> MoveUse {
        let Ok(mut p) = self.period.lock() else {
            return MoveUse::default();
        };
        let (mut earlier, mut stderr) = (Vec::new(), Vec::new());
        for (at, bytes) in p.chunks.drain(..) {
            match at < turn_began {
                true => earlier.extend_from_slice(&bytes),
                false => stderr.extend_from_slice(&bytes),
            }
        }
        let mut stderr = String::from_utf8_lossy(&stderr).into_owned();
        if std::mem::take(&mut p.over_budget) {
            stderr.push_str(&format!(
                "[… not kept: a seat's moves keep {} KiB of stderr per match …]\n",
                SEAT_MOVE_STDERR_BYTES >> 10
            ));
        }
        let call = p.call.take();
        drop(p);
        let peak_bytes = match call {
            Some((peak, _)) => Some(peak),
            None => self.memory.as_ref().and_then(MemoryMeter::take_peak),
        };
        MoveUse {
            earlier: String::from_utf8_lossy(&earlier).into_owned(),
            stderr,
            peak_bytes,
            call_wall: call.map(|c| c.1),
        }
    }
}

/// Appends `more` to a record's stderr, keeping its last [`MOVE_STDERR_BYTES`] (cut at a
/// character boundary, saying how much went before them in all).
pub(crate) fn append_kept(text: &mut String, more: &str) {
    if more.is_empty() {
        return;
    }
    let (mut dropped, kept) = split_marker(text);
    let mut all = String::with_capacity(kept.len() + more.len());
    all.push_str(kept);
    all.push_str(more);
    if all.len() > MOVE_STDERR_BYTES {
        let mut cut = all.len() - MOVE_STDERR_BYTES;
        while !all.is_char_boundary(cut) {
            cut += 1;
        }
        dropped += cut;
        all = all.split_off(cut);
    }
    *text = match dropped {
        0 => all,
        n => format!("{MARK_START}{n}{MARK_END}{all}"),
    };
}

const MARK_START: &str = "[… ";
const MARK_END: &str = " earlier bytes not kept …]\n";

/// A record's text as (bytes dropped before it, the kept text).
fn split_marker(text: &str) -> (usize, &str) {
    let marked = text.strip_prefix(MARK_START).and_then(|rest| {
        let (n, kept) = rest.split_once(MARK_END)?;
        Some((n.parse().ok()?, kept))
    });
    marked.unwrap_or((0, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_take_splits_stderr_at_the_turn_and_starts_a_new_period() {
        let meter = MoveMeter::new(None);
        meter.stderr(b"late line of the previous move\n");
        std::thread::sleep(Duration::from_millis(2));
        let turn = Instant::now();
        meter.stderr(b"thinking\n");
        meter.stderr(b"chose 3\n");
        let used = meter.take(turn);
        assert_eq!(used.earlier, "late line of the previous move\n");
        assert_eq!(used.stderr, "thinking\nchose 3\n");
        assert_eq!(used.peak_bytes, None);
        assert_eq!(meter.take(Instant::now()), MoveUse::default());
        meter.call(b"call out\n", 5 << 20, Duration::from_millis(12));
        assert!(meter.call_pending());
        let call = meter.take(turn);
        assert_eq!(call.stderr, "call out\n");
        assert_eq!(call.peak_bytes, Some(5 << 20));
        assert_eq!(call.call_wall, Some(Duration::from_millis(12)));
        assert!(!meter.call_pending());
    }

    #[test]
    fn a_record_keeps_its_last_bytes_and_a_seat_its_budget() {
        let mut text = String::new();
        for _ in 0..5 {
            append_kept(&mut text, &"é".repeat(500));
        }
        assert!(
            text.starts_with("[… 2952 earlier bytes not kept …]\n"),
            "{text}"
        );
        let meter = MoveMeter::new(None);
        let chunk = vec![b'y'; 64 << 10];
        for _ in 0..5 {
            meter.stderr(&chunk);
            let _ = meter.take(Instant::now());
        }
        meter.stderr(b"late\n");
        let text = meter.take(Instant::now()).stderr;
        assert!(!text.contains("late"), "{text}");
        assert!(text.contains("256 KiB of stderr per match"), "{text}");
    }
}

//! Small I/O helpers: capped pipe reading.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::oneshot;

/// Tells the supervisor that stdout went over its cap ([`overflow`]).
pub(crate) struct OverflowTx {
    hit: Arc<AtomicBool>,
    wake: oneshot::Sender<()>,
}

/// The supervisor's side of [`overflow`]: a wake-up, and a flag read when the move is classified.
pub(crate) struct Overflow {
    hit: Arc<AtomicBool>,
    wake: oneshot::Receiver<()>,
}

/// A stdout cap's signal. The flag is set before the reader closes the pipe, so before the bot
/// can die of the `SIGPIPE` that follows: a supervisor that sees the bot's exit first (it races
/// the wake-up) still classifies the move as `output_limit`, never as a crash by signal 13.
pub(crate) fn overflow() -> (OverflowTx, Overflow) {
    let hit = Arc::new(AtomicBool::new(false));
    let (tx, rx) = oneshot::channel();
    (
        OverflowTx {
            hit: Arc::clone(&hit),
            wake: tx,
        },
        Overflow { hit, wake: rx },
    )
}

impl Overflow {
    /// Resolves when stdout went over its cap; never if the reader ended without that.
    pub async fn fired(&mut self) {
        if (&mut self.wake).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// Whether stdout went over its cap (so far).
    pub fn hit(&self) -> bool {
        self.hit.load(Ordering::SeqCst)
    }
}

/// Reads up to `cap` bytes; beyond that, signals `over` and stops (closing the pipe), or
/// (without `over`) discards the rest.
pub(crate) async fn read_capped(
    pipe: Option<impl AsyncRead + Unpin>,
    cap: usize,
    mut over: Option<OverflowTx>,
) -> Vec<u8> {
    let (mut buf, mut chunk) = (Vec::new(), vec![0u8; 64 << 10]);
    let Some(mut pipe) = pipe else { return buf };
    while let Ok(n @ 1..) = pipe.read(&mut chunk).await {
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..n.min(room)]);
        if n > room {
            if let Some(tx) = over.take() {
                tx.hit.store(true, Ordering::SeqCst);
                let _ = tx.wake.send(());
                break;
            }
        }
    }
    buf
}

/// What a pipe reader collected, waiting at most 2 s more once the process is gone (a
/// grandchild still holding the pipe cannot hold the report back).
pub(crate) async fn collected(reader: tokio::task::JoinHandle<Vec<u8>>) -> Vec<u8> {
    tokio::time::timeout(std::time::Duration::from_secs(2), reader)
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default()
}

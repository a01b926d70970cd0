//! Holding the lease while a job runs: a separate task renews it, and the job is dropped the
//! moment a renewal says the lease is gone. The renewal task lives exactly as long as the job:
//! it is aborted when [`hold`] returns, when its future is dropped, and when the job panics
//! (the panic is caught and reported as [`Held::Panicked`]).

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use croupier_store::{jobs, PgPool};
use futures_util::FutureExt;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use uuid::Uuid;

/// How a job run under [`hold`] ended.
#[derive(Debug)]
pub(crate) enum Held<T> {
    /// The job ran to its end.
    Finished(T),
    /// The lease was lost (taken over, or unrenewable for longer than the lease); the job was
    /// dropped.
    LeaseLost,
    /// The job panicked, with this message.
    Panicked(String),
}

/// A task aborted when this guard is dropped, however the owner ends (return, drop, panic).
pub(crate) struct AbortOnDrop<T>(pub(crate) JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Runs `work` while renewing the lease of `(job_id, attempt)` every `every`.
pub(crate) async fn hold<F: Future>(
    pool: &PgPool,
    (job_id, attempt): (Uuid, i32),
    lease: Duration,
    every: Duration,
    work: F,
) -> Held<F::Output> {
    let (lost_tx, mut lost_rx) = oneshot::channel();
    let _beat = AbortOnDrop(tokio::spawn(renew(
        pool.clone(),
        job_id,
        attempt,
        lease,
        every,
        lost_tx,
    )));
    let work = AssertUnwindSafe(work).catch_unwind();
    tokio::select! {
        biased;
        Ok(()) = &mut lost_rx => Held::LeaseLost,
        out = work => match out {
            Ok(out) => Held::Finished(out),
            Err(panic) => Held::Panicked(panic_message(panic.as_ref())),
        },
    }
}

/// The text of a panic payload (`panic!` with a literal or a formatted message).
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

async fn renew(
    pool: PgPool,
    job_id: Uuid,
    attempt: i32,
    lease: Duration,
    every: Duration,
    lost: oneshot::Sender<()>,
) {
    let mut last_ok = Instant::now();
    loop {
        tokio::time::sleep(every).await;
        // A heartbeat that does not answer within one interval failed: a worker cut off the
        // network gets no error at all from a connection whose packets go nowhere.
        let beat = tokio::time::timeout(every, jobs::heartbeat(&pool, job_id, attempt, lease))
            .await
            .unwrap_or_else(|_| Err(sqlx::Error::PoolTimedOut.into()));
        match beat {
            Ok(true) => last_ok = Instant::now(),
            Ok(false) => {
                tracing::warn!(%job_id, attempt, "lease lost: dropping the job");
                break;
            }
            Err(e) if last_ok.elapsed() >= lease => {
                tracing::warn!(%job_id, attempt, error = %e, "lease expired without a heartbeat: dropping the job");
                break;
            }
            Err(e) => tracing::warn!(%job_id, attempt, error = %e, "heartbeat failed; retrying"),
        }
    }
    let _ = lost.send(());
}

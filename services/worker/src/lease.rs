//! Holding the lease while a job runs: a separate task renews it, and the job is dropped the
//! moment a renewal says the lease is gone.

use std::future::Future;
use std::time::{Duration, Instant};

use croupier_store::{jobs, PgPool};
use tokio::sync::oneshot;
use uuid::Uuid;

/// Runs `work` while renewing the lease of `(job_id, attempt)` every `every`. `None`: the lease
/// was lost (taken over, or unrenewable for longer than `lease`) and `work` was dropped.
pub(crate) async fn hold<F: Future>(
    pool: &PgPool,
    (job_id, attempt): (Uuid, i32),
    lease: Duration,
    every: Duration,
    work: F,
) -> Option<F::Output> {
    let (lost_tx, mut lost_rx) = oneshot::channel();
    let beat = tokio::spawn(renew(pool.clone(), job_id, attempt, lease, every, lost_tx));
    let out = tokio::select! {
        biased;
        Ok(()) = &mut lost_rx => None,
        out = work => Some(out),
    };
    beat.abort();
    out
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
        match jobs::heartbeat(&pool, job_id, attempt, lease).await {
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

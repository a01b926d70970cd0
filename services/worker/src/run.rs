//! [`Worker::run`]: the claim loop with LISTEN/NOTIFY wake-ups, the reaper, the ladder tick, the
//! fleet heartbeat and graceful shutdown.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use futures_util::FutureExt;

use croupier_store::jobs::{self, Lane};
use croupier_store::PgPool;
use sqlx::postgres::PgListener;

use crate::lease::AbortOnDrop;
use crate::{Step, Worker};

const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// The `croupier_job` listener, reconnected with capped exponential back-off.
pub(crate) struct Wakeups {
    pool: PgPool,
    listener: Option<PgListener>,
    backoff: Duration,
    retry_at: Instant,
}

impl Wakeups {
    pub(crate) fn new(pool: PgPool) -> Self {
        Wakeups {
            pool,
            listener: None,
            backoff: Duration::from_secs(1),
            retry_at: Instant::now(),
        }
    }

    /// (Re)connects when due. Called before every claim, so a job queued after the claim's
    /// query is never missed: its notification is already buffered.
    pub(crate) async fn ensure(&mut self) {
        if self.listener.is_some() || Instant::now() < self.retry_at {
            return;
        }
        let connected = async {
            let mut l = PgListener::connect_with(&self.pool).await?;
            l.listen(jobs::CHANNEL).await?;
            Ok::<_, sqlx::Error>(l)
        };
        match connected.await {
            Ok(l) => {
                self.listener = Some(l);
                self.backoff = Duration::from_secs(1);
            }
            Err(e) => self.failed(&e),
        }
    }

    fn failed(&mut self, e: &sqlx::Error) {
        tracing::warn!(error = %e, retry_in = ?self.backoff, "job listener unavailable; polling meanwhile");
        self.listener = None;
        self.retry_at = Instant::now() + self.backoff;
        self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
    }

    /// Waits for a notification or `timeout`, whichever comes first.
    pub(crate) async fn wait(&mut self, timeout: Duration) {
        let Some(listener) = self.listener.as_mut() else {
            return tokio::time::sleep(timeout).await;
        };
        match tokio::time::timeout(timeout, listener.recv()).await {
            Ok(Ok(_)) | Err(_) => {}
            Ok(Err(e)) => self.failed(&e),
        }
    }
}

impl Worker {
    /// Claims and runs jobs until `shutdown` resolves; then lets the current job finish for up
    /// to `shutdown_grace` and returns. It takes compile jobs and bots' matches, never a table
    /// with a person ([`Worker::run_tables`] runs those).
    pub async fn run(self, shutdown: impl Future<Output = ()>) {
        tracing::info!(worker = %self.cfg.id, "worker started");
        // Aborted however the loop ends, even by a panic.
        let _reaper = AbortOnDrop(tokio::spawn(reap_loop(self.clone())));
        let _ladders = AbortOnDrop(tokio::spawn(ladder_loop(self.clone())));
        let _fleet = AbortOnDrop(tokio::spawn(fleet_loop(self.clone())));
        let mut wakeups = Wakeups::new(self.pool.clone());
        tokio::pin!(shutdown);
        let mut failures = 0_u32;
        loop {
            wakeups.ensure().await;
            // A panic outside a job's body (which `run_claimed` already catches) must not end
            // the loop either: it is logged and counted as a failed step.
            let step = AssertUnwindSafe(self.step_in(Lane::Bots)).catch_unwind();
            tokio::pin!(step);
            let result = tokio::select! {
                biased;
                r = &mut step => r,
                () = &mut shutdown => {
                    tracing::info!(grace = ?self.cfg.shutdown_grace, "shutting down: finishing the current job");
                    if tokio::time::timeout(self.cfg.shutdown_grace, step).await.is_err() {
                        tracing::warn!("shutdown grace over: abandoning the job (its lease will expire)");
                    }
                    break;
                }
            };
            let pause = match result {
                Ok(Ok(Step::Ran(_))) => {
                    failures = 0;
                    continue;
                }
                Ok(Ok(Step::Empty)) => self.cfg.poll_every,
                Ok(Err(e)) => {
                    failures += 1;
                    tracing::error!(error = %e, "worker step failed");
                    (self.cfg.poll_every * failures.min(12)).min(MAX_BACKOFF)
                }
                Err(panic) => {
                    failures += 1;
                    let message = crate::lease::panic_message(panic.as_ref());
                    tracing::error!(panic = %message, "worker step panicked; the loop goes on");
                    (self.cfg.poll_every * failures.min(12)).min(MAX_BACKOFF)
                }
            };
            tokio::select! {
                biased;
                () = &mut shutdown => break,
                () = wakeups.wait(pause) => {}
            }
        }
        if let Err(e) = croupier_store::workers::stopped(&self.pool, &self.cfg.id).await {
            tracing::warn!(error = %e, "could not record the worker's stop");
        }
        tracing::info!(worker = %self.cfg.id, "worker stopped");
    }
}

/// Says in the `worker` table that this worker is alive, every `heartbeat_every`, so the
/// organiser's page shows the fleet (`croupier_store::workers`).
pub(crate) async fn fleet_loop(worker: Worker) {
    let me = croupier_store::workers::WorkerIdentity {
        worker_id: worker.cfg.id.clone(),
        host: std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map_or_else(|_| "?".to_owned(), |h| h.trim().to_owned()),
        pid: i32::try_from(std::process::id()).unwrap_or(0),
        version: env!("CARGO_PKG_VERSION").to_owned(),
    };
    loop {
        if let Err(e) = croupier_store::workers::beat(&worker.pool, &me).await {
            tracing::warn!(error = %e, "fleet heartbeat failed");
        }
        tokio::time::sleep(worker.cfg.heartbeat_every).await;
    }
}

async fn reap_loop(worker: Worker) {
    loop {
        if let Err(e) = worker.reap().await {
            tracing::warn!(error = %e, "reaper failed");
        }
        tokio::time::sleep(worker.cfg.reap_every).await;
    }
}

/// Keeps the running ladders and A/B tests fed, plans the next rounds of Swiss and adaptive
/// competitions, and ends challenges and A/B tests (`crate::ladder::tick`,
/// `crate::rounds::tick`, `crate::challenges::tick`).
async fn ladder_loop(worker: Worker) {
    loop {
        match crate::ladder::tick(&worker.pool).await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(matches = n, "ladder matches queued"),
            Err(e) => tracing::warn!(error = %e, "ladder tick failed"),
        }
        match crate::rounds::tick(&worker.pool).await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(matches = n, "next round queued"),
            Err(e) => tracing::warn!(error = %e, "rounds tick failed"),
        }
        match crate::challenges::tick(&worker.pool).await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(matches = n, "A/B test matches queued"),
            Err(e) => tracing::warn!(error = %e, "challenge tick failed"),
        }
        tokio::time::sleep(worker.cfg.ladder_every).await;
    }
}

#[cfg(test)]
mod tests {
    /// The CLI spawns the loop on the runtime, so it must be `Send`.
    #[allow(dead_code)]
    fn the_worker_loop_can_be_spawned(worker: crate::Worker) {
        fn spawnable<T: Send + 'static>(_: T) {}
        spawnable(worker.run(std::future::pending::<()>()));
    }
}

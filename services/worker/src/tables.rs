//! [`Worker::run_tables`]: the lane of tables with a person. A person's table waits on the
//! person most of the time (up to their clock on every move), so it never takes a loop that
//! plays bots' matches: a worker runs up to [`WorkerConfig::tables`](crate::WorkerConfig::tables)
//! tables at once, each a task of its own, claimed from the queue's table lane
//! ([`Lane::Tables`]) and held by its own lease exactly as a bot match is
//! ([`Worker::run_claimed`]): a worker that dies mid-table stops renewing the lease, the reaper
//! queues the table again, and nothing is written or counted for the lost attempt.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use croupier_store::jobs::Lane;
use futures_util::FutureExt;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::lease::AbortOnDrop;
use crate::run::{fleet_loop, Wakeups};
use crate::Worker;

impl Worker {
    /// Runs tables with a person, up to `tables` of the configuration at once, until `shutdown`
    /// resolves; then lets the running tables go on for up to `shutdown_grace` and abandons the
    /// rest (their leases expire and the reaper queues them again). Returns at once when the
    /// configuration allows no tables.
    pub async fn run_tables(self, shutdown: impl Future<Output = ()>) {
        let capacity = self.cfg.tables;
        if capacity == 0 {
            return;
        }
        tracing::info!(worker = %self.cfg.id, tables = capacity, "table lane started");
        let _fleet = AbortOnDrop(tokio::spawn(fleet_loop(self.clone())));
        let free = Arc::new(Semaphore::new(capacity));
        let mut running = JoinSet::new();
        let mut wakeups = Wakeups::new(self.pool.clone());
        tokio::pin!(shutdown);
        loop {
            // A seat at one of the tables first, then a table to put there.
            let seat = tokio::select! {
                biased;
                () = &mut shutdown => break,
                seat = free.clone().acquire_owned() => seat,
                Some(ended) = running.join_next(), if !running.is_empty() => {
                    ended_table(ended);
                    continue;
                }
            };
            let Ok(seat) = seat else { break };
            wakeups.ensure().await;
            let pause = match AssertUnwindSafe(self.claim(Lane::Tables))
                .catch_unwind()
                .await
            {
                Ok(Ok(Some(job))) => {
                    let worker = self.clone();
                    running.spawn(async move {
                        let _seat = seat;
                        if let Err(e) = worker.handle(&job).await {
                            tracing::error!(error = %e, "a table's job failed");
                        }
                    });
                    continue;
                }
                Ok(Ok(None)) => self.cfg.poll_every,
                Ok(Err(e)) => {
                    tracing::error!(error = %e, "claiming a table failed");
                    self.cfg.poll_every
                }
                Err(panic) => {
                    let message = crate::lease::panic_message(panic.as_ref());
                    tracing::error!(panic = %message, "claiming a table panicked; the lane goes on");
                    self.cfg.poll_every
                }
            };
            drop(seat);
            tokio::select! {
                biased;
                () = &mut shutdown => break,
                () = wakeups.wait(pause) => {}
            }
        }
        if !running.is_empty() {
            tracing::info!(grace = ?self.cfg.shutdown_grace, tables = running.len(), "shutting down: the tables may go on for the grace");
            let drain = async {
                while let Some(ended) = running.join_next().await {
                    ended_table(ended);
                }
            };
            if tokio::time::timeout(self.cfg.shutdown_grace, drain)
                .await
                .is_err()
            {
                tracing::warn!(
                    tables = running.len(),
                    "shutdown grace over: abandoning the tables (their leases will expire)"
                );
                running.abort_all();
                while running.join_next().await.is_some() {}
            }
        }
        if let Err(e) = croupier_store::workers::stopped(&self.pool, &self.cfg.id).await {
            tracing::warn!(error = %e, "could not record the table lane's stop");
        }
        tracing::info!(worker = %self.cfg.id, "table lane stopped");
    }
}

/// Logs a table task that ended abnormally (its job body's panics are already caught).
fn ended_table(ended: Result<(), tokio::task::JoinError>) {
    if let Err(e) = ended {
        tracing::error!(error = %e, "a table's task ended abnormally");
    }
}

//! The dispatcher: [`Worker::step`] (or [`Worker::step_in`], from one lane of the queue) claims
//! one job and hands it to its body (`compile` or `matchjob`) by its kind, holds the lease while
//! the body runs, and settles the job in the queue from the body's [`Done`]; [`Worker::reap`]
//! runs the reaper once.

use std::future::Future;
use std::time::Instant;

use croupier_store::jobs::{self, Claimed, GaveUp, Lane, Retry};
use croupier_store::{JobKind, StoreError};
use tracing::field::Empty;

use crate::lease::{self, Held};
use crate::worker::{Done, Outcome, Step, Worker};
use crate::WorkerError;

impl Worker {
    /// Claims one job of any lane and runs it to its end. Errors are database errors only.
    pub async fn step(&self) -> Result<Step, WorkerError> {
        self.step_in(Lane::Any).await
    }

    /// Claims one job of `lane` and runs it to its end. Errors are database errors only.
    pub async fn step_in(&self, lane: Lane) -> Result<Step, WorkerError> {
        let Some(job) = self.claim(lane).await? else {
            return Ok(Step::Empty);
        };
        self.handle(&job).await?;
        Ok(Step::Ran(job.job_id))
    }

    /// Claims one job of `lane` (a lease and a new attempt), or `None` when none is runnable.
    pub(crate) async fn claim(&self, lane: Lane) -> Result<Option<Claimed>, WorkerError> {
        Ok(jobs::claim_in(&self.pool, &self.cfg.id, self.cfg.lease, lane).await?)
    }

    /// Runs the claimed `job` by its kind and settles it in the queue.
    #[tracing::instrument(
        skip_all,
        fields(worker = %self.cfg.id, job_id = %job.job_id, kind = job.kind.as_str(), attempt = job.attempt, submission_id = Empty, match_id = Empty)
    )]
    pub(crate) async fn handle(&self, job: &Claimed) -> Result<Outcome, WorkerError> {
        let span = tracing::Span::current();
        if let Some(id) = job.submission_id {
            span.record("submission_id", tracing::field::display(id));
        }
        if let Some(id) = job.match_id {
            span.record("match_id", tracing::field::display(id));
        }
        tracing::info!("job claimed");
        let work = async {
            match job.kind {
                JobKind::Compile => crate::compile::run(self, job).await,
                JobKind::Match => crate::matchjob::run(self, job).await,
            }
        };
        self.run_claimed(job, work).await
    }

    /// Runs `work`, the body of the claimed `job`, while holding its lease, then settles the
    /// job in the queue and returns its outcome (the metrics label). A panic in `work` is
    /// caught: the lease renewal stops with it and the job is retried as a platform fault.
    /// Errors are database errors only.
    pub async fn run_claimed<F>(&self, job: &Claimed, work: F) -> Result<Outcome, WorkerError>
    where
        F: Future<Output = Result<Done, StoreError>>,
    {
        let started = Instant::now();
        let (lease, every) = (self.cfg.lease, self.cfg.heartbeat_every);
        let done =
            match lease::hold(&self.pool, (job.job_id, job.attempt), lease, every, work).await {
                Held::LeaseLost => Done::LeaseLost,
                Held::Finished(Ok(done)) => done,
                Held::Finished(Err(e)) => {
                    tracing::error!(error = %e, "database error during the job");
                    Done::Platform("database error on the worker".into())
                }
                Held::Panicked(message) => {
                    tracing::error!(panic = %message, "the job panicked");
                    metrics::counter!("job_panics_total", "kind" => job.kind.as_str()).increment(1);
                    Done::Platform(format!("the worker panicked: {message}"))
                }
            };
        let outcome = self.settle(job, done).await?;
        let kind = job.kind.as_str();
        metrics::counter!("jobs_completed_total", "kind" => kind, "outcome" => outcome.as_str())
            .increment(1);
        metrics::histogram!("job_duration_seconds", "kind" => kind)
            .record(started.elapsed().as_secs_f64());
        tracing::info!(
            outcome = outcome.as_str(),
            seconds = started.elapsed().as_secs_f64(),
            "job done"
        );
        Ok(outcome)
    }

    /// Settles the job in the queue; returns its outcome.
    async fn settle(&self, job: &Claimed, done: Done) -> Result<Outcome, StoreError> {
        Ok(match done {
            Done::Completed(outcome) => outcome,
            Done::LeaseLost => {
                tracing::warn!("lease lost: the job was dropped and nothing was written");
                Outcome::LeaseLost
            }
            Done::Platform(reason) => self.give_up(job, &reason, Retry::WhileAttemptsLast).await?,
            Done::Fatal(reason) => self.give_up(job, &reason, Retry::Never).await?,
        })
    }

    /// Retries the job (while its attempts last, if `retry` allows) or fails it for good.
    async fn give_up(
        &self,
        job: &Claimed,
        reason: &str,
        retry: Retry,
    ) -> Result<Outcome, StoreError> {
        match retry {
            Retry::WhileAttemptsLast => tracing::warn!(%reason, "platform fault"),
            Retry::Never => tracing::error!(
                %reason,
                "platform fault that a retry cannot mend: failing the job"
            ),
        }
        let gave_up =
            jobs::give_up_attempt(&self.pool, job.job_id, job.attempt, reason, retry).await?;
        Ok(match gave_up {
            GaveUp::LeaseLost => Outcome::LeaseLost,
            GaveUp::Failed => Outcome::Failed,
            GaveUp::Requeued => Outcome::Retry,
        })
    }

    /// Runs `jobs::reap_expired` once; returns how many jobs it re-queued or failed.
    pub async fn reap(&self) -> Result<usize, WorkerError> {
        let reaped = jobs::reap_expired(&self.pool).await?;
        for r in &reaped {
            tracing::warn!(job_id = %r.job_id, kind = %r.kind, attempt = r.attempt, failed = r.failed, "reaped a job whose lease expired");
        }
        metrics::counter!("jobs_reaped_total").increment(reaped.len() as u64);
        Ok(reaped.len())
    }
}

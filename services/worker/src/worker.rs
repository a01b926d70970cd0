//! [`Worker`] and its unit of work, [`Worker::step`].

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use croupier_sandbox::Sandbox;
use croupier_store::jobs::{self, Claimed};
use croupier_store::{PgPool, StoreError};
use tracing::field::Empty;
use uuid::Uuid;

use crate::artifact::Cache;
use crate::lease::{self, Held};
use crate::{WorkerConfig, WorkerError};

/// What one [`Worker::step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A job was claimed and handled (completed, retried, failed, or dropped after a lost lease).
    Ran(Uuid),
    /// The queue had nothing runnable.
    Empty,
}

/// How a job ended, as far as the queue is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Done {
    /// The result was written and the job completed; the label is the metrics `outcome`.
    Completed(&'static str),
    /// The lease was lost: nothing was written.
    LeaseLost,
    /// Not the bot's fault: retry elsewhere (or fail after the last attempt), with this reason.
    Platform(String),
    /// Not the bot's fault, and running it again cannot help (an invalid match spec, a job of
    /// an unknown kind): fail it now, with this reason.
    Fatal(String),
}

/// A job worker. Cheap to clone; clones share the pool, the sandbox and the artifact cache.
#[derive(Clone)]
pub struct Worker {
    pub(crate) pool: PgPool,
    pub(crate) sandbox: Arc<Sandbox>,
    pub(crate) cfg: Arc<WorkerConfig>,
    pub(crate) cache: Arc<Cache>,
}

impl Worker {
    pub fn new(pool: PgPool, sandbox: Arc<Sandbox>, cfg: WorkerConfig) -> Self {
        let cache = Arc::new(Cache::new(cfg.scratch_dir.join("artifacts")));
        Worker {
            pool,
            sandbox,
            cfg: Arc::new(cfg),
            cache,
        }
    }

    pub fn config(&self) -> &WorkerConfig {
        &self.cfg
    }

    /// Claims one job and runs it to its end. Errors are database errors only.
    #[tracing::instrument(
        skip_all,
        fields(worker = %self.cfg.id, job_id = Empty, kind = Empty, attempt = Empty, submission_id = Empty, match_id = Empty)
    )]
    pub async fn step(&self) -> Result<Step, WorkerError> {
        let Some(job) = jobs::claim(&self.pool, &self.cfg.id, self.cfg.lease).await? else {
            return Ok(Step::Empty);
        };
        let span = tracing::Span::current();
        span.record("job_id", tracing::field::display(job.job_id));
        span.record("kind", job.kind.as_str());
        span.record("attempt", job.attempt);
        if let Some(id) = job.submission_id {
            span.record("submission_id", tracing::field::display(id));
        }
        if let Some(id) = job.match_id {
            span.record("match_id", tracing::field::display(id));
        }
        tracing::info!("job claimed");
        let work = async {
            match job.kind.as_str() {
                "compile" => crate::compile::run(self, &job).await,
                "match" => crate::matchjob::run(self, &job).await,
                other => Ok(Done::Fatal(format!("unknown job kind {other:?}"))),
            }
        };
        self.run_claimed(&job, work).await?;
        Ok(Step::Ran(job.job_id))
    }

    /// Runs `work`, the body of the claimed `job`, while holding its lease, then settles the
    /// job in the queue and returns the metrics outcome (`finished`, `retry`, `failed`,
    /// `lease_lost`, …). A panic in `work` is caught: the lease renewal stops with it and the
    /// job is retried as a platform fault. Errors are database errors only.
    pub async fn run_claimed<F>(&self, job: &Claimed, work: F) -> Result<&'static str, WorkerError>
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
                    metrics::counter!("job_panics_total", "kind" => job.kind.clone()).increment(1);
                    Done::Platform(format!("the worker panicked: {message}"))
                }
            };
        let outcome = self.settle(job, done).await?;
        let kind = job.kind.clone();
        metrics::counter!("jobs_completed_total", "kind" => kind.clone(), "outcome" => outcome)
            .increment(1);
        metrics::histogram!("job_duration_seconds", "kind" => kind)
            .record(started.elapsed().as_secs_f64());
        tracing::info!(
            outcome,
            seconds = started.elapsed().as_secs_f64(),
            "job done"
        );
        Ok(outcome)
    }

    /// Settles the job in the queue; returns the metrics outcome.
    async fn settle(&self, job: &Claimed, done: Done) -> Result<&'static str, StoreError> {
        Ok(match done {
            Done::Completed(outcome) => outcome,
            Done::LeaseLost => {
                tracing::warn!("lease lost: the job was dropped and nothing was written");
                "lease_lost"
            }
            Done::Platform(reason) => self.give_up(job, &reason, true).await?,
            Done::Fatal(reason) => self.give_up(job, &reason, false).await?,
        })
    }

    /// Retries the job (`retry`, until its attempts are used up) or fails it for good.
    async fn give_up(
        &self,
        job: &Claimed,
        reason: &str,
        retry: bool,
    ) -> Result<&'static str, StoreError> {
        if retry {
            tracing::warn!(%reason, "platform fault");
        } else {
            tracing::error!(%reason, "platform fault that a retry cannot mend: failing the job");
        }
        let settled =
            jobs::give_up_attempt(&self.pool, job.job_id, job.attempt, reason, retry).await?;
        Ok(match settled {
            None => "lease_lost",
            Some(true) => "failed",
            Some(false) => "retry",
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

    /// Completes `job` without a result of its own (a cancelled match), fenced.
    pub(crate) async fn complete_bare(
        &self,
        job: &Claimed,
        outcome: &'static str,
    ) -> Result<Done, StoreError> {
        let mut tx = self.pool.begin().await?;
        if !jobs::complete(&mut tx, job.job_id, job.attempt).await? {
            tx.rollback().await?;
            return Ok(Done::LeaseLost);
        }
        tx.commit().await?;
        Ok(Done::Completed(outcome))
    }
}

//! [`Worker`]: what a job body needs (the pool, the sandbox, the configuration, the artifact
//! cache), and [`Done`], how a job body ends. The job bodies (`compile`, `matchjob`) use this
//! module; the dispatcher (`dispatch`) uses them and this module; this module uses neither.

use std::sync::Arc;

use croupier_sandbox::Sandbox;
use croupier_store::jobs::{self, Claimed};
use croupier_store::{PgPool, StoreError};
use uuid::Uuid;

use crate::artifact::Cache;
use crate::config::WorkerConfig;

/// What one [`Worker::step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A job was claimed and handled (completed, retried, failed, or dropped after a lost lease).
    Ran(Uuid),
    /// The queue had nothing runnable.
    Empty,
}

/// How a job ended: the `outcome` label of the `jobs_completed_total` metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A match was played and its result written.
    Finished,
    /// A match was cancelled before or while it was played: no result.
    Cancelled,
    /// A match was already finished or failed when its job was claimed: nothing to do.
    AlreadyOver,
    /// A submission was built and passed its validation game.
    Ready,
    /// A submission failed its build or validation game (the team's fault), or the job was
    /// given up for good after a platform fault.
    Failed,
    /// A platform fault: the job was queued again.
    Retry,
    /// The lease was lost: nothing was written.
    LeaseLost,
}

impl Outcome {
    /// The metrics label.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Finished => "finished",
            Outcome::Cancelled => "cancelled",
            Outcome::AlreadyOver => "already_over",
            Outcome::Ready => "ready",
            Outcome::Failed => "failed",
            Outcome::Retry => "retry",
            Outcome::LeaseLost => "lease_lost",
        }
    }
}

/// How a job body ended, as far as the queue is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Done {
    /// The result was written and the job completed, with this outcome.
    Completed(Outcome),
    /// The lease was lost: nothing was written.
    LeaseLost,
    /// Not the bot's fault: retry elsewhere (or fail after the last attempt), with this reason.
    Platform(String),
    /// Not the bot's fault, and running it again cannot help (an invalid match spec, invalid
    /// stored settings): fail it now, with this reason.
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

    /// Completes `job` without a result of its own (a cancelled match), fenced.
    pub(crate) async fn complete_bare(
        &self,
        job: &Claimed,
        outcome: Outcome,
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

//! Croupier's worker: claims compile and match jobs from the PostgreSQL queue, runs them in the
//! sandbox through the referee, and writes the results back.
//!
//! # One job
//!
//! [`Worker::step`] claims one job (`jobs::claim`: a lease and a new `attempt`, committed at
//! once), runs it while a separate task renews the lease (`jobs::heartbeat`; if the lease is lost
//! the job is dropped and nothing is written), and writes the result in **one transaction fenced by
//! `jobs::complete(tx, job_id, attempt)`** (rolled back when the fence says the lease was lost).
//! A platform fault (sandbox setup, referee error, I/O) is handed to `jobs::give_up_attempt`,
//! which retries the job with a back-off or fails it for good after `max_attempts`; a fault that
//! a retry cannot mend (the referee's non-[retryable](croupier_referee::RefereeError::is_retryable)
//! errors: an invalid match spec, an unsupported game) fails the job at once. A **panic** in a
//! job is caught ([`Worker::run_claimed`]): the lease renewal stops with the job (it is aborted
//! on drop, never left renewing a dead job) and the panic is a platform fault, retried. A bot's
//! fault is never a job failure: it is a seat result, or the submission's `failed` status.
//!
//! * **compile**: unpack the upload, build it inside the sandbox (python3: `py_compile` every
//!   file and pick the entry point; c: `gcc`; cpp: `g++` with jsoncpp, the upload's own copy
//!   when it brings one; binary: as is), store the build directory as a `.tar.gz` artifact with
//!   its `run_command`, then play one **validation game** against built-in bots: `compiling` →
//!   `validating` → `ready` | `failed`.
//! * **match**: unpack each seat's artifact (cached by hash), play the match with
//!   `croupier_referee::play`, write the seat results, the replay and `finished`.
//!
//! # The loop
//!
//! [`Worker::run`] repeats [`Worker::step`] until the queue is empty, then sleeps until a
//! `croupier_job` notification (LISTEN, registered before the claim query, reconnected with capped
//! exponential back-off) or the poll interval; a side task runs `jobs::reap_expired` every
//! [`WorkerConfig::reap_every`]. On shutdown it stops claiming and lets the current job finish for
//! up to [`WorkerConfig::shutdown_grace`], then abandons it (its lease expires and the reaper
//! re-queues it).
//!
//! # Tables with a person
//!
//! A match with a person at the table waits on the person most of the time, so the loop above
//! never takes one (it claims from the queue's bots lane, `jobs::Lane::Bots`). [`Worker::run_tables`]
//! runs them beside it, up to [`WorkerConfig::tables`] at once, each under its own lease as
//! any job is; how many people are playing never slows a round-robin down.
//!
//! Metrics (`metrics` crate): `jobs_completed_total{kind,outcome}`, `job_duration_seconds{kind}`,
//! `job_panics_total{kind}`, `jobs_reaped_total`.

mod artifact;
mod challenges;
mod compile;
mod config;
mod desk;
mod dispatch;
mod ladder;
mod lease;
mod matchjob;
mod outcome;
mod rounds;
mod run;
mod tables;
mod validate;
mod worker;

pub use config::{WorkerConfig, DEFAULT_TABLES};
pub use lease::panic_message;
/// Plans the next round of every Swiss or adaptive competition between rounds (what each
/// worker process does every `ladder_every`); returns how many matches it queued.
pub use rounds::tick as plan_rounds;
pub use worker::{Done, Outcome, Step, Worker};

/// What stops a worker step: the database (the job itself never returns an error, it is
/// completed, retried or failed in the queue).
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error(transparent)]
    Store(#[from] croupier_store::StoreError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

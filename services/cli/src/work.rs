//! `croupier work`: N worker loops against `DATABASE_URL` until Ctrl-C or SIGTERM, and
//! [`Workers`], the in-process worker pool that `croupier up` and `croupier bench` run too.
//!
//! Before any worker starts the sandbox is built and probed ([`SandboxTuning::open`]); in
//! `isolated` mode (the default) a failed probe is an error naming every missing layer. Worker
//! ids are `<hostname>-<pid>-<n>`, n from 1; the process's lane of tables with a person
//! (`--tables`, beside the loops) is `<hostname>-<pid>-tables`. On shutdown every loop stops claiming and its
//! current job may run for `--shutdown-grace` seconds more; a second Ctrl-C stops at once
//! (abandoned jobs are re-queued by the reaper when their lease expires).

use std::os::unix::fs::PermissionsExt;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use clap::Args;
use croupier_sandbox::Sandbox;
use croupier_store::PgPool;
use croupier_worker::{Worker, WorkerConfig};
use futures_util::FutureExt;
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::isolation::{hostname, Isolation, SandboxTuning};
use crate::lifecycle::{connect_and_migrate, shutdown_signal};
use crate::settings::{parse, DbArgs};

/// The worker settings of `work` and `up`.
#[derive(Args, Debug, Clone)]
pub struct WorkerArgs {
    /// Worker loops in this process; each runs one job (compile or match) at a time. 0: none.
    #[arg(long, env = "CROUPIER_WORKERS", default_value = "2")]
    pub workers: String,
    /// Bot isolation: `isolated` (bubblewrap, slot uids, cgroups; needs root) or `none`
    /// (plain processes, local development only).
    #[arg(long, env = "CROUPIER_SANDBOX", default_value = "isolated")]
    pub sandbox: String,
    /// Build directories and the unpacked-artifact cache; it and its parents must be readable
    /// by others. Default: a fresh directory under the system temp dir, removed at exit.
    #[arg(long, env = "CROUPIER_SCRATCH_DIR")]
    pub scratch_dir: Option<PathBuf>,
    /// Seconds a running job may still take after Ctrl-C / SIGTERM before it is abandoned.
    #[arg(long, env = "CROUPIER_SHUTDOWN_GRACE", default_value = "30")]
    pub shutdown_grace: String,
    /// Seconds a claimed job's lease lasts; it is renewed every quarter of that while the job
    /// runs, and a job whose worker died is retried once it runs out.
    #[arg(long, env = "CROUPIER_LEASE_SECS", default_value = "60")]
    pub lease_secs: String,
    /// Tables with a person this process runs at once, beside its worker loops (a person's
    /// table never takes a loop: it waits on the person most of the time). 0: none here.
    #[arg(long, env = "CROUPIER_TABLES", default_value = "8")]
    pub tables: String,
    #[command(flatten)]
    pub tuning: SandboxTuning,
}

impl WorkerArgs {
    pub fn count(&self) -> Result<usize> {
        let n: usize = parse(
            &self.workers,
            "--workers",
            "CROUPIER_WORKERS",
            "a number of workers from 0 to 256",
        )?;
        if n > 256 {
            return Err(anyhow!("invalid value {n} for --workers (environment variable CROUPIER_WORKERS): expected 0 to 256"));
        }
        Ok(n)
    }

    pub fn isolation(&self) -> Result<Isolation> {
        Isolation::parse(&self.sandbox, false)
    }

    pub fn grace(&self) -> Result<Duration> {
        let secs: u64 = parse(
            &self.shutdown_grace,
            "--shutdown-grace",
            "CROUPIER_SHUTDOWN_GRACE",
            "a whole number of seconds",
        )?;
        Ok(Duration::from_secs(secs))
    }

    /// The job lease (at least 2 s).
    pub fn lease(&self) -> Result<Duration> {
        let secs: u64 = parse(
            &self.lease_secs,
            "--lease-secs",
            "CROUPIER_LEASE_SECS",
            "a whole number of seconds, 2 or more",
        )?;
        if secs < 2 {
            return Err(anyhow!("invalid value {secs} for --lease-secs (environment variable CROUPIER_LEASE_SECS): expected 2 or more"));
        }
        Ok(Duration::from_secs(secs))
    }

    /// Tables with a person at once (0 to 1024).
    pub fn tables(&self) -> Result<usize> {
        let n: usize = parse(
            &self.tables,
            "--tables",
            "CROUPIER_TABLES",
            "a number of tables from 0 to 1024",
        )?;
        if n > 1024 {
            return Err(anyhow!("invalid value {n} for --tables (environment variable CROUPIER_TABLES): expected 0 to 1024"));
        }
        Ok(n)
    }

    /// Applies the settings to one worker's configuration: the tables, the grace, the lease, a
    /// heartbeat every quarter lease and a reaper pass every half lease.
    pub fn tune(&self) -> Result<impl Fn(&mut WorkerConfig) + Clone> {
        let grace = self.grace()?;
        let lease = self.lease()?;
        let tables = self.tables()?;
        Ok(move |cfg: &mut WorkerConfig| {
            cfg.tables = tables;
            cfg.shutdown_grace = grace;
            cfg.lease = lease;
            cfg.heartbeat_every = lease / 4;
            cfg.reap_every = lease / 2;
        })
    }

    /// Checks every setting without side effects.
    pub fn check(&self) -> Result<()> {
        self.count()?;
        self.isolation()?;
        self.grace()?;
        self.lease()?;
        self.tables()?;
        self.tuning.config(croupier_sandbox::Mode::None).map(drop)
    }
}

#[derive(Args, Debug)]
pub struct WorkArgs {
    #[command(flatten)]
    pub worker: WorkerArgs,
    #[command(flatten)]
    pub db: DbArgs,
}

/// Where the workers build and unpack; a default one is removed when dropped.
pub enum Scratch {
    Given(PathBuf),
    Temporary(tempfile::TempDir),
}

impl Scratch {
    pub fn new(dir: Option<&PathBuf>) -> Result<Self> {
        let scratch = match dir {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create the scratch dir {}", dir.display()))?;
                Scratch::Given(dir.clone())
            }
            None => Scratch::Temporary(
                tempfile::Builder::new()
                    .prefix("croupier-work-")
                    .tempdir()
                    .context("cannot create a scratch dir in the system temp dir")?,
            ),
        };
        std::fs::set_permissions(scratch.path(), std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("cannot chmod 0755 {}", scratch.path().display()))?;
        Ok(scratch)
    }

    pub fn path(&self) -> &std::path::Path {
        match self {
            Scratch::Given(p) => p,
            Scratch::Temporary(t) => t.path(),
        }
    }
}

/// Running worker loops; [`Workers::stop`] ends them gracefully.
pub struct Workers {
    stop: watch::Sender<bool>,
    tasks: JoinSet<()>,
    _scratch: Scratch,
}

impl Workers {
    /// Starts `n` loops sharing `pool`, `sandbox` and the scratch dir; `tune` adjusts each
    /// worker's configuration (its id and scratch dir are set; the rest are defaults).
    pub fn start(
        pool: &PgPool,
        sandbox: Arc<Sandbox>,
        n: usize,
        scratch: Scratch,
        tune: impl Fn(&mut WorkerConfig),
    ) -> Self {
        let (stop, _) = watch::channel(false);
        let mut tasks = JoinSet::new();
        let (host, pid) = (hostname(), std::process::id());
        for i in 1..=n {
            let mut cfg = WorkerConfig::new(format!("{host}-{pid}-{i}"), scratch.path());
            tune(&mut cfg);
            let worker = Worker::new(pool.clone(), sandbox.clone(), cfg);
            tasks.spawn(supervise(worker, Lane::Jobs, stop.subscribe()));
        }
        // One lane of tables with a person per process, beside its loops.
        let mut cfg = WorkerConfig::new(format!("{host}-{pid}-tables"), scratch.path());
        tune(&mut cfg);
        if n > 0 && cfg.tables > 0 {
            let worker = Worker::new(pool.clone(), sandbox.clone(), cfg);
            tasks.spawn(supervise(worker, Lane::Tables, stop.subscribe()));
        }
        if n > 0 {
            tracing::info!(workers = n, scratch = %scratch.path().display(), "workers started");
        }
        Workers {
            stop,
            tasks,
            _scratch: scratch,
        }
    }

    /// Tells every loop to stop and waits for them (each lets its current job finish within
    /// its grace). A second Ctrl-C / SIGTERM meanwhile aborts them at once.
    pub async fn stop(mut self) {
        if self.tasks.is_empty() {
            return;
        }
        let _ = self.stop.send(true);
        tracing::info!("stopping the workers (Ctrl-C again to abandon their jobs now)");
        let drain = async {
            while let Some(ended) = self.tasks.join_next().await {
                if let Err(e) = ended {
                    tracing::error!(error = %e, "a worker loop ended abnormally");
                }
            }
        };
        tokio::select! {
            () = drain => tracing::info!("workers stopped"),
            () = shutdown_signal() => {
                tracing::warn!("stopping now: running jobs are abandoned (their leases will expire)");
                self.tasks.abort_all();
                while self.tasks.join_next().await.is_some() {}
            }
        }
    }
}

/// What a supervised task runs: a worker loop, or the process's lane of tables with a person.
#[derive(Debug, Clone, Copy)]
enum Lane {
    Jobs,
    Tables,
}

/// Runs `worker`'s loop (or lane) until `stop` says so; one that panics is logged and started
/// again (after a second, so one that panics at once cannot spin).
async fn supervise(worker: Worker, lane: Lane, stop: watch::Receiver<bool>) {
    loop {
        let mut rx = stop.clone();
        let stopped = async move {
            let _ = rx.wait_for(|stop| *stop).await;
        };
        let run = match lane {
            Lane::Jobs => worker.clone().run(stopped).boxed(),
            Lane::Tables => worker.clone().run_tables(stopped).boxed(),
        };
        match AssertUnwindSafe(run).catch_unwind().await {
            Ok(()) => return,
            Err(panic) => {
                let message = croupier_worker::panic_message(panic.as_ref());
                tracing::error!(worker = %worker.config().id, panic = %message, "the worker loop panicked; restarting it");
            }
        }
        if *stop.borrow() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Builds the sandbox for `args`, or fails with the probe's error.
pub async fn sandbox(args: &WorkerArgs) -> Result<Arc<Sandbox>> {
    Ok(Arc::new(args.tuning.open(args.isolation()?).await?.0))
}

pub async fn work(args: WorkArgs) -> Result<()> {
    args.worker.check()?;
    let url = args.db.require()?;
    args.db.configure_blobs()?;
    let n = args.worker.count()?;
    if n == 0 {
        return Err(anyhow!(
            "--workers 0: nothing to run (croupier work needs at least 1 worker)"
        ));
    }
    let sandbox = sandbox(&args.worker).await?;
    let pool = connect_and_migrate(url, pool_size(n)).await?;
    let scratch = Scratch::new(args.worker.scratch_dir.as_ref())?;
    let workers = Workers::start(&pool, sandbox, n, scratch, args.worker.tune()?);
    println!("Croupier is running {n} worker(s)  (Ctrl-C to stop)");
    shutdown_signal().await;
    workers.stop().await;
    pool.close().await;
    Ok(())
}

/// Connections for `n` workers (claim + heartbeat each) and a few spare.
pub fn pool_size(n: usize) -> u32 {
    u32::try_from(2 * n + 4).unwrap_or(u32::MAX)
}

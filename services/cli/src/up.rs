//! `croupier up`, `serve`, `migrate` and `db`.
//!
//! `up` also runs `--workers N` (default 2, 0 allowed) worker loops beside the web app. Their
//! sandbox is probed first; if the probe fails, `up` still serves the web app but runs **no**
//! workers and prints the probe's error prominently (uploads then wait as `pending` until a
//! worker runs: `croupier work`, or `up --sandbox=none` for local development). On shutdown the
//! web app and the workers stop together (each worker finishes its job within the grace), and
//! only then the private PostgreSQL.
//!
//! `up` supervises its private PostgreSQL: it checks every second that the server runs and, if
//! it died, starts it again (logged, with back-off while that fails); the web app and the
//! workers reconnect by themselves. `--metrics-bind` serves `/metrics` on a separate,
//! operator-only address; `--metrics-token` opens `/metrics` on the web app's own address to
//! requests bearing that token.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use croupier_pgcluster::{Cluster, ClusterOptions};
use croupier_server::AppState;
use croupier_store::PgPool;
use rand::distributions::{Alphanumeric, DistString};
use tokio::sync::watch;

use crate::lifecycle::{connect_and_migrate, shutdown_signal};
use crate::settings::{DbArgs, WebArgs};
use crate::work::{pool_size, Scratch, WorkerArgs, Workers};

#[derive(Args, Debug)]
pub struct UpArgs {
    /// Where Croupier keeps its private PostgreSQL cluster and other state.
    #[arg(long, env = "CROUPIER_DATA_DIR", default_value = "./.croupier")]
    pub data_dir: PathBuf,
    #[command(flatten)]
    pub web: WebArgs,
    #[command(flatten)]
    pub db: DbArgs,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub web: WebArgs,
    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(Args, Debug)]
pub struct DbOnlyArgs {
    /// Where the private PostgreSQL cluster lives (created on first use).
    #[arg(long, env = "CROUPIER_DATA_DIR", default_value = "./.croupier")]
    pub data_dir: PathBuf,
    /// Also write the database URL to this file once the server accepts connections.
    #[arg(long)]
    pub url_file: Option<PathBuf>,
}

/// Connections of the web app.
const WEB_POOL: u32 = 16;

/// Creates the first administrator when there is none, and prints its password once.
async fn bootstrap_admin(pool: &PgPool, url: &str) -> Result<()> {
    if croupier_store::users::count_admins(pool).await? > 0 {
        return Ok(());
    }
    let password = Alphanumeric.sample_string(&mut rand::thread_rng(), 20);
    let hash = croupier_server::auth::password::hash(password.clone()).await?;
    let mut username = "admin".to_owned();
    let user = loop {
        match croupier_store::users::create(pool, &username, None, &hash, true).await {
            Ok(u) => break u,
            Err(croupier_store::StoreError::Conflict(_)) => {
                username = format!(
                    "admin-{}",
                    Alphanumeric
                        .sample_string(&mut rand::thread_rng(), 4)
                        .to_lowercase()
                );
            }
            Err(e) => return Err(e.into()),
        }
    };
    println!();
    println!("  ┌─ First start: an administrator account was created ─────────────");
    println!("  │ username: {}", user.username);
    println!("  │ password: {password}");
    println!("  │ Log in at {url}/login — this password is shown only once.");
    println!("  └─────────────────────────────────────────────────────────────────");
    println!();
    Ok(())
}

/// Starts `up`'s workers, or explains prominently why none run.
async fn start_workers(pool: &PgPool, args: &WorkerArgs) -> Result<Option<Workers>> {
    let n = args.count()?;
    if n == 0 {
        tracing::info!("--workers 0: no workers in this process");
        return Ok(None);
    }
    let sandbox = match crate::work::sandbox(args).await {
        Ok(sandbox) => sandbox,
        Err(e) => {
            eprintln!();
            eprintln!("  ┌─ NO WORKERS: the bot sandbox is unavailable ───────────────────");
            for line in format!("{e:#}").lines() {
                eprintln!("  │ {line}");
            }
            eprintln!("  │ The web app runs, but uploads stay pending and no match is played.");
            eprintln!("  └─────────────────────────────────────────────────────────────────");
            eprintln!();
            tracing::error!(error = %e, "no workers: the bot sandbox is unavailable");
            return Ok(None);
        }
    };
    let scratch = Scratch::new(args.scratch_dir.as_ref())?;
    Ok(Some(Workers::start(
        pool,
        sandbox,
        n,
        scratch,
        args.tune()?,
    )))
}

async fn run_web(
    pool: PgPool,
    web: &WebArgs,
    bootstrap: bool,
    workers: Option<&WorkerArgs>,
) -> Result<()> {
    let config = web.server_config()?;
    let addr = web.bind()?;
    let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| {
        format!("cannot listen on {addr} (set --bind or CROUPIER_BIND to another address)")
    })?;
    let local = listener.local_addr()?;
    let url = format!("http://{local}");
    let metrics_listener = match web.metrics_bind()? {
        Some(addr) => Some(tokio::net::TcpListener::bind(addr).await.with_context(|| {
            format!("cannot listen on {addr} for metrics (set --metrics-bind or CROUPIER_METRICS_BIND to another address)")
        })?),
        None => None,
    };
    if bootstrap {
        bootstrap_admin(&pool, &url).await?;
    } else if croupier_store::users::count_admins(&pool).await? == 0 {
        tracing::warn!("no administrator exists yet: create one with `croupier admin create-user NAME --admin`");
    }
    let workers = match workers {
        Some(args) => start_workers(&pool, args).await?,
        None => None,
    };
    let state = AppState::new(pool.clone(), config);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let until_stop = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    let metrics = match metrics_listener {
        Some(listener) => {
            let local = listener.local_addr()?;
            println!("Metrics for operators at http://{local}/metrics");
            tracing::info!(%local, "serving /metrics");
            let serving = croupier_server::serve_metrics(
                listener,
                state.clone(),
                until_stop(stop_rx.clone()),
            );
            Some(tokio::spawn(serving))
        }
        None => None,
    };
    println!("Croupier is running at {url}  (Ctrl-C to stop)");
    tracing::info!(%local, "listening");
    let signal = tokio::spawn(async move {
        shutdown_signal().await;
        let _ = stop_tx.send(true);
    });
    let served = croupier_server::serve(listener, state, until_stop(stop_rx)).await;
    signal.abort();
    if let Some(metrics) = metrics {
        metrics.abort();
    }
    if let Some(workers) = workers {
        workers.stop().await;
    }
    pool.close().await;
    served?;
    Ok(())
}

pub async fn up(args: UpArgs) -> Result<()> {
    args.db.configure_blobs()?;
    args.web.server_config()?;
    args.web.bind()?;
    args.worker.check()?;
    let connections = WEB_POOL + pool_size(args.worker.count()?);
    if let Some(url) = args
        .db
        .database_url
        .as_deref()
        .filter(|u| !u.trim().is_empty())
    {
        tracing::info!("DATABASE_URL is set: using that database, no private PostgreSQL");
        let pool = connect_and_migrate(url, connections).await?;
        return run_web(pool, &args.web, true, Some(&args.worker)).await;
    }
    let cluster = Cluster::start(ClusterOptions::new(&args.data_dir))
        .await
        .context(
            "cannot start the private PostgreSQL (or set DATABASE_URL to use an existing database)",
        )?;
    tracing::info!(dir = %cluster.cluster_dir().display(), "private PostgreSQL running");
    let url = cluster.database_url();
    let (stop_supervising, stopped_rx) = tokio::sync::watch::channel(false);
    let supervisor = tokio::spawn(supervise(cluster, stopped_rx));
    let result = async {
        let pool = connect_and_migrate(&url, connections).await?;
        run_web(pool, &args.web, true, Some(&args.worker)).await
    }
    .await;
    let _ = stop_supervising.send(true);
    let cluster = supervisor
        .await
        .context("the PostgreSQL supervisor failed")?;
    let stopped = cluster
        .stop()
        .await
        .context("stopping the private PostgreSQL");
    tracing::info!("private PostgreSQL stopped");
    result.and(stopped)
}

/// How often `up` checks that its PostgreSQL is alive, and the longest wait between two
/// restart attempts.
const CHECK_EVERY: Duration = Duration::from_secs(1);
const MAX_RESTART_BACKOFF: Duration = Duration::from_secs(30);

/// Watches the private PostgreSQL until `stop` says so, then hands it back to be stopped.
/// When the server dies (killed, crashed) it is started again, retried with exponential
/// back-off (1 s doubling to 30 s) while that fails; the web app's and the workers' pools
/// reconnect by themselves once it is back.
async fn supervise(mut cluster: Cluster, mut stop: watch::Receiver<bool>) -> Cluster {
    loop {
        tokio::select! {
            _ = stop.wait_for(|stop| *stop) => return cluster,
            () = tokio::time::sleep(CHECK_EVERY) => {}
        }
        if cluster.is_alive() {
            continue;
        }
        tracing::error!(dir = %cluster.cluster_dir().display(), "the private PostgreSQL is not running (it died or was killed): restarting it");
        metrics::counter!("postgres_restarts_total").increment(1);
        let mut backoff = Duration::from_secs(1);
        for attempt in 1.. {
            match cluster.restart().await {
                Ok(()) => {
                    tracing::warn!(attempt, "the private PostgreSQL was restarted");
                    break;
                }
                Err(e) => {
                    tracing::error!(attempt, error = %e, retry_in = ?backoff, "restarting the private PostgreSQL failed");
                }
            }
            tokio::select! {
                _ = stop.wait_for(|stop| *stop) => return cluster,
                () = tokio::time::sleep(backoff) => {}
            }
            backoff = (backoff * 2).min(MAX_RESTART_BACKOFF);
        }
    }
}

pub async fn serve(args: ServeArgs) -> Result<()> {
    args.web.server_config()?;
    args.web.bind()?;
    args.db.configure_blobs()?;
    let pool = connect_and_migrate(args.db.require()?, WEB_POOL).await?;
    run_web(pool, &args.web, false, None).await
}

pub async fn migrate(args: DbArgs) -> Result<()> {
    let pool = connect_and_migrate(args.require()?, 2).await?;
    pool.close().await;
    println!("migrations applied");
    Ok(())
}

pub async fn db_only(args: DbOnlyArgs) -> Result<()> {
    let cluster = Cluster::start(ClusterOptions::new(&args.data_dir)).await?;
    let url = cluster.database_url();
    if let Some(file) = &args.url_file {
        std::fs::write(file, format!("{url}\n"))
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    println!("{url}");
    shutdown_signal().await;
    cluster.stop().await?;
    Ok(())
}

//! `croupier up`, `serve`, `migrate` and `db`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use croupier_pgcluster::{Cluster, ClusterOptions};
use croupier_server::AppState;
use croupier_store::PgPool;
use rand::distributions::{Alphanumeric, DistString};

use crate::settings::{DbArgs, WebArgs};

#[derive(Args, Debug)]
pub struct UpArgs {
    /// Where Croupier keeps its private PostgreSQL cluster and other state.
    #[arg(long, env = "CROUPIER_DATA_DIR", default_value = "./.croupier")]
    pub data_dir: PathBuf,
    #[command(flatten)]
    pub web: WebArgs,
    #[command(flatten)]
    pub db: DbArgs,
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

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! { () = ctrl_c => {}, () = term => {} }
    tracing::info!("shutdown requested");
}

async fn connect_and_migrate(url: &str) -> Result<PgPool> {
    let pool = croupier_store::connect(url, 16).await.context(
        "cannot connect to the database (check DATABASE_URL and that PostgreSQL is running)",
    )?;
    croupier_store::migrate(&pool)
        .await
        .context("database migration failed")?;
    Ok(pool)
}

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

async fn run_web(pool: PgPool, web: &WebArgs, bootstrap: bool) -> Result<()> {
    let config = web.server_config()?;
    let addr = web.bind()?;
    let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| {
        format!("cannot listen on {addr} (set --bind or CROUPIER_BIND to another address)")
    })?;
    let local = listener.local_addr()?;
    let url = format!("http://{local}");
    if bootstrap {
        bootstrap_admin(&pool, &url).await?;
    } else if croupier_store::users::count_admins(&pool).await? == 0 {
        tracing::warn!("no administrator exists yet: create one with `croupier admin create-user NAME --admin`");
    }
    println!("Croupier is running at {url}  (Ctrl-C to stop)");
    tracing::info!(%local, "listening");
    croupier_server::serve(
        listener,
        AppState::new(pool.clone(), config),
        shutdown_signal(),
    )
    .await?;
    pool.close().await;
    Ok(())
}

pub async fn up(args: UpArgs) -> Result<()> {
    args.web.server_config()?;
    args.web.bind()?;
    if let Some(url) = args
        .db
        .database_url
        .as_deref()
        .filter(|u| !u.trim().is_empty())
    {
        tracing::info!("DATABASE_URL is set: using that database, no private PostgreSQL");
        let pool = connect_and_migrate(url).await?;
        return run_web(pool, &args.web, true).await;
    }
    let cluster = Cluster::start(ClusterOptions::new(&args.data_dir))
        .await
        .context(
            "cannot start the private PostgreSQL (or set DATABASE_URL to use an existing database)",
        )?;
    tracing::info!(dir = %cluster.cluster_dir().display(), "private PostgreSQL running");
    let result = async {
        let pool = connect_and_migrate(&cluster.database_url()).await?;
        run_web(pool, &args.web, true).await
    }
    .await;
    let stopped = cluster
        .stop()
        .await
        .context("stopping the private PostgreSQL");
    tracing::info!("private PostgreSQL stopped");
    result.and(stopped)
}

pub async fn serve(args: ServeArgs) -> Result<()> {
    args.web.server_config()?;
    args.web.bind()?;
    let pool = connect_and_migrate(args.db.require()?).await?;
    run_web(pool, &args.web, false).await
}

pub async fn migrate(args: DbArgs) -> Result<()> {
    let pool = connect_and_migrate(args.require()?).await?;
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

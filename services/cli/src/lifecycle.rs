//! What every long-running command shares: connecting to the database with its migrations
//! applied, and waiting for Ctrl-C / SIGTERM. `up`, `serve`, `work`, `db` and `play` use it; it
//! uses none of them, so the commands' modules only ever point here.

use anyhow::{Context, Result};
use croupier_store::PgPool;

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

/// Connects with `connections` pooled connections and applies every pending migration.
pub async fn connect_and_migrate(url: &str, connections: u32) -> Result<PgPool> {
    let pool = croupier_store::connect(url, connections).await.context(
        "cannot connect to the database (check DATABASE_URL and that PostgreSQL is running)",
    )?;
    croupier_store::migrate(&pool)
        .await
        .context("database migration failed")?;
    Ok(pool)
}

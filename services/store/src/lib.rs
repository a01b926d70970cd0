//! Croupier's PostgreSQL layer.
//!
//! Everything that touches the database lives here: the embedded migrations
//! ([`MIGRATOR`]), one module of queries per table family, content-addressed
//! [`blobs`], and (from the match pipeline on) the job queue. The web server and
//! the workers call these functions; none of them knows SQL.
//!
//! The fixed sets of values stored as text (statuses, kinds, end states, roles, and the bot's
//! [`Language`]) are enums mapped to their columns in one place each ([`state`]).
//!
//! Queries are written inline with `sqlx::query!` and checked at compile time
//! against the metadata in the workspace's `.sqlx/` folder (`scripts/sqlx-prepare`
//! refreshes it after a query or migration changes).

pub mod blobs;
pub mod builds;
pub mod challenges;
pub mod competition_admin;
pub mod competitions;
mod error;
pub mod events;
pub mod humans;
pub mod jobs;
pub mod ladders;
pub mod logins;
pub mod matches;
pub mod resets;
pub mod retention;
pub mod rounds;
pub mod sessions;
pub mod standings;
pub mod state;
pub mod submissions;
pub mod teams;
pub mod tokens;
pub mod users;
pub mod workers;

use std::time::Duration;

pub use croupier_bundle::{Kind as BundleKind, Language};
pub use error::{ResultExt, StoreError};
pub use sqlx::PgPool;
pub use state::{
    CompetitionKind, CompetitionStatus, EndState, JobKind, JobStatus, MatchStatus,
    SubmissionStatus, TeamRole,
};

/// The migrations in `migrations/`, embedded in the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations");

/// Opens a connection pool. Fails fast (after `acquire_timeout`) when the database is unreachable.
pub async fn connect(database_url: &str, max_connections: u32) -> Result<PgPool, sqlx::Error> {
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        .connect(database_url)
        .await
}

/// Applies every pending migration.
pub async fn migrate(pool: &PgPool) -> Result<(), sqlx::migrate::MigrateError> {
    MIGRATOR.run(pool).await
}

/// A cheap round trip, for `/healthz`.
pub async fn ping(pool: &PgPool) -> Result<(), sqlx::Error> {
    sqlx::query_scalar!("select 1 as \"one!\"")
        .fetch_one(pool)
        .await
        .map(|_| ())
}

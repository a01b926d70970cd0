//! The server's replay-retention pass ([`croupier_store::retention`]), when
//! `--replay-retention-days` is set: a few minutes after start, then every hour. Several
//! servers may run it at once: each batch locks its matches, the others skip them.

use std::time::Duration;

use croupier_store::{retention, PgPool};

/// Time between passes.
pub const EVERY: Duration = Duration::from_secs(3600);

pub async fn expire_periodically(pool: PgPool, days: u32) {
    // Not in the start's rush: the first pass after five minutes.
    let mut every = tokio::time::interval_at(
        tokio::time::Instant::now() + Duration::from_secs(300),
        EVERY,
    );
    loop {
        every.tick().await;
        match retention::expire(&pool, days, false).await {
            Ok(e) if e.matches > 0 => tracing::info!(
                days,
                matches = e.matches,
                blobs = e.blobs,
                bytes = e.bytes,
                objects = e.objects,
                "replays expired"
            ),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "could not expire old replays"),
        }
    }
}

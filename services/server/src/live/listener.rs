//! The one task that `LISTEN`s on [`CHANNEL`] and broadcasts what it hears.
//!
//! It has its own one-connection pool (the web pool's slots stay for requests). When the
//! connection is lost (a database restart, a killed backend) `PgListener` reconnects and
//! re-`LISTEN`s by itself, and says so (`try_recv` answers `Ok(None)`); when that fails too the
//! task makes a new listener, retrying with a growing delay (up to [`MAX_DELAY`]). Either way
//! every stream gets [`Signal::Resync`], since notifications sent meanwhile are lost, and the
//! log says what happened. Each change first drops its competition's kept leaderboard
//! ([`crate::board_cache`]); a resync drops them all.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};
use tokio::sync::{broadcast, watch};

use super::{MatchChange, Signal, CHANNEL};
use crate::board_cache::BoardCache;

/// The first delay before trying again after a failure; it doubles up to [`MAX_DELAY`].
const FIRST_DELAY: Duration = Duration::from_millis(250);
const MAX_DELAY: Duration = Duration::from_secs(10);

/// Listens until aborted.
pub async fn run(
    options: PgConnectOptions,
    signals: broadcast::Sender<Signal>,
    boards: Arc<BoardCache>,
    listening: Arc<watch::Sender<bool>>,
) {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_secs(5))
        .max_lifetime(None)
        .idle_timeout(None)
        .connect_lazy_with(options);
    let mut delay = FIRST_DELAY;
    let mut first = true;
    loop {
        let mut listener = match listen(&pool).await {
            Ok(listener) => listener,
            Err(error) => {
                tracing::warn!(%error, retry_in = ?delay, "live updates: cannot listen for match changes");
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(MAX_DELAY);
                continue;
            }
        };
        delay = FIRST_DELAY;
        if first {
            tracing::info!(
                channel = CHANNEL,
                "live updates: listening for match changes"
            );
        } else {
            tracing::info!(
                channel = CHANNEL,
                "live updates: listening again; open streams resync"
            );
            boards.drop_all();
            let _ = signals.send(Signal::Resync);
        }
        first = false;
        listening.send_replace(true);
        loop {
            match listener.try_recv().await {
                Ok(Some(notification)) => forward(&signals, &boards, notification.payload()),
                Ok(None) => {
                    tracing::warn!(
                        "live updates: lost the database connection and reconnected; open streams resync"
                    );
                    boards.drop_all();
                    let _ = signals.send(Signal::Resync);
                }
                Err(error) => {
                    tracing::warn!(%error, "live updates: the listener failed; listening again");
                    break;
                }
            }
        }
        listening.send_replace(false);
        boards.drop_all();
    }
}

async fn listen(pool: &sqlx::PgPool) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// Drops the competition's kept board, then broadcasts the change (nothing when no stream is
/// open): a page that fetches the board because of the event gets the new one.
fn forward(signals: &broadcast::Sender<Signal>, boards: &BoardCache, payload: &str) {
    match serde_json::from_str::<MatchChange>(payload) {
        Ok(change) => {
            if let Some(competition_id) = change.competition_id {
                boards.drop_board(competition_id);
            }
            let _ = signals.send(Signal::Match(change));
        }
        Err(error) => tracing::warn!(%error, payload, "live updates: unreadable notification"),
    }
}

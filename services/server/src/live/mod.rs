//! Live updates: server-sent event streams that keep the competition, leaderboard and match
//! pages current without reloading them.
//!
//! The path of an event: a match's status changes in PostgreSQL → the `match_status_changed`
//! trigger (migrations/20261126100000_match_events.sql) sends `pg_notify('croupier_match', …)`
//! at commit → one [`listener`] task per server (a `PgListener` on its own connection) parses it
//! into a [`Signal`] on the [`Hub`]'s broadcast channel → every open stream ([`streams`]) picks
//! out its competition's or match's changes, coalesces them and writes SSE events.
//!
//! Only public facts travel this way: match ids, statuses and counts. A finished match's
//! results are fetched by the page as the leaderboard and match-list HTML fragments, which are
//! the same public HTML the pages show; nothing private (a hand, a seat's log) is ever sent.
//!
//! Missed notifications (the listener's connection was lost, or a slow stream's receiver fell
//! behind the channel) are never an error: the streams get [`Signal::Resync`] (or see
//! `Lagged`) and send fresh counts and a `board` event, after which the page is current again.

pub mod listener;
pub mod streams;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use croupier_store::{MatchStatus, PgPool};

use crate::board_cache::{BoardCache, CachedBoard};
// A word of the live script (`labels::script_word`), named `t` as every key is.
use crate::pages::labels::script_word as t;
use serde::Deserialize;
use tokio::sync::{broadcast, watch};
use tokio::task::AbortHandle;
use uuid::Uuid;

/// The words `web/static/live.js` shows (each key with its arguments), which the pages with
/// live updates give it in the page's language.
pub const LIVE_WORDS: &[(&str, &[&str])] = &[
    t("live-match-finished", &[]),
    t("live-match-ended", &["status"]),
    t("live-match-is", &["status"]),
    t("label-status-queued", &[]),
    t("label-status-running", &[]),
    t("label-status-finished", &[]),
    t("label-status-failed", &[]),
    t("label-status-cancelled", &[]),
    t("label-status-scheduled", &[]),
    t("label-status-paused", &[]),
];

/// The live script's words in `lang`, as the script element a page includes.
pub fn words_script(lang: &crate::i18n::Lang) -> String {
    crate::i18n::script_words(*lang, LIVE_WORDS)
}

/// The `pg_notify` channel the trigger sends on.
pub const CHANNEL: &str = "croupier_match";

/// How many signals a slow stream may fall behind before it resyncs.
const CAPACITY: usize = 1024;

/// How long a new stream waits for the listener to be listening before it starts anyway (its
/// first counts are then read without a guarantee that no change slips between).
const READY_WAIT: Duration = Duration::from_secs(5);

/// One notification: a match changed status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct MatchChange {
    pub match_id: Uuid,
    /// `None` for a submission's validation game.
    pub competition_id: Option<Uuid>,
    pub status: MatchStatus,
}

/// What the listener broadcasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Match(MatchChange),
    /// Notifications may have been lost (the listener reconnected): read the state afresh.
    Resync,
    /// The server is shutting down: every stream ends.
    Closing,
}

/// The broadcast channel every stream subscribes to, and the one listener task feeding it.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

struct Inner {
    signals: broadcast::Sender<Signal>,
    /// Leaderboards kept between changes; the listener drops them.
    boards: Arc<BoardCache>,
    /// `true` while the listener's `LISTEN` is in place.
    listening: Arc<watch::Sender<bool>>,
    task: OnceLock<AbortHandle>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(task) = self.task.get() {
            task.abort();
        }
    }
}

impl Default for Hub {
    fn default() -> Self {
        Self::new()
    }
}

impl Hub {
    pub fn new() -> Self {
        Self {
            inner: Arc::new(Inner {
                signals: broadcast::channel(CAPACITY).0,
                boards: Arc::new(BoardCache::default()),
                listening: Arc::new(watch::channel(false).0),
                task: OnceLock::new(),
            }),
        }
    }

    /// Starts the listener on its own connection to `pool`'s database, once (later calls do
    /// nothing). Needs a tokio runtime. [`crate::serve`] calls it at start; a stream calls it
    /// too, so an app driven without `serve` (the in-process tests) gets its listener as well.
    pub fn start(&self, pool: &PgPool) {
        self.inner.task.get_or_init(|| {
            let options = (*pool.connect_options()).clone();
            let task = tokio::spawn(listener::run(
                options,
                self.inner.signals.clone(),
                Arc::clone(&self.inner.boards),
                self.inner.listening.clone(),
            ));
            task.abort_handle()
        });
    }

    /// A receiver of every signal from now on, once the listener listens (or after
    /// [`READY_WAIT`], when the database is unreachable).
    pub async fn subscribe(&self, pool: &PgPool) -> broadcast::Receiver<Signal> {
        self.start(pool);
        let mut listening = self.inner.listening.subscribe();
        let ready = tokio::time::timeout(READY_WAIT, listening.wait_for(|on| *on))
            .await
            .is_ok_and(|listens| listens.is_ok());
        if !ready {
            tracing::warn!("live updates: not listening yet; the stream starts anyway");
        }
        self.inner.signals.subscribe()
    }

    /// The competition's leaderboard, kept between its matches' changes while the listener
    /// listens (see [`crate::board_cache`]).
    pub async fn board(
        &self,
        pool: &PgPool,
        competition_id: Uuid,
    ) -> crate::error::Result<Arc<CachedBoard>> {
        let keep = *self.inner.listening.borrow();
        self.inner.boards.get(pool, competition_id, keep).await
    }

    /// Drops the competition's kept board now (its organiser changed it, not a match).
    pub fn forget(&self, competition_id: Uuid) {
        self.inner.boards.drop_board(competition_id);
    }

    /// Stops the listener and ends every open stream (the server is shutting down).
    pub fn close(&self) {
        if let Some(task) = self.inner.task.get() {
            task.abort();
        }
        self.publish(Signal::Closing);
    }

    /// Sends `signal` to every stream.
    fn publish(&self, signal: Signal) {
        // An error only means that no stream is open.
        let _ = self.inner.signals.send(signal);
    }
}

//! The SSE endpoints: `GET /competitions/{id}/events` and `GET /matches/{id}/events`. Both are
//! public, like the pages they serve (an unknown id is the 404 page, and so is a private
//! match's stream to anyone but its team and admins: `crate::privacy`). They carry statuses
//! and counts only, never a seed.
//!
//! A competition's stream sends `progress` (its counts, as `/competitions/{id}` shows them) at
//! once, then for its matches' changes: `match` (`{"match_id", "status"}`, one per changed
//! match, its latest status), `progress`, and `board` when a match finished (the page then
//! fetches the leaderboard and match-list fragments). Changes are coalesced: one batch at once,
//! then at most one batch per [`BATCH_EVERY`], however many matches finish meanwhile.
//!
//! A match's stream sends `status` (`{"match_id", "status"}`) at once and on every change, and
//! ends after an end status (finished, failed, cancelled): the page reloads then.
//!
//! Both resync after missed signals (the listener reconnected, or the stream's receiver lagged):
//! fresh counts and a `board` event, or the match's status read again.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use croupier_store::{events, MatchStatus};
use futures_util::stream::{self, Stream};
use serde_json::json;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::sync::broadcast::Receiver;
use tokio::time::Instant;
use uuid::Uuid;

use super::Signal;
use crate::auth::MaybeUser;
use crate::error::Result;
use crate::extract::PagePath;
use crate::i18n::{self, Lang};
use crate::pages::labels;
use crate::AppState;

/// The least time between two batches of a competition's events.
pub const BATCH_EVERY: Duration = Duration::from_secs(1);

/// How often an idle stream sends a keep-alive comment.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/competitions/{competition_id}/events", get(competition))
        .route("/matches/{match_id}/events", get(one_match))
}

/// The response: `events`, with a keep-alive comment when idle.
fn sse(events: impl Stream<Item = Result<Event, Infallible>> + Send + 'static) -> Response {
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive"))
        .into_response()
}

async fn competition(
    State(state): State<AppState>,
    PagePath(competition_id): PagePath<Uuid>,
) -> Result<Response> {
    let signals = state.live.subscribe(&state.pool).await;
    // The stream's events are written after this handler returns, outside the request's
    // language scope: the language goes with the feed.
    let lang = i18n::current();
    let first = progress_event(&state, competition_id, lang).await?;
    let feed = CompetitionFeed {
        state,
        competition_id,
        lang,
        signals,
        out: VecDeque::from([first]),
        changed: Vec::new(),
        counts: false,
        board: false,
        next_batch: Instant::now(),
    };
    Ok(sse(stream::unfold(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok(event), feed))
    })))
}

/// The `progress` event: the counts, the total, the status shown and the sentence the page
/// shows under the counts.
async fn progress_event(state: &AppState, competition_id: Uuid, lang: Lang) -> Result<Event> {
    let (p, status) = events::progress(&state.pool, competition_id).await?;
    Ok(json_event(
        "progress",
        &json!({
            "queued": p.queued,
            "running": p.running,
            "finished": p.finished,
            "failed": p.failed,
            "cancelled": p.cancelled,
            "total": p.total(),
            "status": status,
            "label": labels::progress_in(lang, &p),
        }),
    ))
}

fn json_event(name: &str, data: &serde_json::Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// A competition's stream between two events.
struct CompetitionFeed {
    state: AppState,
    competition_id: Uuid,
    /// The language of the page that opened the stream.
    lang: Lang,
    signals: Receiver<Signal>,
    /// Events ready to send.
    out: VecDeque<Event>,
    /// The matches changed since the last batch, each with its latest status.
    changed: Vec<(Uuid, MatchStatus)>,
    /// Whether the next batch sends counts, and a `board` event.
    counts: bool,
    board: bool,
    /// When the next batch may go.
    next_batch: Instant,
}

impl CompetitionFeed {
    /// The next event; `None` when the server shuts down.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.out.pop_front() {
                return Some(event);
            }
            if self.counts && Instant::now() >= self.next_batch {
                // What has arrived meanwhile goes in this batch too.
                loop {
                    let signal = match self.signals.try_recv() {
                        Ok(signal) => Ok(signal),
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Lagged(n)) => Err(RecvError::Lagged(n)),
                        Err(TryRecvError::Closed) => Err(RecvError::Closed),
                    };
                    if !self.take(signal) {
                        return None;
                    }
                }
                self.batch().await;
                continue;
            }
            let waiting = self.counts;
            let until = self.next_batch;
            let signal = tokio::select! {
                signal = self.signals.recv() => signal,
                () = tokio::time::sleep_until(until), if waiting => continue,
            };
            if !self.take(signal) {
                return None;
            }
        }
    }

    /// Notes what `signal` changes; `false` when the stream is to end.
    fn take(&mut self, signal: Result<Signal, RecvError>) -> bool {
        match signal {
            Ok(Signal::Match(c)) if c.competition_id == Some(self.competition_id) => {
                self.note(c.match_id, c.status);
            }
            Ok(Signal::Match(_)) => {}
            Ok(Signal::Resync) | Err(RecvError::Lagged(_)) => {
                self.counts = true;
                self.board = true;
            }
            Ok(Signal::Closing) | Err(RecvError::Closed) => return false,
        }
        true
    }

    fn note(&mut self, match_id: Uuid, status: MatchStatus) {
        match self.changed.iter_mut().find(|(id, _)| *id == match_id) {
            Some(seen) => seen.1 = status,
            None => self.changed.push((match_id, status)),
        }
        self.counts = true;
        self.board |= status == MatchStatus::Finished;
    }

    /// Queues the coalesced events of the changes noted since the last batch.
    async fn batch(&mut self) {
        for (match_id, status) in self.changed.drain(..) {
            self.out.push_back(json_event(
                "match",
                &json!({ "match_id": match_id, "status": status }),
            ));
        }
        match progress_event(&self.state, self.competition_id, self.lang).await {
            Ok(event) => self.out.push_back(event),
            Err(error) => {
                tracing::warn!(%error, competition_id = %self.competition_id, "live updates: no counts");
            }
        }
        if self.board {
            self.out.push_back(json_event("board", &json!({})));
        }
        self.counts = false;
        self.board = false;
        self.next_batch = Instant::now() + BATCH_EVERY;
    }
}

async fn one_match(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    PagePath(match_id): PagePath<Uuid>,
) -> Result<Response> {
    let signals = state.live.subscribe(&state.pool).await;
    let status = crate::privacy::match_for(&state, user.as_ref(), match_id)
        .await?
        .status;
    let feed = MatchFeed {
        state,
        match_id,
        signals,
        sent: None,
        now: Some(status),
    };
    Ok(sse(stream::unfold(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok(event), feed))
    })))
}

/// A match's stream between two events.
struct MatchFeed {
    state: AppState,
    match_id: Uuid,
    signals: Receiver<Signal>,
    /// The status last sent.
    sent: Option<MatchStatus>,
    /// A status to send.
    now: Option<MatchStatus>,
}

impl MatchFeed {
    /// The next `status` event; `None` after an end status was sent.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(status) = self.now.take() {
                if self.sent != Some(status) {
                    self.sent = Some(status);
                    return Some(json_event(
                        "status",
                        &json!({ "match_id": self.match_id, "status": status }),
                    ));
                }
            }
            if self.sent.is_some_and(ended) {
                return None;
            }
            match self.signals.recv().await {
                Ok(Signal::Match(c)) if c.match_id == self.match_id => self.now = Some(c.status),
                Ok(Signal::Match(_)) => {}
                Ok(Signal::Resync) | Err(RecvError::Lagged(_)) => {
                    match events::match_status(&self.state.pool, self.match_id).await {
                        Ok(status) => self.now = Some(status),
                        Err(error) => {
                            tracing::warn!(%error, match_id = %self.match_id, "live updates: no status");
                        }
                    }
                }
                Ok(Signal::Closing) | Err(RecvError::Closed) => return None,
            }
        }
    }
}

/// Whether a match with `status` is over (its page then reloads).
fn ended(status: MatchStatus) -> bool {
    match status {
        MatchStatus::Queued | MatchStatus::Running => false,
        MatchStatus::Finished | MatchStatus::Failed | MatchStatus::Cancelled => true,
    }
}

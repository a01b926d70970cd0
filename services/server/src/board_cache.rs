//! Leaderboards held in memory between changes, so reading one costs no query: the board as
//! built ([`crate::leaderboard::build`]), its API body and its HTML fragment, per competition.
//!
//! **When it is dropped.** The live updates' listener ([`crate::live`]) hears every match status
//! change of a competition (the `croupier_match` notification sent at commit) and drops that
//! competition's board *before* it tells the open pages, so a page that fetches the board
//! because of an event gets the new one; after a reconnect (notifications may have been lost)
//! every board is dropped. A board also expires after [`TTL`], for what changes without a
//! match (a ladder paused, a new version entered). A build that overlapped a drop is not kept
//! (a generation count per competition), so a board older than the last change is never
//! served.
//!
//! **When it is used.** Only while the listener is listening: without it (an app driven
//! in-process without [`crate::serve`], or the database unreachable) every read builds afresh,
//! exactly as before. One build at a time per competition: concurrent readers of a dropped
//! board wait for the one build instead of each running it.
//!
//! **Bytes ready to send.** The API body, and the whole leaderboard page as a visitor who is not
//! signed in sees it (rendered once, by the first such visitor), are kept both plain and
//! gzipped ([`Encoded`]): a browser (which accepts gzip) gets the compressed bytes without any
//! per-request compression, and nothing is copied per request.
//!
//! Measured with `scripts/bench/leaderboard` (see the README's figures).

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use askama::Template;
use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use croupier_store::competitions::{self, Competition};
use croupier_store::PgPool;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::json;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::leaderboard::{self, Board};

/// How long a board is kept at most, for changes no match event announces.
pub const TTL: Duration = Duration::from_secs(5);

/// Boards kept beyond this many competitions are dropped, oldest first.
const MAX_BOARDS: usize = 512;

/// A response body kept plain and gzipped.
pub struct Encoded {
    pub plain: Bytes,
    pub gzip: Bytes,
}

impl Encoded {
    pub fn new(plain: impl Into<Bytes>) -> Result<Encoded> {
        let plain = plain.into();
        let mut gz = GzEncoder::new(Vec::with_capacity(plain.len() / 4), Compression::default());
        gz.write_all(&plain).map_err(Error::internal)?;
        let gzip = Bytes::from(gz.finish().map_err(Error::internal)?);
        Ok(Encoded { plain, gzip })
    }

    /// The response for a request with `headers`: gzipped when the client accepts it.
    pub fn response(&self, headers: &HeaderMap, content_type: &'static str) -> Response {
        let gzip = headers
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
        let kind = (header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        let vary = (header::VARY, HeaderValue::from_static("accept-encoding"));
        if gzip {
            let encoding = (header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            ([kind, vary, encoding], self.gzip.clone()).into_response()
        } else {
            ([kind, vary], self.plain.clone()).into_response()
        }
    }
}

/// A competition's board as read: the competition row it was built with, the board, the API's
/// `{"competition", "leaderboard"}` body, the board's HTML (`leaderboard_table.html`) and the
/// leaderboard page as a signed-out visitor sees it (once one has asked).
pub struct CachedBoard {
    pub competition: Competition,
    pub board: Board,
    pub api: Encoded,
    pub html: String,
    pub visitor_page: OnceLock<Encoded>,
}

#[derive(Template)]
#[template(path = "leaderboard_table.html")]
struct BoardHtml<'a> {
    board: &'a Board,
}

impl CachedBoard {
    /// Reads the competition and builds its board, API body and HTML.
    pub async fn build(pool: &PgPool, competition_id: Uuid) -> Result<CachedBoard> {
        let competition = competitions::get(pool, competition_id).await?;
        let board = leaderboard::build(pool, &competition).await?;
        let api = json!({ "competition": competition, "leaderboard": board });
        let api = Encoded::new(serde_json::to_vec(&api).map_err(Error::internal)?)?;
        let html = BoardHtml { board: &board }
            .render()
            .map_err(Error::internal)?;
        Ok(CachedBoard {
            competition,
            board,
            api,
            html,
            visitor_page: OnceLock::new(),
        })
    }
}

#[derive(Default)]
struct Slot {
    /// Bumped at every drop: a build started under an older one is not kept.
    generation: u64,
    kept: Option<(Instant, Arc<CachedBoard>)>,
    /// Held while the board is built.
    building: Arc<tokio::sync::Mutex<()>>,
}

impl Slot {
    fn fresh(&self) -> Option<Arc<CachedBoard>> {
        let (at, board) = self.kept.as_ref()?;
        (at.elapsed() < TTL).then(|| Arc::clone(board))
    }
}

#[derive(Default)]
pub struct BoardCache {
    slots: Mutex<HashMap<Uuid, Slot>>,
}

impl BoardCache {
    fn slots(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Slot>> {
        self.slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Drops the competition's board (one of its matches changed).
    pub fn drop_board(&self, competition_id: Uuid) {
        let mut slots = self.slots();
        if let Some(slot) = slots.get_mut(&competition_id) {
            slot.generation += 1;
            slot.kept = None;
        }
    }

    /// Drops every board (notifications may have been lost).
    pub fn drop_all(&self) {
        for slot in self.slots().values_mut() {
            slot.generation += 1;
            slot.kept = None;
        }
    }

    /// The competition's board: the kept one while it is current, else built (once, however
    /// many ask at the same time). `keep` is whether boards may be kept at all (the listener
    /// listens).
    pub async fn get(
        &self,
        pool: &PgPool,
        competition_id: Uuid,
        keep: bool,
    ) -> Result<Arc<CachedBoard>> {
        if !keep {
            return Ok(Arc::new(CachedBoard::build(pool, competition_id).await?));
        }
        let building = {
            let mut slots = self.slots();
            let slot = slots.entry(competition_id).or_default();
            if let Some(board) = slot.fresh() {
                return Ok(board);
            }
            Arc::clone(&slot.building)
        };
        let _building = building.lock().await;
        let generation = {
            let slots = self.slots();
            let slot = slots.get(&competition_id);
            if let Some(board) = slot.and_then(Slot::fresh) {
                return Ok(board);
            }
            slot.map_or(0, |s| s.generation)
        };
        let board = Arc::new(CachedBoard::build(pool, competition_id).await?);
        let mut slots = self.slots();
        if slots.len() > MAX_BOARDS {
            slots.retain(|id, s| *id == competition_id || s.fresh().is_some());
        }
        let slot = slots.entry(competition_id).or_default();
        if slot.generation == generation {
            slot.kept = Some((Instant::now(), Arc::clone(&board)));
        }
        Ok(board)
    }
}

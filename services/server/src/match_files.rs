//! A match's downloads, shared by the API (`/api/v1/matches/{id}/replay`, `…/seats/{seat}/log`)
//! and the match page (`/matches/{id}/replay.json`, `…/seats/{seat}/log.txt`), so both answer
//! with the same access rules:
//!
//! * a private match (a challenge's) is a 404 to anyone but its team and admins, like its page
//!   (`crate::privacy`);
//! * the replay (the worker's replay document, format 1, see `docs/replays.md`) is public, but
//!   only once the match has finished and no match dealt the same cards is still to play:
//!   until then it holds hidden information (hands, the deck), so it is a 409; its events,
//!   left out when it was stored, are derived on the way out, and its games' `seed` is `null`
//!   until the seeds are out (`crate::privacy`);
//! * a seat's log (its stderr tail, fault detail, per-move timings and move records — each
//!   move's time, memory peak and stderr, see `docs/replays.md#move-by-move`) is for the
//!   members of the team whose submission sat there and for admins; anyone else gets a 404, as
//!   for every other private thing of another team; shown when the replay is. Its parts are small (the stderr tail is
//!   capped by the sandbox's `stderr_bytes`, 64 KiB; the move records are parsed to be
//!   written as text), so it is put together in memory.

use croupier_games::MoveRecord;
use croupier_store::blobs;
use croupier_store::matches::{self, SeatWithResult};
use croupier_store::users::User;
use croupier_store::{retention, teams};
use uuid::Uuid;

use crate::error::Error;
use crate::pages::labels::tk;
use crate::{privacy, AppState};

/// The replay document of a finished match with every game's events, if `user` may see the
/// match and its deal is out (`crate::privacy`): stored with the events left out, they are
/// derived here ([`croupier_games::document::with_events`]); a document that cannot be
/// completed is handed out as stored, which is still the whole record. Each game's `seed` is
/// `null` until the match's seed may be shown.
pub async fn replay(
    state: &AppState,
    user: Option<&User>,
    match_id: Uuid,
) -> Result<Vec<u8>, Error> {
    let m = privacy::match_for(state, user, match_id).await?;
    privacy::dealt(&m, |status| {
        tk("match-replay-not-yet", &[], &[("status", status)])
    })?;
    let Some(stored) = matches::replay(&state.pool, match_id).await? else {
        return Err(no_replay(state, match_id).await);
    };
    let seed_out = m.shown_seed().is_some();
    tokio::task::spawn_blocking(move || {
        let whole = croupier_games::document::with_events(&stored).unwrap_or_else(|e| {
            tracing::warn!(%match_id, error = %e, "a replay's events could not be derived");
            stored
        });
        if seed_out {
            Ok(whole)
        } else {
            without_seeds(&whole)
        }
    })
    .await
    .map_err(Error::internal)?
}

/// The replay document with every game's `seed` set to `null`.
fn without_seeds(doc: &[u8]) -> Result<Vec<u8>, Error> {
    let mut doc: serde_json::Value = serde_json::from_slice(doc).map_err(Error::internal)?;
    if let Some(games) = doc.get_mut("games").and_then(|g| g.as_array_mut()) {
        for game in games {
            if let Some(replay) = game.get_mut("replay").and_then(|r| r.as_object_mut()) {
                replay.insert("seed".to_owned(), serde_json::Value::Null);
            }
        }
    }
    serde_json::to_vec(&doc).map_err(Error::internal)
}

/// Why a finished match has no replay: a 410 saying when it expired (replay retention,
/// `croupier_store::retention`), else a 404.
pub async fn no_replay(state: &AppState, match_id: Uuid) -> Error {
    match retention::replay_expired_at(&state.pool, match_id).await {
        Ok(Some(when)) => {
            let when = crate::templates::when(&when);
            Error::Gone(tk("match-replay-expired", &[], &[("when", when.as_str())]))
        }
        Ok(None) => Error::NotFound,
        Err(e) => e.into(),
    }
}

/// The file name a replay is downloaded as.
pub fn replay_filename(match_id: Uuid) -> String {
    format!("match-{match_id}.json")
}

/// A seat's private record: its result, its stderr tail and its move records.
pub struct SeatLog {
    pub seat: SeatWithResult,
    pub stderr: Vec<u8>,
    /// The referee's move records, in move order.
    pub moves: Vec<MoveRecord>,
}

impl SeatLog {
    /// As plain text: a few `# ` header lines, then the stderr tail as it was written.
    pub fn text(&self) -> Vec<u8> {
        let s = &self.seat;
        let mut out = format!("# seat {}", s.seat);
        if let (Some(team), Some(version)) = (&s.team_name, s.version) {
            out.push_str(&format!(" · {team} v{version}"));
        }
        out.push('\n');
        if let Some(end) = s.end_state {
            out.push_str(&format!("# end: {end}\n"));
        }
        if let Some(detail) = &s.end_detail {
            out.push_str(&format!("# detail: {}\n", detail.replace('\n', " ")));
        }
        if let Some(moves) = s.moves {
            out.push_str(&format!("# moves: {moves}\n"));
        }
        out.push_str("# stderr (the end of it):\n");
        let mut bytes = out.into_bytes();
        bytes.extend_from_slice(&self.stderr);
        if !self.moves.is_empty() {
            if !bytes.ends_with(b"\n") {
                bytes.push(b'\n');
            }
            bytes.extend_from_slice(self.moves_text().as_bytes());
        }
        bytes
    }

    /// The move records as text: one `# ` line per move (game, replay step, time, memory),
    /// then the stderr it wrote, indented.
    fn moves_text(&self) -> String {
        let mut out =
            String::from("# move by move (replay entry: time, memory peak; its stderr below):\n");
        for m in &self.moves {
            let peak = m
                .peak_kib
                .map_or_else(String::new, |k| format!(", {k} KiB"));
            let forced = if m.forced {
                ", played for it by the referee"
            } else {
                ""
            };
            out.push_str(&format!(
                "# game {} entry {}: {} ms{peak}{forced}\n",
                m.game + 1,
                m.entry,
                m.ms
            ));
            for line in m.stderr.lines() {
                out.push_str("    ");
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }
}

/// The log of `seat` in a finished match, if `user` may read it (a member of the team whose
/// submission sat there, or an admin); [`Error::NotFound`] otherwise, and for a built-in seat.
pub async fn seat_log(
    state: &AppState,
    user: Option<&User>,
    match_id: Uuid,
    seat: i32,
) -> Result<SeatLog, Error> {
    let seat = private_seat(state, user, match_id, seat).await?;
    let stderr = match &seat.stderr_sha256 {
        Some(sha) => blobs::get(&state.pool, sha).await?,
        None => Vec::new(),
    };
    let moves = move_records(state, &seat).await?;
    Ok(SeatLog {
        seat,
        stderr,
        moves,
    })
}

/// `seat`'s move records, when `user` may read its log (the rule of [`seat_log`]), without
/// loading the rest of the log.
pub async fn seat_moves(
    state: &AppState,
    user: Option<&User>,
    match_id: Uuid,
    seat: i32,
) -> Result<Vec<MoveRecord>, Error> {
    let seat = private_seat(state, user, match_id, seat).await?;
    move_records(state, &seat).await
}

async fn move_records(state: &AppState, seat: &SeatWithResult) -> Result<Vec<MoveRecord>, Error> {
    match &seat.move_log_sha256 {
        Some(sha) => {
            serde_json::from_slice(&blobs::get(&state.pool, sha).await?).map_err(Error::internal)
        }
        None => Ok(Vec::new()),
    }
}

/// The seat of a finished match whose private data `user` may read; see [`seat_log`].
async fn private_seat(
    state: &AppState,
    user: Option<&User>,
    match_id: Uuid,
    seat: i32,
) -> Result<SeatWithResult, Error> {
    let user = user.ok_or(Error::NotFound)?;
    let m = privacy::match_for(state, Some(user), match_id).await?;
    let seat = matches::seats_with_results(&state.pool, match_id)
        .await?
        .into_iter()
        .find(|s| s.seat == seat)
        .ok_or(Error::NotFound)?;
    let team_id = seat.team_id.ok_or(Error::NotFound)?;
    if !user.is_admin
        && teams::role_of(&state.pool, team_id, user.user_id)
            .await?
            .is_none()
    {
        return Err(Error::NotFound);
    }
    privacy::dealt(&m, |status| {
        tk("match-seat-logs-not-yet", &[], &[("status", status)])
    })?;
    if seat.rank.is_none() {
        // Finished without this seat's result: nothing was kept for it.
        return Err(Error::NotFound);
    }
    Ok(seat)
}

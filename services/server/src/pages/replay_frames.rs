//! The replay viewer's data: `GET /matches/{match_id}/frames.json?view=omniscient|seat:N`.
//!
//! The stored replay is rebuilt with the engine ([`Replay::frames`]) and every step is sent with
//! the observation of the chosen viewer — for `seat:N` exactly what that seat's bot was sent —
//! the entry just played (its events' texts with the players' names) and, at the end of each
//! game, its outcome; `outcome` at the top is the match's (the result table's scores). Only
//! once the match has finished (409 before: the hidden information of a running match never
//! reaches a browser). `web/static/viewer/viewer.js` draws it.
//!
//! For `seat:N` asked by a member of the team that sat there (or an admin), `moves` adds the
//! seat's move records — each move's time, memory peak and stderr — which the viewer shows at
//! the step each one became; nobody else ever gets them (the seat-log rule of
//! `crate::match_files`).

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use croupier_games::{Frame, MoveRecord, Replay, Seat, Viewer};
use croupier_store::users::User;
use croupier_store::{matches, MatchStatus};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::timeline::with_names;
use crate::auth::MaybeUser;
use crate::error::{Error, Result};
use crate::extract::{PagePath, PageQuery};
use crate::{match_files, AppState};

pub fn router() -> Router<AppState> {
    Router::new().route("/matches/{match_id}/frames.json", get(frames))
}

/// The words of the replay viewer's scripts (`web/static/viewer/*.js`, each key with its
/// arguments), which the match and play pages give them in the page's language.
pub const VIEWER_WORDS: &[(&str, &[&str])] = &[
    ("viewer-bridge-north", &[]),
    ("viewer-bridge-east", &[]),
    ("viewer-bridge-south", &[]),
    ("viewer-bridge-west", &[]),
    ("viewer-bridge-pass", &[]),
    ("viewer-face-down", &[]),
    ("viewer-bridge-contract-by", &["bid", "seat"]),
    ("viewer-bridge-no-contract", &[]),
    ("viewer-bridge-board", &["board"]),
    ("viewer-bridge-dealer", &["seat"]),
    ("viewer-bridge-vulnerable", &["who"]),
    ("viewer-bridge-vulnerable-none", &[]),
    ("viewer-bridge-contract", &["contract"]),
    ("viewer-bridge-trick", &["n", "seat"]),
    ("viewer-bridge-bidding", &[]),
    ("viewer-bridge-no-trick", &[]),
    ("viewer-bridge-auction", &[]),
    ("viewer-to-play", &[]),
    ("viewer-bridge-dummy-cards", &["seat"]),
    ("viewer-bridge-tricks", &["tricks"]),
    ("viewer-bridge-robot", &[]),
    ("viewer-bridge-result", &["tricks", "score"]),
    ("viewer-guandan-small-joker", &[]),
    ("viewer-guandan-big-joker", &[]),
    ("viewer-guandan-pass", &[]),
    ("viewer-guandan-single", &[]),
    ("viewer-guandan-pair", &[]),
    ("viewer-guandan-trips", &[]),
    ("viewer-guandan-three-pair", &[]),
    ("viewer-guandan-three-with-two", &[]),
    ("viewer-guandan-two-trips", &[]),
    ("viewer-guandan-straight", &[]),
    ("viewer-guandan-straight-flush", &[]),
    ("viewer-guandan-bomb", &[]),
    ("viewer-guandan-tribute", &[]),
    ("viewer-guandan-back", &[]),
    ("viewer-guandan-passed", &[]),
    ("viewer-guandan-cards-left", &["n"]),
    ("viewer-guandan-stage-play", &[]),
    ("viewer-guandan-stage-tribute", &[]),
    ("viewer-guandan-stage-back", &[]),
    ("viewer-guandan-stage-over", &[]),
    ("viewer-guandan-deal", &["deal"]),
    ("viewer-guandan-level", &["level"]),
    ("viewer-guandan-stage", &["stage"]),
    ("viewer-guandan-out", &["seats"]),
    ("viewer-guandan-to-beat", &[]),
    ("viewer-guandan-by", &["who"]),
    ("viewer-guandan-free-lead", &[]),
    ("viewer-guandan-team-02", &[]),
    ("viewer-guandan-team-13", &[]),
    ("viewer-guandan-out-place", &["place"]),
    ("viewer-guandan-this-round", &[]),
    ("viewer-guandan-hand-hidden", &[]),
    ("viewer-hanabi-red", &[]),
    ("viewer-hanabi-yellow", &[]),
    ("viewer-hanabi-blue", &[]),
    ("viewer-hanabi-green", &[]),
    ("viewer-hanabi-white", &[]),
    ("viewer-hanabi-rainbow", &[]),
    ("viewer-hanabi-not-visible", &[]),
    ("viewer-hanabi-card", &["color", "number"]),
    ("viewer-hanabi-hinted", &[]),
    ("viewer-hanabi-may-be", &["colors", "numbers"]),
    ("viewer-hanabi-end-strikeout", &[]),
    ("viewer-hanabi-end-deck-out", &[]),
    ("viewer-hanabi-end-complete", &[]),
    ("viewer-hanabi-end-fault", &[]),
    ("viewer-hanabi-end", &[]),
    ("viewer-hanabi-fireworks", &[]),
    ("viewer-hanabi-firework-at", &["color", "height"]),
    ("viewer-hanabi-clues", &["n"]),
    ("viewer-hanabi-fuses", &["n"]),
    ("viewer-hanabi-deck", &["n"]),
    ("viewer-hanabi-turns-left", &["turns"]),
    ("viewer-score", &[]),
    ("viewer-hanabi-discarded", &[]),
    ("viewer-nothing", &[]),
    ("viewer-hanabi-game-over", &["reason", "score"]),
    ("viewer-no-cards", &[]),
    ("viewer-nothanks-chips-on-it", &["n"]),
    ("viewer-nothanks-over", &[]),
    ("viewer-nothanks-no-offer", &[]),
    ("viewer-nothanks-face-down", &["n"]),
    ("viewer-nothanks-hidden-next", &[]),
    ("viewer-none", &[]),
    ("viewer-nothanks-set-aside", &[]),
    ("viewer-nothanks-counts", &["card"]),
    ("viewer-nothanks-coins", &["n"]),
    ("viewer-cards", &["n"]),
    ("viewer-splendor-white", &[]),
    ("viewer-splendor-blue", &[]),
    ("viewer-splendor-green", &[]),
    ("viewer-splendor-red", &[]),
    ("viewer-splendor-black", &[]),
    ("viewer-splendor-gold", &[]),
    ("viewer-splendor-level", &["level"]),
    ("viewer-splendor-card", &["level", "color", "points"]),
    ("viewer-splendor-cost", &[]),
    ("viewer-splendor-noble", &["points"]),
    ("viewer-splendor-pts", &["points"]),
    ("viewer-splendor-requires", &[]),
    ("viewer-splendor-bank", &[]),
    ("viewer-splendor-bank-label", &[]),
    ("viewer-splendor-nobles", &[]),
    ("viewer-splendor-none-left", &[]),
    ("viewer-splendor-deck", &["level"]),
    ("viewer-splendor-left", &["count"]),
    ("viewer-splendor-next", &[]),
    ("viewer-splendor-points", &[]),
    ("viewer-splendor-gems", &[]),
    ("viewer-splendor-gems-label", &[]),
    ("viewer-splendor-bonuses", &[]),
    ("viewer-splendor-bonuses-label", &[]),
    ("viewer-splendor-owned", &["cards", "nobles"]),
    ("viewer-splendor-reserved", &[]),
    ("viewer-step", &["step", "last"]),
    ("viewer-observation-summary", &[]),
    ("viewer-observation", &[]),
    ("viewer-seat", &["seat"]),
    ("viewer-this-view", &[]),
    ("viewer-back-title", &[]),
    ("viewer-back", &[]),
    ("viewer-play-title", &[]),
    ("viewer-play", &[]),
    ("viewer-next-title", &[]),
    ("viewer-next", &[]),
    ("viewer-speed", &[]),
    ("viewer-step-label", &[]),
    ("viewer-perspective", &[]),
    ("viewer-omniscient", &[]),
    ("viewer-loading", &[]),
    ("viewer-seen-by", &[]),
    ("viewer-not-finished", &[]),
    ("viewer-load-failed-status", &["status"]),
    ("viewer-no-steps", &[]),
    ("viewer-load-failed", &[]),
    ("viewer-view-seat", &["seat", "name"]),
    ("viewer-game-of", &["game", "games"]),
    ("viewer-own-hint", &[]),
    ("viewer-own-move", &["ms"]),
    ("viewer-own-peak", &["mib"]),
    ("viewer-own-forced", &[]),
    ("viewer-own-stderr", &[]),
    ("viewer-own-no-stderr", &[]),
    ("viewer-game-start", &["game"]),
    ("viewer-plays", &["who", "action"]),
    ("viewer-forced", &["who"]),
    ("viewer-refused", &["who", "action", "note"]),
    ("viewer-fault", &["who", "note"]),
    ("viewer-no-reason", &[]),
    ("viewer-game-over", &[]),
    ("viewer-pause", &[]),
];

/// The viewer's words in `lang`, as the script element the page includes.
pub fn words_script(lang: &crate::i18n::Lang) -> String {
    crate::i18n::script_words_element(*lang, VIEWER_WORDS)
}

#[derive(Deserialize)]
struct Query {
    view: Option<String>,
}

/// The worker's replay document (format 1), the parts the viewer needs.
#[derive(Deserialize)]
struct ReplayDoc {
    #[serde(default)]
    players: Vec<String>,
    games: Vec<GameDoc>,
    #[serde(default)]
    outcome: Option<Value>,
}

#[derive(Deserialize)]
struct GameDoc {
    replay: Replay,
}

#[derive(Serialize)]
struct Frames {
    game: String,
    /// `omniscient` or `seat:N`, as asked.
    view: String,
    /// Names in seat order.
    players: Vec<String>,
    /// The number of games in the match.
    games: usize,
    /// Every step of every game, in order: each game's start, then one per entry.
    frames: Vec<MatchFrame>,
    /// The match's outcome (scores summed over its games), as stored.
    outcome: Option<Value>,
    /// The viewing seat's move records, for its team only.
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveRecord>>,
}

#[derive(Serialize)]
struct MatchFrame {
    /// 0-based game of the match.
    game: usize,
    #[serde(flatten)]
    frame: Frame,
}

/// `omniscient` or `seat:N` with `N` below `seats`.
fn parse_view(view: Option<&str>, seats: usize) -> Result<Viewer> {
    let bad = || {
        Error::BadRequest(format!(
            "view must be omniscient or seat:N with N from 0 to {}",
            seats.saturating_sub(1)
        ))
    };
    match view.unwrap_or("omniscient") {
        "omniscient" => Ok(Viewer::Omniscient),
        other => {
            let n: usize = other
                .strip_prefix("seat:")
                .and_then(|n| n.parse().ok())
                .ok_or_else(bad)?;
            if n < seats {
                Ok(Viewer::Seat(Seat(n)))
            } else {
                Err(bad())
            }
        }
    }
}

async fn frames(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    PagePath(match_id): PagePath<Uuid>,
    PageQuery(query): PageQuery<Query>,
) -> Result<Response> {
    let m = matches::get(&state.pool, match_id).await?;
    if m.status != MatchStatus::Finished {
        return Err(Error::Conflict(
            "the replay can be watched once the match has finished".into(),
        ));
    }
    let blob = matches::replay(&state.pool, match_id)
        .await?
        .ok_or(Error::NotFound)?;
    let doc: ReplayDoc = serde_json::from_slice(&blob).map_err(Error::internal)?;
    let seats = doc.players.len();
    let viewer = parse_view(query.view.as_deref(), seats)?;
    let mut frames = Vec::new();
    for (game, g) in doc.games.iter().enumerate() {
        for mut frame in g.replay.frames(viewer).map_err(Error::internal)? {
            if let Some(entry) = &mut frame.entry {
                for text in entry.events.iter_mut().chain(entry.note.iter_mut()) {
                    *text = with_names(text, &doc.players);
                }
            }
            frames.push(MatchFrame { game, frame });
        }
    }
    let moves = match viewer {
        Viewer::Seat(seat) => own_moves(&state, user.as_ref(), match_id, seat).await?,
        Viewer::Spectator | Viewer::Omniscient => None,
    };
    Ok(Json(Frames {
        game: m.game,
        view: match viewer {
            Viewer::Seat(seat) => format!("seat:{seat}"),
            Viewer::Spectator | Viewer::Omniscient => "omniscient".to_owned(),
        },
        players: doc.players,
        games: doc.games.len(),
        frames,
        outcome: doc.outcome,
        moves,
    })
    .into_response())
}

/// The seat's move records when `user` may read its log; `None` when not (a 404 of the
/// seat-log rule: another team's seat, a built-in, nobody signed in).
async fn own_moves(
    state: &AppState,
    user: Option<&User>,
    match_id: Uuid,
    seat: Seat,
) -> Result<Option<Vec<MoveRecord>>> {
    let seat = i32::try_from(seat.index()).map_err(Error::internal)?;
    match match_files::seat_moves(state, user, match_id, seat).await {
        Ok(moves) => Ok(Some(moves)),
        Err(Error::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_is_omniscient_or_a_seat_of_the_match() {
        assert_eq!(parse_view(None, 3).unwrap(), Viewer::Omniscient);
        assert_eq!(
            parse_view(Some("omniscient"), 3).unwrap(),
            Viewer::Omniscient
        );
        assert_eq!(
            parse_view(Some("seat:2"), 3).unwrap(),
            Viewer::Seat(Seat(2))
        );
        for bad in ["seat:3", "seat:", "seat:-1", "spectator", "2"] {
            assert!(
                matches!(parse_view(Some(bad), 3), Err(Error::BadRequest(_))),
                "{bad}"
            );
        }
    }
}

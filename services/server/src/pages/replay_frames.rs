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

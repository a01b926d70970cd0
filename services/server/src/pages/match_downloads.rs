//! The match page's downloads: `/matches/{id}/replay.json` (the replay document, once the
//! match and every match dealt the same cards have finished; a private match's only for its
//! team and admins) and `/matches/{id}/seats/{seat}/log.txt` (a seat's stderr tail and
//! fault detail, for the members of its team and admins; a 404 for anyone else). The same
//! files and the same rules as the API's (`crate::match_files`).

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

use crate::auth::MaybeUser;
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::AppState;
use crate::{download, match_files};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/matches/{match_id}/replay.json", get(replay))
        .route("/matches/{match_id}/seats/{seat}/log.txt", get(seat_log))
}

fn attachment(filename: &str) -> String {
    format!("attachment; filename=\"{filename}\"")
}

async fn replay(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    PagePath(match_id): PagePath<Uuid>,
) -> Result<Response> {
    let doc = match_files::replay(&state, user.as_ref(), match_id).await?;
    let name = match_files::replay_filename(match_id);
    Ok(download::bytes(doc, "application/json", Some(&name)))
}

async fn seat_log(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    PagePath((match_id, seat)): PagePath<(Uuid, u32)>,
) -> Result<impl IntoResponse> {
    let seat = i32::try_from(seat).map_err(|_| Error::NotFound)?;
    let log = match_files::seat_log(&state, user.as_ref(), match_id, seat).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                attachment(&format!("match-{match_id}-seat-{seat}.log")),
            ),
        ],
        log.text(),
    ))
}

//! HTML pages. Each module exports `router()`; every state-changing form is CSRF-checked.
//! Every error is the HTML error page: a path parameter or query that does not parse (the
//! `Page*` extractors), an unknown page or static file, a method a page does not answer.

mod account;
mod admin;
mod challenge_new;
mod challenges;
mod competition_counts;
mod competition_manage;
mod competition_new;
mod competition_rounds;
mod competitions;
mod games;
mod home;
pub(crate) mod labels;
mod language;
mod match_downloads;
mod match_log;
mod matches;
mod my_matches;
mod password_reset;
mod play;
mod play_new;
mod replay_frames;
mod runner;
mod settings;
mod submissions;
mod team_challenges;
mod team_manage;
mod teams;
mod timeline;

use axum::extract::DefaultBodyLimit;
use axum::handler::HandlerWithoutStateExt;
use axum::http::{Method, Uri};
use axum::Router;
use tower_http::services::ServeDir;

use crate::error::Error;
use crate::AppState;

pub(crate) use password_reset::NewLink as NewResetLink;
pub(crate) use team_challenges::Line as ChallengeLine;

pub fn router(state: &AppState) -> Router<AppState> {
    let upload_limit =
        usize::try_from(state.config.max_upload_bytes + crate::upload::MULTIPART_OVERHEAD)
            .unwrap_or(usize::MAX);
    Router::new()
        .merge(home::router())
        .merge(account::router())
        .merge(teams::router())
        .merge(team_manage::router())
        .merge(submissions::router().layer(DefaultBodyLimit::max(upload_limit)))
        .merge(admin::router())
        .merge(competitions::router())
        .merge(games::router())
        .merge(language::router())
        .merge(challenges::router())
        .merge(challenge_new::router())
        .merge(team_challenges::router())
        .merge(competition_new::router())
        .merge(competition_manage::router())
        .merge(matches::router())
        .merge(play::router())
        .merge(play_new::router())
        .merge(settings::router())
        .merge(password_reset::router())
        .merge(replay_frames::router())
        .merge(match_downloads::router())
        .merge(runner::router())
        .method_not_allowed_fallback(method_not_allowed)
        .nest_service(
            "/static",
            ServeDir::new(static_dir()).fallback(not_found.into_service()),
        )
}

/// `web/static`, next to the binary's working directory or the source tree.
fn static_dir() -> std::path::PathBuf {
    if let Ok(dir) = std::env::var("CROUPIER_STATIC_DIR") {
        return dir.into();
    }
    let here = std::path::Path::new("web/static");
    if here.is_dir() {
        return here.to_path_buf();
    }
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/static")
}

/// The error page for an address no page serves.
pub async fn not_found() -> Error {
    Error::NotFound
}

/// The error page for a page asked with a method it does not answer (`DELETE /teams`).
async fn method_not_allowed(method: Method, uri: Uri) -> Error {
    Error::MethodNotAllowed {
        method: method.to_string(),
        path: uri.path().to_owned(),
    }
}

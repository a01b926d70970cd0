//! The JSON API under `/api/v1`, for the CLI and scripts. Authentication is a bearer token
//! (`Authorization: Bearer cr_…`), made on a team page or with `POST /api/v1/tokens`; cookies
//! play no part, so there is no CSRF to check. Errors are `{"error": "...", "status": n}`.
//! The OpenAPI document is served at `/api/v1/openapi.json`.

mod accounts;
mod admin;
mod competitions;
pub mod openapi;
mod submissions;
mod teams;

use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::{Json, Router};

use crate::AppState;

pub fn router(state: &AppState) -> Router<AppState> {
    let upload_limit =
        usize::try_from(state.config.max_upload_bytes + crate::upload::MULTIPART_OVERHEAD)
            .unwrap_or(usize::MAX);
    Router::new()
        .route("/openapi.json", get(|| async { Json(openapi::document()) }))
        .route("/games", get(games))
        .merge(accounts::router())
        .merge(teams::router())
        .merge(submissions::router().layer(DefaultBodyLimit::max(upload_limit)))
        .merge(admin::router())
        .merge(competitions::router())
        .fallback(|| async { crate::error::ApiError(crate::error::Error::NotFound) })
}

async fn games() -> Json<serde_json::Value> {
    let games: Vec<_> = croupier_games::GameId::ALL
        .iter()
        .map(|g| {
            serde_json::json!({
                "id": g.as_str(),
                "name": g.display_name(),
                "seats": g.default_seats(),
                "rule_sets": g.rule_sets(),
                "protocol": g.protocol_summary(),
            })
        })
        .collect();
    Json(serde_json::json!({ "games": games, "languages": croupier_bundle::Language::ALL }))
}

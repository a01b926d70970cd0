//! Competitions over the API: the public list and leaderboards, and creation by an admin
//! (the same checks and the same single transaction as the admin page).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use croupier_store::competitions;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::auth::ApiUser;
use crate::competition::{self, CompetitionRequest};
use crate::error::{ApiResult, Error};
use crate::leaderboard;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/competitions", get(list))
        .route(
            "/competitions/{competition_id}/leaderboard",
            get(leaderboard),
        )
        .route("/admin/competitions", post(create))
}

async fn list(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    Ok(Json(
        json!({ "competitions": competitions::list(&state.pool).await? }),
    ))
}

async fn leaderboard(
    State(state): State<AppState>,
    Path(competition_id): Path<Uuid>,
) -> ApiResult<Json<Value>> {
    let c = competitions::get(&state.pool, competition_id).await?;
    let board = leaderboard::build(&state.pool, &c).await?;
    Ok(Json(json!({ "competition": c, "leaderboard": board })))
}

/// Body: `name`, `game`, optional `rules`, `submissions` (default: each team's latest ready
/// one), `rounds` (default 1), `base_seed`, `move_time_ms`, `games_per_match`, `format`,
/// `settings`.
async fn create(
    State(state): State<AppState>,
    api: ApiUser,
    body: Result<Json<CompetitionRequest>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    if !api.user.is_admin {
        return Err(Error::Forbidden("administrators only".into()).into());
    }
    let Json(request) = body.map_err(|e| Error::BadRequest(e.body_text()))?;
    let created = competition::create(&state, api.user.user_id, &request).await?;
    let c = competitions::get(&state.pool, created.competition_id).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "competition": c, "entrants": created.entrants, "matches": created.matches })),
    ))
}

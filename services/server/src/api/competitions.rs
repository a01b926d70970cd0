//! Competitions over the API: the public list, leaderboards and rating histories, and creation
//! by an admin (the same checks and the same single transaction as the admin page).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use croupier_store::competitions;
use serde_json::{json, Value};
use uuid::Uuid;

use super::ApiRoute;
use crate::auth::ApiUser;
use crate::competition::{self, CompetitionRequest};
use crate::error::{ApiResult, Error};
use crate::extract::{ApiJson, ApiPath};
use crate::leaderboard;
use crate::AppState;

pub fn routes() -> Vec<ApiRoute> {
    vec![
        ApiRoute::get("/competitions", list),
        ApiRoute::get("/competitions/{competition_id}", one),
        ApiRoute::get("/competitions/{competition_id}/leaderboard", leaderboard),
        ApiRoute::get("/competitions/{competition_id}/history", history),
        ApiRoute::post("/admin/competitions", create),
        ApiRoute::post("/admin/competitions/{competition_id}/ladder", ladder),
        ApiRoute::post("/admin/competitions/{competition_id}/rerun", rerun),
    ]
}

async fn list(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    Ok(Json(
        json!({ "competitions": competitions::list(&state.pool).await? }),
    ))
}

/// `{"competition"}`, read now (a Swiss competition's status and `round_progress` change
/// between rounds without a match changing).
async fn one(
    State(state): State<AppState>,
    ApiPath(competition_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    let competition = competitions::get(&state.pool, competition_id).await?;
    Ok(Json(json!({ "competition": competition })))
}

/// `{"competition", "leaderboard"}`, as kept between the competition's match changes
/// (`crate::board_cache`).
async fn leaderboard(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiPath(competition_id): ApiPath<Uuid>,
) -> ApiResult<Response> {
    let kept = state.live.board(&state.pool, competition_id).await?;
    Ok(kept.api.response(&headers, "application/json"))
}

/// Every entry's history in leaderboard order: the rating (or Hanabi's mean score) after each
/// of its matches, as the board recorded them.
async fn history(
    State(state): State<AppState>,
    ApiPath(competition_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    let c = competitions::get(&state.pool, competition_id).await?;
    let board = leaderboard::build(&state.pool, &c).await?;
    let mut histories = leaderboard::histories(&state.pool, &c).await?;
    let entries: Vec<Value> = board
        .rows
        .iter()
        .map(|r| {
            let points = histories.remove(&r.submission_id).unwrap_or_default();
            json!({ "submission_id": r.submission_id, "team_id": r.team_id, "team_name": r.team_name,
                    "version": r.version, "label": r.label, "points": points })
        })
        .collect();
    let kind = if board.rated { "rating" } else { "score" };
    Ok(Json(
        json!({ "competition_id": c.competition_id, "game": c.game, "kind": kind, "entries": entries }),
    ))
}

/// Body: `name`, `game`, optional `rules`, `submissions` (default: each team's latest ready
/// one), `rounds` (default 1), `base_seed`, `move_time_ms`, `games_per_match`, `format`,
/// `settings`.
async fn create(
    State(state): State<AppState>,
    api: ApiUser,
    ApiJson(request): ApiJson<CompetitionRequest>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    api.require_admin()?;
    let created = competition::create(&state, api.user.user_id, &request).await?;
    let c = competitions::get(&state.pool, created.competition_id).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "competition": c, "entrants": created.entrants, "matches": created.matches })),
    ))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LadderRequest {
    /// Read as text, then as a [`LadderAction`](crate::ladder::LadderAction), so that a value
    /// of the wrong type is the usual 422 (serde_json calls a non-string enum a syntax error).
    action: String,
}

/// Body: `{"action": "pause" | "resume" | "close_entries" | "open_entries" | "finish"}`.
async fn ladder(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(competition_id): ApiPath<Uuid>,
    ApiJson(req): ApiJson<LadderRequest>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    let action = serde_json::from_value(Value::String(req.action.clone())).map_err(|_| {
        Error::Unprocessable(format!(
            "the JSON body does not fit: action: {:?} is none of pause, resume, close_entries, open_entries, finish",
            req.action
        ))
    })?;
    let said = crate::ladder::control(&state, competition_id, action).await?;
    let c = competitions::get(&state.pool, competition_id).await?;
    Ok(Json(json!({ "competition": c, "message": said })))
}

/// Puts the competition's failed (voided) matches back in the queue.
async fn rerun(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(competition_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    let requeued = competitions::rerun_failed(&state.pool, competition_id).await?;
    Ok(Json(json!({ "requeued": requeued })))
}

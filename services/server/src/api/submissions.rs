//! Uploads and submissions over the API.

use axum::extract::{Multipart, Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use croupier_store::{submissions, teams};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::auth::ApiUser;
use crate::error::{ApiResult, Error};
use crate::upload;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/teams/{team_id}/submissions", get(list).post(create))
        .route("/submissions/{submission_id}", get(show))
        .route("/submissions/{submission_id}/source", get(source))
}

async fn member(state: &AppState, api: &ApiUser, team_id: Uuid) -> Result<(), Error> {
    teams::role_of(&state.pool, team_id, api.user.user_id)
        .await?
        .ok_or(Error::NotFound)?;
    Ok(())
}

async fn list(
    State(state): State<AppState>,
    api: ApiUser,
    Path(team_id): Path<Uuid>,
) -> ApiResult<Json<Value>> {
    member(&state, &api, team_id).await?;
    let subs = submissions::of_team(&state.pool, team_id).await?;
    Ok(Json(json!({ "submissions": subs })))
}

/// Multipart fields: `game`, `language`, optional `label` and `entry`, and `file`.
async fn create(
    State(state): State<AppState>,
    api: ApiUser,
    Path(team_id): Path<Uuid>,
    multipart: Multipart,
) -> ApiResult<(StatusCode, Json<Value>)> {
    member(&state, &api, team_id).await?;
    let form = upload::read(multipart, state.config.max_upload_bytes).await?;
    let created = upload::store(&state, api.user.user_id, team_id, &form).await?;
    let files = submissions::files(&state.pool, created.submission_id).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "submission": created, "files": files })),
    ))
}

async fn show(
    State(state): State<AppState>,
    api: ApiUser,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<Value>> {
    let sub = submissions::visible_to(&state.pool, id, api.user.user_id).await?;
    let files = submissions::files(&state.pool, id).await?;
    Ok(Json(json!({ "submission": sub, "files": files })))
}

async fn source(
    State(state): State<AppState>,
    api: ApiUser,
    Path(id): Path<Uuid>,
) -> ApiResult<impl IntoResponse> {
    submissions::visible_to(&state.pool, id, api.user.user_id).await?;
    let bytes = submissions::source(&state.pool, id).await?;
    Ok(([(header::CONTENT_TYPE, "application/octet-stream")], bytes))
}

//! Uploads and submissions over the API.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use croupier_store::{blobs, submissions, teams};
use serde_json::{json, Value};
use uuid::Uuid;

use super::ApiRoute;
use crate::auth::ApiUser;
use crate::error::{ApiResult, Error};
use crate::extract::{ApiMultipart, ApiPath};
use crate::{download, upload};
use crate::{AppState, ServerConfig};

pub fn routes(config: &ServerConfig) -> Vec<ApiRoute> {
    let upload_limit =
        usize::try_from(config.max_upload_bytes + upload::MULTIPART_OVERHEAD).unwrap_or(usize::MAX);
    vec![
        ApiRoute::get("/teams/{team_id}/submissions", list),
        ApiRoute::post("/teams/{team_id}/submissions", create).body_limit(upload_limit),
        ApiRoute::get("/submissions/{submission_id}", show),
        ApiRoute::get("/submissions/{submission_id}/source", source),
    ]
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
    ApiPath(team_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    member(&state, &api, team_id).await?;
    let subs = submissions::of_team(&state.pool, team_id).await?;
    Ok(Json(json!({ "submissions": subs })))
}

/// Multipart fields: `game`, `language`, optional `label` and `entry`, and `file`.
async fn create(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(team_id): ApiPath<Uuid>,
    ApiMultipart(multipart): ApiMultipart,
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
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    let sub = submissions::visible_to(&state.pool, id, api.user.user_id).await?;
    let files = submissions::files(&state.pool, id).await?;
    Ok(Json(json!({ "submission": sub, "files": files })))
}

async fn source(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Response> {
    submissions::visible_to(&state.pool, id, api.user.user_id).await?;
    let sha = submissions::source_sha256(&state.pool, id).await?;
    let blob = blobs::open(&state.pool, &sha).await?;
    Ok(download::blob(blob, "application/octet-stream", None))
}

//! Admin actions over the API (the token's user must be an administrator; 403 otherwise).

use axum::extract::State;
use axum::Json;
use croupier_store::{teams, users, workers};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use super::ApiRoute;
use crate::auth::ApiUser;
use crate::error::{ApiResult, Error};
use crate::extract::{ApiJson, ApiPath};
use crate::AppState;

pub fn routes() -> Vec<ApiRoute> {
    vec![
        ApiRoute::get("/admin/users", list_users),
        ApiRoute::post("/admin/users/{user_id}/admin", set_admin),
        ApiRoute::get("/admin/teams", list_teams),
        ApiRoute::get("/admin/workers", list_workers),
    ]
}

/// The worker fleet: every worker heard of in the last day, with its running job.
async fn list_workers(State(state): State<AppState>, api: ApiUser) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    Ok(Json(
        json!({ "workers": workers::fleet(&state.pool).await? }),
    ))
}

async fn list_users(State(state): State<AppState>, api: ApiUser) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    Ok(Json(json!({ "users": users::list(&state.pool).await? })))
}

async fn list_teams(State(state): State<AppState>, api: ApiUser) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    Ok(Json(json!({ "teams": teams::list(&state.pool).await? })))
}

#[derive(Deserialize)]
struct SetAdmin {
    admin: bool,
}

async fn set_admin(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(user_id): ApiPath<Uuid>,
    ApiJson(body): ApiJson<SetAdmin>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    if user_id == api.user.user_id && !body.admin {
        return Err(Error::BadRequest("you cannot remove your own admin role".into()).into());
    }
    users::set_admin(&state.pool, user_id, body.admin).await?;
    Ok(Json(
        json!({ "user": users::get(&state.pool, user_id).await? }),
    ))
}

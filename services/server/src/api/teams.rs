//! Teams over the API: list, create, join, show; leave; the owner's member changes and delete.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use croupier_store::{teams, TeamRole};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use super::ApiRoute;
use crate::auth::ApiUser;
use crate::error::{ApiResult, Error};
use crate::extract::{ApiJson, ApiPath};
use crate::validate::{check_team_name, new_invite_code};
use crate::AppState;

pub fn routes() -> Vec<ApiRoute> {
    vec![
        ApiRoute::get("/teams", list),
        ApiRoute::post("/teams", create),
        ApiRoute::post("/teams/join", join),
        ApiRoute::get("/teams/{team_id}", show),
        ApiRoute::delete("/teams/{team_id}", delete),
        ApiRoute::post("/teams/{team_id}/leave", leave),
        ApiRoute::post("/teams/{team_id}/owner", make_owner),
        ApiRoute::delete("/teams/{team_id}/members/{user_id}", remove_member),
    ]
}

#[derive(Deserialize)]
struct NewOwner {
    user_id: Uuid,
}

/// The caller's role; 404 for a team they are not in.
async fn role(state: &AppState, team_id: Uuid, user_id: Uuid) -> Result<TeamRole, Error> {
    teams::role_of(&state.pool, team_id, user_id)
        .await?
        .ok_or(Error::NotFound)
}

async fn require_owner(state: &AppState, team_id: Uuid, user_id: Uuid) -> Result<(), Error> {
    match role(state, team_id, user_id).await? {
        TeamRole::Owner => Ok(()),
        TeamRole::Member => Err(Error::Forbidden("only the team's owner can do this".into())),
    }
}

async fn members_now(state: &AppState, team_id: Uuid) -> ApiResult<Json<Value>> {
    let team = teams::get(&state.pool, team_id).await?;
    let members = teams::members(&state.pool, team_id).await?;
    Ok(Json(json!({ "team": team, "members": members })))
}

async fn leave(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(team_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    role(&state, team_id, api.user.user_id).await?;
    teams::leave(&state.pool, team_id, api.user.user_id).await?;
    Ok(Json(json!({ "left": team_id })))
}

async fn make_owner(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(team_id): ApiPath<Uuid>,
    ApiJson(body): ApiJson<NewOwner>,
) -> ApiResult<Json<Value>> {
    require_owner(&state, team_id, api.user.user_id).await?;
    teams::transfer(&state.pool, team_id, body.user_id).await?;
    members_now(&state, team_id).await
}

async fn remove_member(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath((team_id, user_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<Value>> {
    require_owner(&state, team_id, api.user.user_id).await?;
    teams::remove_member(&state.pool, team_id, user_id).await?;
    members_now(&state, team_id).await
}

async fn delete(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(team_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    require_owner(&state, team_id, api.user.user_id).await?;
    teams::delete(&state.pool, team_id).await?;
    Ok(Json(json!({ "deleted": team_id })))
}

#[derive(Deserialize)]
struct NewTeam {
    name: String,
}

#[derive(Deserialize)]
struct Join {
    invite_code: String,
}

async fn list(State(state): State<AppState>, api: ApiUser) -> ApiResult<Json<Value>> {
    let teams = teams::of_user(&state.pool, api.user.user_id).await?;
    Ok(Json(json!({ "teams": teams })))
}

async fn create(
    State(state): State<AppState>,
    api: ApiUser,
    ApiJson(body): ApiJson<NewTeam>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let name = body.name.trim();
    check_team_name(name)?;
    let team = teams::create(&state.pool, name, &new_invite_code(), api.user.user_id).await?;
    Ok((StatusCode::CREATED, Json(json!({ "team": team }))))
}

async fn join(
    State(state): State<AppState>,
    api: ApiUser,
    ApiJson(body): ApiJson<Join>,
) -> ApiResult<Json<Value>> {
    let code = body.invite_code.trim().to_ascii_uppercase();
    let team = teams::join(&state.pool, &code, api.user.user_id)
        .await
        .map_err(|e| match Error::from(e) {
            Error::NotFound => Error::BadRequest("no team has this invite code".into()),
            other => other,
        })?;
    Ok(Json(json!({ "team": team })))
}

async fn show(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(team_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    teams::role_of(&state.pool, team_id, api.user.user_id)
        .await?
        .ok_or(Error::NotFound)?;
    let team = teams::get(&state.pool, team_id).await?;
    let members = teams::members(&state.pool, team_id).await?;
    Ok(Json(json!({ "team": team, "members": members })))
}

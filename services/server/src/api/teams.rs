//! Teams over the API: list, create, join, show.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use croupier_store::teams;
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
    ]
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

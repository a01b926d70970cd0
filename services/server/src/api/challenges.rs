//! Challenges and A/B tests over the API (`crate::challenge` holds the rules): start one in a
//! competition, read its report (the team's members and admins only), list a team's.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use croupier_board::challenge::Report;
use croupier_store::{challenges, teams};
use serde_json::{json, Value};
use uuid::Uuid;

use super::ApiRoute;
use crate::auth::ApiUser;
use crate::challenge::{self, AbRequest, ChallengeRequest};
use crate::error::{ApiResult, Error};
use crate::extract::{ApiJson, ApiPath};
use crate::AppState;

pub fn routes() -> Vec<ApiRoute> {
    vec![
        ApiRoute::post("/competitions/{competition_id}/challenges", create),
        ApiRoute::post("/competitions/{competition_id}/ab_tests", create_ab),
        ApiRoute::get("/challenges/{challenge_id}", show),
        ApiRoute::get("/teams/{team_id}/challenges", of_team),
    ]
}

async fn create(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(competition_id): ApiPath<Uuid>,
    ApiJson(req): ApiJson<ChallengeRequest>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let id = challenge::create(&state, api.user.user_id, competition_id, &req).await?;
    Ok((
        StatusCode::CREATED,
        Json(with_page(challenge::load(&state, id).await?)),
    ))
}

async fn create_ab(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(competition_id): ApiPath<Uuid>,
    ApiJson(req): ApiJson<AbRequest>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let id = challenge::create_ab(&state, api.user.user_id, competition_id, &req).await?;
    Ok((
        StatusCode::CREATED,
        Json(with_page(challenge::load(&state, id).await?)),
    ))
}

async fn show(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(challenge_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    let found = challenge::load(&state, challenge_id).await?;
    member(&state, &api, found.challenge.team_id).await?;
    Ok(Json(with_page(found)))
}

async fn of_team(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(team_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    member(&state, &api, team_id).await?;
    let list = challenges::of_team(&state.pool, team_id).await?;
    Ok(Json(json!({ "challenges": list })))
}

/// The report as JSON, with the address of its page.
fn with_page(report: Report) -> Value {
    let page = format!("/challenges/{}", report.challenge.challenge_id);
    let mut v = json!(report);
    v["page"] = json!(page);
    v
}

/// Members of the team and admins; 404 for anyone else.
async fn member(state: &AppState, api: &ApiUser, team_id: Uuid) -> Result<(), Error> {
    if api.user.is_admin {
        return Ok(());
    }
    teams::role_of(&state.pool, team_id, api.user.user_id)
        .await?
        .ok_or(Error::NotFound)?;
    Ok(())
}

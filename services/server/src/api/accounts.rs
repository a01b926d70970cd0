//! Sign up, tokens (the API's login), and "who am I".

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use croupier_store::{teams, tokens, users};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use super::ApiRoute;
use crate::auth::{login, password, token, ApiUser, ClientIp};
use crate::error::{ApiResult, Error};
use crate::extract::ApiJson;
use crate::validate::{check_email, check_username};
use crate::AppState;

pub fn routes() -> Vec<ApiRoute> {
    vec![
        ApiRoute::post("/users", signup),
        ApiRoute::post("/tokens", create_token),
        ApiRoute::get("/me", me),
    ]
}

#[derive(Deserialize)]
struct Signup {
    username: String,
    password: String,
    email: Option<String>,
}

async fn signup(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Signup>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let username = body.username.trim();
    check_username(username)?;
    check_email(body.email.as_deref().unwrap_or("").trim())?;
    let email = body.email.as_deref().unwrap_or("").trim();
    password::check_strength(&body.password, &[username, email])?;
    let hash = password::hash_gated(&state.hashing, body.password).await?;
    let email = body
        .email
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty());
    let user = users::create(&state.pool, username, email, &hash, false).await?;
    Ok((StatusCode::CREATED, Json(json!({ "user": user }))))
}

#[derive(Deserialize)]
struct TokenRequest {
    username: String,
    password: String,
    name: Option<String>,
    team_id: Option<Uuid>,
}

/// Exchanges a username and password for a token (rate limited like the login form).
async fn create_token(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<TokenRequest>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let username = body.username.trim();
    let user_id = login::authenticate(&state, username, body.password, &ip).await?;
    if let Some(team_id) = body.team_id {
        teams::role_of(&state.pool, team_id, user_id)
            .await?
            .ok_or(Error::NotFound)?;
    }
    let secret = token::generate();
    let name = body
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or("api");
    if name.chars().count() > 64 {
        return Err(Error::BadRequest("a token name has at most 64 characters".into()).into());
    }
    let created = tokens::create(
        &state.pool,
        user_id,
        body.team_id,
        name,
        &token::hash(&secret),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "token": secret, "api_token": created })),
    ))
}

async fn me(State(state): State<AppState>, api: ApiUser) -> ApiResult<Json<Value>> {
    let teams = teams::of_user(&state.pool, api.user.user_id).await?;
    Ok(Json(
        json!({ "user": api.user, "token_team_id": api.team_id, "teams": teams }),
    ))
}

//! Sign up, tokens (the API's login), "who am I", changing one's password and one's browser
//! sessions.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use croupier_store::{teams, tokens, users};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use super::ApiRoute;
use crate::auth::sessions::{self, Tokens};
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
        ApiRoute::post("/me/password", change_password),
        ApiRoute::get("/me/sessions", list_sessions),
        ApiRoute::delete("/me/sessions", end_sessions),
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

#[derive(Deserialize)]
struct PasswordChange {
    current: String,
    new: String,
    /// Keep the user's other API tokens working (default: revoke them).
    #[serde(default)]
    keep_tokens: bool,
}

/// Changes the token's user's password: the current one is checked as a log-in checks it
/// (throttled, counted), the new one as at sign-up. Every browser session ends; every other
/// token is revoked unless `keep_tokens`; the token asking keeps working.
async fn change_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    api: ApiUser,
    ApiJson(body): ApiJson<PasswordChange>,
) -> ApiResult<Json<Value>> {
    let user = &api.user;
    login::authenticate(&state, &user.username, body.current, &ip).await?;
    let email = user.email.clone().unwrap_or_default();
    password::check_strength(&body.new, &[&user.username, &email])?;
    let hash = password::hash_gated(&state.hashing, body.new).await?;
    users::set_password(&state.pool, user.user_id, &hash).await?;
    let api_tokens = Tokens::asked(body.keep_tokens, Some(api.token_id));
    let ended = sessions::end_other_access(&state.pool, user.user_id, None, api_tokens).await?;
    tracing::info!(user_id = %user.user_id, "password changed through the API");
    Ok(Json(json!({
        "changed": true,
        "signed_out_sessions": ended.sessions,
        "revoked_tokens": ended.tokens,
    })))
}

/// The user's signed-in browsers (as the account page lists them).
async fn list_sessions(State(state): State<AppState>, api: ApiUser) -> ApiResult<Json<Value>> {
    let list = croupier_store::sessions::list_for_user(&state.pool, api.user.user_id, None).await?;
    Ok(Json(json!({ "sessions": list })))
}

/// Signs every browser of the user out (tokens keep working).
async fn end_sessions(State(state): State<AppState>, api: ApiUser) -> ApiResult<Json<Value>> {
    let user_id = api.user.user_id;
    users::end_sessions(&state.pool, user_id).await?;
    let ended = sessions::end_other_access(&state.pool, user_id, None, Tokens::Keep).await?;
    Ok(Json(json!({ "signed_out_sessions": ended.sessions })))
}

//! Extractors that answer "who is asking": a logged-in browser user, an admin, or an API
//! token's owner, plus the client address for rate limiting.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use croupier_store::users::{self, User};
use croupier_store::{sessions as store_sessions, tokens, StoreError};
use tower_sessions::Session;
use uuid::Uuid;

use super::{sessions, USER_KEY};
use crate::error::{ApiError, Error};
use crate::AppState;

async fn session_of(parts: &mut Parts, state: &AppState) -> Result<Session, Error> {
    Session::from_request_parts(parts, state)
        .await
        .map_err(|(_, msg)| Error::internal(msg))
}

/// The logged-in user, if any. Loaded once per request: handlers that extract both a
/// [`CurrentUser`] and the page context share one lookup.
#[derive(Clone)]
pub struct MaybeUser(pub Option<User>);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = Error;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(cached) = parts.extensions.get::<MaybeUser>() {
            return Ok(cached.clone());
        }
        let session = session_of(parts, state).await?;
        let user = match session.get::<Uuid>(USER_KEY).await? {
            None => None,
            Some(user_id) => match users::get(&state.pool, user_id).await {
                Ok(user) if sessions::is_current(&session, &user).await? => {
                    seen(parts, state, &session).await?;
                    Some(user)
                }
                // The password changed since (or the person signed out everywhere), or the
                // account is gone: forget the session.
                Ok(_) | Err(StoreError::NotFound) => {
                    session.flush().await?;
                    None
                }
                Err(e) => return Err(e.into()),
            },
        };
        parts.extensions.insert(MaybeUser(user.clone()));
        Ok(MaybeUser(user))
    }
}

/// Notes the session's use (browser and address) for the account page's list.
async fn seen(parts: &mut Parts, state: &AppState, session: &Session) -> Result<(), Error> {
    let Some(id) = session.id() else {
        return Ok(());
    };
    let ClientIp(address) = ClientIp::from_request_parts(parts, state).await?;
    let agent = parts
        .headers
        .get(axum::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|agent| agent.chars().take(400).collect::<String>());
    store_sessions::touch(&state.pool, &id.to_string(), agent.as_deref(), &address).await?;
    Ok(())
}

/// A logged-in user; pages redirect to `/login` otherwise.
pub struct CurrentUser(pub User);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = Error;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let MaybeUser(user) = MaybeUser::from_request_parts(parts, state).await?;
        user.map(CurrentUser).ok_or(Error::LoginRequired)
    }
}

/// A logged-in administrator; 403 for everyone else.
pub struct AdminUser(pub User);

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = Error;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let CurrentUser(user) = CurrentUser::from_request_parts(parts, state).await?;
        if !user.is_admin {
            return Err(Error::Forbidden("this page is for administrators".into()));
        }
        Ok(AdminUser(user))
    }
}

/// The owner of the request's bearer token (`Authorization: Bearer cr_…`), and the team the
/// token was made for, if any.
pub struct ApiUser {
    pub user: User,
    pub team_id: Option<Uuid>,
    /// The token itself (kept working when it changes its owner's password).
    pub token_id: Uuid,
}

impl ApiUser {
    /// 403 unless the caller is an administrator.
    pub fn require_admin(&self) -> Result<(), Error> {
        if self.user.is_admin {
            Ok(())
        } else {
            Err(Error::Forbidden("administrators only".into()))
        }
    }
}

impl FromRequestParts<AppState> for ApiUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .ok_or(Error::BadToken)?;
        let token = header
            .strip_prefix("Bearer ")
            .or_else(|| header.strip_prefix("bearer "))
            .map(str::trim)
            .ok_or(Error::BadToken)?;
        let owner = tokens::authenticate(&state.pool, &super::token::hash(token))
            .await?
            .ok_or(Error::BadToken)?;
        let user = users::get(&state.pool, owner.user_id).await?;
        Ok(ApiUser {
            user,
            team_id: owner.team_id,
            token_id: owner.api_token_id,
        })
    }
}

/// The owner of the request's bearer token when it has an `Authorization` header (a bad token
/// is the same 401 as for [`ApiUser`]), `None` without one: for the public routes, whose
/// answers leave out what the caller may not see (`crate::privacy`).
pub struct MaybeApiUser(pub Option<ApiUser>);

impl MaybeApiUser {
    pub fn user(&self) -> Option<&User> {
        self.0.as_ref().map(|api| &api.user)
    }
}

impl FromRequestParts<AppState> for MaybeApiUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if !parts
            .headers
            .contains_key(axum::http::header::AUTHORIZATION)
        {
            return Ok(MaybeApiUser(None));
        }
        Ok(MaybeApiUser(Some(
            ApiUser::from_request_parts(parts, state).await?,
        )))
    }
}

/// The client's address: the socket peer, or the first `X-Forwarded-For` hop when the server
/// is configured to trust its proxy.
pub struct ClientIp(pub String);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Error;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if state.config.trust_proxy_headers {
            if let Some(ip) = parts
                .headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
            {
                return Ok(ClientIp(ip.trim().to_owned()));
            }
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip().to_string());
        Ok(ClientIp(peer.unwrap_or_else(|| "unknown".to_owned())))
    }
}

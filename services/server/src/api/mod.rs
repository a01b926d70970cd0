//! The JSON API under `/api/v1`, for the CLI and scripts. Authentication is a bearer token
//! (`Authorization: Bearer cr_…`), made on a team page or with `POST /api/v1/tokens`; cookies
//! play no part, so there is no CSRF to check. The OpenAPI document is served at
//! `/api/v1/openapi.json`.
//!
//! Every error is `{"error": "...", "status": n}` ([`crate::error::ApiError`]), malformed
//! requests included: handlers read bodies and paths through [`crate::extract`]'s `Api*`
//! extractors, an address no route serves is a JSON 404 and a method a route does not answer
//! a JSON 405.
//!
//! The routes are one table, [`routes`]: each module lists its own, the router is built from
//! them, and the tests compare the same table with the OpenAPI document in both directions.

mod accounts;
mod admin;
mod challenges;
mod competition_admin;
mod competitions;
mod matches;
pub mod openapi;
mod submissions;
mod teams;

use axum::extract::{DefaultBodyLimit, OriginalUri};
use axum::handler::Handler;
use axum::http::Method;
use axum::routing::{self, MethodRouter};
use axum::{Json, Router};

use crate::error::{ApiError, Error};
use crate::{AppState, ServerConfig};

/// Where the API is mounted.
pub const PREFIX: &str = "/api/v1";

/// One API route: its method, its path under `/api/v1` (`/teams/{team_id}`), its handler.
pub struct ApiRoute {
    pub method: Method,
    pub path: &'static str,
    handler: MethodRouter<AppState>,
}

impl ApiRoute {
    fn get<H: Handler<T, AppState>, T: 'static>(path: &'static str, handler: H) -> Self {
        Self {
            method: Method::GET,
            path,
            handler: routing::get(handler),
        }
    }

    fn post<H: Handler<T, AppState>, T: 'static>(path: &'static str, handler: H) -> Self {
        Self {
            method: Method::POST,
            path,
            handler: routing::post(handler),
        }
    }

    fn delete<H: Handler<T, AppState>, T: 'static>(path: &'static str, handler: H) -> Self {
        Self {
            method: Method::DELETE,
            path,
            handler: routing::delete(handler),
        }
    }

    /// The same route with a body limit of `bytes` instead of axum's default 2 MiB.
    fn body_limit(self, bytes: usize) -> Self {
        Self {
            handler: self.handler.layer(DefaultBodyLimit::max(bytes)),
            ..self
        }
    }
}

/// Every route of the API, in the order of the OpenAPI document.
pub fn routes(config: &ServerConfig) -> Vec<ApiRoute> {
    let mut all = vec![
        ApiRoute::get("/openapi.json", openapi_json),
        ApiRoute::get("/games", games),
    ];
    all.extend(accounts::routes());
    all.extend(teams::routes());
    all.extend(submissions::routes(config));
    all.extend(admin::routes());
    all.extend(competitions::routes());
    all.extend(competition_admin::routes());
    all.extend(challenges::routes());
    all.extend(matches::routes());
    all
}

pub fn router(state: &AppState) -> Router<AppState> {
    routes(&state.config)
        .into_iter()
        .fold(Router::new(), |router, route| {
            router.route(route.path, route.handler)
        })
        .fallback(no_route)
        .method_not_allowed_fallback(method_not_allowed)
}

/// The JSON 404 for an address under [`PREFIX`] that no route serves.
pub(crate) async fn no_route(OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError(Error::NoRoute(uri.path().to_owned()))
}

async fn method_not_allowed(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError(Error::MethodNotAllowed {
        method: method.to_string(),
        path: uri.path().to_owned(),
    })
}

async fn openapi_json() -> Json<serde_json::Value> {
    Json(openapi::document())
}

async fn games() -> Json<serde_json::Value> {
    let games: Vec<_> = croupier_games::GameId::all()
        .iter()
        .map(|g| {
            // The player counts an upload may name, per rule set that lets them be chosen.
            let players: serde_json::Map<String, serde_json::Value> = (g.rule_sets().iter())
                .map(|r| (r.to_string(), g.player_choices(r)))
                .filter(|(_, counts)| !counts.is_empty())
                .map(|(r, counts)| (r, serde_json::json!(counts)))
                .collect();
            serde_json::json!({
                "id": g.as_str(),
                "name": g.display_name(),
                "seats": g.default_seats(),
                "rule_sets": g.rule_sets(),
                "players": players,
                "protocol": g.protocol_summary(),
            })
        })
        .collect();
    Json(serde_json::json!({ "games": games, "languages": croupier_bundle::Language::ALL }))
}

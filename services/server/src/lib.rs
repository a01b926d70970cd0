//! Croupier's web application: server-rendered pages (askama), the JSON API under `/api/v1`,
//! accounts and sessions, teams, bot uploads, admin pages, `/healthz` and `/metrics`.
//!
//! [`app`] builds the whole router from an [`AppState`]; the binary serves it with
//! [`serve`], and tests call it directly with `tower::ServiceExt::oneshot`.
//!
//! Layout: `auth/` (who is asking), `pages/` (HTML routes), `api/` (JSON routes), `upload`
//! (validating and storing a bot upload, shared by both), `competition` (checking, scheduling
//! and storing a new competition, shared by both), `leaderboard` (standings and ratings computed
//! from finished matches), `templates` (askama page types and the page context), `html`
//! (rendering a template, and the error page: a leaf, so `error` and `templates` do not import
//! each other),
//! `ops` (health, metrics, request ids and tracing), `error` (the one error type and the only
//! place that knows HTTP status codes).

pub mod api;
pub mod auth;
pub mod competition;
pub mod config;
pub mod error;
pub mod html;
pub mod leaderboard;
pub mod ops;
pub mod pages;
pub mod templates;
pub mod upload;
pub mod validate;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use croupier_store::PgPool;
use tokio::net::TcpListener;

pub use config::ServerConfig;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub config: Arc<ServerConfig>,
    /// The bound on concurrent password hashing (sized by the config).
    pub hashing: Arc<auth::password::Gate>,
}

impl AppState {
    pub fn new(pool: PgPool, config: ServerConfig) -> Self {
        let hashing = auth::password::Gate::new(config.hashing.running, config.hashing.queued);
        Self {
            pool,
            config: Arc::new(config),
            hashing: Arc::new(hashing),
        }
    }
}

/// The whole application.
pub fn app(state: AppState) -> Router {
    let sessions = auth::session_store::layer(&state);
    let router = Router::new()
        .merge(pages::router(&state))
        .nest("/api/v1", api::router(&state))
        .merge(ops::router())
        .fallback(pages::not_found)
        .layer(sessions)
        .with_state(state);
    ops::instrument(router)
}

/// Serves `app(state)` on `listener` until `shutdown` resolves, then drains open requests.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let sweeper = tokio::spawn(auth::session_store::sweep_expired(state.pool.clone()));
    let result = axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await;
    sweeper.abort();
    result
}

/// Serves only `/metrics`, without a token, on `listener` (an operator-only address) until
/// `shutdown` resolves.
pub async fn serve_metrics(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, ops::metrics_app(state))
        .with_graceful_shutdown(shutdown)
        .await
}

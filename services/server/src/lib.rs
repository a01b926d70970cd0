//! Croupier's web application: server-rendered pages (askama), the JSON API under `/api/v1`,
//! accounts and sessions, teams, bot uploads, admin pages, `/healthz` and `/metrics`.
//!
//! [`app`] builds the whole router from an [`AppState`]; the binary serves it with
//! [`serve`], and tests call it directly with `tower::ServiceExt::oneshot`.
//!
//! Layout: `auth/` (who is asking), `pages/` (HTML routes), `api/` (JSON routes), `upload`
//! (validating and storing a bot upload, shared by both), `competition` (checking, scheduling
//! and storing a new competition, shared by both), `leaderboard` (standings, ratings and their
//! histories computed from finished matches), `live` (server-sent events: match changes from
//! PostgreSQL's `LISTEN` pushed to open pages), `plot` (SVG line plots and sparklines, pure) and
//! `history` (those histories drawn with it), `match_files` (a match's replay and seat-log
//! downloads and who may have them, shared by both), `privacy` (who sees a match, and when its
//! deal and its seed are shown: what every route showing a match asks), `templates` (askama page types and the
//! page context), `i18n` (the request's language, English or 简体中文, and its words from the
//! Fluent files under `locales/`: a leaf), `html`
//! (rendering a template, and the error page: a leaf, so `error` and `templates` do not import
//! each other), `extract` (axum's extractors with our errors as rejections: `Api*` answer JSON,
//! `Page*` the HTML error page),
//! `ops` (health, metrics, request ids and tracing), `error` (the one error type and the only
//! place that knows HTTP status codes).
//!
//! Every answer the app gives is its own: an error under `/api/v1` is JSON
//! (`{"error": "...", "status": n}`) and any other error is the HTML error page, malformed
//! requests, unknown addresses and wrong methods included; axum's `text/plain` rejections never
//! reach a client.
//!
//! Dependencies inside the crate point one way: `pages` → `templates` → `auth` → `error` →
//! `html` → `i18n`, and `api`/`pages`/`live` → `extract` → `error` (`live` also uses `pages::labels`
//! and `privacy`, which uses `pages::labels` too);
//! nothing imports a module above it.

pub mod api;
pub mod auth;
pub mod board_cache;
pub mod challenge;
pub mod competition;
pub mod config;
pub mod download;
pub mod error;
pub mod extract;
pub mod fitted;
pub mod headers;
pub mod history;
pub mod html;
pub mod i18n;
pub mod ladder;
pub mod leaderboard;
pub mod live;
pub mod match_files;
pub mod ops;
pub mod pages;
pub mod plot;
pub mod privacy;
pub mod retention;
pub mod templates;
pub mod upload;
pub mod user_agent;
pub mod validate;

use std::sync::Arc;

use axum::extract::OriginalUri;
use axum::response::{IntoResponse, Response};
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
    /// Match changes for the live event streams ([`live`]).
    pub live: live::Hub,
}

impl AppState {
    pub fn new(pool: PgPool, config: ServerConfig) -> Self {
        let hashing = auth::password::Gate::new(config.hashing.running, config.hashing.queued);
        Self {
            pool,
            config: Arc::new(config),
            hashing: Arc::new(hashing),
            live: live::Hub::new(),
        }
    }
}

/// The whole application.
pub fn app(state: AppState) -> Router {
    let sessions = auth::session_store::layer(&state);
    let https = state.config.secure_cookies;
    let router = Router::new()
        .merge(pages::router(&state))
        .merge(live::streams::router())
        .nest(api::PREFIX, api::router(&state))
        .merge(ops::router())
        .fallback(no_route)
        .layer(sessions)
        .layer(axum::middleware::from_fn(i18n::negotiate))
        // gzip for clients that accept it (a replay's frames.json shrinks ~10×; never for
        // server-sent events or images, tower-http's default predicate).
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(state);
    ops::instrument(headers::secure(router, https))
}

/// What no route serves: under `/api/v1` the API's JSON 404 (axum leaves `/api/v1/` itself to
/// this fallback, not the nested router's), elsewhere the HTML error page.
async fn no_route(uri: OriginalUri) -> Response {
    let path = uri.path();
    if path == api::PREFIX || path.starts_with(&format!("{}/", api::PREFIX)) {
        api::no_route(uri).await.into_response()
    } else {
        pages::not_found().await.into_response()
    }
}

/// Serves `app(state)` on `listener` until `shutdown` resolves, then drains open requests.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let sweeper = tokio::spawn(auth::session_store::sweep_expired(state.pool.clone()));
    let expirer = state
        .config
        .replay_retention_days
        .map(|days| tokio::spawn(retention::expire_periodically(state.pool.clone(), days)));
    state.live.start(&state.pool);
    // Event streams never end by themselves: they are ended first, so draining can finish.
    let live = state.live.clone();
    let shutdown = async move {
        shutdown.await;
        live.close();
    };
    let timeout = state.config.slow_client_timeout;
    let result = serve_connections(listener, app(state), timeout, shutdown).await;
    sweeper.abort();
    if let Some(expirer) = expirer {
        expirer.abort();
    }
    result
}

/// Accepts connections on `listener` and serves `router` on each (with its peer address as
/// `ConnectInfo`) until `shutdown` resolves, then waits for open connections to finish. A
/// client whose request headers take longer than `timeout`, or whose body stalls that long,
/// is disconnected (axum's own `serve` waits for them for ever).
async fn serve_connections(
    listener: TcpListener,
    router: Router,
    timeout: std::time::Duration,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use tower::ServiceExt;

    let router = router.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(timeout));
    let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(timeout);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of descriptors or a connection reset before it was taken: go on.
                Err(e) => {
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            router.clone().oneshot(request)
        });
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, %peer, "connection ended");
            }
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
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

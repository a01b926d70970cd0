//! Operations: `/healthz`, `/metrics` (Prometheus text), request ids, request logs and
//! HTTP metrics.
//!
//! `/metrics` is for operators only: on the web app's own address it answers only a request
//! bearing [`ServerConfig::metrics_token`](crate::ServerConfig::metrics_token) (404 when none
//! is configured, 401 for a missing or wrong token); [`metrics_app`] serves it without a token
//! on a separate address of the operator's choosing (`croupier up --metrics-bind`). HTTP
//! metrics are labelled by route template (`/teams/{team_id}`, never the raw path) and by a
//! fixed set of methods (anything else is `other`), so no client can create new series.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderName, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use subtle::ConstantTimeEq;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::AppState;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics_with_token))
}

/// Only `/metrics`, without a token: for a listener on an operator-only address.
pub fn metrics_app(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(metrics_text))
        .with_state(state)
}

/// `/metrics` on the public address: only with the configured bearer token.
async fn metrics_with_token(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
) -> Response {
    let Some(expected) = state.config.metrics_token.as_deref() else {
        return crate::error::Error::NotFound.into_response();
    };
    let given = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if !bool::from(given.as_bytes().ct_eq(expected.as_bytes())) {
        return (
            StatusCode::UNAUTHORIZED,
            [(axum::http::header::WWW_AUTHENTICATE, "Bearer")],
            "a valid metrics token is required (Authorization: Bearer <token>)\n",
        )
            .into_response();
    }
    metrics_text(State(state)).await.into_response()
}

/// 200 when the database answers, 503 otherwise.
async fn healthz(State(state): State<AppState>) -> Response {
    match croupier_store::ping(&state.pool).await {
        Ok(()) => Json(serde_json::json!({"status": "ok", "database": "ok"})).into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "health check: database unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(serde_json::json!({"status": "unavailable", "database": "unreachable"})),
            )
                .into_response()
        }
    }
}

/// The process-wide Prometheus recorder (installed once, on first use).
pub fn prometheus() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        // Another recorder may already be installed (e.g. by an embedding binary); then our
        // handle simply renders nothing of theirs.
        let _ = metrics::set_global_recorder(recorder);
        handle
    })
}

async fn metrics_text(State(state): State<AppState>) -> impl IntoResponse {
    metrics::gauge!("db_pool_connections").set(f64::from(state.pool.size()));
    metrics::gauge!("db_pool_idle_connections").set(state.pool.num_idle() as f64);
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4",
        )],
        prometheus().render(),
    )
}

/// The method's label: one of a fixed set, else `other`.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

async fn record_http(request: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = method_label(request.method());
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let response = next.run(request).await;
    let labels = [
        ("method", method.to_owned()),
        ("route", route),
        ("status", response.status().as_u16().to_string()),
    ];
    metrics::counter!("http_requests_total", &labels).increment(1);
    metrics::histogram!("http_request_duration_seconds", &labels)
        .record(start.elapsed().as_secs_f64());
    response
}

/// Wraps the router with request ids (`x-request-id`, generated when absent and echoed back),
/// one tracing span per request carrying that id, and HTTP metrics.
pub fn instrument(router: Router) -> Router {
    prometheus();
    router
        .layer(middleware::from_fn(record_http))
        .layer(
            TraceLayer::new_for_http()
                .on_response(DefaultOnResponse::new().level(Level::INFO))
                .make_span_with(|req: &Request| {
                let id = req
                    .headers()
                    .get(&REQUEST_ID)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-");
                tracing::info_span!("http", method = %req.method(), path = %req.uri().path(), request_id = %id)
            }),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
}

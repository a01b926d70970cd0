//! Operations: `/healthz`, `/metrics` (Prometheus text), request ids, request logs and
//! HTTP metrics.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderName, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::AppState;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics_text))
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

async fn record_http(request: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = request.method().to_string();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let response = next.run(request).await;
    let labels = [
        ("method", method),
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

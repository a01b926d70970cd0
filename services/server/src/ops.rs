//! Operations: `/healthz`, `/metrics` (Prometheus text), request ids, request logs and
//! HTTP metrics.
//!
//! `/metrics` is for operators only: on the web app's own address it answers only a request
//! bearing [`ServerConfig::metrics_token`](crate::ServerConfig::metrics_token) (404 when none
//! is configured, 401 for a missing or wrong token); [`metrics_app`] serves it without a token
//! on a separate address of the operator's choosing (`croupier up --metrics-bind`). HTTP
//! metrics are labelled by route template (`/teams/{team_id}`, never the raw path) and by a
//! fixed set of methods (anything else is `other`), so no client can create new series. Each
//! scrape also reads the job queue's depth (one query, [`queue_depth_text`]), which the
//! workers' autoscaler in `deploy/k8s/` scales on.

use std::fmt::Write as _;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

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

/// How long `/healthz` waits for the database: a load balancer's probe must get its answer
/// within a second, whatever state the database is in.
const HEALTH_TIMEOUT: Duration = Duration::from_millis(900);

/// 200 when the database answers within [`HEALTH_TIMEOUT`], 503 otherwise.
async fn healthz(State(state): State<AppState>) -> Response {
    let unavailable = |database: &str| {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(serde_json::json!({"status": "unavailable", "database": database})),
        )
            .into_response()
    };
    match tokio::time::timeout(HEALTH_TIMEOUT, croupier_store::ping(&state.pool)).await {
        Ok(Ok(())) => Json(serde_json::json!({"status": "ok", "database": "ok"})).into_response(),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "health check: database unreachable");
            unavailable("unreachable")
        }
        Err(_) => {
            tracing::warn!("health check: the database did not answer within {HEALTH_TIMEOUT:?}");
            unavailable("no answer")
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

/// How long a scrape waits for the queue depth before answering without it.
const QUEUE_DEPTH_TIMEOUT: Duration = Duration::from_secs(2);

/// The job queue's gauges, by job kind (`compile`, `match`), read from the database with one
/// query at every scrape: `croupier_jobs_queued` (runnable now: what the workers' autoscaler
/// in `deploy/k8s/` scales on), `croupier_jobs_delayed` (waiting out a retry back-off) and
/// `croupier_jobs_running`. Every server reports the same database-wide numbers.
///
/// They are written into the answer directly, not kept in the process-wide recorder: they
/// describe this scrape's database, and when it does not answer in time they are left out
/// (the series go stale, so an autoscaler holds still instead of acting on old numbers) while
/// the rest of the scrape still succeeds (`/healthz` reports the outage).
async fn queue_depth_text(pool: &croupier_store::PgPool) -> String {
    let depths =
        match tokio::time::timeout(QUEUE_DEPTH_TIMEOUT, croupier_store::jobs::queue_depth(pool))
            .await
        {
            Ok(Ok(depths)) => depths,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "metrics: cannot read the job queue's depth");
                return String::new();
            }
            Err(_) => {
                tracing::warn!("metrics: reading the job queue's depth timed out");
                return String::new();
            }
        };
    let gauges = [
        (
            "croupier_jobs_queued",
            "Jobs waiting for a worker and runnable now, by kind.",
        ),
        (
            "croupier_jobs_delayed",
            "Queued jobs waiting out a retry back-off, by kind.",
        ),
        (
            "croupier_jobs_running",
            "Jobs a worker is running, by kind.",
        ),
    ];
    let mut out = String::new();
    for (i, (name, help)) in gauges.into_iter().enumerate() {
        // (Writing to a String cannot fail.)
        let _ = write!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n");
        for d in &depths {
            let value = [d.queued, d.delayed, d.running][i];
            let _ = writeln!(out, "{name}{{kind=\"{}\"}} {value}", d.kind);
        }
    }
    out
}

async fn metrics_text(State(state): State<AppState>) -> impl IntoResponse {
    metrics::gauge!("db_pool_connections").set(f64::from(state.pool.size()));
    metrics::gauge!("db_pool_idle_connections").set(state.pool.num_idle() as f64);
    let queue = queue_depth_text(&state.pool).await;
    let mut text = prometheus().render();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&queue);
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4",
        )],
        text,
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

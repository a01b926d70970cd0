//! The web crate's one error type and its mapping to HTTP. Only this module knows status codes.
//!
//! Pages render errors as the HTML error page (`html::error_page`); the JSON API wraps the same error in [`ApiError`]
//! and answers `{"error": "..."}`. Internal errors are logged with their detail (the log line
//! carries the request id) and shown to the user only as "internal error".

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use croupier_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// 404. Also what a user gets for another team's private resources.
    #[error("not found")]
    NotFound,
    /// Pages: redirect to the login page. API: 401.
    #[error("you need to log in")]
    LoginRequired,
    /// 401 (API only): missing, malformed, revoked or unknown bearer token.
    #[error("a valid API token is required (Authorization: Bearer <token>)")]
    BadToken,
    /// 401: a login with a wrong username or password.
    #[error("wrong username or password")]
    WrongCredentials,
    /// 403.
    #[error("{0}")]
    Forbidden(String),
    /// 403: the form's CSRF token is missing or no longer matches the session.
    #[error("this form has expired or was not sent from this site; reload the page and try again")]
    Csrf,
    /// 400 with a message for the user.
    #[error("{0}")]
    BadRequest(String),
    /// 409: a name already taken, a membership that exists …
    #[error("{0}")]
    Conflict(String),
    /// 413: the upload is over the size cap.
    #[error("the upload is larger than the {} limit", human_bytes(*.0))]
    TooLarge(u64),
    /// 429 with `Retry-After`.
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after_secs: u64,
    },
    /// 503 with `Retry-After` (seconds): too much work already waiting (password hashing).
    #[error("the server is busy; try again in a few seconds")]
    Busy(u64),
    /// 500: logged with its detail, never shown.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl Error {
    pub fn internal(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Error::Internal(e.into())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Error::NotFound => StatusCode::NOT_FOUND,
            Error::LoginRequired | Error::BadToken | Error::WrongCredentials => {
                StatusCode::UNAUTHORIZED
            }
            Error::Forbidden(_) | Error::Csrf => StatusCode::FORBIDDEN,
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::Conflict(_) => StatusCode::CONFLICT,
            Error::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Error::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The `Retry-After` seconds of a 429 or 503.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Error::TooManyRequests {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            Error::Busy(secs) => Some(*secs),
            _ => None,
        }
    }

    /// `response` with this error's `Retry-After` header, if it has one.
    pub fn with_retry_after(&self, mut response: Response) -> Response {
        if let Some(secs) = self.retry_after() {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }

    fn log(&self) {
        if let Error::Internal(e) = self {
            tracing::error!(error = %e, detail = ?e, "internal error");
        }
    }
}

/// `10 MiB`, `512 KiB`, `700 B`.
pub fn human_bytes(n: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if n >= MIB && n.trailing_zeros() >= 20 {
        format!("{} MiB", n / MIB)
    } else if n >= MIB {
        format!("{:.1} MiB", n as f64 / MIB as f64)
    } else if n >= 1024 {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} B")
    }
}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => Error::NotFound,
            StoreError::Conflict(msg) => Error::Conflict(msg),
            StoreError::Database(e) => Error::internal(e),
        }
    }
}

impl From<tower_sessions::session::Error> for Error {
    fn from(e: tower_sessions::session::Error) -> Self {
        Error::internal(e)
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        self.log();
        if matches!(self, Error::LoginRequired) {
            return Redirect::to("/login").into_response();
        }
        let page = crate::html::error_page(self.status(), &self.to_string());
        self.with_retry_after(page)
    }
}

/// The same error, answered as JSON (`{"error": "..."}`) for `/api/v1`.
#[derive(Debug)]
pub struct ApiError(pub Error);

impl<E: Into<Error>> From<E> for ApiError {
    fn from(e: E) -> Self {
        ApiError(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.0.log();
        let status = self.0.status();
        let body = serde_json::json!({ "error": self.0.to_string(), "status": status.as_u16() });
        self.0
            .with_retry_after((status, axum::Json(body)).into_response())
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
pub type ApiResult<T> = std::result::Result<T, ApiError>;

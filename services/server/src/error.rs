//! The web crate's one error type and its mapping to HTTP. Only this module knows status codes.
//!
//! Pages render errors as the HTML error page (`html::error_page`); the JSON API wraps the
//! same error in [`ApiError`] and answers `{"error": "...", "status": n}`. Internal errors are
//! logged with their detail (the log line carries the request id) and shown to the user only
//! as "internal error".
//!
//! axum's own extractor rejections (a body that is not JSON, a path parameter that is not a
//! uuid, a query string that does not parse, …) become variants here too, in words of our own,
//! so that no request is ever answered with axum's `text/plain` rejection bodies: the
//! extractors of the `extract` module use these conversions.

use axum::extract::multipart::MultipartRejection;
use axum::extract::path::ErrorKind;
use axum::extract::rejection::{
    BytesRejection, FailedToBufferBody, JsonRejection, PathRejection, QueryRejection,
};
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
    /// 404 for an address no route serves (its path, `/api/v1/nothing-here`).
    #[error("not found: nothing is served at {0}")]
    NoRoute(String),
    /// 405: the path is served, but not for this method.
    #[error("{method} is not allowed on {path}")]
    MethodNotAllowed { method: String, path: String },
    /// 400 with a message for the user.
    #[error("{0}")]
    BadRequest(String),
    /// 415: the body is not of the content type the route reads.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 422: the body is well-formed but does not fit (a missing field, a wrong type).
    #[error("{0}")]
    Unprocessable(String),
    /// 409: a name already taken, a membership that exists …
    #[error("{0}")]
    Conflict(String),
    /// 410: it was here and is no longer kept (a replay expired under the retention setting).
    #[error("{0}")]
    Gone(String),
    /// 413: the upload is over the size cap.
    #[error("the upload is larger than the {} limit", human_bytes(*.0))]
    TooLarge(u64),
    /// 413: a request body over the route's body limit.
    #[error("the request body is larger than this address accepts")]
    BodyTooLarge,
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
            Error::NotFound | Error::NoRoute(_) => StatusCode::NOT_FOUND,
            Error::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Error::LoginRequired | Error::BadToken | Error::WrongCredentials => {
                StatusCode::UNAUTHORIZED
            }
            Error::Forbidden(_) | Error::Csrf => StatusCode::FORBIDDEN,
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Error::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Error::Conflict(_) => StatusCode::CONFLICT,
            Error::Gone(_) => StatusCode::GONE,
            Error::TooLarge(_) | Error::BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
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
            StoreError::Blobs(e) => Error::internal(e),
        }
    }
}

impl From<tower_sessions::session::Error> for Error {
    fn from(e: tower_sessions::session::Error) -> Self {
        Error::internal(e)
    }
}

/// The inner error's text of a rejection (`expected `,` at line 1 column 9`).
fn cause(e: &dyn std::error::Error) -> String {
    e.source()
        .map_or_else(|| e.to_string(), ToString::to_string)
}

fn body_rejection(e: &BytesRejection) -> Error {
    match e {
        BytesRejection::FailedToBufferBody(FailedToBufferBody::LengthLimitError(_)) => {
            Error::BodyTooLarge
        }
        other => Error::BadRequest(format!("the body could not be read: {}", other.body_text())),
    }
}

impl From<JsonRejection> for Error {
    fn from(e: JsonRejection) -> Self {
        match e {
            JsonRejection::JsonSyntaxError(e) => {
                Error::BadRequest(format!("the body is not valid JSON: {}", cause(&e)))
            }
            JsonRejection::JsonDataError(e) => {
                Error::Unprocessable(format!("the JSON body does not fit: {}", cause(&e)))
            }
            JsonRejection::MissingJsonContentType(_) => Error::UnsupportedMediaType(
                "the body must be JSON, sent with `Content-Type: application/json`".into(),
            ),
            JsonRejection::BytesRejection(e) => body_rejection(&e),
            other => {
                Error::BadRequest(format!("the body could not be read: {}", other.body_text()))
            }
        }
    }
}

impl From<PathRejection> for Error {
    fn from(e: PathRejection) -> Self {
        let PathRejection::FailedToDeserializePathParams(e) = e else {
            // No parameters where the route has some: the route table is wrong.
            return Error::internal(e);
        };
        if e.status().is_server_error() {
            return Error::internal(e);
        }
        let message = match e.kind() {
            ErrorKind::ParseErrorAtKey { key, value, .. }
            | ErrorKind::DeserializeError { key, value, .. } => {
                format!("the address is not valid: `{value}` is not a valid `{key}`")
            }
            ErrorKind::ParseError {
                value,
                expected_type,
            }
            | ErrorKind::ParseErrorAtIndex {
                value,
                expected_type,
                ..
            } => format!("the address is not valid: `{value}` is not a valid {expected_type}"),
            ErrorKind::InvalidUtf8InPathParam { key } => {
                format!("the address is not valid: `{key}` is not UTF-8")
            }
            other => format!("the address is not valid: {other}"),
        };
        Error::BadRequest(message)
    }
}

impl From<QueryRejection> for Error {
    fn from(e: QueryRejection) -> Self {
        let detail = match &e {
            QueryRejection::FailedToDeserializeQueryString(e) => cause(e),
            other => other.body_text(),
        };
        Error::BadRequest(format!("the query string is not valid: {detail}"))
    }
}

impl From<MultipartRejection> for Error {
    fn from(e: MultipartRejection) -> Self {
        match e {
            MultipartRejection::InvalidBoundary(_) => Error::UnsupportedMediaType(
                "the body must be `multipart/form-data` (with a boundary)".into(),
            ),
            other => {
                Error::BadRequest(format!("the form could not be read: {}", other.body_text()))
            }
        }
    }
}

impl Error {
    /// What the error page says: the fixed messages in the visitor's language, a message made
    /// by the handler (already in it) as is.
    fn page_message(&self) -> String {
        use crate::i18n::{t, t_with};
        match self {
            Error::NotFound => t("error-not-found"),
            Error::Csrf => t("error-csrf"),
            Error::NoRoute(path) => t_with("error-no-route", &[("path", path)]),
            Error::MethodNotAllowed { method, path } => {
                t_with("error-method", &[("method", method), ("path", path)])
            }
            Error::BodyTooLarge => t("error-body-too-large"),
            Error::Busy(_) => t("error-busy"),
            Error::Internal(_) => t("error-internal"),
            other => other.to_string(),
        }
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        self.log();
        if matches!(self, Error::LoginRequired) {
            return Redirect::to("/login").into_response();
        }
        let page = crate::html::error_page(self.status(), &self.page_message());
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

//! axum's extractors with this crate's errors as rejections, so that a malformed request is
//! answered like every other error: the `Api*` extractors with the JSON error of `/api/v1`,
//! the `Page*` extractors with the HTML error page. Handlers use these, never axum's own
//! `Json`, `Path`, `Query` or `Multipart`, whose rejections answer `text/plain`.
//!
//! The words and statuses are `error`'s (`impl From<JsonRejection> for Error` and its
//! siblings): 400 for a body that is not JSON or an address or query that does not parse, 415
//! for a body of the wrong content type, 422 for JSON that does not fit the request, 413 for a
//! body over the route's limit.

use axum::extract::{FromRequest, FromRequestParts, Multipart, Request};

use crate::error::{ApiError, Error};

/// An API request's JSON body (`Content-Type: application/json`). The body's syntax is checked
/// before its fields, so a body that is not JSON is a 400 whatever keys it starts with (serde
/// would otherwise report the first unknown key of a truncated body as a 422).
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<mime::Mime>().ok())
            .is_some_and(|m| {
                m.type_() == "application"
                    && (m.subtype() == "json" || m.suffix().is_some_and(|s| s == "json"))
            });
        if !json {
            return Err(Error::UnsupportedMediaType(
                "the body must be JSON, sent with `Content-Type: application/json`".into(),
            )
            .into());
        }
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| Error::from(axum::extract::rejection::JsonRejection::from(e)))?;
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
            return Err(Error::BadRequest(format!("the body is not valid JSON: {e}")).into());
        }
        let axum::Json(value) = axum::Json::<T>::from_bytes(&bytes).map_err(Error::from)?;
        Ok(ApiJson(value))
    }
}

/// An API request's path parameters.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct ApiPath<T>(pub T);

/// An API request's query string.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct ApiQuery<T>(pub T);

/// An API request's `multipart/form-data` body.
pub struct ApiMultipart(pub Multipart);

impl<S: Send + Sync> FromRequest<S> for ApiMultipart {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let multipart = Multipart::from_request(req, state)
            .await
            .map_err(Error::from)?;
        Ok(ApiMultipart(multipart))
    }
}

/// A page's path parameters.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(Error))]
pub struct PagePath<T>(pub T);

/// A page's query string.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(Error))]
pub struct PageQuery<T>(pub T);

/// A page form's `multipart/form-data` body.
pub struct PageMultipart(pub Multipart);

impl<S: Send + Sync> FromRequest<S> for PageMultipart {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        Ok(PageMultipart(Multipart::from_request(req, state).await?))
    }
}

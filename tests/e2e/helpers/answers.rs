//! What the app answers: [`Page`] (HTML, or any body) and [`Reply`] (JSON), with the
//! assertions the tests make on them.

use axum::http::{header, HeaderMap, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;

use super::{csrf_in, unescape};

/// An HTML (or any) answer.
#[derive(Debug)]
pub struct Page {
    pub status: StatusCode,
    pub headers: HeaderMap,
    /// The body as text (lossy), for HTML.
    pub body: String,
    /// The body as sent, for downloads.
    pub bytes: Vec<u8>,
}

impl Page {
    pub(super) async fn from(response: axum::response::Response) -> Self {
        let (parts, body) = response.into_parts();
        let bytes = body.collect().await.expect("body").to_bytes().to_vec();
        let body = String::from_utf8_lossy(&bytes).into_owned();
        Page {
            status: parts.status,
            headers: parts.headers,
            body,
            bytes,
        }
    }

    pub fn location(&self) -> Option<&str> {
        self.headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
    }

    /// The match of a redirect to a person's seat (`/matches/{id}/play`).
    pub fn seat_match(&self) -> uuid::Uuid {
        (self.location().expect("to the seat"))
            .trim_start_matches("/matches/")
            .trim_end_matches("/play")
            .parse()
            .expect("a match")
    }

    /// The body with askama's HTML escapes undone, for assertions on what the user reads.
    pub fn text(&self) -> String {
        unescape(&self.body)
    }

    /// Panics, showing the page, unless the status is `status`.
    #[track_caller]
    pub fn assert_status(&self, status: StatusCode) {
        assert_eq!(
            self.status, status,
            "unexpected status; the page was:\n{}",
            self.body
        );
    }

    /// Panics unless this is a 303 to `to`.
    #[track_caller]
    pub fn assert_redirect(&self, to: &str) {
        self.assert_status(StatusCode::SEE_OTHER);
        assert_eq!(self.location(), Some(to));
    }

    /// Panics unless the user can read `needle` on the page.
    #[track_caller]
    pub fn assert_shows(&self, needle: &str) {
        assert!(
            self.text().contains(needle),
            "the page does not show {needle:?}:\n{}",
            self.body
        );
    }

    /// Panics unless `needle` is nowhere on the page.
    #[track_caller]
    pub fn assert_lacks(&self, needle: &str) {
        assert!(
            !self.text().contains(needle),
            "the page shows {needle:?}:\n{}",
            self.body
        );
    }

    /// The value of the first `csrf` hidden input.
    pub fn csrf(&self) -> String {
        csrf_in(&self.body)
    }
}

/// A JSON API answer.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub json: Value,
    /// The body as text (lossy).
    pub raw: String,
    /// The body as sent.
    pub bytes: Vec<u8>,
}

impl Reply {
    pub(super) async fn from(response: axum::response::Response) -> Self {
        let page = Page::from(response).await;
        let json = serde_json::from_str(&page.body).unwrap_or(Value::Null);
        Reply {
            status: page.status,
            headers: page.headers,
            json,
            raw: page.body,
            bytes: page.bytes,
        }
    }

    #[track_caller]
    pub fn assert_status(&self, status: StatusCode) {
        assert_eq!(
            self.status, status,
            "unexpected status; the body was:\n{}",
            self.raw
        );
    }

    /// Panics unless this is an `{"error": ...}` answer with `status` whose message contains `needle`.
    #[track_caller]
    pub fn assert_error(&self, status: StatusCode, needle: &str) {
        self.assert_status(status);
        let message = self.json["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error field in {}", self.raw));
        assert!(
            message.contains(needle),
            "the error {message:?} does not mention {needle:?}"
        );
        assert_eq!(self.json["status"], status.as_u16());
    }
}

//! Turning askama templates into responses, and the error page every HTML error shows.
//!
//! Next to a leaf: it uses only `i18n` of this crate, so `error` (which renders the error page) and
//! `templates` (the page types, which also carry the error type and the CSRF token) both
//! depend on it and never on each other's dependents.

use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use crate::i18n::Lang;

/// Renders a template; a template error is logged and becomes a plain 500.
pub fn render(t: &impl Template) -> Response {
    match t.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "template rendering failed");
            (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
        }
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    lang: Lang,
    title: &'a str,
    status: u16,
    message: &'a str,
}

/// The site's error page for `status`, telling the user `message`.
pub fn error_page(status: StatusCode, message: &str) -> Response {
    let lang = crate::i18n::current();
    let key = format!("status-{}", status.as_u16());
    let title = if lang.has(&key) {
        lang.t(&key)
    } else {
        status.canonical_reason().unwrap_or("Error").to_owned()
    };
    let page = ErrorPage {
        lang,
        title: &title,
        status: status.as_u16(),
        message,
    };
    (status, render(&page)).into_response()
}

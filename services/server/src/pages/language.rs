//! The footer's language switch: `GET /lang/{tag}?next=/path`.

use axum::http::header::{LOCATION, SET_COOKIE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::extract::{PagePath, PageQuery};
use crate::html::error_page;
use crate::i18n::{self, Lang};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/lang/{tag}", get(switch))
}

/// Where to go after switching: a path on this site, never another site.
#[derive(serde::Deserialize)]
pub struct SwitchQuery {
    next: Option<String>,
}

/// `GET /lang/{tag}?next=/path`: remembers the choice for a year and goes back to `next`.
/// A plain link, so it works without JavaScript; it changes nothing but this browser's
/// cookie, so it needs no CSRF token.
pub async fn switch(
    PagePath(tag): PagePath<String>,
    PageQuery(q): PageQuery<SwitchQuery>,
) -> Response {
    let Some(lang) = Lang::from_tag(&tag) else {
        return error_page(
            StatusCode::NOT_FOUND,
            &i18n::t_with("lang-unknown", &[("tag", &tag)]),
        );
    };
    let next = q
        .next
        .filter(|n| n.starts_with('/') && !n.starts_with("//") && !n.contains('\\'))
        .unwrap_or_else(|| "/".to_owned());
    let cookie = format!(
        "{}={}; Path=/; Max-Age=31536000; SameSite=Lax",
        i18n::COOKIE_NAME,
        lang.tag()
    );
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    if let (Ok(location), Ok(cookie)) =
        (HeaderValue::from_str(&next), HeaderValue::from_str(&cookie))
    {
        headers.insert(LOCATION, location);
        headers.insert(SET_COOKIE, cookie);
    }
    response
}

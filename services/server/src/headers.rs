//! Security headers on every answer: a content security policy that allows only the site's
//! own scripts (the pages have no inline script), no framing by any other page (a signed-in
//! `/admin` cannot be framed to click its forms), `nosniff`, a same-origin referrer, and HSTS
//! when the site is served over HTTPS (`ServerConfig::secure_cookies`, the documented setting
//! behind a TLS-terminating proxy). A handler that sets one of these itself keeps its own.

use axum::http::{header, HeaderName, HeaderValue};
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

/// The policy. Inline `style` attributes stay allowed (`style-src-attr`): the competition
/// page's progress bar sizes its parts with them, and they cannot run code.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; \
     connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; \
     form-action 'self'; frame-ancestors 'none'";

/// HSTS for a site served over HTTPS: a year, subdomains included.
const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000; includeSubDomains";

fn set(name: HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// `router` with the security headers on every answer; `https` adds HSTS.
pub fn secure(router: Router, https: bool) -> Router {
    let router = router
        .layer(set(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(set(header::REFERRER_POLICY, "same-origin"))
        .layer(set(header::X_FRAME_OPTIONS, "DENY"));
    if https {
        router.layer(set(
            header::STRICT_TRANSPORT_SECURITY,
            STRICT_TRANSPORT_SECURITY,
        ))
    } else {
        router
    }
}

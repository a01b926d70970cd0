//! A typed test client for the app, driven in-process with `tower::ServiceExt::oneshot`.
//!
//! [`TestApp`] is one browser: it keeps a cookie jar (reads `set-cookie`, sends `cookie`),
//! follows no redirect by itself, reads the `csrf` hidden input out of a page, posts
//! url-encoded and multipart forms, and also makes JSON API calls with a bearer token.
//! [`TestApp::new_visitor`] gives another browser on the same server and database.

mod answers;
pub mod archives;
mod db;
mod forms;
pub mod served;

use std::collections::BTreeMap;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use croupier_server::{app, AppState, ServerConfig};
use serde_json::Value;
use sqlx::PgPool;
use tower::ServiceExt;
use uuid::Uuid;

pub use answers::{Page, Reply};
pub use db::*;
pub use forms::*;

/// The password every test user gets.
pub const PASSWORD: &str = "correct horse battery";

/// One browser on an in-process Croupier.
pub struct TestApp {
    router: Router,
    pub pool: PgPool,
    jar: BTreeMap<String, String>,
}

impl TestApp {
    pub fn new(pool: PgPool) -> Self {
        Self::with_config(pool, ServerConfig::default())
    }

    pub fn with_config(pool: PgPool, config: ServerConfig) -> Self {
        let router = app(AppState::new(pool.clone(), config));
        Self {
            router,
            pool,
            jar: BTreeMap::new(),
        }
    }

    /// The server with uploads capped at `cap` bytes (the form's and the bundle's cap).
    pub fn with_upload_cap(pool: PgPool, cap: u64) -> Self {
        let defaults = ServerConfig::default();
        let mut bundle_limits = defaults.bundle_limits;
        bundle_limits.max_upload_bytes = cap;
        Self::with_config(
            pool,
            ServerConfig {
                max_upload_bytes: cap,
                bundle_limits,
                ..defaults
            },
        )
    }

    /// Another browser (an empty cookie jar) on the same server.
    pub fn new_visitor(&self) -> Self {
        Self {
            router: self.router.clone(),
            pool: self.pool.clone(),
            jar: BTreeMap::new(),
        }
    }

    /// Sends `request` with this browser's cookies and keeps the cookies it sets.
    pub async fn send(&mut self, mut request: Request<Body>) -> Page {
        if !self.jar.is_empty() {
            let cookies: Vec<String> = self.jar.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let value = cookies.join("; ").parse().expect("cookie header");
            request.headers_mut().insert(header::COOKIE, value);
        }
        let page = Page::from(oneshot(&self.router, request).await).await;
        for set in page.headers.get_all(header::SET_COOKIE) {
            self.keep_cookie(set.to_str().expect("ascii set-cookie"));
        }
        page
    }

    fn keep_cookie(&mut self, set_cookie: &str) {
        let mut attributes = set_cookie.split(';').map(str::trim);
        let Some((name, value)) = attributes.next().and_then(|nv| nv.split_once('=')) else {
            return;
        };
        let removed = attributes.any(|a| {
            let a = a.to_ascii_lowercase();
            a == "max-age=0" || a.starts_with("max-age=-") || a.contains("1970")
        });
        if removed || value.is_empty() {
            self.jar.remove(name);
        } else {
            self.jar.insert(name.to_owned(), value.to_owned());
        }
    }

    /// Chooses 简体中文 with the footer's link, as a visitor does (the answer goes back to `/`).
    pub async fn choose_chinese(&mut self) {
        self.get("/lang/zh-CN?next=/")
            .await
            .assert_status(StatusCode::SEE_OTHER);
    }

    /// Sets a cookie as if the server had (a session id from the database, say).
    pub fn set_cookie(&mut self, name: &str, value: &str) {
        self.jar.insert(name.to_owned(), value.to_owned());
    }

    /// Forgets every cookie (as if the browser were closed and its cookies cleared).
    pub fn clear_cookies(&mut self) {
        self.jar.clear();
    }

    pub async fn get(&mut self, path: &str) -> Page {
        self.send(Request::get(path).body(Body::empty()).expect("request"))
            .await
    }

    /// Fetches `path` and returns the value of its first `csrf` hidden input.
    pub async fn csrf(&mut self, path: &str) -> String {
        let page = self.get(path).await;
        page.assert_status(StatusCode::OK);
        page.csrf()
    }

    /// Posts a url-encoded form.
    pub async fn post_form(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let body = fields
            .iter()
            .map(|(k, v)| format!("{}={}", urlencode(k), urlencode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let request = Request::post(path)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .expect("request");
        self.send(request).await
    }

    /// Fetches `form_page` for its CSRF token, then posts `fields` plus that token to `path`.
    pub async fn submit_form(
        &mut self,
        form_page: &str,
        path: &str,
        fields: &[(&str, &str)],
    ) -> Page {
        let csrf = self.csrf(form_page).await;
        let mut all = vec![("csrf", csrf.as_str())];
        all.extend_from_slice(fields);
        self.post_form(path, &all).await
    }

    /// Posts a `multipart/form-data` body built from `parts`.
    pub async fn post_multipart(&mut self, path: &str, parts: &[Part<'_>]) -> Page {
        let (content_type, body) = multipart(parts);
        let request = Request::post(path)
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .expect("request");
        self.send(request).await
    }

    // --- user flows through the HTML forms ---------------------------------------------

    /// Signs up `username` (password [`PASSWORD`]) through the form; panics unless it worked.
    pub async fn sign_up(&mut self, username: &str) {
        let page = self
            .submit_form(
                "/signup",
                "/signup",
                &[
                    ("username", username),
                    ("email", ""),
                    ("password", PASSWORD),
                    ("password_again", PASSWORD),
                ],
            )
            .await;
        page.assert_redirect("/teams");
    }

    /// Logs in through the form and returns the answer (303 to /teams when it worked).
    pub async fn log_in(&mut self, username: &str, password: &str) -> Page {
        self.submit_form(
            "/login",
            "/login",
            &[("username", username), ("password", password)],
        )
        .await
    }

    /// Creates a team through the form; panics unless it worked.
    pub async fn create_team(&mut self, name: &str) -> Uuid {
        let page = self
            .submit_form("/teams", "/teams", &[("name", name)])
            .await;
        page.assert_status(StatusCode::SEE_OTHER);
        let location = page.location().expect("location");
        location
            .strip_prefix("/teams/")
            .and_then(|id| id.parse().ok())
            .unwrap_or_else(|| panic!("unexpected redirect after creating a team: {location}"))
    }

    /// Joins a team through the form and returns the answer.
    pub async fn join_team(&mut self, invite_code: &str) -> Page {
        self.submit_form("/teams", "/teams/join", &[("invite_code", invite_code)])
            .await
    }

    /// Uploads through the team's upload form, CSRF token included.
    pub async fn upload(&mut self, team_id: Uuid, upload: &Upload) -> Page {
        let form = format!("/teams/{team_id}/upload");
        let csrf = self.csrf(&form).await;
        self.post_multipart(&form, &upload.parts(&csrf)).await
    }

    /// Posts an upload with this session's token but without opening the team's upload form
    /// (which a non-member cannot see).
    pub async fn upload_without_form(&mut self, team_id: Uuid, upload: &Upload) -> Page {
        let csrf = self.csrf("/teams").await;
        self.post_multipart(&format!("/teams/{team_id}/upload"), &upload.parts(&csrf))
            .await
    }

    // --- the JSON API ----------------------------------------------------------------------

    /// A JSON API call (no cookies), with an optional bearer token and JSON body.
    pub async fn api(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let request = match body {
            Some(json) => request
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(json.to_string())),
            None => request.body(Body::empty()),
        };
        Reply::from(oneshot(&self.router, request.expect("request")).await).await
    }

    /// A multipart upload to the API.
    pub async fn api_multipart(&self, path: &str, token: &str, parts: &[Part<'_>]) -> Reply {
        let (content_type, body) = multipart(parts);
        let request = Request::post(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .expect("request");
        Reply::from(oneshot(&self.router, request).await).await
    }

    /// Signs up over the API and returns a fresh API token for the new user.
    pub async fn api_user(&self, username: &str) -> String {
        let signup = serde_json::json!({ "username": username, "password": PASSWORD });
        self.api(Method::POST, "/api/v1/users", None, Some(signup))
            .await
            .assert_status(StatusCode::CREATED);
        let login = serde_json::json!({ "username": username, "password": PASSWORD });
        let reply = self
            .api(Method::POST, "/api/v1/tokens", None, Some(login))
            .await;
        reply.assert_status(StatusCode::CREATED);
        reply.json["token"].as_str().expect("token").to_owned()
    }
}

async fn oneshot(router: &Router, request: Request<Body>) -> axum::response::Response {
    router
        .clone()
        .oneshot(request)
        .await
        .expect("the router is infallible")
}

//! Password reset links, made by an admin for a person who forgot their password (no e-mail
//! needed: the admin passes the link on). `POST /admin/users/{id}/reset` makes one (valid
//! 24 hours, works once, replaces the person's earlier links) and shows it on the admin page
//! once; `GET /account/reset/{secret}` is the form for the new password, `POST` sets it (its
//! strength checked as at sign-up), signs every browser of the person out, revokes their API
//! tokens unless they tick "keep", and sends them to log in.

use askama::Template;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use croupier_store::{resets, tokens, users};
use serde::Deserialize;
use uuid::Uuid;

use crate::auth::csrf::CsrfForm;
use crate::auth::sessions::{self, Tokens};
use crate::auth::{password, token, AdminUser};
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::templates::{render, Ctx};
use crate::{has_csrf, i18n, AppState};

/// How long a link works.
const VALID: time::Duration = time::Duration::hours(24);
/// The session key holding a new link for the admin page, shown once.
pub const NEW_LINK: &str = "new_reset_link";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/users/{user_id}/reset", post(make))
        .route("/account/reset/{secret}", get(show).post(set))
}

#[derive(Template)]
#[template(path = "password_reset.html")]
struct ResetPage {
    ctx: Ctx,
    secret: String,
    /// `None`: the link is not live.
    username: Option<String>,
    error: Option<String>,
    /// The "keep my API tokens" checkbox's label, when the person has live tokens.
    keep_tokens_label: Option<String>,
}

/// The "keep my API tokens" label for a person with `live` tokens (`None` without any).
pub(super) fn keep_tokens_label(live: i64) -> Option<String> {
    (live > 0).then(|| i18n::t_with("password-keep-tokens", &[("n", &live)]))
}

#[derive(Deserialize)]
struct PlainForm {
    csrf: String,
}

#[derive(Deserialize)]
struct ResetForm {
    csrf: String,
    password: String,
    password_again: String,
    /// The checkbox "keep my API tokens": present when ticked.
    keep_tokens: Option<String>,
}
has_csrf!(PlainForm, ResetForm);

/// What the admin page shows once: whose link it is, the link, until when.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct NewLink {
    pub username: String,
    pub url: String,
    pub expires: String,
}

/// The link as the admin's browser reached this server (behind a proxy: its forwarded scheme).
fn link(headers: &HeaderMap, secret: &str) -> String {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let scheme = text("x-forwarded-proto").unwrap_or("http");
    match text(header::HOST.as_str()) {
        Some(host) => format!("{scheme}://{host}/account/reset/{secret}"),
        None => format!("/account/reset/{secret}"),
    }
}

async fn make(
    State(state): State<AppState>,
    AdminUser(me): AdminUser,
    ctx: Ctx,
    headers: HeaderMap,
    PagePath(user_id): PagePath<Uuid>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    let person = users::get(&state.pool, user_id).await?;
    let secret = token::generate();
    let expires = resets::create(
        &state.pool,
        user_id,
        me.user_id,
        &token::hash(&secret),
        VALID,
    )
    .await?;
    tracing::info!(by = %me.user_id, user_id = %user_id, "password reset link made");
    let shown = NewLink {
        username: person.username,
        url: link(&headers, &secret),
        expires: crate::templates::when(&expires),
    };
    ctx.session.insert(NEW_LINK, shown).await?;
    Ok(Redirect::to("/admin#reset-link"))
}

async fn show(
    State(state): State<AppState>,
    ctx: Ctx,
    PagePath(secret): PagePath<String>,
) -> Result<Response> {
    let holder = resets::holder(&state.pool, &token::hash(&secret)).await?;
    let live = match &holder {
        Some((user_id, _)) => tokens::count_live(&state.pool, *user_id).await?,
        None => 0,
    };
    let page = ResetPage {
        ctx: ctx.with_csrf().await?,
        secret,
        username: holder.map(|(_, name)| name),
        error: None,
        keep_tokens_label: keep_tokens_label(live),
    };
    let status = if page.username.is_some() {
        StatusCode::OK
    } else {
        StatusCode::GONE
    };
    Ok((status, render(&page)).into_response())
}

async fn set(
    State(state): State<AppState>,
    ctx: Ctx,
    PagePath(secret): PagePath<String>,
    CsrfForm(form): CsrfForm<ResetForm>,
) -> Result<Response> {
    let hashed = token::hash(&secret);
    let Some((user_id, username)) = resets::holder(&state.pool, &hashed).await? else {
        return show(State(state), ctx, PagePath(secret)).await;
    };
    let set = async {
        if form.password != form.password_again {
            return Err(Error::BadRequest(i18n::t("signup-passwords-differ")));
        }
        let person = users::get(&state.pool, user_id).await?;
        let email = person.email.unwrap_or_default();
        password::check_strength(&form.password, &[&username, &email])?;
        let hash = password::hash_gated(&state.hashing, form.password).await?;
        resets::redeem(&state.pool, &hashed, &hash).await?;
        Ok(())
    }
    .await;
    match set {
        Ok(()) => {
            // Whoever else is signed in as the person, or holds their tokens, is out.
            let api = Tokens::asked(form.keep_tokens.is_some(), None);
            sessions::end_other_access(&state.pool, user_id, None, api).await?;
            tracing::info!(user_id = %user_id, "password set with a reset link");
            let done = i18n::t_with("reset-done", &[("user", &username)]);
            ctx.flash(done).await?;
            Ok(Redirect::to("/login").into_response())
        }
        Err(Error::NotFound) => show(State(state), ctx, PagePath(secret)).await,
        Err(e @ (Error::BadRequest(_) | Error::Busy(_))) => {
            let status = e.status();
            let live = tokens::count_live(&state.pool, user_id).await?;
            let page = ResetPage {
                ctx: ctx.with_csrf().await?,
                secret,
                username: Some(username),
                error: Some(super::account::page_message(&e)),
                keep_tokens_label: keep_tokens_label(live),
            };
            Ok(e.with_retry_after((status, render(&page)).into_response()))
        }
        Err(e) => Err(e),
    }
}

//! The account page, `/account`, reached from the user's name in the header: changing one's
//! password and the list of one's signed-in browsers.
//!
//! * `POST /account/password` checks the current password (a wrong one is counted like a
//!   failed log-in and refused alike), the new one's strength (as at sign-up), stores its hash
//!   and ends every other session; this browser stays signed in with a new session id. The
//!   person's API tokens are revoked unless they tick "keep my API tokens".
//! * The sessions list says for each browser when it signed in, when and from which address
//!   it was last seen, and which one is this; `POST /account/sessions/{handle}/end` signs one
//!   out, `POST /account/sessions/end-others` every one but this.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use croupier_store::users::User;
use croupier_store::{sessions as store_sessions, tokens, users};
use serde::Deserialize;
use uuid::Uuid;

use crate::auth::csrf::CsrfForm;
use crate::auth::sessions::{self, Tokens};
use crate::auth::{login, password, ClientIp, CurrentUser};
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::templates::{render, when, Ctx};
use crate::{has_csrf, i18n, user_agent, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/account", get(show))
        .route("/account/password", get(old_address).post(change))
        .route("/account/sessions/end-others", post(end_others))
        .route("/account/sessions/{handle}/end", post(end_one))
}

/// One signed-in browser as the page lists it.
struct SessionRow {
    handle: Uuid,
    browser: String,
    address: String,
    signed_in: String,
    last_seen: String,
    current: bool,
    /// The sign-out button's accessible name (which browser it signs out).
    sign_out_label: String,
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
    ctx: Ctx,
    error: Option<String>,
    sessions: Vec<SessionRow>,
    /// The "keep my API tokens" checkbox's label, when the person has live tokens.
    keep_tokens_label: Option<String>,
}

#[derive(Deserialize)]
struct PasswordForm {
    csrf: String,
    current: String,
    password: String,
    password_again: String,
    /// The checkbox "keep my API tokens": present when ticked.
    keep_tokens: Option<String>,
}

#[derive(Deserialize)]
struct PlainForm {
    csrf: String,
}
has_csrf!(PasswordForm, PlainForm);

/// How a session's browser is said: "Firefox on Linux", or "unknown browser".
fn browser(agent: Option<&str>) -> String {
    let agent = user_agent::describe(agent.unwrap_or(""));
    match (agent.browser, agent.system) {
        (Some(browser), Some(system)) => i18n::t_with(
            "account-browser-on",
            &[("browser", &browser), ("system", &system)],
        ),
        (Some(name), None) | (None, Some(name)) => name.to_owned(),
        (None, None) => i18n::t("account-browser-unknown"),
    }
}

/// The page for `user`, with `error` above the password form.
async fn page(state: &AppState, user: &User, ctx: Ctx, error: Option<String>) -> Result<Response> {
    let ctx = ctx.with_csrf().await?;
    let current = ctx.session.id().map(|id| id.to_string());
    let sessions = store_sessions::list_for_user(&state.pool, user.user_id, current.as_deref())
        .await?
        .into_iter()
        .map(|s| {
            let last_seen = when(&s.last_seen_at);
            SessionRow {
                handle: s.handle,
                browser: browser(s.user_agent.as_deref()),
                address: s.address.unwrap_or_default(),
                signed_in: when(&s.created_at),
                sign_out_label: i18n::t_with("account-sign-out-label", &[("when", &last_seen)]),
                last_seen,
                current: s.current,
            }
        })
        .collect();
    let live_tokens = tokens::count_live(&state.pool, user.user_id).await?;
    Ok(render(&AccountPage {
        ctx,
        error,
        sessions,
        keep_tokens_label: super::password_reset::keep_tokens_label(live_tokens),
    }))
}

async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
) -> Result<Response> {
    page(&state, &user, ctx, None).await
}

/// The password form's address before the account page had more on it.
async fn old_address() -> Redirect {
    Redirect::permanent("/account")
}

async fn change(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    CsrfForm(form): CsrfForm<PasswordForm>,
) -> Result<Response> {
    let changed = async {
        // The current password as a log-in checks it: throttled, counted, the same answer.
        login::authenticate(&state, &user.username, form.current, &ip).await?;
        if form.password != form.password_again {
            return Err(Error::BadRequest(i18n::t("password-new-differ")));
        }
        let email = user.email.clone().unwrap_or_default();
        password::check_strength(&form.password, &[&user.username, &email])?;
        let hash = password::hash_gated(&state.hashing, form.password).await?;
        Ok(users::set_password(&state.pool, user.user_id, &hash).await?)
    }
    .await;
    match changed {
        Ok(epoch) => {
            let api = Tokens::asked(form.keep_tokens.is_some(), None);
            let this_browser = Some((&ctx.session, epoch));
            let ended =
                sessions::end_other_access(&state.pool, user.user_id, this_browser, api).await?;
            let said = i18n::t_with(
                "password-changed",
                &[
                    ("sessions", &ended.sessions.to_string()),
                    ("tokens", &ended.tokens.to_string()),
                ],
            );
            ctx.flash(said).await?;
            tracing::info!(user_id = %user.user_id, "password changed");
            Ok(Redirect::to("/account").into_response())
        }
        Err(e @ (Error::BadRequest(_) | Error::Busy(_) | Error::TooManyRequests { .. })) => {
            let status = e.status();
            let message = super::account::page_message(&e);
            let shown = page(&state, &user, ctx, Some(message)).await?;
            Ok(e.with_retry_after((status, shown).into_response()))
        }
        Err(Error::WrongCredentials) => {
            let message = i18n::t("password-not-current");
            let shown = page(&state, &user, ctx, Some(message)).await?;
            Ok((StatusCode::FORBIDDEN, shown).into_response())
        }
        Err(e) => Err(e),
    }
}

async fn end_one(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(handle): PagePath<Uuid>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    let current = ctx.session.id().map(|id| id.to_string());
    let this_one = store_sessions::list_for_user(&state.pool, user.user_id, current.as_deref())
        .await?
        .iter()
        .any(|s| s.current && s.handle == handle);
    if this_one {
        // Signing this browser out is logging out.
        ctx.session.flush().await?;
        return Ok(Redirect::to("/login"));
    }
    store_sessions::delete_by_handle(&state.pool, user.user_id, handle).await?;
    tracing::info!(user_id = %user.user_id, %handle, "session signed out from the account page");
    ctx.flash(i18n::t("account-session-ended")).await?;
    Ok(Redirect::to("/account#sessions"))
}

async fn end_others(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    let ended = sessions::end_others(&state.pool, user.user_id, &ctx.session).await?;
    let said = i18n::t_with(
        "account-others-ended",
        &[("sessions", &ended.sessions.to_string())],
    );
    ctx.flash(said).await?;
    Ok(Redirect::to("/account#sessions"))
}

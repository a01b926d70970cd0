//! Changing one's password: `GET /account/password` is the form (the current password, the new
//! one twice), `POST` checks the current password (a wrong one is counted like a failed
//! log-in and refused alike), the new one's strength (as at sign-up), stores its hash and gives
//! the browser a new session id. Reached from the user's name in the header.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use croupier_store::users;
use serde::Deserialize;

use crate::auth::csrf::CsrfForm;
use crate::auth::{login, password, ClientIp, CurrentUser};
use crate::error::{Error, Result};
use crate::templates::{render, Ctx};
use crate::{has_csrf, i18n, AppState};

pub fn router() -> Router<AppState> {
    Router::new().route("/account/password", get(show).post(change))
}

#[derive(Template)]
#[template(path = "password.html")]
struct PasswordPage {
    ctx: Ctx,
    error: Option<String>,
}

#[derive(Deserialize)]
struct PasswordForm {
    csrf: String,
    current: String,
    password: String,
    password_again: String,
}
has_csrf!(PasswordForm);

async fn show(CurrentUser(_): CurrentUser, ctx: Ctx) -> Result<Response> {
    let ctx = ctx.with_csrf().await?;
    Ok(render(&PasswordPage { ctx, error: None }))
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
        users::set_password(&state.pool, user.user_id, &hash).await?;
        Ok(())
    }
    .await;
    match changed {
        Ok(()) => {
            ctx.session.cycle_id().await?;
            ctx.flash(i18n::t("password-changed")).await?;
            tracing::info!(user_id = %user.user_id, "password changed");
            Ok(Redirect::to("/teams").into_response())
        }
        Err(e @ (Error::BadRequest(_) | Error::Busy(_) | Error::TooManyRequests { .. })) => {
            let status = e.status();
            let page = PasswordPage {
                ctx: ctx.with_csrf().await?,
                error: Some(super::account::page_message(&e)),
            };
            Ok(e.with_retry_after((status, render(&page)).into_response()))
        }
        Err(Error::WrongCredentials) => {
            let page = PasswordPage {
                ctx: ctx.with_csrf().await?,
                error: Some(i18n::t("password-not-current")),
            };
            Ok((StatusCode::FORBIDDEN, render(&page)).into_response())
        }
        Err(e) => Err(e),
    }
}

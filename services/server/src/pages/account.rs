//! Sign up, log in, log out.

use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use croupier_store::{users, StoreError};
use serde::Deserialize;

use crate::auth::csrf::CsrfForm;
use crate::auth::{login, password, sessions, ClientIp};
use crate::error::{Error, Result};
use crate::templates::{render, Ctx, LoginPage, SignupPage};
use crate::validate::{check_email, check_username};
use crate::{has_csrf, i18n, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/signup", get(signup_page).post(signup))
        .route("/login", get(login_page).post(login))
        .route("/logout", post(logout))
}

#[derive(Deserialize)]
struct SignupForm {
    csrf: String,
    username: String,
    #[serde(default)]
    email: String,
    password: String,
    password_again: String,
}

#[derive(Deserialize)]
struct LoginForm {
    csrf: String,
    username: String,
    password: String,
}

#[derive(Deserialize)]
struct LogoutForm {
    csrf: String,
}

has_csrf!(SignupForm, LoginForm, LogoutForm);

async fn signup_page(ctx: Ctx) -> Result<Response> {
    if ctx.user.is_some() {
        return Ok(Redirect::to("/teams").into_response());
    }
    let ctx = ctx.with_csrf().await?;
    Ok(render(&SignupPage {
        ctx,
        error: None,
        username: String::new(),
        email: String::new(),
    }))
}

async fn signup(
    State(state): State<AppState>,
    ctx: Ctx,
    CsrfForm(form): CsrfForm<SignupForm>,
) -> Result<Response> {
    let username = form.username.trim().to_owned();
    let email = form.email.trim().to_owned();
    let result = async {
        check_username(&username)
            .map_err(|_| Error::BadRequest(i18n::t("signup-username-rule")))?;
        check_email(&email).map_err(|_| Error::BadRequest(i18n::t("signup-email-rule")))?;
        if form.password != form.password_again {
            return Err(Error::BadRequest(i18n::t("signup-passwords-differ")));
        }
        password::check_strength(&form.password, &[&username, &email])?;
        let hash = password::hash_gated(&state.hashing, form.password.clone()).await?;
        let email = (!email.is_empty()).then_some(email.as_str());
        users::create(&state.pool, &username, email, &hash, false)
            .await
            .map_err(|e| match e {
                StoreError::Conflict(_) => {
                    let name = format!("{username:?}");
                    Error::Conflict(i18n::t_with("signup-username-taken", &[("name", &name)]))
                }
                e => e.into(),
            })
    }
    .await;
    match result {
        Ok(user) => {
            sessions::sign_in(&ctx.session, &user).await?;
            let welcome = i18n::t_with("signup-welcome", &[("user", &user.username)]);
            ctx.flash(welcome).await?;
            tracing::info!(user_id = %user.user_id, "user signed up");
            Ok(Redirect::to("/teams").into_response())
        }
        Err(e @ (Error::BadRequest(_) | Error::Conflict(_) | Error::Busy(_))) => {
            let status = e.status();
            let page = SignupPage {
                ctx,
                error: Some(page_message(&e)),
                username,
                email,
            };
            Ok(e.with_retry_after((status, render(&page)).into_response()))
        }
        Err(e) => Err(e),
    }
}

async fn login_page(ctx: Ctx) -> Result<Response> {
    if ctx.user.is_some() {
        return Ok(Redirect::to("/teams").into_response());
    }
    let ctx = ctx.with_csrf().await?;
    Ok(render(&LoginPage {
        ctx,
        error: None,
        username: String::new(),
    }))
}

async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ctx: Ctx,
    CsrfForm(form): CsrfForm<LoginForm>,
) -> Result<Response> {
    let username = form.username.trim().to_owned();
    let user_id = match login::authenticate(&state, &username, form.password, &ip).await {
        Ok(user_id) => user_id,
        Err(e @ (Error::TooManyRequests { .. } | Error::Busy(_) | Error::WrongCredentials)) => {
            let status = e.status();
            let page = LoginPage {
                ctx,
                error: Some(page_message(&e)),
                username,
            };
            return Ok(e.with_retry_after((status, render(&page)).into_response()));
        }
        Err(e) => return Err(e),
    };
    let user = users::get(&state.pool, user_id).await?;
    sessions::sign_in(&ctx.session, &user).await?;
    Ok(Redirect::to("/teams").into_response())
}

/// An error of the account pages as the page says it, in the page's language (the error's
/// own text is the API's English).
pub(super) fn page_message(e: &Error) -> String {
    match e {
        Error::WrongCredentials => i18n::t("login-wrong"),
        Error::Busy(_) => i18n::t("account-busy"),
        e => e.to_string(),
    }
}

async fn logout(ctx: Ctx, CsrfForm(_): CsrfForm<LogoutForm>) -> Result<Redirect> {
    ctx.session.flush().await?;
    Ok(Redirect::to("/"))
}

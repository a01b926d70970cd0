//! Admin pages: users (make or remove admin, a password reset link), teams (each links to its
//! page) and the worker fleet.

use axum::extract::State;
use axum::response::{Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use croupier_store::{teams, users, workers};
use serde::Deserialize;
use uuid::Uuid;

use super::password_reset::NewLink;
use crate::auth::csrf::CsrfForm;
use crate::auth::AdminUser;
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::templates::{render, AdminPage, Ctx};
use crate::{has_csrf, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin", get(index))
        .route("/admin/users/{user_id}/admin", post(set_admin))
}

#[derive(Deserialize)]
struct AdminForm {
    csrf: String,
    /// "true" to make an admin, "false" to remove the role.
    admin: bool,
}

has_csrf!(AdminForm);

async fn index(
    State(state): State<AppState>,
    AdminUser(_): AdminUser,
    ctx: Ctx,
) -> Result<Response> {
    let users = users::list(&state.pool).await?;
    let teams = teams::list(&state.pool).await?;
    let workers = workers::fleet(&state.pool).await?;
    let new_link = ctx
        .session
        .remove::<NewLink>(super::password_reset::NEW_LINK)
        .await?;
    Ok(render(&AdminPage {
        ctx,
        users,
        teams,
        workers,
        new_link,
    }))
}

async fn set_admin(
    State(state): State<AppState>,
    AdminUser(me): AdminUser,
    ctx: Ctx,
    PagePath(user_id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<AdminForm>,
) -> Result<Redirect> {
    if user_id == me.user_id && !form.admin {
        return Err(Error::BadRequest(
            "you cannot remove your own admin role".into(),
        ));
    }
    users::set_admin(&state.pool, user_id, form.admin).await?;
    let target = users::get(&state.pool, user_id).await?;
    tracing::info!(by = %me.user_id, user_id = %user_id, admin = form.admin, "admin role changed");
    ctx.flash(if form.admin {
        format!("{} is now an administrator.", target.username)
    } else {
        format!("{} is no longer an administrator.", target.username)
    })
    .await?;
    Ok(Redirect::to("/admin"))
}

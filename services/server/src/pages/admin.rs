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
use croupier_store::workers::FleetRow;

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

impl AdminPage {
    /// What the admin does with the reset link just made.
    pub(crate) fn reset_note(&self, l: &NewLink) -> String {
        let args: [(&str, &dyn std::fmt::Display); 2] =
            [("user", &l.username), ("expires", &l.expires)];
        self.ctx.lang.t_with("admin-reset-note", &args)
    }

    /// A worker's state from its row: stopped, alive (heard within three heartbeats), or
    /// silent for how long.
    pub(crate) fn worker_state(&self, w: &FleetRow) -> String {
        let s = w.silent_secs;
        if w.stopped_at.is_some() {
            self.ctx.t("admin-state-stopped")
        } else if s <= 45.0 {
            self.ctx.t("admin-state-alive")
        } else if s < 120.0 {
            self.ctx.t1("admin-state-silent-s", "n", &format!("{s:.0}"))
        } else if s < 7200.0 {
            self.ctx
                .t1("admin-state-silent-min", "n", &format!("{:.0}", s / 60.0))
        } else {
            self.ctx
                .t1("admin-state-silent-h", "n", &format!("{:.0}", s / 3600.0))
        }
    }
}

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
        return Err(Error::BadRequest(ctx.t("admin-own-role")));
    }
    users::set_admin(&state.pool, user_id, form.admin).await?;
    let target = users::get(&state.pool, user_id).await?;
    tracing::info!(by = %me.user_id, user_id = %user_id, admin = form.admin, "admin role changed");
    ctx.flash(if form.admin {
        ctx.t1("admin-now-admin", "user", &target.username)
    } else {
        ctx.t1("admin-no-longer-admin", "user", &target.username)
    })
    .await?;
    Ok(Redirect::to("/admin"))
}

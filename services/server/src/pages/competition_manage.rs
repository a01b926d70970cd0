//! An organiser's everyday controls on a competition's page (admins only): rename, pause and
//! resume a round-robin, delete one nothing was played in (its name typed again), archive one
//! that is over (out of the public list, still reachable) and bring it back. A refusal comes
//! back to the page as a message and changes nothing.

use axum::extract::State;
use axum::response::Redirect;
use axum::routing::post;
use axum::Router;
use croupier_store::{competition_admin, competitions, StoreError};
use serde::Deserialize;
use uuid::Uuid;

use crate::auth::csrf::CsrfForm;
use crate::auth::AdminUser;
use crate::error::Result;
use crate::extract::PagePath;
use crate::templates::Ctx;
use crate::{has_csrf, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/competitions/{competition_id}/rename", post(rename))
        .route("/admin/competitions/{competition_id}/pause", post(pause))
        .route("/admin/competitions/{competition_id}/resume", post(resume))
        .route("/admin/competitions/{competition_id}/delete", post(delete))
        .route(
            "/admin/competitions/{competition_id}/archive",
            post(archive),
        )
}

#[derive(Deserialize)]
struct PlainForm {
    csrf: String,
}

#[derive(Deserialize)]
struct NameForm {
    csrf: String,
    name: String,
}

#[derive(Deserialize)]
struct DeleteForm {
    csrf: String,
    #[serde(default)]
    confirm: String,
}

#[derive(Deserialize)]
struct ArchiveForm {
    csrf: String,
    archived: bool,
}

has_csrf!(PlainForm, NameForm, DeleteForm, ArchiveForm);

fn page(id: Uuid) -> Redirect {
    Redirect::to(&format!("/competitions/{id}"))
}

/// Flashes `done` and returns to the page; a refusal flashes its reason instead.
async fn answer<T>(
    ctx: &Ctx,
    id: Uuid,
    outcome: std::result::Result<T, StoreError>,
    done: impl FnOnce(T) -> String,
) -> Result<Redirect> {
    let message = match outcome {
        Ok(v) => done(v),
        Err(StoreError::Conflict(reason)) => {
            ctx.t1("manage-nothing-changed", "reason", &refusal(ctx, &reason))
        }
        Err(e) => return Err(e.into()),
    };
    ctx.flash(message).await?;
    Ok(page(id))
}

/// The store's refusal (`croupier_store::competition_admin`) in the page's language: each
/// known one in our words (the same words in English), any other as the store said it.
fn refusal(ctx: &Ctx, reason: &str) -> String {
    if reason.starts_with("a ladder is paused with its own Pause") {
        ctx.t("manage-refused-ladder-pause")
    } else if reason.starts_with("a ladder is resumed with its own Resume") {
        ctx.t("manage-refused-ladder-resume")
    } else if reason == "the competition is cancelled" {
        ctx.t("manage-refused-cancelled")
    } else if reason == "the competition is not paused" {
        ctx.t("manage-refused-not-paused")
    } else if let Some(n) = reason
        .split_once(" of its matches ")
        .and_then(|(n, _)| n.parse::<i64>().ok())
    {
        ctx.t1("manage-refused-played", "n", &n)
    } else {
        reason.to_owned()
    }
}

async fn rename(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ctx: Ctx,
    PagePath(id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<NameForm>,
) -> Result<Redirect> {
    let name = crate::competition::check_name(&form.name)?;
    competition_admin::rename(&state.pool, id, name).await?;
    state.live.forget(id);
    tracing::info!(competition_id = %id, by = %admin.user_id, "competition renamed");
    answer(&ctx, id, Ok(()), |()| {
        ctx.t1("manage-renamed", "name", &name)
    })
    .await
}

async fn pause(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ctx: Ctx,
    PagePath(id): PagePath<Uuid>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    hold(&state, admin.user_id, &ctx, id, true).await
}

async fn resume(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ctx: Ctx,
    PagePath(id): PagePath<Uuid>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    hold(&state, admin.user_id, &ctx, id, false).await
}

/// Pauses (`pause`) or resumes a round-robin, and says how many matches that moved.
async fn hold(state: &AppState, by: Uuid, ctx: &Ctx, id: Uuid, pause: bool) -> Result<Redirect> {
    let moved = if pause {
        competition_admin::pause(&state.pool, id).await
    } else {
        competition_admin::resume(&state.pool, id).await
    };
    tracing::info!(competition_id = %id, %by, pause, "round-robin paused or resumed");
    answer(ctx, id, moved, |n| {
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        if pause {
            ctx.t1("manage-paused", "n", &n)
        } else {
            ctx.t1("manage-resumed", "n", &n)
        }
    })
    .await
}

async fn delete(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ctx: Ctx,
    PagePath(id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<DeleteForm>,
) -> Result<Redirect> {
    let c = competitions::get(&state.pool, id).await?;
    if form.confirm.trim() != c.name {
        ctx.flash(ctx.t("manage-delete-unconfirmed")).await?;
        return Ok(page(id));
    }
    match competition_admin::delete_unplayed(&state.pool, id).await {
        Ok(()) => {
            state.live.forget(id);
            tracing::info!(competition_id = %id, by = %admin.user_id, "competition deleted");
            ctx.flash(ctx.t1("manage-deleted", "name", &c.name)).await?;
            Ok(Redirect::to("/competitions"))
        }
        refused => answer(&ctx, id, refused, |()| String::new()).await,
    }
}

async fn archive(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ctx: Ctx,
    PagePath(id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<ArchiveForm>,
) -> Result<Redirect> {
    competition_admin::set_archived(&state.pool, id, form.archived).await?;
    tracing::info!(competition_id = %id, by = %admin.user_id, archived = form.archived, "competition archive flag");
    let message = if form.archived {
        ctx.t("manage-archived")
    } else {
        ctx.t("manage-unarchived")
    };
    answer(&ctx, id, Ok(()), |()| message).await
}

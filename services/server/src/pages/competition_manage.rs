//! An organiser's everyday controls on a competition's page (admins only): rename, change the
//! time per move, games per match and seat limits before play (a ladder's pace at any time), pause and
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
        .route(
            "/admin/competitions/{competition_id}/settings",
            post(settings),
        )
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

/// The settings form: each field a number, or empty for the default.
#[derive(Deserialize)]
struct SettingsForm {
    csrf: String,
    #[serde(default)]
    move_time_ms: String,
    #[serde(default)]
    games_per_match: String,
    #[serde(default)]
    seat_memory_mib: String,
    #[serde(default)]
    seat_disk_mib: String,
    #[serde(default)]
    seat_cpu_millicores: String,
    #[serde(default)]
    matches_per_hour: String,
    #[serde(default)]
    max_pending: String,
}

/// A form field: empty is `None`, a whole number `Some`, anything else a 400 naming the field.
fn number<T: std::str::FromStr>(field: &str, label_key: &str) -> Result<Option<T>> {
    let field = field.trim();
    if field.is_empty() {
        return Ok(None);
    }
    field.parse().map(Some).map_err(|_| {
        let label = crate::i18n::t(label_key);
        crate::error::Error::BadRequest(crate::i18n::t_with(
            "manage-not-a-number",
            &[("field", &label), ("value", &field)],
        ))
    })
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

has_csrf!(PlainForm, NameForm, SettingsForm, DeleteForm, ArchiveForm);

fn page(id: Uuid) -> Redirect {
    Redirect::to(&format!("/competitions/{id}"))
}

/// Flashes `done` and returns to the page; a refusal flashes its reason instead.
pub(super) async fn answer<T>(
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
    } else if reason.starts_with("the competition has finished") {
        ctx.t("manage-refused-finished")
    } else if reason == "the competition is not paused" {
        ctx.t("manage-refused-not-paused")
    } else if let Some(n) = reason
        .strip_suffix(" started: time and limits stay as they were played")
        .and_then(|r| r.split_once(" of its matches "))
        .and_then(|(n, _)| n.parse::<i64>().ok())
    {
        ctx.t1("manage-refused-started", "n", &n)
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

async fn settings(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ctx: Ctx,
    PagePath(id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<SettingsForm>,
) -> Result<Redirect> {
    let change = crate::competition::SettingsChange {
        move_time_ms: number(&form.move_time_ms, "competition-setting-move-time")?,
        games_per_match: number(&form.games_per_match, "competition-setting-games")?,
        seat_memory_mib: number(&form.seat_memory_mib, "competition-setting-memory")?,
        seat_disk_mib: number(&form.seat_disk_mib, "competition-setting-disk")?,
        seat_cpu_millicores: number(&form.seat_cpu_millicores, "competition-setting-cpu")?,
        matches_per_hour: number(&form.matches_per_hour, "competition-setting-per-hour")?,
        max_pending: number(&form.max_pending, "competition-setting-pending")?,
    };
    let changed = crate::competition::change_settings(&state, admin.user_id, id, &change).await;
    let outcome = match changed {
        Err(crate::error::Error::Conflict(reason)) => Err(StoreError::Conflict(reason)),
        other => Ok(other?),
    };
    answer(&ctx, id, outcome, |_| ctx.t("manage-settings-saved")).await
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

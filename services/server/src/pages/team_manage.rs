//! Everyday team management from the team page: leave, remove a member, hand the team to
//! another member, delete a team that never uploaded. The owner decides all but leaving; a
//! refused action (the owner leaving, a team with submissions deleted) comes back to the team
//! page with the reason, and changes nothing.

use axum::extract::State;
use axum::response::Redirect;
use axum::routing::post;
use axum::Router;
use croupier_store::{submissions, teams, StoreError, TeamRole};
use serde::Deserialize;
use uuid::Uuid;

use super::teams::require_member;
use crate::auth::csrf::CsrfForm;
use crate::auth::CurrentUser;
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::templates::Ctx;
use crate::{has_csrf, i18n, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/teams/{team_id}/leave", post(leave))
        .route("/teams/{team_id}/members/{user_id}/remove", post(remove))
        .route("/teams/{team_id}/members/{user_id}/owner", post(make_owner))
        .route("/teams/{team_id}/delete", post(delete))
}

#[derive(Deserialize)]
struct PlainForm {
    csrf: String,
}

#[derive(Deserialize)]
struct DeleteForm {
    csrf: String,
    /// The team's name, typed again.
    #[serde(default)]
    confirm: String,
}

has_csrf!(PlainForm, DeleteForm);

fn team_page(team_id: Uuid) -> Redirect {
    Redirect::to(&format!("/teams/{team_id}"))
}

/// A refusal the person can act on goes back to the team page as a message: `why`, the
/// reason in the page's language (the store's is English).
async fn refused(
    ctx: &Ctx,
    team_id: Uuid,
    outcome: std::result::Result<(), StoreError>,
    why: impl FnOnce() -> String,
) -> Result<Option<Redirect>> {
    match outcome {
        Ok(()) => Ok(None),
        Err(StoreError::Conflict(_)) => {
            let message = i18n::t_with("team-nothing-changed", &[("reason", &why())]);
            ctx.flash(message).await?;
            Ok(Some(team_page(team_id)))
        }
        Err(e) => Err(e.into()),
    }
}

async fn require_owner(state: &AppState, team_id: Uuid, user_id: Uuid) -> Result<()> {
    match require_member(state, team_id, user_id).await? {
        TeamRole::Owner => Ok(()),
        TeamRole::Member => Err(Error::Forbidden(i18n::t("team-owner-only-members"))),
    }
}

async fn leave(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(team_id): PagePath<Uuid>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    let team = teams::get(&state.pool, team_id).await?;
    require_member(&state, team_id, user.user_id).await?;
    let left = teams::leave(&state.pool, team_id, user.user_id).await;
    if let Some(back) = refused(&ctx, team_id, left, || i18n::t("team-owner-cannot-leave")).await? {
        return Ok(back);
    }
    let message = i18n::t_with("team-left", &[("team", &team.name)]);
    ctx.flash(message).await?;
    Ok(Redirect::to("/teams"))
}

async fn remove(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath((team_id, member)): PagePath<(Uuid, Uuid)>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    require_owner(&state, team_id, user.user_id).await?;
    let name = member_name(&state, team_id, member).await?;
    let removed = teams::remove_member(&state.pool, team_id, member).await;
    let why = || i18n::t("team-owner-cannot-be-removed");
    if let Some(back) = refused(&ctx, team_id, removed, why).await? {
        return Ok(back);
    }
    let message = i18n::t_with("team-removed", &[("user", &name)]);
    ctx.flash(message).await?;
    Ok(team_page(team_id))
}

async fn make_owner(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath((team_id, member)): PagePath<(Uuid, Uuid)>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    require_owner(&state, team_id, user.user_id).await?;
    let name = member_name(&state, team_id, member).await?;
    teams::transfer(&state.pool, team_id, member).await?;
    let message = i18n::t_with("team-new-owner", &[("user", &name)]);
    ctx.flash(message).await?;
    Ok(team_page(team_id))
}

async fn delete(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(team_id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<DeleteForm>,
) -> Result<Redirect> {
    require_owner(&state, team_id, user.user_id).await?;
    let team = teams::get(&state.pool, team_id).await?;
    if form.confirm.trim() != team.name {
        ctx.flash(i18n::t("team-type-name")).await?;
        return Ok(team_page(team_id));
    }
    let deleted = teams::delete(&state.pool, team_id).await;
    // Refused only for a team with submissions: how many, for the message.
    let uploaded = match deleted {
        Err(StoreError::Conflict(_)) => submissions::of_team(&state.pool, team_id).await?.len(),
        _ => 0,
    };
    let why = || i18n::t_with("team-has-history", &[("n", &uploaded)]);
    if let Some(back) = refused(&ctx, team_id, deleted, why).await? {
        return Ok(back);
    }
    let message = i18n::t_with("team-deleted", &[("team", &team.name)]);
    ctx.flash(message).await?;
    Ok(Redirect::to("/teams"))
}

/// A member's name (404 for someone who is not in the team).
async fn member_name(state: &AppState, team_id: Uuid, user_id: Uuid) -> Result<String> {
    teams::members(&state.pool, team_id)
        .await?
        .into_iter()
        .find(|m| m.user_id == user_id)
        .map(|m| m.username)
        .ok_or(Error::NotFound)
}

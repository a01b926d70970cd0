//! Everyday team management from the team page: leave, remove a member, hand the team to
//! another member, delete a team that never uploaded. The owner decides all but leaving; a
//! refused action (the owner leaving, a team with submissions deleted) comes back to the team
//! page with the reason, and changes nothing.

use axum::extract::State;
use axum::response::Redirect;
use axum::routing::post;
use axum::Router;
use croupier_store::{teams, StoreError, TeamRole};
use serde::Deserialize;
use uuid::Uuid;

use super::teams::require_member;
use crate::auth::csrf::CsrfForm;
use crate::auth::CurrentUser;
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::templates::Ctx;
use crate::{has_csrf, AppState};

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

/// A refusal the person can act on goes back to the team page as a message.
async fn refused(
    ctx: &Ctx,
    team_id: Uuid,
    outcome: std::result::Result<(), StoreError>,
) -> Result<Option<Redirect>> {
    match outcome {
        Ok(()) => Ok(None),
        Err(StoreError::Conflict(reason)) => {
            ctx.flash(format!("Nothing changed: {reason}.")).await?;
            Ok(Some(team_page(team_id)))
        }
        Err(e) => Err(e.into()),
    }
}

async fn require_owner(state: &AppState, team_id: Uuid, user_id: Uuid) -> Result<()> {
    match require_member(state, team_id, user_id).await? {
        TeamRole::Owner => Ok(()),
        TeamRole::Member => Err(Error::Forbidden(
            "only the team's owner can change its members".into(),
        )),
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
    if let Some(back) = refused(&ctx, team_id, left).await? {
        return Ok(back);
    }
    ctx.flash(format!("You left {}.", team.name)).await?;
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
    if let Some(back) = refused(&ctx, team_id, removed).await? {
        return Ok(back);
    }
    ctx.flash(format!("{name} is no longer a member.")).await?;
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
    ctx.flash(format!("{name} is now the team's owner; you are a member."))
        .await?;
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
        ctx.flash("Nothing changed: type the team's name to delete it.")
            .await?;
        return Ok(team_page(team_id));
    }
    let deleted = teams::delete(&state.pool, team_id).await;
    if let Some(back) = refused(&ctx, team_id, deleted).await? {
        return Ok(back);
    }
    ctx.flash(format!("The team {} was deleted.", team.name))
        .await?;
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

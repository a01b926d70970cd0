//! Teams: list and create, join with an invite code, the team page (any team's, for an admin),
//! API tokens. Leaving and the owner's member changes are in `team_manage`.

use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use croupier_store::submissions::Submission;
use croupier_store::{submissions, teams, tokens, StoreError, SubmissionStatus, TeamRole};
use serde::Deserialize;
use uuid::Uuid;

use crate::auth::csrf::CsrfForm;
use crate::auth::{token, CurrentUser};
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::templates::{render, Ctx, Lang, TeamPage, TeamsPage};
use crate::validate::{check_team_name, new_invite_code};
use crate::{has_csrf, i18n, AppState};

/// The challenges (and competitions to start one in) the team page lists.
const SHOWN_CHALLENGES: usize = 5;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/teams", get(list).post(create))
        .route("/teams/join", post(join))
        .route("/teams/{team_id}", get(show))
        .route("/teams/{team_id}/invite", post(rotate_invite))
        .route("/teams/{team_id}/tokens", post(create_token))
        .route(
            "/teams/{team_id}/tokens/{token_id}/revoke",
            post(revoke_token),
        )
}

#[derive(Deserialize)]
struct CreateForm {
    csrf: String,
    name: String,
}

#[derive(Deserialize)]
struct JoinForm {
    csrf: String,
    invite_code: String,
}

#[derive(Deserialize)]
struct TokenForm {
    csrf: String,
    #[serde(default)]
    name: String,
}

#[derive(Deserialize)]
struct PlainForm {
    csrf: String,
}

has_csrf!(CreateForm, JoinForm, TokenForm, PlainForm);

/// A member's role in words, in the page's language.
fn role_word(lang: Lang, role: &TeamRole) -> String {
    match role {
        TeamRole::Owner => lang.t("team-role-owner"),
        TeamRole::Member => lang.t("team-role-member"),
    }
}

impl TeamsPage {
    pub fn role_word(&self, role: &TeamRole) -> String {
        role_word(self.ctx.lang, role)
    }
}

impl TeamPage {
    pub fn role_word(&self, role: &TeamRole) -> String {
        role_word(self.ctx.lang, role)
    }

    /// A ready bot's validation warning in words, for the list's hint.
    pub fn warning_kinds(&self, w: &croupier_store::submissions::ValidationWarning) -> String {
        super::submissions::warning_kinds(w)
    }

    pub fn status_word(&self, status: &SubmissionStatus) -> String {
        super::submissions::status_word(self.ctx.lang, status)
    }

    /// `2026-11-21 06:07 UTC by ada`.
    pub fn uploaded(&self, s: &Submission) -> String {
        super::submissions::uploaded(self.ctx.lang, s)
    }
}

/// The caller's role in the team; 404 when not a member (another team's page does not exist).
pub async fn require_member(state: &AppState, team_id: Uuid, user_id: Uuid) -> Result<TeamRole> {
    teams::role_of(&state.pool, team_id, user_id)
        .await?
        .ok_or(Error::NotFound)
}

async fn list(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
) -> Result<Response> {
    let teams = teams::of_user(&state.pool, user.user_id).await?;
    Ok(render(&TeamsPage {
        ctx,
        teams,
        error: None,
        name: String::new(),
    }))
}

async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    CsrfForm(form): CsrfForm<CreateForm>,
) -> Result<Response> {
    let name = form.name.trim().to_owned();
    let result = async {
        check_team_name(&name).map_err(|_| Error::BadRequest(i18n::t("teams-name-rule")))?;
        teams::create(&state.pool, &name, &new_invite_code(), user.user_id)
            .await
            .map_err(|e| match e {
                StoreError::Conflict(_) => {
                    let quoted = format!("{name:?}");
                    Error::Conflict(i18n::t_with("teams-name-taken", &[("name", &quoted)]))
                }
                e => e.into(),
            })
    }
    .await;
    match result {
        Ok(team) => {
            let created = i18n::t_with("teams-created", &[("team", &team.name)]);
            ctx.flash(created).await?;
            Ok(Redirect::to(&format!("/teams/{}", team.team_id)).into_response())
        }
        Err(e @ (Error::BadRequest(_) | Error::Conflict(_))) => {
            let teams = teams::of_user(&state.pool, user.user_id).await?;
            let status = e.status();
            Ok((
                status,
                render(&TeamsPage {
                    ctx,
                    teams,
                    error: Some(e.to_string()),
                    name,
                }),
            )
                .into_response())
        }
        Err(e) => Err(e),
    }
}

async fn join(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    CsrfForm(form): CsrfForm<JoinForm>,
) -> Result<Response> {
    let code = form.invite_code.trim().to_ascii_uppercase();
    match teams::join(&state.pool, &code, user.user_id).await {
        Ok(team) => {
            let joined = i18n::t_with("teams-joined", &[("team", &team.name)]);
            ctx.flash(joined).await?;
            Ok(Redirect::to(&format!("/teams/{}", team.team_id)).into_response())
        }
        Err(e) => {
            let e = match e {
                StoreError::NotFound => Error::BadRequest(i18n::t("teams-no-such-code")),
                // Already a member: the store's English message names the team.
                StoreError::Conflict(message) => {
                    let team = message.strip_prefix("you are already a member of ");
                    Error::Conflict(match team {
                        Some(team) => i18n::t_with("teams-already-member", &[("team", &team)]),
                        None => message,
                    })
                }
                other @ (StoreError::Database(_) | StoreError::Blobs(_)) => Error::from(other),
            };
            if !matches!(e, Error::BadRequest(_) | Error::Conflict(_)) {
                return Err(e);
            }
            let teams = teams::of_user(&state.pool, user.user_id).await?;
            let status = e.status();
            Ok((
                status,
                render(&TeamsPage {
                    ctx,
                    teams,
                    error: Some(e.to_string()),
                    name: String::new(),
                }),
            )
                .into_response())
        }
    }
}

async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(team_id): PagePath<Uuid>,
) -> Result<Response> {
    // Members see their team; an admin sees any team (read-only when not a member).
    let role = teams::role_of(&state.pool, team_id, user.user_id).await?;
    if role.is_none() && !user.is_admin {
        return Err(Error::NotFound);
    }
    let team = teams::get(&state.pool, team_id).await?;
    let members = teams::members(&state.pool, team_id).await?;
    let submissions = submissions::of_team(&state.pool, team_id).await?;
    let tokens = tokens::list(&state.pool, user.user_id, Some(team_id)).await?;
    let new_token = ctx.session.remove::<String>("new_token").await?;
    let mut listed = croupier_store::challenges::of_team(&state.pool, team_id).await?;
    let challenge_more = listed.len() > SHOWN_CHALLENGES;
    listed.truncate(SHOWN_CHALLENGES);
    let challenge_lines = super::team_challenges::lines(&state, &listed).await?;
    let challenge_places = croupier_store::competitions::list(&state.pool)
        .await?
        .into_iter()
        .filter(|c| !c.archived)
        .take(SHOWN_CHALLENGES)
        .map(|c| {
            let game = crate::templates::game_name(&c.game);
            (c.competition_id, c.name, game)
        })
        .collect();
    Ok(render(&TeamPage {
        ctx,
        team,
        role,
        members,
        submissions,
        tokens,
        new_token,
        challenge_lines,
        challenge_more,
        challenge_places,
    }))
}

async fn rotate_invite(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(team_id): PagePath<Uuid>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    if require_member(&state, team_id, user.user_id).await? != TeamRole::Owner {
        return Err(Error::Forbidden(i18n::t("team-owner-only-invite")));
    }
    teams::rotate_invite(&state.pool, team_id, &new_invite_code()).await?;
    ctx.flash(i18n::t("team-new-code-made")).await?;
    Ok(Redirect::to(&format!("/teams/{team_id}")))
}

async fn create_token(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(team_id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<TokenForm>,
) -> Result<Redirect> {
    require_member(&state, team_id, user.user_id).await?;
    let name = match form.name.trim() {
        "" => "cli".to_owned(),
        n if n.chars().count() > 64 => {
            return Err(Error::BadRequest(i18n::t("token-name-too-long")))
        }
        n => n.to_owned(),
    };
    let secret = token::generate();
    tokens::create(
        &state.pool,
        user.user_id,
        Some(team_id),
        &name,
        &token::hash(&secret),
    )
    .await?;
    // Shown once, on the next page view, then gone.
    ctx.session.insert("new_token", secret).await?;
    Ok(Redirect::to(&format!("/teams/{team_id}#tokens")))
}

async fn revoke_token(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath((team_id, token_id)): PagePath<(Uuid, Uuid)>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    require_member(&state, team_id, user.user_id).await?;
    tokens::revoke(&state.pool, user.user_id, token_id).await?;
    ctx.flash(i18n::t("token-revoked")).await?;
    Ok(Redirect::to(&format!("/teams/{team_id}#tokens")))
}

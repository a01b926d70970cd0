//! The upload form and the submission page (with its matches, `my_matches`).

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use croupier_store::{submissions, teams, Language};
use uuid::Uuid;

use super::my_matches::MatchesQuery;
use super::teams::require_member;
use crate::auth::{csrf, CurrentUser};
use crate::error::{human_bytes, Error, Result};
use crate::extract::{PageMultipart, PagePath, PageQuery};
use crate::templates::{games, render, Ctx, SubmissionPage, UploadPage};
use crate::upload;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/teams/{team_id}/upload",
            get(upload_page).post(upload_submit),
        )
        .route("/submissions/{submission_id}", get(show))
        .route("/submissions/{submission_id}/download", get(download))
}

async fn upload_form(
    state: &AppState,
    ctx: Ctx,
    team_id: Uuid,
    error: Option<String>,
) -> Result<UploadPage> {
    let limits = &state.config.bundle_limits;
    Ok(UploadPage {
        ctx,
        team: teams::get(&state.pool, team_id).await?,
        games: games(),
        languages: Language::ALL,
        max_upload: human_bytes(state.config.max_upload_bytes),
        max_files: limits.max_files,
        max_unpacked: human_bytes(limits.max_unpacked_bytes),
        error,
    })
}

async fn upload_page(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(team_id): PagePath<Uuid>,
) -> Result<Response> {
    require_member(&state, team_id, user.user_id).await?;
    Ok(render(&upload_form(&state, ctx, team_id, None).await?))
}

async fn upload_submit(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(team_id): PagePath<Uuid>,
    PageMultipart(multipart): PageMultipart,
) -> Result<Response> {
    require_member(&state, team_id, user.user_id).await?;
    let result = async {
        let form = upload::read(multipart, state.config.max_upload_bytes).await?;
        csrf::verify(&ctx.session, &form.csrf).await?;
        upload::store(&state, user.user_id, team_id, &form).await
    }
    .await;
    match result {
        Ok(created) => {
            ctx.flash(format!(
                "Uploaded version {} of your {} bot; it is queued for compilation.",
                created.version,
                crate::templates::game_name(&created.game)
            ))
            .await?;
            Ok(Redirect::to(&format!("/submissions/{}", created.submission_id)).into_response())
        }
        Err(e @ (Error::BadRequest(_) | Error::TooLarge(_) | Error::Conflict(_))) => {
            let status = e.status();
            let page = upload_form(&state, ctx, team_id, Some(e.to_string())).await?;
            Ok((status, render(&page)).into_response())
        }
        Err(e) => Err(e),
    }
}

async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(submission_id): PagePath<Uuid>,
    PageQuery(query): PageQuery<MatchesQuery>,
) -> Result<Response> {
    let submission = submissions::visible_to(&state.pool, submission_id, user.user_id).await?;
    let files = submissions::files(&state.pool, submission_id).await?;
    let matches = super::my_matches::of_submission(&state, submission_id, &query).await?;
    Ok(render(&SubmissionPage {
        ctx,
        submission,
        files,
        matches,
    }))
}

/// The upload as it was sent. Only the team (and admins) may download it.
async fn download(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    PagePath(submission_id): PagePath<Uuid>,
) -> Result<Response> {
    let submission = submissions::visible_to(&state.pool, submission_id, user.user_id).await?;
    let bytes = submissions::source(&state.pool, submission_id).await?;
    let name = submission.filename.replace(['"', '\\', '\r', '\n'], "_");
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        bytes,
    )
        .into_response())
}

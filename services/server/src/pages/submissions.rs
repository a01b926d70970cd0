//! The upload form and the submission page (with its matches, `my_matches`).

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use croupier_store::{competitions, submissions, teams, Language};
use uuid::Uuid;

use super::my_matches::MatchesQuery;
use super::teams::require_member;
use crate::auth::{csrf, CurrentUser};
use crate::error::{human_bytes, Error, Result};
use crate::extract::{PageMultipart, PagePath, PageQuery};
use crate::history::{self, HistoryPlot};
use crate::templates::{games, render, Ctx, SubmissionPage, UploadPage};
use crate::upload::{self, FieldError, UploadField};
use crate::{leaderboard, AppState};

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
    form: upload::UploadForm,
    error: Option<(UploadField, String)>,
) -> Result<UploadPage> {
    let limits = &state.config.bundle_limits;
    let (error_field, error) = match error {
        Some((field, message)) => (field.as_str(), Some(message)),
        None => ("", None),
    };
    Ok(UploadPage {
        ctx,
        team: teams::get(&state.pool, team_id).await?,
        games: games(),
        languages: Language::ALL,
        max_upload: human_bytes(state.config.max_upload_bytes),
        max_files: limits.max_files,
        max_unpacked: human_bytes(limits.max_unpacked_bytes),
        chosen_game: form.game,
        chosen_language: form.language,
        label: form.label,
        entry: form.entry,
        error_field,
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
    let form = upload::UploadForm::default();
    Ok(render(
        &upload_form(&state, ctx, team_id, form, None).await?,
    ))
}

async fn upload_submit(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(team_id): PagePath<Uuid>,
    PageMultipart(multipart): PageMultipart,
) -> Result<Response> {
    require_member(&state, team_id, user.user_id).await?;
    let mut form = upload::UploadForm::default();
    let result = async {
        upload::read_into(multipart, state.config.max_upload_bytes, &mut form).await?;
        csrf::verify(&ctx.session, &form.csrf)
            .await
            .map_err(|error| FieldError {
                field: UploadField::Form,
                error,
            })?;
        upload::store_checked(&state, user.user_id, team_id, &form).await
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
        Err(FieldError {
            field,
            error: e @ (Error::BadRequest(_) | Error::TooLarge(_) | Error::Conflict(_)),
        }) => {
            // Shown again with the choices kept and the message next to its field; the file
            // itself a browser never fills in again.
            let status = e.status();
            form.bytes = Vec::new();
            let error = Some((field, e.to_string()));
            let page = upload_form(&state, ctx, team_id, form, error).await?;
            Ok((status, render(&page)).into_response())
        }
        Err(e) => Err(e.error),
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
    let (history, history_omitted) = history_plots(&state, submission_id).await?;
    let matches = super::my_matches::of_submission(&state, submission_id, &query).await?;
    Ok(render(&SubmissionPage {
        ctx,
        submission,
        files,
        history,
        history_omitted,
        matches,
    }))
}

/// The submission's plot in each competition it has played a match in (the newest
/// [`history::MAX_PLOTS`]), with how many more it played in. Each is its whole history on the
/// competition's board, so the plot ends where the leaderboard stands.
async fn history_plots(state: &AppState, submission_id: Uuid) -> Result<(Vec<HistoryPlot>, usize)> {
    let mut plots = Vec::new();
    let mut omitted = 0;
    for c in competitions::entered(&state.pool, submission_id).await? {
        if c.progress.finished == 0 {
            continue;
        }
        if plots.len() == history::MAX_PLOTS {
            omitted += 1;
            continue;
        }
        let kept = state.live.board(&state.pool, c.competition_id).await?;
        let Some(row) = (kept.board.rows.iter()).find(|r| r.submission_id == submission_id) else {
            continue;
        };
        let points = leaderboard::history(&state.pool, &c, submission_id).await?;
        if points.is_empty() {
            continue;
        }
        let id = format!("history-{}", c.competition_id);
        plots.push(HistoryPlot {
            competition_id: c.competition_id,
            svg: history::plot(&id, &c.name, &points),
            caption: history::caption(&points),
            place: row.place(),
            competition_name: c.name,
        });
    }
    Ok((plots, omitted))
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

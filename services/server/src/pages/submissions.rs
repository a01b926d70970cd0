//! The upload form and the submission page (with its matches, `my_matches`).

use axum::extract::State;

use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use croupier_store::submissions::{Submission, ValidationWarning};
use croupier_store::{blobs, competitions, submissions, teams, Language, SubmissionStatus};
use std::fmt::Display;

use uuid::Uuid;

use super::my_matches::MatchesQuery;
use super::teams::require_member;
use crate::auth::{csrf, CurrentUser};
use crate::error::{human_bytes, Error, Result};
use crate::extract::{PageMultipart, PagePath, PageQuery};
use crate::history::{self, HistoryPlot};
use crate::templates::{games, render, table_choices, Ctx, Lang, SubmissionPage, UploadPage};
use crate::upload::{self, FieldError, UploadField};
use crate::{download, i18n, leaderboard, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/teams/{team_id}/upload",
            get(upload_page).post(upload_submit),
        )
        .route("/submissions/{submission_id}", get(show))
        .route("/submissions/{submission_id}/status", get(status_part))
        .route("/submissions/{submission_id}/download", get(download))
}

/// A submission's state in words.
pub(super) fn status_word(lang: Lang, status: &SubmissionStatus) -> String {
    match status {
        SubmissionStatus::Pending => lang.t("submission-status-pending"),
        SubmissionStatus::Compiling => lang.t("submission-status-compiling"),
        SubmissionStatus::Validating => lang.t("submission-status-validating"),
        SubmissionStatus::Ready => lang.t("submission-status-ready"),
        SubmissionStatus::Failed => lang.t("submission-status-failed"),
    }
}

/// When a submission was uploaded, and by whom: `2026-11-21 06:07 UTC by ada`.
pub(super) fn uploaded(lang: Lang, s: &Submission) -> String {
    let when = crate::templates::when(&s.created_at);
    let args: [(&str, &dyn Display); 2] = [("when", &when), ("user", &s.submitted_by)];
    lang.t_with("submission-when-by", &args)
}

/// A warning's kinds in words: `illegal move × 2, did not answer in time × 1`.
pub(super) fn warning_kinds(w: &ValidationWarning) -> String {
    let kinds: Vec<String> = (w.kinds.iter())
        .map(|k| format!("{} × {}", super::labels::end_state(&k.kind), k.count))
        .collect();
    kinds.join(&i18n::t("upload-list-sep"))
}

impl SubmissionPage {
    /// Whether it is still being built or validated (the page follows it then).
    pub fn building(&self) -> bool {
        building(self.submission.status)
    }

    /// The validation game's table: `rainbow, 3 players`.
    pub fn table(&self) -> String {
        let s = &self.submission;
        let game = s.game.parse::<croupier_games::GameId>().ok();
        let rules = match (s.rules.as_str(), game) {
            ("", Some(g)) => g.default_rules(),
            (rules, _) => rules,
        };
        let players = match (s.players, game) {
            (Some(n), _) => n.to_string(),
            (None, Some(g)) => g
                .seats_for(rules, None)
                .map_or_else(String::new, |n| n.to_string()),
            (None, None) => String::new(),
        };
        let args: [(&str, &dyn Display); 2] = [("rules", &rules), ("players", &players)];
        self.ctx.lang.t_with("submission-table-value", &args)
    }

    /// The warning's first line: how many faults, of which kinds, what they cost.
    pub fn warning_summary(&self, w: &ValidationWarning) -> String {
        let kinds = warning_kinds(w);
        let args: [(&str, &dyn Display); 2] = [("faults", &w.faults), ("kinds", &kinds)];
        self.ctx.lang.t_with("submission-warning-summary", &args)
    }

    pub fn status_word(&self, status: &SubmissionStatus) -> String {
        status_word(self.ctx.lang, status)
    }

    /// `No Thanks! bot v3`.
    pub fn heading(&self) -> String {
        let s = &self.submission;
        let game = crate::templates::game_name(&s.game);
        let args: [(&str, &dyn Display); 2] = [("game", &game), ("version", &s.version)];
        self.ctx.lang.t_with("submission-heading", &args)
    }

    /// `12 KiB in 3 files`.
    pub fn unpacked(&self) -> String {
        let size = crate::templates::bytes(&self.submission.unpacked_size);
        let args: [(&str, &dyn Display); 2] = [("size", &size), ("files", &self.files.len())];
        self.ctx.lang.t_with("submission-unpacked-size", &args)
    }

    pub fn uploaded(&self) -> String {
        uploaded(self.ctx.lang, &self.submission)
    }

    /// The match list's filters: the query's value and its label.
    pub fn filters(&self) -> [(&'static str, String); 4] {
        let t = |key| self.ctx.t(key);
        [
            ("all", t("submission-filter-all")),
            ("wins", t("submission-filter-wins")),
            ("losses", t("submission-filter-losses")),
            ("faults", t("submission-filter-faults")),
        ]
    }

    /// `page 2 of 5` of the match list.
    pub fn page_of(&self) -> String {
        let m = &self.matches;
        let args: [(&str, &dyn Display); 2] = [("page", &m.page), ("pages", &m.pages)];
        self.ctx.lang.t_with("submission-page-of", &args)
    }
}

impl UploadPage {
    /// A language's label in the page's language (compilers' names stay as they are).
    pub fn language_label(&self, language: &Language) -> String {
        match language {
            Language::Binary => self.ctx.t("upload-language-binary"),
            other => other.label().to_owned(),
        }
    }

    /// Whether the form was sent with `rules` of `game` (to keep the choice after a refusal).
    pub fn rules_chosen(&self, game: &str, rules: &str) -> bool {
        self.chosen_game == game && self.chosen_rules == rules
    }

    /// How the table is chosen, with the games' player counts (`Hanabi 2–5, No Thanks 3–7`).
    pub fn table_help(&self) -> String {
        let sep = self.ctx.t("upload-list-sep");
        let counts: Vec<String> = (self.tables.iter())
            .filter(|t| !t.players.is_empty())
            .map(|t| format!("{} {}", t.name, t.players))
            .collect();
        let counts = counts.join(&sep);
        self.ctx
            .lang
            .t_with("upload-table-help", &[("choices", &counts)])
    }

    /// What the form accepts: the size and file-count limits.
    pub fn limits(&self) -> String {
        let args: [(&str, &dyn Display); 3] = [
            ("size", &self.max_upload),
            ("files", &self.max_files),
            ("unpacked", &self.max_unpacked),
        ];
        self.ctx.lang.t_with("upload-limits", &args)
    }
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
        chosen_rules: form.rules,
        players: form.players,
        tables: table_choices(),
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
            let done = {
                let game = crate::templates::game_name(&created.game);
                let args: [(&str, &dyn Display); 2] =
                    [("version", &created.version), ("game", &game)];
                i18n::t_with("upload-done", &args)
            };
            ctx.flash(done).await?;
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
            let message = match e {
                Error::TooLarge(limit) => {
                    i18n::t_with("upload-too-large", &[("limit", &human_bytes(limit))])
                }
                e => e.to_string(),
            };
            let error = Some((field, message));
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
    let matches = super::my_matches::of_submission(&state, &user, submission_id, &query).await?;
    Ok(render(&SubmissionPage {
        ctx,
        submission,
        files,
        history,
        history_omitted,
        matches,
    }))
}

/// Whether a submission is still being built or validated (its page follows it).
pub(super) fn building(status: SubmissionStatus) -> bool {
    matches!(
        status,
        SubmissionStatus::Pending | SubmissionStatus::Compiling | SubmissionStatus::Validating
    )
}

/// The submission page's status badge alone, for `web/static/poll.js`: while it is built, the
/// badge to show; once it is ready or failed, a mark that reloads the page (its log, its
/// failure and its matches change too).
#[derive(askama::Template)]
#[template(path = "submission_status.html")]
struct StatusPart {
    submission_id: Uuid,
    status: SubmissionStatus,
    word: String,
    building: bool,
}

async fn status_part(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(submission_id): PagePath<Uuid>,
) -> Result<Response> {
    let submission = submissions::visible_to(&state.pool, submission_id, user.user_id).await?;
    Ok(render(&StatusPart {
        submission_id,
        status: submission.status,
        word: status_word(ctx.lang, &submission.status),
        building: building(submission.status),
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
    let sha = submissions::source_sha256(&state.pool, submission_id).await?;
    let blob = blobs::open(&state.pool, &sha).await?;
    Ok(download::blob(
        blob,
        "application/octet-stream",
        Some(&submission.filename),
    ))
}

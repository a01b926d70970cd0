//! Competitions, public: the index per game, a competition's progress page (counts, leaderboard,
//! match list) and its leaderboard page; and the admin's cancel and re-run buttons.
//!
//! The progress page with `?fragment=board` answers only the leaderboard table, with
//! `?fragment=matches` (and its `page`) only the match list: the HTML the live updates
//! (`web/static/live.js`) swap in when a result lands.

use askama::Template;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use croupier_league::CompetitionSettings;
use croupier_store::competitions::{self, Competition, Entrant, MatchLine};
use croupier_store::{CompetitionStatus, EndState, MatchStatus};
use serde::Deserialize;
use uuid::Uuid;

use super::competition_rounds::{RoundsView, Stages};
use super::labels;
use crate::auth::csrf::CsrfForm;
use crate::auth::AdminUser;
use crate::board_cache::{CachedBoard, Encoded};
use crate::error::{Error, Result};
use crate::extract::{PagePath, PageQuery};
use crate::i18n::{self, Lang};
use crate::ladder::LadderAction;
use crate::leaderboard::Board;
use crate::templates::{game_name, games, render, Ctx, GameView};
use crate::{has_csrf, AppState};

/// Matches per page of the match list.
const PER_PAGE: i64 = 50;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/competitions", get(index))
        .route("/competitions/{competition_id}", get(show))
        .route("/competitions/{competition_id}/leaderboard", get(board))
        .route("/admin/competitions/{competition_id}/cancel", post(cancel))
        .route("/admin/competitions/{competition_id}/rerun", post(rerun))
        .route("/admin/competitions/{competition_id}/ladder", post(ladder))
}

#[derive(Template)]
#[template(path = "competitions.html")]
struct IndexPage {
    ctx: Ctx,
    sections: Vec<Section>,
    any: bool,
    /// Competitions their organisers archived, listed apart.
    archived: Vec<Competition>,
}

struct Section {
    game: GameView,
    competitions: Vec<Competition>,
}

#[derive(Template)]
#[template(path = "competition.html")]
struct ShowPage {
    ctx: Ctx,
    c: Competition,
    game_name: String,
    facts: Facts,
    entries: Vec<Entrant>,
    /// The leaderboard table's HTML, as kept (`crate::board_cache`).
    board_html: String,
    matches: Vec<Line>,
    page: i64,
    pages: i64,
    /// Swiss and adaptive: the plan and the progress toward a decided ranking.
    rounds: Option<RoundsView>,
    stages: Stages,
}

impl ShowPage {
    /// A stored setting for the settings form (empty: the default).
    fn setting(&self, name: &str) -> String {
        match self.c.settings.get(name) {
            Some(v) if v.is_u64() => v.to_string(),
            _ => String::new(),
        }
    }

    /// A ladder's pace setting for the settings form.
    fn ladder_setting(&self, name: &str) -> String {
        let stored = croupier_league::CompetitionSettings::from_stored(&self.c.settings)
            .unwrap_or_default()
            .ladder;
        match name {
            "matches_per_hour" => stored.matches_per_hour.to_string(),
            _ => stored.max_pending.to_string(),
        }
    }

    /// `2026-11-21 06:07 UTC by alice`.
    fn created_by(&self) -> String {
        let when = crate::templates::when(&self.c.created_at);
        let args: [(&str, &dyn std::fmt::Display); 2] =
            [("when", &when), ("who", &self.c.created_by)];
        self.ctx.lang.t_with("competition-created-by", &args)
    }
}

/// The match list alone, with its pager.
#[derive(Template)]
#[template(path = "competition_matches.html")]
struct MatchesFragment {
    c: Competition,
    matches: Vec<Line>,
    page: i64,
    pages: i64,
}

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct LeaderboardPage {
    ctx: Ctx,
    c: Competition,
    game_name: String,
    board_html: String,
}

/// A line of the match list, its seats as shown.
struct Line {
    m: MatchLine,
    seats: Vec<LineSeat>,
}

struct LineSeat {
    /// `N`, or the seat number.
    seat: String,
    who: String,
    /// `1st · 28`, `340 points`, or empty before the end.
    result: String,
    end_state: Option<EndState>,
}

impl Line {
    fn of(game: &str, m: MatchLine) -> Line {
        let ranks: Vec<Option<i32>> = m.seats.iter().map(|s| s.rank).collect();
        let places = labels::places(game, &ranks);
        let seats = m
            .seats
            .iter()
            .zip(places)
            .map(|(s, place)| LineSeat {
                seat: labels::seat(game, &s.seat),
                who: labels::seat_name(&s.team_name, &s.version, &s.builtin, &None),
                result: if s.rank.is_some() {
                    labels::result(&place, &s.score)
                } else {
                    String::new()
                },
                end_state: s.end_state,
            })
            .collect();
        Line { m, seats }
    }
}

/// A competition's status, as the page says it.
pub fn status_word(status: &CompetitionStatus) -> String {
    match status {
        CompetitionStatus::Scheduled => i18n::t("competition-status-scheduled"),
        CompetitionStatus::Running => i18n::t("competition-status-running"),
        CompetitionStatus::Paused => i18n::t("competition-status-paused"),
        CompetitionStatus::Finished => i18n::t("competition-status-finished"),
        CompetitionStatus::Cancelled => i18n::t("competition-status-cancelled"),
    }
}

/// A match's status, as the page says it.
pub fn match_status_word(status: &MatchStatus) -> String {
    match status {
        MatchStatus::Queued => i18n::t("competition-match-queued"),
        MatchStatus::Running => i18n::t("competition-match-running"),
        MatchStatus::Finished => i18n::t("competition-match-finished"),
        MatchStatus::Failed => i18n::t("competition-match-failed"),
        MatchStatus::Cancelled => i18n::t("competition-match-cancelled"),
    }
}

/// `page 2 of 5`, under the match list.
pub fn page_of(page: &i64, pages: &i64) -> String {
    i18n::t_with("competition-page", &[("page", page), ("pages", pages)])
}

/// The leaderboard table's HTML in `lang`: the kept one (English), or the kept board rendered
/// in another language.
fn board_html(kept: &CachedBoard, lang: Lang) -> Result<String> {
    if lang == Lang::En {
        return Ok(kept.html.clone());
    }
    let board = kept.board.in_lang(lang);
    BoardTable { board: &board }
        .render()
        .map_err(Error::internal)
}

/// The leaderboard table alone, in the board's language.
#[derive(Template)]
#[template(path = "leaderboard_table.html")]
struct BoardTable<'a> {
    board: &'a Board,
}

/// The settings, as shown.
struct Facts {
    rounds: String,
    /// `None` until it may be shown (`crate::privacy`).
    base_seed: Option<String>,
    move_time: String,
    games_per_match: String,
}

impl Facts {
    fn of(c: &Competition) -> Result<Self> {
        let s = CompetitionSettings::from_stored(&c.settings).map_err(Error::internal)?;
        let default = || i18n::t("competition-default");
        let rounds = match s.plan {
            None => i18n::t_with("competition-rounds", &[("n", &s.rounds)]),
            Some(croupier_league::Plan::Swiss { rounds }) => {
                i18n::t_with("rounds-short-swiss", &[("n", &rounds.unwrap_or_default())])
            }
            Some(croupier_league::Plan::Adaptive { budget, .. }) => {
                i18n::t_with("rounds-short-adaptive", &[("budget", &budget)])
            }
        };
        Ok(Facts {
            rounds,
            base_seed: c.settings.seeds_out.then(|| s.base_seed.to_string()),
            move_time: s
                .move_time_ms
                .map_or_else(default, |ms| i18n::t_with("competition-ms", &[("ms", &ms)])),
            games_per_match: s.games_per_match.map_or_else(default, |n| n.to_string()),
        })
    }
}

#[derive(Deserialize)]
struct MatchesQuery {
    #[serde(default)]
    page: Option<i64>,
    #[serde(default)]
    fragment: Option<Fragment>,
}

/// A part of a page, alone.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Fragment {
    Board,
    Matches,
}

#[derive(Deserialize)]
struct PlainForm {
    csrf: String,
}

has_csrf!(PlainForm);

#[derive(Deserialize)]
struct LadderForm {
    csrf: String,
    action: LadderAction,
}

has_csrf!(LadderForm);

async fn index(State(state): State<AppState>, ctx: Ctx) -> Result<Response> {
    let (archived, all): (Vec<Competition>, Vec<Competition>) = competitions::list(&state.pool)
        .await?
        .into_iter()
        .partition(|c| c.archived);
    let any = !all.is_empty();
    let sections = games()
        .into_iter()
        .map(|game| Section {
            competitions: all.iter().filter(|c| c.game == game.id).cloned().collect(),
            game,
        })
        .collect();
    Ok(render(&IndexPage {
        ctx,
        sections,
        any,
        archived,
    }))
}

async fn show(
    State(state): State<AppState>,
    ctx: Ctx,
    PagePath(competition_id): PagePath<Uuid>,
    PageQuery(query): PageQuery<MatchesQuery>,
) -> Result<Response> {
    let c = competitions::get(&state.pool, competition_id).await?;
    let pages = ((c.progress.total() + PER_PAGE - 1) / PER_PAGE).max(1);
    let page = query.page.unwrap_or(1).clamp(1, pages);
    if query.fragment == Some(Fragment::Board) {
        let kept = state.live.board(&state.pool, competition_id).await?;
        return Ok(Html(board_html(&kept, ctx.lang)?).into_response());
    }
    let matches =
        competitions::match_lines(&state.pool, competition_id, PER_PAGE, (page - 1) * PER_PAGE)
            .await?
            .into_iter()
            .map(|m| Line::of(&c.game, m))
            .collect();
    if query.fragment == Some(Fragment::Matches) {
        return Ok(render(&MatchesFragment {
            c,
            matches,
            page,
            pages,
        }));
    }
    let kept = state.live.board(&state.pool, competition_id).await?;
    let entries = competitions::entries(&state.pool, competition_id).await?;
    let board_html = board_html(&kept, ctx.lang)?;
    let stages = Stages::of(&state.pool, &c).await?;
    Ok(render(&ShowPage {
        rounds: RoundsView::of(&c),
        stages,
        game_name: game_name(&c.game),
        facts: Facts::of(&c)?,
        ctx,
        c,
        entries,
        board_html,
        matches,
        page,
        pages,
    }))
}

/// The leaderboard page: the competition and its board as kept between its matches' changes
/// (no query when kept, `crate::board_cache`); for a signed-out visitor the whole page as kept,
/// plain or gzipped.
async fn board(
    State(state): State<AppState>,
    ctx: Ctx,
    headers: HeaderMap,
    PagePath(competition_id): PagePath<Uuid>,
) -> Result<Response> {
    let kept = state.live.board(&state.pool, competition_id).await?;
    // Kept whole: the English page of a signed-out visitor.
    let visitor = ctx.user.is_none() && ctx.flash.is_none() && ctx.lang == Lang::En;
    if let Some(encoded) = kept.visitor_page.get().filter(|_| visitor) {
        return Ok(encoded.response(&headers, "text/html; charset=utf-8"));
    }
    let page = LeaderboardPage {
        game_name: game_name(&kept.competition.game),
        c: kept.competition.clone(),
        board_html: board_html(&kept, ctx.lang)?,
        ctx,
    };
    if !visitor {
        return Ok(render(&page));
    }
    let html = page.render().map_err(Error::internal)?;
    let _ = kept.visitor_page.set(Encoded::new(html)?);
    let encoded = kept.visitor_page.get();
    let encoded = encoded.ok_or_else(|| Error::internal("the visitor page was not kept"))?;
    Ok(encoded.response(&headers, "text/html; charset=utf-8"))
}

async fn cancel(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ctx: Ctx,
    PagePath(competition_id): PagePath<Uuid>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    let cancelled = competitions::cancel(&state.pool, competition_id).await;
    if let Ok(n) = cancelled {
        tracing::info!(%competition_id, by = %admin.user_id, matches = n, "competition cancelled");
    }
    super::competition_manage::answer(&ctx, competition_id, cancelled, |n| {
        ctx.t1("competition-cancelled", "n", &n)
    })
    .await
}

async fn rerun(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ctx: Ctx,
    PagePath(competition_id): PagePath<Uuid>,
    CsrfForm(_): CsrfForm<PlainForm>,
) -> Result<Redirect> {
    let n = competitions::rerun_failed(&state.pool, competition_id).await?;
    tracing::info!(%competition_id, by = %admin.user_id, matches = n, "failed matches re-queued");
    ctx.flash(match n {
        0 => ctx.t("competition-rerun-none"),
        n => ctx.t1("competition-rerun-done", "n", &n),
    })
    .await?;
    Ok(Redirect::to(&format!("/competitions/{competition_id}")))
}

async fn ladder(
    State(state): State<AppState>,
    AdminUser(_): AdminUser,
    ctx: Ctx,
    PagePath(competition_id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<LadderForm>,
) -> Result<Redirect> {
    let said = crate::ladder::control(&state, competition_id, form.action).await?;
    ctx.flash(said).await?;
    Ok(Redirect::to(&format!("/competitions/{competition_id}")))
}

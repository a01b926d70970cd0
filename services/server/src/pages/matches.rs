//! A match page, public (a challenge's only to its team and admins, a 404 to anyone else:
//! `crate::privacy`): the result table and the replay's timeline, once every match dealt the
//! same cards has ended, and the seed once it may be shown. The owning team of a seat
//! (members of the team whose submission sat there) and admins also see that seat's stderr
//! tail, the fault detail and its per-move timings; nobody else ever gets them.

use std::collections::HashSet;
use std::fmt::Display;

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use croupier_store::matches::{self, Match, SeatWithResult};
use croupier_store::users::User;
use croupier_store::{blobs, competitions, teams, MatchStatus};
use uuid::Uuid;

use super::match_log::{self, MatchLog};
use super::timeline::{self, Timeline};
use crate::error::Result;
use crate::extract::PagePath;
use crate::i18n;
use crate::templates::{game_name, render, Ctx};
use crate::{privacy, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/matches/{match_id}", get(show))
        .route("/matches/{match_id}/progress", get(progress))
}

/// A running match's progress, the part of its page `web/static/poll.js` fetches again every
/// two seconds: how long it has run and how far it has got (the game and its moves, as the
/// worker publishes them every few seconds). Once the match is no longer running, a mark that
/// reloads the page.
#[derive(Template)]
#[template(path = "match_progress.html")]
struct ProgressPart {
    match_id: Uuid,
    running: bool,
    words: String,
}

/// `3 min 12 s` (or `1 h 4 min`) since `started`, and the moves where they are known.
async fn progress_words(state: &AppState, m: &Match) -> Result<String> {
    let secs = m.started_at.map_or(0, |t| {
        (time::OffsetDateTime::now_utc() - t).whole_seconds().max(0)
    });
    let elapsed = if secs >= 3600 {
        super::labels::tk(
            "match-elapsed-hours",
            &[("h", &(secs / 3600)), ("min", &(secs % 3600 / 60))],
            &[],
        )
    } else {
        super::labels::tk(
            "match-elapsed",
            &[("min", &(secs / 60)), ("s", &(secs % 60))],
            &[],
        )
    };
    let at = croupier_store::matches::progress::read(&state.pool, m.match_id).await?;
    let moves = at.map(|(game, n)| {
        super::labels::tk(
            "match-moves-so-far",
            &[("n", &n), ("game", &(game + 1))],
            &[],
        )
    });
    Ok(match moves {
        Some(moves) => format!("{elapsed} · {moves}"),
        None => elapsed,
    })
}

async fn progress(
    State(state): State<AppState>,
    ctx: Ctx,
    PagePath(match_id): PagePath<Uuid>,
) -> Result<Response> {
    let m = privacy::match_for(&state, ctx.user.as_ref(), match_id).await?;
    let running = m.status == MatchStatus::Running;
    let words = if running {
        progress_words(&state, &m).await?
    } else {
        String::new()
    };
    Ok(render(&ProgressPart {
        match_id,
        running,
        words,
    }))
}

#[derive(Template)]
#[template(path = "match.html")]
struct MatchPage {
    ctx: Ctx,
    m: Match,
    game_name: String,
    competition: Option<(Uuid, String)>,
    seats: Vec<SeatWithResult>,
    /// Each seat's name (`N`, or its number) and place (`labels::places`), in seat order.
    seat_names: Vec<String>,
    places: Vec<Option<i32>>,
    /// Why no seat has a place, where a match's ranks decide nothing by themselves.
    places_note: Option<String>,
    timeline: Option<Timeline>,
    /// When the replay and the seats' logs expired (replay retention), if they did.
    replay_expired: Option<time::OffsetDateTime>,
    /// The protocol log (Splendor: the judge-worded match log).
    log: Option<MatchLog>,
    private: Vec<PrivateSeat>,
    /// A running match's progress in words ([`progress_words`]).
    progress: Option<String>,
}

impl MatchPage {
    /// Whether the signed-in person sits at this table (then the page links to their seat).
    fn seated_here(&self) -> bool {
        let me = self.ctx.user.as_ref().map(|u| u.username.as_str());
        me.is_some() && self.seats.iter().any(|s| s.person.as_deref() == me)
    }

    /// `No Thanks match #3`, or without a number outside a competition.
    fn heading(&self) -> String {
        let n = self.m.ordinal + 1;
        match self.competition {
            Some(_) => {
                let (game, n): (&dyn Display, &dyn Display) = (&self.game_name, &n);
                self.ctx
                    .t2("match-heading-numbered", ("game", game), ("n", n))
            }
            None => self.ctx.t1("match-heading", "game", &self.game_name),
        }
    }

    /// The link text of a seat's log download.
    fn download_log(&self, p: &PrivateSeat) -> String {
        let seat = super::labels::seat(&self.m.game, &p.seat);
        let names = [("seat", seat.as_str()), ("who", &p.who)];
        super::labels::tk("match-download-log", &[], &names)
    }

    /// The place of the `i`th seat (`1st`), or `–`.
    fn place_text(&self, i: &usize) -> String {
        match self.places.get(*i) {
            Some(Some(p)) => super::labels::place(p),
            _ => "–".to_owned(),
        }
    }
}

/// What only the seat's team (and admins) may see.
struct PrivateSeat {
    seat: i32,
    who: String,
    detail: Option<String>,
    stderr: String,
    moves: usize,
    min_ms: String,
    median_ms: String,
    max_ms: String,
    timings: String,
}

impl PrivateSeat {
    fn of(seat: &SeatWithResult, stderr: String) -> Self {
        let mut ms: Vec<f64> = seat
            .timings
            .as_ref()
            .and_then(|t| t.as_array())
            .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
            .unwrap_or_default();
        let timings = ms
            .iter()
            .map(super::labels::score)
            .collect::<Vec<_>>()
            .join(", ");
        ms.sort_by(f64::total_cmp);
        let at = |i: usize| {
            ms.get(i)
                .map_or_else(|| "–".to_owned(), super::labels::score)
        };
        let median = match ms.len() {
            0 => "–".to_owned(),
            n if n % 2 == 1 => at(n / 2),
            n => super::labels::score(&((ms[n / 2 - 1] + ms[n / 2]) / 2.0)),
        };
        PrivateSeat {
            seat: seat.seat,
            who: super::labels::seat_name(
                &seat.team_name,
                &seat.version,
                &seat.builtin,
                &seat.person,
            ),
            detail: seat.end_detail.clone(),
            stderr,
            moves: ms.len(),
            min_ms: at(0),
            median_ms: median,
            max_ms: at(ms.len().wrapping_sub(1)),
            timings,
        }
    }
}

/// What decides a table whose ranks decide nothing by themselves (Bridge): its duplicate set's
/// IMPs once the other table has finished.
async fn duplicate_note(
    state: &AppState,
    competition: Option<&competitions::Competition>,
    m: &Match,
    seats: &[SeatWithResult],
) -> Result<String> {
    let alone = i18n::t("match-duplicate-alone");
    let Some(c) = competition else {
        return Ok(alone);
    };
    let Some((other, sides)) = crate::leaderboard::duplicate_of(&state.pool, c, m.match_id).await?
    else {
        return Ok(format!("{alone} {}", i18n::t("match-duplicate-waiting")));
    };
    let name = |id: Uuid| {
        seats
            .iter()
            .find(|s| s.submission_id == Some(id))
            .map_or_else(
                || "?".to_owned(),
                |s| super::labels::seat_name(&s.team_name, &s.version, &s.builtin, &s.person),
            )
    };
    let [(a, imps_a), (b, imps_b)] = sides;
    let (other, a, b) = (other + 1, name(a), name(b));
    let values: [(&str, &dyn Display); 3] =
        [("other", &other), ("imps-a", &imps_a), ("imps-b", &imps_b)];
    let names = [("a", a.as_str()), ("b", &b)];
    Ok(super::labels::tk("match-duplicate-set", &values, &names))
}

/// The teams whose private seat data `user` may see; `None`: all (an admin).
async fn allowed_teams(state: &AppState, user: Option<&User>) -> Result<Option<HashSet<Uuid>>> {
    Ok(match user {
        Some(u) if u.is_admin => None,
        Some(u) => Some(
            teams::of_user(&state.pool, u.user_id)
                .await?
                .into_iter()
                .map(|t| t.team_id)
                .collect(),
        ),
        None => Some(HashSet::new()),
    })
}

async fn show(
    State(state): State<AppState>,
    ctx: Ctx,
    PagePath(match_id): PagePath<Uuid>,
) -> Result<Response> {
    let m = privacy::match_for(&state, ctx.user.as_ref(), match_id).await?;
    let seats = matches::seats_with_results(&state.pool, match_id).await?;
    let full = match m.competition_id {
        Some(id) => Some(competitions::get(&state.pool, id).await?),
        None => None,
    };
    let competition = full.as_ref().map(|c| (c.competition_id, c.name.clone()));
    let blob = if privacy::deal_shown(&m) {
        matches::replay(&state.pool, match_id).await?
    } else {
        None
    };
    let replay_expired = match (&blob, m.status) {
        (None, MatchStatus::Finished) if m.deal_out => {
            croupier_store::retention::replay_expired_at(&state.pool, match_id).await?
        }
        _ => None,
    };
    let timeline = blob.as_deref().map(|b| timeline::read(b, &m.game));
    let log = blob.as_deref().and_then(match_log::read);
    let allowed = allowed_teams(&state, ctx.user.as_ref()).await?;
    let mut private = Vec::new();
    for seat in &seats {
        let mine = match (&allowed, seat.team_id) {
            (None, _) => seat.submission_id.is_some(),
            (Some(teams), Some(team_id)) => teams.contains(&team_id),
            (Some(_), None) => false,
        };
        if !mine || seat.rank.is_none() || !privacy::deal_shown(&m) {
            continue;
        }
        let stderr = match &seat.stderr_sha256 {
            Some(sha) => String::from_utf8_lossy(&blobs::get(&state.pool, sha).await?).into_owned(),
            None => String::new(),
        };
        private.push(PrivateSeat::of(seat, stderr));
    }
    let ranks: Vec<Option<i32>> = seats.iter().map(|s| s.rank).collect();
    let places = super::labels::places(&m.game, &ranks);
    let places_note = if ranks.iter().any(Option::is_some) && places.iter().all(Option::is_none) {
        Some(duplicate_note(&state, full.as_ref(), &m, &seats).await?)
    } else {
        None
    };
    let seat_names = seats
        .iter()
        .map(|s| super::labels::seat(&m.game, &s.seat))
        .collect();
    let progress = if m.status == MatchStatus::Running {
        Some(progress_words(&state, &m).await?)
    } else {
        None
    };
    Ok(render(&MatchPage {
        progress,
        game_name: game_name(&m.game),
        seat_names,
        places,
        places_note,
        ctx,
        m,
        competition,
        seats,
        timeline,
        replay_expired,
        log,
        private,
    }))
}

//! A challenge's or A/B test's page: its participants' results with confidence intervals, an
//! A/B test's verdict (which version is A and which is B, by team, number and label), and its
//! matches (for the asking team's members and admins; 404 for others). While it runs, the part
//! that changes is fetched again every few seconds (`?fragment=live`, `web/static/poll.js`; a
//! page without scripts refreshes itself). Started on the site (`super::challenge_new`) or over
//! the API (`crate::api::challenges`).

use askama::Template;
use axum::extract::{Query, State};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use croupier_board::challenge::{ChallengeMatch, Participant, Report};
use croupier_league::Verdict;
use croupier_store::{submissions, teams, StoreError};
use serde::Deserialize;
use uuid::Uuid;

use super::challenge_new::version_name;
use super::labels::tk;
use crate::auth::CurrentUser;
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::i18n::Lang;
use crate::templates::{game_name, render, Ctx};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/challenges/{challenge_id}", get(show))
}

#[derive(Template)]
#[template(path = "challenge.html")]
struct ChallengePage {
    ctx: Ctx,
    v: View,
}

/// The part of the page that changes while the challenge runs, alone.
#[derive(Template)]
#[template(path = "challenge_live.html")]
struct ChallengeLive {
    ctx: Ctx,
    v: View,
}

/// What both show.
struct View {
    lang: Lang,
    game_name: String,
    report: Report,
    rows: Vec<Row>,
    /// An A/B test's versions, named.
    a: String,
    b: String,
}

struct Row {
    who: String,
    /// `A` or `B` in an A/B test.
    role: Option<&'static str>,
    games: u32,
    score: String,
    wins: u32,
    faults: u32,
}

/// A version by its team, number and label (`?` when it is gone).
async fn named(state: &AppState, id: Uuid) -> Result<String> {
    match submissions::get(&state.pool, id).await {
        Ok(s) => Ok(version_name(&s.team_name, s.version, &s.label)),
        Err(StoreError::NotFound) => Ok("?".to_owned()),
        Err(e) => Err(e.into()),
    }
}

impl Row {
    async fn of(state: &AppState, p: &Participant, ab: Option<(Uuid, Uuid)>) -> Result<Row> {
        let who = match (&p.submission_id, &p.builtin, &p.person) {
            (Some(id), _, _) => named(state, *id).await?,
            (None, Some(name), _) => tk("challenge-builtin", &[], &[("name", name)]),
            (None, None, Some(name)) => tk("challenge-person", &[], &[("name", name)]),
            (None, None, None) => "?".to_owned(),
        };
        let role = match (ab, p.submission_id) {
            (Some((a, _)), Some(id)) if id == a => Some("A"),
            (Some((_, b)), Some(id)) if id == b => Some("B"),
            _ => None,
        };
        let score = match (p.games, p.score.half_width) {
            (0, _) => "–".to_owned(),
            (_, Some(h)) => format!("{:.2} ± {:.2}", p.score.mean, h),
            (_, None) => format!("{:.2}", p.score.mean),
        };
        Ok(Row {
            who,
            role,
            games: p.games,
            score,
            wins: p.wins,
            faults: p.faults,
        })
    }
}

impl View {
    /// The matches by status: `3 finished, 1 running, …`.
    fn counts(&self) -> String {
        let m = &self.report.matches;
        let args: [(&str, &dyn std::fmt::Display); 5] = [
            ("finished", &m.finished),
            ("running", &m.running),
            ("queued", &m.queued),
            ("failed", &m.failed),
            ("cancelled", &m.cancelled),
        ];
        self.lang.t_with("challenge-counts", &args)
    }

    /// Whether the person `ctx` shows the page to sits at match `m`.
    fn seated(&self, ctx: &Ctx, m: &ChallengeMatch) -> bool {
        let me = ctx.user.as_ref().map(|u| &u.username);
        me.is_some_and(|me| m.people.contains(me))
    }

    fn t1(&self, key: &str, name: &str, value: &dyn std::fmt::Display) -> String {
        self.lang.t_with(key, &[(name, value)])
    }

    fn t(&self, key: &str) -> String {
        self.lang.t(key)
    }

    /// What the polling script reads out when it changes.
    fn say(&self) -> String {
        if self.report.ab.is_some() {
            format!("{} {}", self.verdict(), self.counts())
        } else {
            self.counts()
        }
    }

    /// The A/B test's verdict in words.
    fn verdict(&self) -> String {
        let Some(ab) = &self.report.ab else {
            return String::new();
        };
        let n = &ab.games;
        match ab.verdict {
            Verdict::Continue => self.t1("challenge-verdict-continue", "n", n),
            Verdict::ABetter => self.t1("challenge-verdict-a", "n", n),
            Verdict::BBetter => self.t1("challenge-verdict-b", "n", n),
            Verdict::NoMeaningfulDifference => self.t1("challenge-verdict-same", "n", n),
            Verdict::Inconclusive => self.t1("challenge-verdict-inconclusive", "n", n),
        }
    }

    fn ab_numbers(&self) -> String {
        let Some(ab) = &self.report.ab else {
            return String::new();
        };
        // The numbers are formatted here, between the words (an argument that reads as a
        // number would lose its trailing zeros).
        let ctx = self;
        let to = ctx.t("challenge-to");
        let fixed = ab.ci95.half_width.map_or_else(
            || ctx.t("challenge-no-interval"),
            |h| {
                let ci = ctx.t("challenge-ci");
                format!("{ci} {:.2} {to} {:.2}", ab.ci95.mean - h, ab.ci95.mean + h)
            },
        );
        let (lo, hi) = ab.always_valid;
        let valid = if lo.is_finite() && hi.is_finite() {
            format!("{} {lo:.2} {to} {hi:.2}", ctx.t("challenge-anytime"))
        } else {
            ctx.t("challenge-anytime-infinite")
        };
        let sep = ctx.t("challenge-sep");
        format!(
            "{} {:.2} {}{sep}{fixed}{sep}{valid}{}",
            ctx.t("challenge-mean-diff"),
            ab.mean_diff,
            ctx.t("challenge-positive"),
            ctx.t("challenge-end")
        )
    }
}

#[derive(Deserialize)]
struct ShowQuery {
    /// `live`: only the part that changes while it runs.
    fragment: Option<String>,
}

async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(challenge_id): PagePath<Uuid>,
    Query(query): Query<ShowQuery>,
) -> Result<Response> {
    let report = crate::challenge::load(&state, challenge_id).await?;
    if !user.is_admin {
        teams::role_of(&state.pool, report.challenge.team_id, user.user_id)
            .await?
            .ok_or(Error::NotFound)?;
    }
    let ab = ab_versions(&report);
    let mut rows = Vec::with_capacity(report.participants.len());
    for p in &report.participants {
        rows.push(Row::of(&state, p, ab).await?);
    }
    let (a, b) = match ab {
        Some((a, b)) => (named(&state, a).await?, named(&state, b).await?),
        None => (String::new(), String::new()),
    };
    let v = View {
        lang: ctx.lang,
        game_name: game_name(&report.challenge.game),
        report,
        rows,
        a,
        b,
    };
    if query.fragment.as_deref() == Some("live") {
        return Ok(render(&ChallengeLive { ctx, v }));
    }
    Ok(render(&ChallengePage { ctx, v }))
}

/// An A/B test's versions A and B (its stored seats, in that order).
fn ab_versions(report: &Report) -> Option<(Uuid, Uuid)> {
    if report.challenge.kind != "ab_test" {
        return None;
    }
    let seats = report.challenge.seats.as_array()?;
    let id = |i: usize| seats.get(i)?.as_str()?.parse().ok();
    Some((id(0)?, id(1)?))
}

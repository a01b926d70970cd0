//! A challenge's or A/B test's page: its participants' results with confidence intervals, an
//! A/B test's verdict, and its matches (for the asking team's members and admins; 404 for
//! others). Started over the API (`crate::api::challenges`).

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use croupier_board::challenge::{ChallengeMatch, Participant, Report};
use croupier_league::Verdict;
use croupier_store::teams;
use uuid::Uuid;

use crate::auth::CurrentUser;
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::i18n;
use crate::templates::{game_name, render, Ctx};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/challenges/{challenge_id}", get(show))
}

#[derive(Template)]
#[template(path = "challenge.html")]
struct ChallengePage {
    ctx: Ctx,
    game_name: String,
    report: Report,
    rows: Vec<Row>,
}

struct Row {
    who: String,
    games: u32,
    score: String,
    wins: u32,
    faults: u32,
}

impl Row {
    fn of(p: &Participant) -> Row {
        let who = match (&p.submission_id, &p.builtin, &p.person) {
            (Some(id), _, _) => {
                // The id's first 8 hex digits outside the message: an argument that reads as a
                // number (`01234567`, `12e45678`) would be printed as one.
                format!(
                    "{} {}",
                    i18n::t("challenge-submission"),
                    &id.to_string()[..8]
                )
            }
            (None, Some(name), _) => i18n::t_with("challenge-builtin", &[("name", name)]),
            (None, None, Some(name)) => i18n::t_with("challenge-person", &[("name", name)]),
            (None, None, None) => "?".to_owned(),
        };
        let score = match (p.games, p.score.half_width) {
            (0, _) => "–".to_owned(),
            (_, Some(h)) => format!("{:.2} ± {:.2}", p.score.mean, h),
            (_, None) => format!("{:.2}", p.score.mean),
        };
        Row {
            who,
            games: p.games,
            score,
            wins: p.wins,
            faults: p.faults,
        }
    }
}

impl ChallengePage {
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
        self.ctx.lang.t_with("challenge-counts", &args)
    }

    /// Whether the signed-in person sits at match `m`.
    fn seated(&self, m: &ChallengeMatch) -> bool {
        let me = self.ctx.user.as_ref().map(|u| &u.username);
        me.is_some_and(|me| m.people.contains(me))
    }

    /// The A/B test's verdict in words.
    fn verdict(&self) -> String {
        let Some(ab) = &self.report.ab else {
            return String::new();
        };
        let n = &ab.games;
        match ab.verdict {
            Verdict::Continue => self.ctx.t1("challenge-verdict-continue", "n", n),
            Verdict::ABetter => self.ctx.t1("challenge-verdict-a", "n", n),
            Verdict::BBetter => self.ctx.t1("challenge-verdict-b", "n", n),
            Verdict::NoMeaningfulDifference => self.ctx.t1("challenge-verdict-same", "n", n),
            Verdict::Inconclusive => self.ctx.t1("challenge-verdict-inconclusive", "n", n),
        }
    }

    fn ab_numbers(&self) -> String {
        let Some(ab) = &self.report.ab else {
            return String::new();
        };
        // The numbers are formatted here, between the words (an argument that reads as a
        // number would lose its trailing zeros).
        let ctx = &self.ctx;
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

async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(challenge_id): PagePath<Uuid>,
) -> Result<Response> {
    let report = crate::challenge::load(&state, challenge_id).await?;
    if !user.is_admin {
        teams::role_of(&state.pool, report.challenge.team_id, user.user_id)
            .await?
            .ok_or(Error::NotFound)?;
    }
    let rows = report.participants.iter().map(Row::of).collect();
    Ok(render(&ChallengePage {
        ctx,
        game_name: game_name(&report.challenge.game),
        report,
        rows,
    }))
}

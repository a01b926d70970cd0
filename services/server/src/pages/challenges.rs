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
use crate::templates::{game_name, render, Ctx};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/challenges/{challenge_id}", get(show))
}

#[derive(Template)]
#[template(path = "challenge.html")]
struct ChallengePage {
    ctx: Ctx,
    game_name: &'static str,
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
            (Some(id), _, _) => format!("submission {}", &id.to_string()[..8]),
            (None, Some(name), _) => format!("built-in {name}"),
            (None, None, Some(name)) => format!("{name} (a person)"),
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
        match ab.verdict {
            Verdict::Continue => format!("Still playing: {} groups so far.", ab.games),
            Verdict::ABetter => format!("A is better (decided after {} groups).", ab.games),
            Verdict::BBetter => format!("B is better (decided after {} groups).", ab.games),
            Verdict::NoMeaningfulDifference => {
                format!("No meaningful difference (after {} groups).", ab.games)
            }
            Verdict::Inconclusive => format!(
                "Inconclusive: {} groups played without a decision.",
                ab.games
            ),
        }
    }

    fn ab_numbers(&self) -> String {
        let Some(ab) = &self.report.ab else {
            return String::new();
        };
        let fixed = ab.ci95.half_width.map_or_else(
            || "no interval yet".to_owned(),
            |h| format!("95% CI {:.2} to {:.2}", ab.ci95.mean - h, ab.ci95.mean + h),
        );
        let (lo, hi) = ab.always_valid;
        let valid = if lo.is_finite() && hi.is_finite() {
            format!("anytime-valid {lo:.2} to {hi:.2}")
        } else {
            "anytime-valid interval not yet finite".to_owned()
        };
        format!(
            "Mean difference A − B per group {:.2} (positive: A better); {fixed}; {valid}.",
            ab.mean_diff
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

//! A team's challenges, A/B tests and tables with a person: `GET /teams/{id}/challenges` lists
//! them all (its members and admins; 404 for others), newest first, each with its competition,
//! who sat at the table (versions by team, number and label; an A/B test's A and B), its status
//! and when it started; the team page shows the latest few ([`lines`]).

use std::collections::HashMap;

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use croupier_store::challenges::{self, Challenge};
use croupier_store::{competitions, submissions, teams, StoreError};
use serde_json::Value;
use uuid::Uuid;

use super::challenge_new::version_name;
use super::labels::tk;
use crate::auth::CurrentUser;
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::i18n;
use crate::templates::{game_name, render, Ctx};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/teams/{team_id}/challenges", get(show))
}

/// One challenge as a line of a list.
pub(crate) struct Line {
    pub challenge_id: Uuid,
    /// Challenge, A/B test or table, in words.
    pub kind: String,
    pub competition_id: Uuid,
    pub competition: String,
    pub game: String,
    /// Who sat at the table, in words.
    pub who: String,
    pub done: bool,
    pub started: String,
}

/// Names of submissions, looked up once each.
struct Names<'a> {
    state: &'a AppState,
    known: HashMap<Uuid, String>,
}

impl Names<'_> {
    async fn of(&mut self, id: Uuid) -> Result<String> {
        if let Some(name) = self.known.get(&id) {
            return Ok(name.clone());
        }
        let name = match submissions::get(&self.state.pool, id).await {
            Ok(s) => version_name(&s.team_name, s.version, &s.label),
            Err(StoreError::NotFound) => "?".to_owned(),
            Err(e) => return Err(e.into()),
        };
        self.known.insert(id, name.clone());
        Ok(name)
    }

    /// A seat of a stored challenge (`{"submission_id"}`, `{"builtin"}`, `{"human"}`).
    async fn seat(&mut self, seat: &Value) -> Result<String> {
        if let Some(id) = seat["submission_id"].as_str().and_then(|s| s.parse().ok()) {
            return self.of(id).await;
        }
        if let Some(name) = seat["builtin"].as_str() {
            return Ok(tk("challenge-builtin", &[], &[("name", name)]));
        }
        Ok(i18n::t("challenge-list-a-person"))
    }
}

/// The lines of `list`, in its order.
pub(crate) async fn lines(state: &AppState, list: &[Challenge]) -> Result<Vec<Line>> {
    let mut names = Names {
        state,
        known: HashMap::new(),
    };
    let mut competition_names: HashMap<Uuid, String> = HashMap::new();
    let mut out = Vec::with_capacity(list.len());
    for c in list {
        if let std::collections::hash_map::Entry::Vacant(slot) =
            competition_names.entry(c.competition_id)
        {
            slot.insert(competitions::get(&state.pool, c.competition_id).await?.name);
        }
        let seats = c.seats.as_array().cloned().unwrap_or_default();
        let (kind, who) = if c.kind == "ab_test" {
            let id = |i: usize| {
                seats
                    .get(i)
                    .and_then(Value::as_str)
                    .and_then(|s| s.parse().ok())
            };
            let a = match id(0) {
                Some(id) => names.of(id).await?,
                None => "?".to_owned(),
            };
            let b = match id(1) {
                Some(id) => names.of(id).await?,
                None => "?".to_owned(),
            };
            let who = tk("challenge-list-ab", &[], &[("a", &a), ("b", &b)]);
            (i18n::t("challenge-ab-title"), who)
        } else {
            let mut who = Vec::with_capacity(seats.len());
            for seat in &seats {
                who.push(names.seat(seat).await?);
            }
            let table = seats.iter().any(|s| s.get("human").is_some());
            let kind = if table {
                i18n::t("challenge-list-table")
            } else {
                i18n::t("challenge-title")
            };
            (kind, who.join(", "))
        };
        out.push(Line {
            challenge_id: c.challenge_id,
            kind,
            competition_id: c.competition_id,
            competition: competition_names[&c.competition_id].clone(),
            game: game_name(&c.game),
            who,
            done: c.status == "finished",
            started: crate::templates::when(&c.created_at),
        });
    }
    Ok(out)
}

#[derive(Template)]
#[template(path = "team_challenges.html")]
struct TeamChallengesPage {
    ctx: Ctx,
    team_id: Uuid,
    team_name: String,
    challenge_lines: Vec<Line>,
}

async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(team_id): PagePath<Uuid>,
) -> Result<Response> {
    let role = teams::role_of(&state.pool, team_id, user.user_id).await?;
    if role.is_none() && !user.is_admin {
        return Err(Error::NotFound);
    }
    let team = teams::get(&state.pool, team_id).await?;
    let list = challenges::of_team(&state.pool, team_id).await?;
    Ok(render(&TeamChallengesPage {
        ctx,
        team_id,
        team_name: team.name,
        challenge_lines: lines(&state, &list).await?,
    }))
}

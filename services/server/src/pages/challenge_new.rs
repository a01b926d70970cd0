//! Starting a challenge or an A/B test on the site: `GET /competitions/{id}/challenges` holds
//! both forms for a signed-in team member. A challenge seats, in each seat, one of the
//! competition's entries, one of the team's own ready versions or a built-in bot, for a number
//! of duplicate groups; an A/B test pits two of the team's own versions (A and B) against each
//! other until it is decided. `POST /competitions/{id}/challenges` and `…/ab_tests` start them
//! with the API's rules (`crate::challenge`) and go to the new page; a refusal (a bad choice, the
//! spent budget, with the time the next may start) shows the form again with the message.

use std::collections::HashMap;

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use croupier_games::GameId;
use croupier_store::teams::Membership;
use croupier_store::users::User;
use croupier_store::{competitions, submissions, teams, SubmissionStatus};
use serde::Deserialize;
use uuid::Uuid;

use super::labels::tk;
use crate::auth::csrf::CsrfForm;
use crate::auth::CurrentUser;
use crate::challenge::{self, AbRequest, ChallengeRequest, SeatChoice, Spent};
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::i18n;
use crate::templates::{render, Ctx};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/competitions/{competition_id}/challenges",
            get(show).post(start_challenge),
        )
        .route("/competitions/{competition_id}/ab_tests", post(start_ab))
}

/// One choice of a select: its form value and its words.
pub(crate) struct Choice {
    pub value: String,
    pub label: String,
}

struct SeatRow {
    name: String,
    field: String,
    chosen: String,
}

#[derive(Template)]
#[template(path = "challenge_new.html")]
struct ChallengeNewPage {
    ctx: Ctx,
    competition_id: Uuid,
    competition: String,
    game_name: String,
    teams: Vec<Membership>,
    team_id: Option<Uuid>,
    /// Entries, own versions and built-ins, for a challenge's seats.
    choices: Vec<Choice>,
    /// The teams' own ready versions of the game, for an A/B test.
    versions: Vec<Choice>,
    seats: Vec<SeatRow>,
    games: i32,
    a: String,
    b: String,
    max_games: i32,
    /// Why the chosen team may not start one now, in words.
    spent: Option<String>,
    error: Option<String>,
}

impl ChallengeNewPage {
    fn is_team(&self, team_id: &Uuid) -> bool {
        self.team_id == Some(*team_id)
    }

    fn budget(&self) -> String {
        self.ctx
            .t1("challenge-new-budget", "n", &challenge::PER_HOUR)
    }
}

#[derive(Deserialize)]
struct ChallengeForm {
    #[serde(default)]
    csrf: String,
    team_id: Uuid,
    games: i32,
    /// `seat_0`, `seat_1`, …
    #[serde(flatten)]
    seats: HashMap<String, String>,
}
crate::has_csrf!(ChallengeForm);

#[derive(Deserialize)]
struct AbForm {
    #[serde(default)]
    csrf: String,
    team_id: Uuid,
    a: String,
    b: String,
    max_games: i32,
}
crate::has_csrf!(AbForm);

/// What was chosen, to show the form again as it was sent.
#[derive(Default)]
struct Chosen {
    team_id: Option<Uuid>,
    seats: Vec<String>,
    games: Option<i32>,
    a: String,
    b: String,
    max_games: Option<i32>,
}

/// `Owls v3 · greedy`: a version's team, number and label.
pub(crate) fn version_name(team: &str, version: i32, label: &str) -> String {
    let version = version.to_string();
    let name = tk(
        "challenge-version",
        &[],
        &[("team", team), ("version", &version)],
    );
    if label.is_empty() {
        name
    } else {
        format!("{name} · {label}")
    }
}

/// The spent budget in words, with the time the next may start.
pub(crate) fn spent_words(spent: Spent) -> String {
    match spent {
        Spent::Hour(at) => tk(
            "challenge-new-spent-hour",
            &[("n", &challenge::PER_HOUR)],
            &[("time", &challenge::hh_mm(at))],
        ),
        Spent::Pending => tk(
            "challenge-new-spent-pending",
            &[("n", &challenge::MAX_PENDING)],
            &[],
        ),
    }
}

async fn page(
    state: &AppState,
    ctx: Ctx,
    user: &User,
    competition_id: Uuid,
    chosen: Chosen,
    error: Option<String>,
) -> Result<ChallengeNewPage> {
    let c = competitions::get(&state.pool, competition_id).await?;
    let game: GameId = c.game.parse().map_err(Error::internal)?;
    let my_teams = teams::of_user(&state.pool, user.user_id).await?;
    let mut choices = Vec::new();
    for e in competitions::entries(&state.pool, competition_id).await? {
        let name = version_name(&e.team_name, e.version, "");
        choices.push(Choice {
            value: format!("submission:{}", e.submission_id),
            label: tk("challenge-new-entered", &[], &[("name", &name)]),
        });
    }
    let mut versions = Vec::new();
    for t in &my_teams {
        for s in submissions::of_team(&state.pool, t.team_id).await? {
            if s.game != game.as_str() || s.status != SubmissionStatus::Ready {
                continue;
            }
            let name = version_name(&t.name, s.version, &s.label);
            versions.push(Choice {
                value: s.submission_id.to_string(),
                label: name.clone(),
            });
            let value = format!("submission:{}", s.submission_id);
            if !choices.iter().any(|c| c.value == value) {
                choices.push(Choice {
                    value,
                    label: tk("challenge-new-yours", &[], &[("name", &name)]),
                });
            }
        }
    }
    for name in croupier_games::bots::names(game) {
        choices.push(Choice {
            value: format!("builtin:{name}"),
            label: tk("challenge-builtin", &[], &[("name", name)]),
        });
    }
    let default_bot = format!("builtin:{}", croupier_games::bots::names(game)[0]);
    let first_own = versions.first().map(|v| format!("submission:{}", v.value));
    let seats = (0..game.default_seats())
        .map(|i| SeatRow {
            name: super::labels::seat(game.as_str(), &i32::try_from(i).unwrap_or(i32::MAX)),
            field: format!("seat_{i}"),
            chosen: chosen
                .seats
                .get(i)
                .cloned()
                .unwrap_or_else(|| match (i, &first_own) {
                    (0, Some(own)) => own.clone(),
                    _ => default_bot.clone(),
                }),
        })
        .collect();
    let team_id = chosen.team_id.or(my_teams.first().map(|t| t.team_id));
    let spent = match team_id {
        Some(team) => challenge::spent(state, team).await?.map(spent_words),
        None => None,
    };
    let a = if chosen.a.is_empty() {
        versions.get(1).map(|v| v.value.clone()).unwrap_or_default()
    } else {
        chosen.a
    };
    let b = if chosen.b.is_empty() {
        versions
            .first()
            .map(|v| v.value.clone())
            .unwrap_or_default()
    } else {
        chosen.b
    };
    Ok(ChallengeNewPage {
        ctx: ctx.with_csrf().await?,
        competition_id,
        competition: c.name,
        game_name: crate::templates::game_name_in(game, i18n::current()),
        team_id,
        teams: my_teams,
        choices,
        versions,
        seats,
        games: chosen.games.unwrap_or(2),
        a,
        b,
        max_games: chosen.max_games.unwrap_or(100),
        spent,
        error,
    })
}

async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(competition_id): PagePath<Uuid>,
) -> Result<Response> {
    let shown = page(&state, ctx, &user, competition_id, Chosen::default(), None);
    Ok(render(&shown.await?))
}

/// A seat's form value as a challenge seat (no person: "Play against bots" seats people).
fn seat_choice(value: &str) -> Result<SeatChoice> {
    let bad = || Error::BadRequest(tk("challenge-new-bad-seat", &[], &[("value", value)]));
    match value.split_once(':') {
        Some(("builtin", name)) => Ok(SeatChoice::Builtin {
            builtin: name.to_owned(),
        }),
        Some(("submission", id)) => Ok(SeatChoice::Submission {
            submission_id: id.parse().map_err(|_| bad())?,
        }),
        _ => Err(bad()),
    }
}

/// The error's message for the form: the spent budget with the time the next may start.
async fn refusal(state: &AppState, team_id: Uuid, e: Error) -> Result<(StatusCode, String)> {
    match e {
        Error::BadRequest(message) => Ok((StatusCode::BAD_REQUEST, message)),
        Error::TooManyRequests { message, .. } => {
            let words = challenge::spent(state, team_id).await?.map(spent_words);
            Ok((StatusCode::TOO_MANY_REQUESTS, words.unwrap_or(message)))
        }
        e => Err(e),
    }
}

async fn start_challenge(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(competition_id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<ChallengeForm>,
) -> Result<Response> {
    let mut values = Vec::new();
    while let Some(v) = form.seats.get(&format!("seat_{}", values.len())) {
        values.push(v.clone());
    }
    let started = async {
        let seats = values
            .iter()
            .map(|v| seat_choice(v))
            .collect::<Result<_>>()?;
        let req = ChallengeRequest {
            team_id: form.team_id,
            seats,
            games: form.games,
            human_move_secs: None,
        };
        challenge::create(&state, user.user_id, competition_id, &req).await
    }
    .await;
    match started {
        Ok(id) => Ok(Redirect::to(&format!("/challenges/{id}")).into_response()),
        Err(e) => {
            let (status, message) = refusal(&state, form.team_id, e).await?;
            let chosen = Chosen {
                team_id: Some(form.team_id),
                seats: values,
                games: Some(form.games),
                ..Chosen::default()
            };
            let shown = page(&state, ctx, &user, competition_id, chosen, Some(message));
            Ok((status, render(&shown.await?)).into_response())
        }
    }
}

async fn start_ab(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(competition_id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<AbForm>,
) -> Result<Response> {
    let started = async {
        let version = |v: &str| {
            v.parse::<Uuid>()
                .map_err(|_| Error::BadRequest(tk("challenge-new-bad-seat", &[], &[("value", v)])))
        };
        let req = AbRequest {
            team_id: form.team_id,
            a: version(&form.a)?,
            b: version(&form.b)?,
            max_games: form.max_games,
        };
        challenge::create_ab(&state, user.user_id, competition_id, &req).await
    }
    .await;
    match started {
        Ok(id) => Ok(Redirect::to(&format!("/challenges/{id}")).into_response()),
        Err(e) => {
            let (status, message) = refusal(&state, form.team_id, e).await?;
            let chosen = Chosen {
                team_id: Some(form.team_id),
                a: form.a.clone(),
                b: form.b.clone(),
                max_games: Some(form.max_games),
                ..Chosen::default()
            };
            let shown = page(&state, ctx, &user, competition_id, chosen, Some(message));
            Ok((status, render(&shown.await?)).into_response())
        }
    }
}

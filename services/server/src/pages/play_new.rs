//! "Play against bots": `GET /competitions/{id}/play` is a form where a signed-in team member
//! picks their seat and who sits in the others (built-in bots, the competition's entries,
//! their team's own ready bots) and their time per move; `POST` starts it as an unrated
//! challenge with the person at the table (`crate::challenge`, the same rules as the API's
//! `{"human": true}` seat) and goes straight to the seat's page (`super::play`).

use std::collections::HashMap;

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use croupier_games::GameId;
use croupier_store::teams::Membership;
use croupier_store::users::User;
use croupier_store::{competitions, submissions, teams, SubmissionStatus};
use serde::Deserialize;
use uuid::Uuid;

use crate::auth::csrf::CsrfForm;
use crate::auth::CurrentUser;
use crate::challenge::{self, ChallengeRequest, SeatChoice};
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::templates::{render, Ctx};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/competitions/{competition_id}/play", get(show).post(start))
}

/// One choice for a seat: its form value (`you`, `builtin:NAME`, `submission:ID`) and words.
struct Choice {
    value: String,
    label: String,
}

struct SeatRow {
    /// `N`, or the seat's number.
    name: String,
    field: String,
    chosen: String,
}

#[derive(Template)]
#[template(path = "play_new.html")]
struct PlayNewPage {
    ctx: Ctx,
    competition_id: Uuid,
    competition: String,
    game_name: String,
    teams: Vec<Membership>,
    team_id: Option<Uuid>,
    choices: Vec<Choice>,
    seats: Vec<SeatRow>,
    /// What the seats' order means in this game (turn order; partners; shuffled at the start).
    seats_legend: String,
    move_secs: i32,
    error: Option<String>,
}

impl PlayNewPage {
    fn is_team(&self, team_id: &Uuid) -> bool {
        self.team_id == Some(*team_id)
    }
}

#[derive(Deserialize)]
struct PlayForm {
    #[serde(default)]
    csrf: String,
    team_id: Uuid,
    move_secs: i32,
    /// `seat_0`, `seat_1`, …
    #[serde(flatten)]
    seats: HashMap<String, String>,
}
crate::has_csrf!(PlayForm);

/// The page with `chosen` seat values (`None`: you first, then the default built-in).
async fn page(
    state: &AppState,
    ctx: Ctx,
    user: &User,
    competition_id: Uuid,
    chosen: Option<(&[String], Uuid, i32)>,
    error: Option<String>,
) -> Result<PlayNewPage> {
    let c = competitions::get(&state.pool, competition_id).await?;
    let game: GameId = c.game.parse().map_err(Error::internal)?;
    let my_teams = teams::of_user(&state.pool, user.user_id).await?;
    let mut choices = vec![Choice {
        value: "you".into(),
        label: super::labels::tk("play-new-you", &[], &[("name", &user.username)]),
    }];
    for name in croupier_games::bots::names(game) {
        choices.push(Choice {
            value: format!("builtin:{name}"),
            label: super::labels::tk("play-new-builtin", &[], &[("name", name)]),
        });
    }
    for e in competitions::entries(&state.pool, competition_id).await? {
        choices.push(Choice {
            value: format!("submission:{}", e.submission_id),
            label: {
                let version = e.version.to_string();
                let names = [("team", e.team_name.as_str()), ("version", &version)];
                super::labels::tk("play-new-entered", &[], &names)
            },
        });
    }
    for t in &my_teams {
        for s in submissions::of_team(&state.pool, t.team_id).await? {
            let fits = s.game == game.as_str() && s.status == SubmissionStatus::Ready;
            let listed = choices
                .iter()
                .any(|c| c.value.ends_with(&s.submission_id.to_string()));
            if fits && !listed {
                choices.push(Choice {
                    value: format!("submission:{}", s.submission_id),
                    label: {
                        let version = s.version.to_string();
                        let names = [("team", t.name.as_str()), ("version", &version)];
                        super::labels::tk("play-new-your-team", &[], &names)
                    },
                });
            }
        }
    }
    let default_bot = format!("builtin:{}", croupier_games::bots::names(game)[0]);
    let seats = (0..game.default_seats())
        .map(|i| SeatRow {
            name: super::labels::seat(game.as_str(), &i32::try_from(i).unwrap_or(i32::MAX)),
            field: format!("seat_{i}"),
            chosen: chosen
                .and_then(|(values, _, _)| values.get(i).cloned())
                .unwrap_or_else(|| {
                    if i == 0 {
                        "you".into()
                    } else {
                        default_bot.clone()
                    }
                }),
        })
        .collect();
    Ok(PlayNewPage {
        ctx: ctx.with_csrf().await?,
        competition_id,
        competition: c.name,
        game_name: crate::templates::game_name_in(game, crate::i18n::current()),
        team_id: chosen
            .map(|(_, t, _)| t)
            .or(my_teams.first().map(|t| t.team_id)),
        teams: my_teams,
        choices,
        seats,
        seats_legend: seats_legend(crate::i18n::current(), game),
        move_secs: chosen.map_or_else(
            || i32::try_from(croupier_games::DEFAULT_HUMAN_MOVE_SECS).unwrap_or(90),
            |(_, _, s)| s,
        ),
        error,
    })
}

async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(competition_id): PagePath<Uuid>,
) -> Result<Response> {
    Ok(render(
        &page(&state, ctx, &user, competition_id, None, None).await?,
    ))
}

/// A seat's form value as a challenge seat.
fn seat_choice(value: &str) -> Result<SeatChoice> {
    let bad = || Error::BadRequest(format!("unknown seat choice {value:?}"));
    match value.split_once(':') {
        None if value == "you" => Ok(SeatChoice::Human { human: true }),
        Some(("builtin", name)) => Ok(SeatChoice::Builtin {
            builtin: name.to_owned(),
        }),
        Some(("submission", id)) => Ok(SeatChoice::Submission {
            submission_id: id.parse().map_err(|_| bad())?,
        }),
        _ => Err(bad()),
    }
}

async fn start(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(competition_id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<PlayForm>,
) -> Result<Response> {
    let mut values = Vec::new();
    while let Some(v) = form.seats.get(&format!("seat_{}", values.len())) {
        values.push(v.clone());
    }
    let started = async {
        if !values.iter().any(|v| v == "you") {
            return Err(Error::BadRequest(crate::i18n::t("play-new-choose-you")));
        }
        let seats = values
            .iter()
            .map(|v| seat_choice(v))
            .collect::<Result<_>>()?;
        let req = ChallengeRequest {
            team_id: form.team_id,
            seats,
            games: 1,
            human_move_secs: Some(form.move_secs),
        };
        let id = challenge::create(&state, user.user_id, competition_id, &req).await?;
        let report = challenge::load(&state, id).await?;
        let first = report.match_list.first().map(|m| m.match_id);
        first.ok_or_else(|| Error::internal("a challenge without a match"))
    }
    .await;
    match started {
        Ok(match_id) => Ok(Redirect::to(&format!("/matches/{match_id}/play")).into_response()),
        Err(e @ (Error::BadRequest(_) | Error::TooManyRequests { .. })) => {
            let status = match e {
                Error::BadRequest(_) => StatusCode::BAD_REQUEST,
                _ => StatusCode::TOO_MANY_REQUESTS,
            };
            let chosen = Some((values.as_slice(), form.team_id, form.move_secs));
            let shown = page(
                &state,
                ctx,
                &user,
                competition_id,
                chosen,
                Some(e.to_string()),
            );
            Ok((status, render(&shown.await?)).into_response())
        }
        Err(e) => Err(e),
    }
}

/// What the seats' order means for `game` in `lang` (`play-new-seats-<game>`: Hanabi's order
/// is shuffled, partners sit opposite); plain "in turn order" for a game without its own words.
fn seats_legend(lang: crate::i18n::Lang, game: GameId) -> String {
    let own = format!("play-new-seats-{}", game.as_str());
    lang.t(if lang.has(&own) {
        own.as_str()
    } else {
        "play-new-seats"
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn each_hosted_game_says_what_its_seat_order_means_in_both_languages() {
        for game in GameId::all() {
            for lang in [Lang::En, Lang::Zh] {
                let key = format!("play-new-seats-{}", game.as_str());
                assert!(lang.has(&key), "{key} in {lang:?}");
            }
        }
        assert!(seats_legend(Lang::En, GameId::HANABI).contains("shuffled"));
        assert!(seats_legend(Lang::En, GameId::BRIDGE).contains("partners"));
        assert_eq!(
            seats_legend(Lang::En, GameId::NO_THANKS),
            "Seats, in turn order"
        );
    }
}

//! The admin's "new competition" form. Without JavaScript the game is chosen first (a GET form
//! that reloads the page with `?game=`), then the rule set, the entries (each team's latest ready
//! submission is ticked), rounds, seed and time per move. A refused form is shown again with the
//! message and the admin's choices, and nothing is stored.

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use croupier_games::GameId;
use croupier_store::competitions::{self, Candidate};
use serde::Deserialize;
use uuid::Uuid;

use crate::auth::csrf::CsrfForm;
use crate::auth::AdminUser;
use crate::competition::{self, CompetitionRequest, MAX_ROUNDS};
use crate::error::{Error, Result};
use crate::extract::PageQuery;
use crate::templates::{games, render, Ctx, GameView};
use crate::{has_csrf, AppState};

pub fn router() -> Router<AppState> {
    Router::new().route("/admin/competitions/new", get(form).post(submit))
}

#[derive(Template)]
#[template(path = "competition_new.html")]
struct NewPage {
    ctx: Ctx,
    games: Vec<GameView>,
    game: GameId,
    /// Each rule set of the game, and whether it is the selected one.
    rule_sets: Vec<(&'static str, bool)>,
    /// Each format of the game, and whether it is the selected one.
    formats: Vec<(&'static str, bool)>,
    choices: Vec<Choice>,
    form: NewForm,
    error: Option<String>,
    max_rounds: u32,
}

struct Choice {
    c: Candidate,
    checked: bool,
}

/// The posted fields. Ticked submissions repeat the `submission` key, so the body is read as
/// a list of pairs.
#[derive(Debug, Default, Deserialize)]
#[serde(from = "Vec<(String, String)>")]
struct NewForm {
    csrf: String,
    name: String,
    game: String,
    rules: String,
    rounds: String,
    base_seed: String,
    move_time_ms: String,
    games_per_match: String,
    format: String,
    settings: String,
    submissions: Vec<String>,
}

has_csrf!(NewForm);

impl From<Vec<(String, String)>> for NewForm {
    fn from(pairs: Vec<(String, String)>) -> Self {
        let mut form = NewForm::default();
        for (key, value) in pairs {
            match key.as_str() {
                "csrf" => form.csrf = value,
                "name" => form.name = value,
                "game" => form.game = value,
                "rules" => form.rules = value,
                "rounds" => form.rounds = value,
                "base_seed" => form.base_seed = value,
                "move_time_ms" => form.move_time_ms = value,
                "games_per_match" => form.games_per_match = value,
                "format" => form.format = value,
                "settings" => form.settings = value,
                "submission" => form.submissions.push(value),
                _ => {}
            }
        }
        form
    }
}

impl NewForm {
    fn request(&self) -> Result<CompetitionRequest> {
        fn number<T: std::str::FromStr>(value: &str, what: &str) -> Result<Option<T>> {
            match value.trim() {
                "" => Ok(None),
                v => v.parse().map(Some).map_err(|_| {
                    Error::BadRequest(format!("{what} must be a whole number, not {v:?}"))
                }),
            }
        }
        let submissions = self
            .submissions
            .iter()
            .map(|s| {
                s.parse::<Uuid>()
                    .map_err(|_| Error::BadRequest(format!("{s:?} is no submission id")))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(CompetitionRequest {
            name: self.name.clone(),
            game: self.game.clone(),
            rules: self.rules.clone(),
            submissions: Some(submissions),
            rounds: number(&self.rounds, "the number of rounds")?.unwrap_or(1),
            base_seed: number(&self.base_seed, "the base seed")?,
            move_time_ms: number(&self.move_time_ms, "the time per move")?,
            games_per_match: number(&self.games_per_match, "the games per match")?,
            format: match self.format.trim() {
                "" => None,
                f => Some(
                    serde_json::from_value(serde_json::Value::String(f.to_owned())).map_err(
                        |_| Error::BadRequest(format!("{f:?} is not a competition format")),
                    )?,
                ),
            },
            settings: match self.settings.trim() {
                "" => None,
                text => Some(serde_json::from_str(text).map_err(|e| {
                    Error::BadRequest(format!("the rule settings are not JSON: {e}"))
                })?),
            },
            // The form keeps the workers' seat limits; the API may set them.
            seat_memory_mib: None,
            seat_disk_mib: None,
            seat_cpu_millicores: None,
        })
    }
}

#[derive(Deserialize)]
struct GameQuery {
    #[serde(default)]
    game: Option<String>,
}

async fn page(
    state: &AppState,
    ctx: Ctx,
    game: GameId,
    form: NewForm,
    error: Option<String>,
) -> Result<NewPage> {
    let candidates = competitions::candidates(&state.pool, game.as_str()).await?;
    let fresh = form.csrf.is_empty() && error.is_none();
    let choices = candidates
        .into_iter()
        .map(|c| Choice {
            checked: if fresh {
                c.latest
            } else {
                form.submissions.contains(&c.submission_id.to_string())
            },
            c,
        })
        .collect();
    Ok(NewPage {
        ctx,
        games: games(),
        game,
        rule_sets: game
            .rule_sets()
            .iter()
            .enumerate()
            .map(|(i, r)| (*r, *r == form.rules || (i == 0 && form.rules.is_empty())))
            .collect(),
        formats: croupier_league::Scheme::of(game)
            .formats
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let f = f.as_str();
                (f, f == form.format || (i == 0 && form.format.is_empty()))
            })
            .collect(),
        choices,
        form,
        error,
        max_rounds: MAX_ROUNDS,
    })
}

async fn form(
    State(state): State<AppState>,
    AdminUser(_): AdminUser,
    ctx: Ctx,
    PageQuery(query): PageQuery<GameQuery>,
) -> Result<Response> {
    let game = match query.game.as_deref() {
        None | Some("") => GameId::all().first().copied().unwrap_or(GameId::NO_THANKS),
        Some(g) => competition::parse_game(g)?,
    };
    let form = NewForm {
        game: game.as_str().to_owned(),
        rounds: "1".to_owned(),
        ..NewForm::default()
    };
    Ok(render(&page(&state, ctx, game, form, None).await?))
}

async fn submit(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ctx: Ctx,
    CsrfForm(form): CsrfForm<NewForm>,
) -> Result<Response> {
    let result = async {
        let request = form.request()?;
        competition::create(&state, admin.user_id, &request).await
    }
    .await;
    match result {
        Ok(created) => {
            ctx.flash(format!(
                "Competition created: {} entries, {} matches queued.",
                created.entrants, created.matches
            ))
            .await?;
            Ok(Redirect::to(&format!("/competitions/{}", created.competition_id)).into_response())
        }
        Err(e @ (Error::BadRequest(_) | Error::Conflict(_))) => {
            let status = e.status();
            let game = competition::parse_game(&form.game).unwrap_or(GameId::NO_THANKS);
            let page = page(&state, ctx, game, form, Some(e.to_string())).await?;
            Ok((status, render(&page)).into_response())
        }
        Err(e) => Err(e),
    }
}

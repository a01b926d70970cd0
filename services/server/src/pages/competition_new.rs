//! The admin's "new competition" form. The game is chosen first: its select is part of the form,
//! and "Choose game" posts the form back (`action=choose`) to show that game's rule sets and
//! entries (each team's latest ready submission is ticked) with the other fields kept; `?game=`
//! opens the form on a game. Then the rule set, the entries, rounds, seed and time per move.
//! The form also carries the game its rule sets and entries were shown for (`shown_game`): a
//! form whose game was changed without "Choose game" is never built as the old game, nor as the
//! new one with the old game's entries; it is shown again for the selected game, with a message.
//! A refused form is shown again with the message and the admin's choices, and nothing is
//! stored.

use std::fmt::Display;

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use croupier_games::GameId;
use croupier_league::LadderBudget;
use croupier_store::competitions::{self, Candidate};
use croupier_store::CompetitionKind;
use serde::Deserialize;
use uuid::Uuid;

use super::competition_counts::Counts;
use crate::auth::csrf::CsrfForm;
use crate::auth::AdminUser;
use crate::competition::{self, CompetitionRequest, MAX_ROUNDS};
use crate::error::{Error, Result};
use crate::extract::PageQuery;
use crate::i18n;
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
    /// What each format plays for the ticked field (`crate::pages::competition_counts`).
    counts: Counts,
}

impl NewPage {
    /// "`n` matches (`rounds` rounds)." (numbers, or the script's placeholders).
    fn swiss_count(&self, n: impl Display, rounds: impl Display) -> String {
        let args: [(&str, &dyn Display); 2] = [("n", &n), ("rounds", &rounds)];
        self.ctx.lang.t_with("new-count-swiss", &args)
    }
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
    /// `choose`: the "Choose game" button (show the selected game's form, create nothing).
    action: String,
    name: String,
    game: String,
    /// The game whose rule sets and entries the posted form showed.
    shown_game: String,
    rules: String,
    rounds: String,
    base_seed: String,
    move_time_ms: String,
    games_per_match: String,
    format: String,
    settings: String,
    submissions: Vec<String>,
    /// `round_robin` (or empty) or `ladder`.
    kind: String,
    matches_per_hour: String,
    /// Swiss: rounds (empty: chosen from the field size).
    swiss_rounds: String,
    /// Adaptive: the match budget and the top k to decide (empty: the whole order).
    budget: String,
    decide_top: String,
    /// Swiss and adaptive: a final round-robin of the top n (empty: none).
    final_top: String,
}

has_csrf!(NewForm);

impl From<Vec<(String, String)>> for NewForm {
    fn from(pairs: Vec<(String, String)>) -> Self {
        let mut form = NewForm::default();
        for (key, value) in pairs {
            match key.as_str() {
                "csrf" => form.csrf = value,
                "action" => form.action = value,
                "name" => form.name = value,
                "game" => form.game = value,
                "shown_game" => form.shown_game = value,
                "rules" => form.rules = value,
                "rounds" => form.rounds = value,
                "base_seed" => form.base_seed = value,
                "move_time_ms" => form.move_time_ms = value,
                "games_per_match" => form.games_per_match = value,
                "format" => form.format = value,
                "settings" => form.settings = value,
                "submission" => form.submissions.push(value),
                "kind" => form.kind = value,
                "matches_per_hour" => form.matches_per_hour = value,
                "swiss_rounds" => form.swiss_rounds = value,
                "budget" => form.budget = value,
                "decide_top" => form.decide_top = value,
                "final_top" => form.final_top = value,
                _ => {}
            }
        }
        form
    }
}

impl NewForm {
    /// The form for another game: the fields every game has are kept, the game's own (rule
    /// set, format, rule settings, entries) start afresh.
    fn for_game(self, game: GameId) -> NewForm {
        NewForm {
            game: game.as_str().to_owned(),
            name: self.name,
            rounds: self.rounds,
            base_seed: self.base_seed,
            move_time_ms: self.move_time_ms,
            games_per_match: self.games_per_match,
            kind: self.kind,
            matches_per_hour: self.matches_per_hour,
            swiss_rounds: self.swiss_rounds,
            budget: self.budget,
            decide_top: self.decide_top,
            final_top: self.final_top,
            ..NewForm::default()
        }
    }

    fn request(&self) -> Result<CompetitionRequest> {
        fn number<T: std::str::FromStr>(value: &str, what: &str) -> Result<Option<T>> {
            match value.trim() {
                "" => Ok(None),
                v => v.parse().map(Some).map_err(|_| {
                    let value = format!("{v:?}");
                    let args: [(&str, &dyn Display); 2] = [("what", &what), ("value", &value)];
                    Error::BadRequest(i18n::t_with("new-not-number", &args))
                }),
            }
        }
        let submissions = self
            .submissions
            .iter()
            .map(|s| {
                s.parse::<Uuid>().map_err(|_| {
                    Error::BadRequest(i18n::t_with("new-bad-submission-id", &[("id", &Quoted(s))]))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let kind = match self.kind.trim() {
            "" | "round_robin" => CompetitionKind::RoundRobin,
            "ladder" => CompetitionKind::Ladder,
            "swiss" => CompetitionKind::Swiss,
            "adaptive" => CompetitionKind::Adaptive,
            other => {
                let args: [(&str, &dyn Display); 1] = [("kind", &Quoted(other))];
                return Err(Error::BadRequest(i18n::t_with("new-bad-kind", &args)));
            }
        };
        let ladder = number(
            &self.matches_per_hour,
            &i18n::t("new-what-matches-per-hour"),
        )?
        .map(|matches_per_hour| LadderBudget {
            matches_per_hour,
            ..LadderBudget::default()
        });
        Ok(CompetitionRequest {
            kind,
            ladder,
            name: self.name.clone(),
            game: self.game.clone(),
            rules: self.rules.clone(),
            submissions: Some(submissions),
            rounds: number(&self.rounds, &i18n::t("new-what-rounds"))?.unwrap_or(1),
            base_seed: number(&self.base_seed, &i18n::t("new-what-base-seed"))?,
            move_time_ms: number(&self.move_time_ms, &i18n::t("new-what-move-time"))?,
            games_per_match: number(&self.games_per_match, &i18n::t("new-what-games-per-match"))?,
            format: match self.format.trim() {
                "" => None,
                f => Some(
                    serde_json::from_value(serde_json::Value::String(f.to_owned()))
                        .map_err(|_| bad_format(f))?,
                ),
            },
            settings: match self.settings.trim() {
                "" => None,
                text => Some(serde_json::from_str(text).map_err(|e| {
                    Error::BadRequest(i18n::t_with("new-settings-not-json", &[("error", &e)]))
                })?),
            },
            // The form keeps the workers' seat limits; the API may set them.
            seat_memory_mib: None,
            seat_disk_mib: None,
            seat_cpu_millicores: None,
            swiss_rounds: number(&self.swiss_rounds, &i18n::t("new-what-swiss-rounds"))?,
            budget: number(&self.budget, &i18n::t("new-what-budget"))?,
            decide_top: number(&self.decide_top, &i18n::t("new-what-decide-top"))?,
            final_top: number(&self.final_top, &i18n::t("new-what-final-top"))?,
        })
    }
}

/// The refusal of a format the game does not have.
fn bad_format(format: &str) -> Error {
    let args: [(&str, &dyn Display); 1] = [("format", &Quoted(format))];
    Error::BadRequest(i18n::t_with("new-bad-format", &args))
}

/// A value the admin typed, shown in quotes (`"abc"`).
struct Quoted<'a>(&'a str);

impl Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
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
    // A form not posted yet (or just switched to this game) ticks each team's latest bot.
    let fresh = form.csrf.is_empty();
    let choices: Vec<Choice> = candidates
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
    let format = croupier_league::Scheme::of(game)
        .formats
        .iter()
        .copied()
        .find(|f| f.as_str() == form.format)
        .unwrap_or_else(|| croupier_league::Scheme::of(game).default_format());
    let ticked = choices.iter().filter(|c| c.checked).count();
    let rounds = form.rounds.trim().parse().unwrap_or(1);
    let counts = Counts::new(format, choices.len(), ticked, rounds);
    Ok(NewPage {
        counts,
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
    // A client that does not say which game its form showed (a script) gets the game it posts.
    let shown = form.shown_game.trim();
    let switched = !shown.is_empty() && shown != form.game.trim();
    if form.action == "choose" || switched {
        let Ok(game) = competition::parse_game(&form.game) else {
            let game = competition::parse_game(&form.shown_game).unwrap_or(GameId::NO_THANKS);
            let error = ctx.t1("new-unknown-game", "game", &format!("{:?}", form.game));
            let page = page(&state, ctx, game, form, Some(error)).await?;
            return Ok((StatusCode::BAD_REQUEST, render(&page)).into_response());
        };
        if !switched {
            // "Choose game" on the game already shown: the form as it was, nothing lost, nothing
            // created (Enter in a field presses the form's hidden first button, "create").
            return Ok(render(&page(&state, ctx, game, form, None).await?));
        }
        let choose = form.action == "choose";
        let form = form.for_game(game);
        if choose {
            return Ok(render(&page(&state, ctx, game, form, None).await?));
        }
        let error = ctx.t1("new-game-changed", "game", &game.display_name());
        let page = page(&state, ctx, game, form, Some(error)).await?;
        return Ok((StatusCode::CONFLICT, render(&page)).into_response());
    }
    let result = async {
        let request = form.request()?;
        competition::create(&state, admin.user_id, &request).await
    }
    .await;
    match result {
        Ok(created) => {
            let (entries, matches) = (&created.entrants, &created.matches);
            let said = ctx.t2("new-created", ("entries", entries), ("matches", matches));
            ctx.flash(said).await?;
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

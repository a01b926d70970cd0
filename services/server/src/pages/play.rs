//! A person's seat at a table (docs/competitions.md#playing-yourself): `GET /matches/{id}/play`
//! shows what the seat sees — the game's board from the replay viewer, what happened since
//! the seat's last move, the clock — and the engine's legal moves as buttons; choosing one
//! posts it (`POST /matches/{id}/play`, the worker playing the match picks it up).
//! `…/play.json` is the same state for the page's script, with the turn part's HTML read in
//! the same request (so the part, the match's status and the board always agree); the script
//! swaps the part in when its key changes. Without JavaScript the page refreshes itself.
//!
//! Only the person sitting there (404 for anyone else, admins included: a seat's view is
//! hidden information until the match is over). A move counts only for the turn it names,
//! once, before the deadline, and only if it is on the list.

use askama::Template;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use croupier_store::humans::{self, PersonSeat, Refused, Turn};
use croupier_store::matches;
use croupier_store::users::User;
use croupier_store::MatchStatus;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::labels;
// A word of the script (`labels::script_word`), named `t` as every key is.
use super::labels::script_word as t;
use super::timeline::{action_text, event_words, with_names};
use crate::auth::csrf::CsrfForm;
use crate::auth::CurrentUser;
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::i18n;
use crate::templates::{game_name, render, Ctx};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/matches/{match_id}/play", get(show).post(choose))
        .route("/matches/{match_id}/play.json", get(state_json))
        .route("/matches/{match_id}/resign", post(resign))
}

/// The seat's state, for the page and its script.
#[derive(Debug, Serialize)]
struct Table {
    match_id: Uuid,
    game: String,
    status: MatchStatus,
    seat: i32,
    /// The players' names in seat order.
    players: Vec<String>,
    /// The turn being asked, or the last one (then `answered` or past its deadline).
    turn: Option<TurnView>,
    /// Once the match is over: each seat's place and score.
    results: Vec<ResultRow>,
}

/// A seat's result at the end of the match.
#[derive(Debug, Serialize)]
struct ResultRow {
    name: String,
    /// `1st`, or empty where a match's ranks decide nothing by themselves.
    place: String,
    score: String,
    me: bool,
}

#[derive(Debug, Serialize)]
struct TurnView {
    turn: i32,
    /// 0-based game of the match.
    game: i32,
    observation: Value,
    moves: Vec<Move>,
    /// What happened since the seat's previous move, in words.
    recent: Vec<String>,
    /// Seconds left to choose (0 when out of time).
    seconds_left: i64,
    /// This turn's move is chosen: waiting for the others.
    answered: bool,
    /// The person resigned: the first legal move is played for them at every turn.
    resigned: bool,
}

#[derive(Debug, Serialize)]
struct Move {
    index: usize,
    label: String,
    /// The engine's action, for the page's board to match clicks against.
    action: Value,
}

impl Table {
    fn over(&self) -> bool {
        matches!(
            self.status,
            MatchStatus::Finished | MatchStatus::Failed | MatchStatus::Cancelled
        )
    }

    /// The turn the person may answer now.
    fn asking(&self) -> Option<&TurnView> {
        self.turn
            .as_ref()
            .filter(|t| !self.over() && !t.answered && t.seconds_left > 0)
    }

    /// A key the script compares to know the page is out of date.
    fn key(&self) -> String {
        let turn = self.turn.as_ref();
        format!(
            "{}/{}/{}",
            self.status.as_str(),
            turn.map_or(0, |t| t.turn),
            turn.is_some_and(|t| t.answered || t.seconds_left == 0)
        )
    }

    /// The person's own result in words (`You placed 1st with a score of 12.`).
    fn my_result(&self) -> Option<String> {
        let mine = self.results.iter().find(|r| r.me)?;
        let names = [("place", mine.place.as_str()), ("score", &mine.score)];
        Some(match mine.place.is_empty() {
            true => labels::tk("play-your-score", &[], &names),
            false => labels::tk("play-you-placed", &[], &names),
        })
    }

    /// Whether the person resigned their seat.
    fn resigned(&self) -> bool {
        self.turn.as_ref().is_some_and(|t| t.resigned)
    }

    fn seat_label(&self) -> String {
        labels::seat(&self.game, &self.seat.max(0))
    }

    /// The players, each with whether it is the person's seat.
    fn seated(&self) -> Vec<(String, bool)> {
        (0..)
            .zip(&self.players)
            .map(|(i, p)| (p.clone(), i == self.seat))
            .collect()
    }

    fn observation_json(&self) -> String {
        self.turn.as_ref().map_or_else(String::new, |t| {
            serde_json::to_string_pretty(&t.observation).unwrap_or_default()
        })
    }
}

/// Loads the table of `user`'s seat in the match (404 when they have none).
async fn load(state: &AppState, user: &User, match_id: Uuid) -> Result<Table> {
    let PersonSeat {
        seat, game, status, ..
    } = humans::seat_of(&state.pool, match_id, user.user_id)
        .await?
        .ok_or(Error::NotFound)?;
    let seats = matches::seats_with_results(&state.pool, match_id).await?;
    let players = distinct(
        seats
            .iter()
            .map(|s| labels::seat_name(&s.team_name, &s.version, &s.builtin, &s.person))
            .collect(),
    );
    let turn = humans::current(&state.pool, match_id, seat).await?;
    let turn = turn.map(|t| view(&game, t, &players));
    let over = matches!(status, MatchStatus::Finished);
    let ranks: Vec<Option<i32>> = seats.iter().map(|s| s.rank).collect();
    let places = labels::places(&game, &ranks);
    let results = match over && seats.iter().any(|s| s.score.is_some()) {
        true => (seats.iter().zip(&players).zip(places))
            .map(|((s, name), place)| ResultRow {
                name: name.clone(),
                place: place.as_ref().map(labels::place).unwrap_or_default(),
                score: s.score.as_ref().map(labels::score).unwrap_or_default(),
                me: s.seat == seat,
            })
            .collect(),
        false => Vec::new(),
    };
    Ok(Table {
        match_id,
        game,
        status,
        seat,
        players,
        turn,
        results,
    })
}

fn view(game: &str, t: Turn, players: &[String]) -> TurnView {
    let left = (t.deadline - time::OffsetDateTime::now_utc()).whole_seconds();
    let moves = t
        .legal
        .as_array()
        .map(|legal| {
            (legal.iter().enumerate())
                .map(|(index, action)| Move {
                    index,
                    label: with_names(&action_label(game, action), players),
                    action: action.clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    let recent = t
        .recent
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .flat_map(|e| recent_lines(game, e, players))
                .collect()
        })
        .unwrap_or_default();
    TurnView {
        turn: t.turn,
        game: t.game,
        observation: t.observation,
        moves,
        recent,
        seconds_left: left.max(0),
        answered: t.answer.is_some(),
        resigned: t.resigned,
    }
}

/// A legal action in words: a string as it is; an object as its kind (`type`, `action_type`,
/// `action`, `kind`) then its other fields (`take different · colors white, blue`); a list of
/// plain values comma-separated; anything else as compact JSON.
fn move_label(action: &Value) -> String {
    const KINDS: [&str; 4] = ["type", "action_type", "action", "kind"];
    let words = |s: &str| s.replace('_', " ");
    let plain = |v: &Value| match v {
        Value::String(s) => words(s),
        Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_owned))
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    };
    match action {
        Value::Object(fields) => {
            let kind = KINDS.iter().find_map(|k| fields.get(*k)).map(plain);
            let rest = fields
                .iter()
                .filter(|(k, _)| !KINDS.contains(&k.as_str()))
                .map(|(k, v)| format!("{} {}", words(k), plain(v)));
            kind.into_iter().chain(rest).collect::<Vec<_>>().join(" · ")
        }
        other => plain(other),
    }
}

/// The players' names, a repeated one told apart by its seat (`Owls v1 · seat 2`).
fn distinct(names: Vec<String>) -> Vec<String> {
    let repeated = |n: &String| names.iter().filter(|m| *m == n).count() > 1;
    (0..)
        .zip(&names)
        .map(|(i, n)| match repeated(n) {
            true => labels::tk("play-distinct", &[("seat", &i)], &[("name", n)]),
            false => n.clone(),
        })
        .collect()
}

/// A move of `game` in words: the game's own wording, or its JSON's.
fn action_label(game: &str, action: &Value) -> String {
    action_text(game, action).unwrap_or_else(|| move_label(action))
}

/// One recorded entry (a `FrameEntry`) in words in the page's language (from the events'
/// machine form where the entry has it), with the players' names.
fn recent_lines(game: &str, entry: &Value, players: &[String]) -> Vec<String> {
    let seat = entry["seat"].as_u64().unwrap_or(0);
    let who = usize::try_from(seat)
        .ok()
        .and_then(|s| players.get(s))
        .cloned()
        .unwrap_or_else(|| i18n::t_with("timeline-seat", &[("seat", &seat)]));
    let lines = |key: &str, words: &dyn Fn(&Value) -> Option<String>| -> Vec<String> {
        entry[key]
            .as_array()
            .map(|e| e.iter().filter_map(words).collect())
            .unwrap_or_default()
    };
    let texts = lines("events", &|e| e.as_str().map(str::to_owned));
    let said = lines("event_data", &|e| event_words(game, e));
    let events = if said.len() == texts.len() {
        said
    } else {
        texts
    };
    let action = || action_label(game, &entry["action"]);
    let note = entry["note"].as_str().unwrap_or("");
    let action = action();
    let names = [("who", who.as_str()), ("action", &action), ("note", note)];
    let lines = match entry["kind"].as_str() {
        Some("move") if !events.is_empty() => events,
        Some("move") if entry["forced"].as_bool() == Some(true) => {
            vec![labels::tk("play-by-referee", &[], &names)]
        }
        Some("move") => vec![labels::tk("play-moved", &[], &names)],
        Some("refused") => vec![labels::tk("play-tried", &[], &names)],
        _ => vec![labels::tk("play-note", &[], &names)],
    };
    lines.iter().map(|l| with_names(l, players)).collect()
}

/// The words `web/static/play.js` shows (each key with its arguments), given to it in the
/// page's language.
/// (`play.js` and the board controls of `play/*.js`.)
pub const PLAY_WORDS: &[(&str, &[&str])] = &[
    t("play-seconds-left", &["n"]),
    t("play-not-taken", &[]),
    t("play-turn-announce", &["n"]),
    t("play-not-sent", &[]),
    t("play-your-move", &[]),
    t("play-not-now", &[]),
    t("play-which", &[]),
    t("play-cancel", &[]),
    t("play-send", &[]),
    t("play-undo", &[]),
    t("play-selected", &[]),
    t("play-nt-take", &["card", "n"]),
    t("play-nt-pass", &[]),
    t("play-nt-choices", &[]),
    t("play-nt-cannot-take", &[]),
    t("play-nt-cannot-pass", &[]),
    t("play-nt-no-coins", &[]),
    t("play-sp-cannot-afford", &[]),
    t("play-sp-cannot-afford-full", &[]),
    t("play-sp-reserve-full", &[]),
    t("play-sp-deck-empty", &[]),
    t("play-sp-take", &[]),
    t("play-sp-clear", &[]),
    t("play-sp-no-take", &[]),
    t("play-sp-take-rule", &[]),
    t("play-sp-gems-chosen", &["gems"]),
    t("play-sp-gems-how", &[]),
    t("play-sp-gold", &[]),
    t("play-sp-gem-none", &[]),
    t("play-gd-give", &[]),
    t("play-gd-play", &[]),
    t("play-gd-cannot-play", &[]),
    t("play-gd-select-first", &[]),
    t("play-gd-not-a-play", &[]),
    t("play-gd-clear", &[]),
    t("play-gd-pass", &[]),
    t("play-gd-must-play", &[]),
    t("play-gd-card-no-fit", &[]),
    t("play-gd-card-unused", &[]),
    t("play-gd-cannot-give", &[]),
    t("play-gd-selected", &["cards"]),
    t("play-gd-meanings", &["n"]),
    t("play-gd-how", &[]),
    t("play-gd-how-give", &[]),
    t("play-br-bidding-box", &[]),
    t("play-br-too-low", &[]),
    t("play-br-no-doubles", &[]),
    t("play-br-follow", &["suit"]),
    t("play-br-cannot-play", &[]),
    t("play-br-play-how", &[]),
    t("play-br-play-dummy", &[]),
    t("play-hb-cannot-own", &[]),
    t("play-hb-no-tokens", &[]),
    t("play-hb-cannot-hint", &[]),
    t("play-hb-how", &[]),
    t("viewer-bridge-pass", &[]),
    t("viewer-splendor-white", &[]),
    t("viewer-splendor-blue", &[]),
    t("viewer-splendor-green", &[]),
    t("viewer-splendor-red", &[]),
    t("viewer-splendor-black", &[]),
];

/// The play script's words in `lang`, as the script element the page includes.
pub fn words_script(lang: &i18n::Lang) -> String {
    i18n::script_words(*lang, PLAY_WORDS)
}

#[derive(Template)]
#[template(path = "play.html")]
struct PlayPage {
    ctx: Ctx,
    game_name: String,
    table: Table,
}

#[derive(Template)]
#[template(path = "play_turn.html")]
struct TurnFragment {
    ctx: Ctx,
    table: Table,
}

async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(match_id): PagePath<Uuid>,
) -> Result<Response> {
    let table = load(&state, &user, match_id).await?;
    let ctx = ctx.with_csrf().await?;
    Ok(render(&PlayPage {
        ctx,
        game_name: game_name(&table.game),
        table,
    }))
}

/// The seat's state with, read in the same request, its turn part (`html`) and the match's
/// status in words (`status_label`): the script shows them together, so the part it shows,
/// the status it reports and the board it draws are always of one moment.
async fn state_json(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(match_id): PagePath<Uuid>,
) -> Result<Response> {
    let table = load(&state, &user, match_id).await?;
    let ctx = ctx.keep_flash().await?.with_csrf().await?;
    let mut body = serde_json::to_value(&table).map_err(Error::internal)?;
    body["key"] = Value::from(table.key());
    body["status_label"] = Value::from(labels::status(table.status.as_str()));
    let fragment = TurnFragment { ctx, table };
    body["html"] = Value::from(fragment.render().map_err(Error::internal)?);
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(body)).into_response())
}

#[derive(Deserialize)]
struct ChooseForm {
    #[serde(default)]
    csrf: String,
    turn: i32,
    #[serde(rename = "move")]
    choice: i32,
}
crate::has_csrf!(ChooseForm);

async fn choose(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    headers: HeaderMap,
    PagePath(match_id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<ChooseForm>,
) -> Result<Response> {
    let seat = humans::seat_of(&state.pool, match_id, user.user_id)
        .await?
        .ok_or(Error::NotFound)?;
    let taken = humans::answer(&state.pool, match_id, seat.seat, form.turn, form.choice).await?;
    let refusal = taken.err().map(|r| match r {
        Refused::NotAsked => i18n::t("play-refused-not-asked"),
        Refused::TooLate => i18n::t("play-refused-too-late"),
        Refused::NoSuchMove => i18n::t("play-refused-no-such-move"),
    });
    let wants_json = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    if wants_json {
        return Ok(match refusal {
            None => StatusCode::NO_CONTENT.into_response(),
            Some(message) => (
                StatusCode::CONFLICT,
                Json(serde_json::json!({ "error": message })),
            )
                .into_response(),
        });
    }
    if let Some(message) = refusal {
        ctx.flash(message).await?;
    }
    Ok(Redirect::to(&format!("/matches/{match_id}/play")).into_response())
}

#[derive(Deserialize)]
struct ResignForm {
    #[serde(default)]
    csrf: String,
    /// The "yes, I resign" box: a resignation cannot be taken back.
    #[serde(default)]
    sure: Option<String>,
}
crate::has_csrf!(ResignForm);

/// The person resigns their seat (only once asked a turn, only while the match runs): from
/// then on the first legal move is played for them at once, and the match plays on to its end.
async fn resign(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ctx: Ctx,
    PagePath(match_id): PagePath<Uuid>,
    CsrfForm(form): CsrfForm<ResignForm>,
) -> Result<Response> {
    let seat = humans::seat_of(&state.pool, match_id, user.user_id)
        .await?
        .ok_or(Error::NotFound)?;
    let running = matches!(seat.status, MatchStatus::Running);
    let message = match form.sure.is_some() {
        false => Some(i18n::t("play-resign-not-sure")),
        true if !running => Some(i18n::t("play-resign-not-running")),
        true => match humans::resign(&state.pool, match_id, seat.seat).await? {
            true => None,
            false => Some(i18n::t("play-resign-not-running")),
        },
    };
    if let Some(message) = message {
        ctx.flash(message).await?;
    }
    Ok(Redirect::to(&format!("/matches/{match_id}/play")).into_response())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_move_reads_as_its_kind_then_its_fields() {
        assert_eq!(move_label(&json!("pass")), "pass");
        assert_eq!(
            move_label(&json!({"type": "hint", "target": 1, "color": "R"})),
            "hint · color R · target 1"
        );
        assert_eq!(move_label(&json!({"action_type": "take"})), "take");
        assert_eq!(
            move_label(&json!({"type": "take_different", "colors": ["white", "blue"]})),
            "take different · colors white, blue"
        );
        assert_eq!(move_label(&json!(["3H", "3S"])), "3H, 3S");
        assert_eq!(move_label(&json!([{"a": 1}])), r#"[{"a":1}]"#);
    }

    #[test]
    fn repeated_player_names_are_told_apart_by_seat() {
        let names = ["ada (a person)", "Owls v1", "Owls v1"].map(str::to_owned);
        assert_eq!(
            distinct(names.to_vec()),
            ["ada (a person)", "Owls v1 · seat 1", "Owls v1 · seat 2"]
        );
    }

    #[test]
    fn recent_entries_name_the_players() {
        let players = vec!["ada".to_owned(), "owls v2".to_owned()];
        let moved = json!({"n": 3, "seat": 1, "kind": "move", "action": "pass",
                           "events": ["seat 1 passes"], "forced": false});
        assert_eq!(
            recent_lines("nothanks", &moved, &players),
            ["owls v2 passes"]
        );
        let quiet = json!({"n": 4, "seat": 1, "kind": "move", "action": {"action": "play", "card": 2},
                           "events": [], "forced": false});
        assert_eq!(
            recent_lines("hanabi", &quiet, &players),
            ["owls v2: play your card 3"]
        );
        let fault =
            json!({"n": 5, "seat": 0, "kind": "fault", "note": "no move chosen within 90 s"});
        assert_eq!(
            recent_lines("nothanks", &fault, &players),
            ["ada: no move chosen within 90 s"]
        );
    }
}

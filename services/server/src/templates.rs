//! askama page types. Every page carries a [`Ctx`] (who is logged in, the CSRF token for the
//! forms, a one-time flash message) that `base.html` uses for the navigation bar.

use askama::Template;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use croupier_store::submissions::{Submission, SubmissionFile};
use croupier_store::teams::{Member, Membership, Team, TeamSummary};
use croupier_store::tokens::ApiToken;
use croupier_store::users::User;
use croupier_store::{Language, TeamRole};
use tower_sessions::Session;

use crate::auth::{csrf, MaybeUser, FLASH_KEY};
use crate::error::Error;
pub use crate::html::render;
pub use crate::i18n::Lang;
use crate::AppState;

/// Per-request page context.
pub struct Ctx {
    pub user: Option<User>,
    pub csrf: String,
    pub flash: Option<String>,
    pub session: Session,
    /// The page's language ([`crate::i18n`]).
    pub lang: Lang,
    /// The address of this page (path and query), for the footer's language links.
    pub here: String,
}

impl Ctx {
    /// Leaves a message for the next page this browser shows.
    pub async fn flash(&self, message: impl Into<String>) -> Result<(), Error> {
        self.session.insert(FLASH_KEY, message.into()).await?;
        Ok(())
    }

    /// For a part of a page a script fetches: a pending flash message is left for the next
    /// whole page (taking the context took it).
    pub async fn keep_flash(mut self) -> Result<Self, Error> {
        if let Some(message) = self.flash.take() {
            self.flash(message).await?;
        }
        Ok(self)
    }

    /// Makes sure the page's forms carry a CSRF token (creating the session if needed).
    pub async fn with_csrf(mut self) -> Result<Self, Error> {
        if self.csrf.is_empty() {
            self.csrf = csrf::token(&self.session).await?;
        }
        Ok(self)
    }

    /// The page text for `key` in the page's language.
    pub fn t(&self, key: &str) -> String {
        self.lang.t(key)
    }

    /// The page text for `key` with one argument.
    pub fn t1(&self, key: &str, name: &str, value: &dyn std::fmt::Display) -> String {
        self.lang.t_with(key, &[(name, value)])
    }

    /// The page text for `key` with two arguments.
    pub fn t2(
        &self,
        key: &str,
        (n1, v1): (&str, &dyn std::fmt::Display),
        (n2, v2): (&str, &dyn std::fmt::Display),
    ) -> String {
        self.lang.t_with(key, &[(n1, v1), (n2, v2)])
    }

    /// Whether the page is in `lang`.
    pub fn is_lang(&self, lang: &Lang) -> bool {
        self.lang == *lang
    }

    /// The footer's link that shows this page in `lang`.
    pub fn switch_to(&self, lang: &Lang) -> String {
        let next: String = url_escape(&self.here);
        format!("/lang/{}?next={next}", lang.tag())
    }

    pub fn is_admin(&self) -> bool {
        self.user.as_ref().is_some_and(|u| u.is_admin)
    }
}

impl FromRequestParts<AppState> for Ctx {
    type Rejection = Error;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let MaybeUser(user) = MaybeUser::from_request_parts(parts, state).await?;
        let session = Session::from_request_parts(parts, state)
            .await
            .map_err(|(_, m)| Error::internal(m))?;
        // Logged-in pages carry forms (log out at least); anonymous visitors get a token only
        // on the pages that have a form (`with_csrf`), so crawlers do not create sessions.
        let csrf = if user.is_some() {
            csrf::token(&session).await?
        } else {
            session
                .get::<String>(crate::auth::CSRF_KEY)
                .await?
                .unwrap_or_default()
        };
        let flash = session.remove::<String>(FLASH_KEY).await?;
        let here = parts
            .uri
            .path_and_query()
            .map_or_else(|| "/".to_owned(), |p| p.as_str().to_owned());
        Ok(Ctx {
            user,
            csrf,
            flash,
            session,
            lang: crate::i18n::current(),
            here,
        })
    }
}

/// A game as the pages show it, in the request's language.
pub struct GameView {
    pub id: &'static str,
    pub name: String,
    pub protocol: String,
    pub seats: usize,
}

pub fn games() -> Vec<GameView> {
    let lang = crate::i18n::current();
    croupier_games::GameId::all()
        .iter()
        .map(|&g| GameView {
            id: g.as_str(),
            name: game_name_in(g, lang),
            protocol: protocol_in(g, lang),
            seats: g.default_seats(),
        })
        .collect()
}

/// A game's name (from its id as stored) in the request's language.
pub fn game_name(id: &str) -> String {
    id.parse::<croupier_games::GameId>().map_or_else(
        |_| id.to_owned(),
        |g| game_name_in(g, crate::i18n::current()),
    )
}

/// A game's name in `lang`: the name its players know (花火, 掼蛋 …), the registry's in English.
pub fn game_name_in(game: croupier_games::GameId, lang: Lang) -> String {
    let key = format!("game-name-{}", game.as_str());
    if lang.has(&key) {
        lang.t(&key)
    } else {
        game.display_name().to_owned()
    }
}

/// The registry's one line on how the game's bots connect, in `lang`.
pub fn protocol_in(game: croupier_games::GameId, lang: Lang) -> String {
    let key = format!("game-protocol-{}", game.as_str());
    if lang.has(&key) {
        lang.t(&key)
    } else {
        game.protocol_summary().to_owned()
    }
}

/// A worker's state from its row: stopped, alive (heard within three heartbeats), or silent.
pub fn worker_state(w: &croupier_store::workers::FleetRow) -> String {
    if w.stopped_at.is_some() {
        return "stopped".into();
    }
    if w.silent_secs <= 45.0 {
        return "alive".into();
    }
    let s = w.silent_secs;
    let (n, unit) = if s < 120.0 {
        (s, "s")
    } else if s < 7200.0 {
        (s / 60.0, "min")
    } else {
        (s / 3600.0, "h")
    };
    format!("silent for {n:.0} {unit}")
}

/// `2026-11-21 06:07 UTC`.
pub fn when(t: &time::OffsetDateTime) -> String {
    let t = t.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} UTC",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute()
    )
}

pub fn bytes(n: &i64) -> String {
    crate::error::human_bytes(u64::try_from(*n).unwrap_or(0))
}

#[derive(Template)]
#[template(path = "home.html")]
pub struct HomePage {
    pub ctx: Ctx,
    pub games: Vec<GameView>,
    pub teams: Vec<Membership>,
}

#[derive(Template)]
#[template(path = "signup.html")]
pub struct SignupPage {
    pub ctx: Ctx,
    pub error: Option<String>,
    pub username: String,
    pub email: String,
}

#[derive(Template)]
#[template(path = "login.html")]
pub struct LoginPage {
    pub ctx: Ctx,
    pub error: Option<String>,
    pub username: String,
}

#[derive(Template)]
#[template(path = "teams.html")]
pub struct TeamsPage {
    pub ctx: Ctx,
    pub teams: Vec<Membership>,
    pub error: Option<String>,
    pub name: String,
}

#[derive(Template)]
#[template(path = "team.html")]
pub struct TeamPage {
    pub ctx: Ctx,
    pub team: Team,
    /// `None`: an admin looking at a team they are not in.
    pub role: Option<TeamRole>,
    pub members: Vec<Member>,
    pub submissions: Vec<Submission>,
    pub tokens: Vec<ApiToken>,
    pub new_token: Option<String>,
    /// The team's latest challenges, A/B tests and tables (all of them at
    /// `/teams/{id}/challenges`), and whether there are more.
    pub(crate) challenge_lines: Vec<crate::pages::ChallengeLine>,
    pub challenge_more: bool,
    /// Competitions where one may start a challenge: (id, name, game's name).
    pub challenge_places: Vec<(uuid::Uuid, String, String)>,
}

/// A game's tables for the upload form: its rule sets (when it has several) and the player
/// counts of its default rule set (when they can be chosen).
pub struct TableChoice {
    pub game: &'static str,
    pub name: String,
    /// Empty when the game has one rule set.
    pub rule_sets: &'static [&'static str],
    /// `2–5`, or empty when the number of players is fixed.
    pub players: String,
}

/// Every game whose table an upload can choose, from the registry.
pub fn table_choices() -> Vec<TableChoice> {
    let lang = crate::i18n::current();
    croupier_games::GameId::all()
        .into_iter()
        .filter_map(|g| {
            let rule_sets = if g.rule_sets().len() > 1 {
                g.rule_sets()
            } else {
                &[]
            };
            let counts = g.player_choices(g.default_rules());
            let players = match (counts.first(), counts.last()) {
                (Some(least), Some(most)) => format!("{least}–{most}"),
                _ => String::new(),
            };
            (!rule_sets.is_empty() || !players.is_empty()).then(|| TableChoice {
                game: g.as_str(),
                name: game_name_in(g, lang),
                rule_sets,
                players,
            })
        })
        .collect()
}

#[derive(Template)]
#[template(path = "upload.html")]
pub struct UploadPage {
    pub ctx: Ctx,
    pub team: Team,
    pub games: Vec<GameView>,
    pub languages: [Language; 4],
    pub max_upload: String,
    pub max_files: usize,
    pub max_unpacked: String,
    /// What the form was sent with (kept when it is shown again after a refusal).
    pub chosen_game: String,
    pub chosen_language: String,
    pub label: String,
    pub entry: String,
    pub chosen_rules: String,
    pub players: String,
    /// The games whose table can be chosen (several rule sets, or a range of players).
    pub tables: Vec<TableChoice>,
    /// The field the error is about (`game`, `language`, `label`, `file`, `entry`, `rules`,
    /// `players`), or `form`.
    pub error_field: &'static str,
    pub error: Option<String>,
}

impl UploadPage {
    /// The error, if it is about the field `name`.
    pub fn error_at(&self, name: &str) -> Option<&str> {
        self.error.as_deref().filter(|_| self.error_field == name)
    }
}

#[derive(Template)]
#[template(path = "submission.html")]
pub struct SubmissionPage {
    pub ctx: Ctx,
    pub submission: Submission,
    pub files: Vec<SubmissionFile>,
    /// Its rating (or score) plot in each competition it has played in, newest first.
    pub history: Vec<crate::history::HistoryPlot>,
    /// Competitions it played in beyond the plotted [`crate::history::MAX_PLOTS`].
    pub history_omitted: usize,
    pub matches: SubmissionMatches,
}

/// A submission's matches as its page lists them ("my matches"): one page, newest first,
/// filtered by the submission's result.
pub struct SubmissionMatches {
    /// `all`, `wins`, `losses` or `faults`.
    pub result: &'static str,
    pub rows: Vec<SubmissionMatchRow>,
    pub total: i64,
    pub page: u32,
    pub pages: u32,
}

/// One match of a submission: where it sat, against whom, how it ended.
pub struct SubmissionMatchRow {
    pub match_id: uuid::Uuid,
    pub number: i32,
    pub competition: Option<(uuid::Uuid, String)>,
    pub status: croupier_store::MatchStatus,
    /// `N`, or the seat number.
    pub seat: String,
    pub opponents: Vec<String>,
    /// The place of the bot's side (`labels::places`).
    pub place: Option<i32>,
    pub score: Option<f64>,
    pub end_state: Option<croupier_store::EndState>,
}

#[derive(Template)]
#[template(path = "admin.html")]
pub struct AdminPage {
    pub ctx: Ctx,
    pub users: Vec<User>,
    pub teams: Vec<TeamSummary>,
    pub workers: Vec<croupier_store::workers::FleetRow>,
    /// A reset link just made, shown once.
    pub new_link: Option<crate::pages::NewResetLink>,
}

/// `s` percent-encoded for a query value (unreserved characters and `/` kept).
fn url_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(b as char);
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `text` as HTML, its backtick-quoted spans (`` `bot Board.txt` ``) as `<code>`: the game
/// registry's one-liners quote commands and names that way.
pub fn code_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in text.split('`').enumerate() {
        let escaped = escape_html(part);
        // Odd parts are inside backticks; an unpaired last backtick leaves its tail as text.
        if i % 2 == 1 && text.split('`').count() > i + 1 {
            out.push_str("<code>");
            out.push_str(&escaped);
            out.push_str("</code>");
        } else {
            if i % 2 == 1 {
                out.push('`');
            }
            out.push_str(&escaped);
        }
    }
    out
}

fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod code_span_tests {
    use super::code_spans;

    #[test]
    fn backtick_spans_become_code_and_the_rest_is_escaped() {
        assert_eq!(
            code_spans("one process per move: `bot Board.txt <x>`, appends"),
            "one process per move: <code>bot Board.txt &lt;x&gt;</code>, appends"
        );
        assert_eq!(
            code_spans("a Python `player` class"),
            "a Python <code>player</code> class"
        );
        assert_eq!(code_spans("no quotes & more"), "no quotes &amp; more");
        assert_eq!(code_spans("an unpaired ` tick"), "an unpaired ` tick");
    }
}

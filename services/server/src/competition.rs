//! Creating a competition, shared by the admin page and the admin API: check the request,
//! expand it into matches with `croupier_league::schedule`, and store the competition, its
//! entries and every match with its seats and job in one transaction (nothing on an error).
//!
//! The competition's `settings` keep what the schedule was made from (rounds, base seed,
//! format) and the per-move time limit, so the schedule can be regenerated and the leaderboard
//! knows the format.

use croupier_games::GameId;
use croupier_league::{Format, LeagueError, ScheduleSpec, Scheme};
use croupier_store::competitions::{self, Candidate, NewCompetition};
use croupier_store::matches::{NewMatch, SeatRef};
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::AppState;

/// The most rounds one competition may have.
pub const MAX_ROUNDS: u32 = 1000;
/// The longest per-move time limit an admin may set (10 minutes).
pub const MAX_MOVE_TIME_MS: u64 = 600_000;
/// The most games one match may play.
pub const MAX_GAMES_PER_MATCH: u32 = 100;

/// What an admin asks for (the API's JSON body; the page's form is read into it).
#[derive(Debug, Clone, Deserialize)]
pub struct CompetitionRequest {
    pub name: String,
    pub game: String,
    /// A rule set of the game; empty or absent: the game's default.
    #[serde(default)]
    pub rules: String,
    /// `None`: each team's latest ready submission for the game.
    #[serde(default)]
    pub submissions: Option<Vec<Uuid>>,
    #[serde(default = "one")]
    pub rounds: u32,
    /// `None`: a random one (kept in the settings, so the schedule can be regenerated).
    #[serde(default)]
    pub base_seed: Option<u64>,
    /// `None`: the game's own (`croupier_referee::default_move_time`: Splendor 2 s, Bridge 5 s,
    /// the others 10 s).
    #[serde(default)]
    pub move_time_ms: Option<u64>,
    /// Games per match (Guandan: games from level 2 to A; Bridge: boards per table). `None`:
    /// the game's default (Bridge 4, the others 1).
    #[serde(default)]
    pub games_per_match: Option<u32>,
    /// One of the game's formats (Hanabi: `self_play` or `cross_play`). `None`: the default.
    #[serde(default)]
    pub format: Option<Format>,
    /// Rule-set overrides copied into every match (`{"players": 5}`); checked against the
    /// game's settings before anything is stored.
    #[serde(default)]
    pub settings: Option<serde_json::Value>,
}

fn one() -> u32 {
    1
}

/// What was stored.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Created {
    pub competition_id: Uuid,
    pub entrants: usize,
    pub matches: usize,
}

/// The formats `game` offers, for messages.
pub fn formats(game: GameId) -> String {
    let names: Vec<&str> = Scheme::of(game)
        .formats
        .iter()
        .map(|f| f.as_str())
        .collect();
    names.join(", ")
}

pub fn parse_game(game: &str) -> Result<GameId> {
    game.trim()
        .parse()
        .map_err(|e: croupier_games::UnknownGame| Error::BadRequest(e.to_string()))
}

/// The submissions entered when the admin names none: each team's latest ready one.
pub fn default_choice(candidates: &[Candidate]) -> Vec<Uuid> {
    candidates
        .iter()
        .filter(|c| c.latest)
        .map(|c| c.submission_id)
        .collect()
}

/// Checks `req`, schedules it and stores it all, or stores nothing and says why (400/409).
pub async fn create(
    state: &AppState,
    created_by: Uuid,
    req: &CompetitionRequest,
) -> Result<Created> {
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > 80 {
        return Err(Error::BadRequest(
            "a competition needs a name of 1 to 80 characters".into(),
        ));
    }
    let game = parse_game(&req.game)?;
    let rules = match req.rules.trim() {
        "" => game.rule_sets().first().copied().unwrap_or_default(),
        r => r,
    };
    if !game.rule_sets().contains(&rules) {
        return Err(Error::BadRequest(format!(
            "{} has the rule sets {}, not {rules:?}",
            game.display_name(),
            game.rule_sets().join(", ")
        )));
    }
    if req.rounds == 0 || req.rounds > MAX_ROUNDS {
        return Err(Error::BadRequest(format!(
            "the number of rounds must be 1 to {MAX_ROUNDS}"
        )));
    }
    if req
        .move_time_ms
        .is_some_and(|ms| ms == 0 || ms > MAX_MOVE_TIME_MS)
    {
        return Err(Error::BadRequest(format!(
            "the time per move must be 1 to {MAX_MOVE_TIME_MS} ms"
        )));
    }
    if req
        .games_per_match
        .is_some_and(|n| n == 0 || n > MAX_GAMES_PER_MATCH)
    {
        return Err(Error::BadRequest(format!(
            "the games per match must be 1 to {MAX_GAMES_PER_MATCH}"
        )));
    }
    if let Some(max) = game.def().max_games_per_match {
        if req.games_per_match.is_some_and(|n| n > max) {
            return Err(Error::BadRequest(format!(
                "a {} match plays at most {max} game(s) (as on the original platform): \
                 ask for more rounds instead",
                game.display_name()
            )));
        }
    }
    let candidates = competitions::candidates(&state.pool, game.as_str()).await?;
    let chosen = match &req.submissions {
        None => default_choice(&candidates),
        Some(ids) => {
            if let Some(id) = ids
                .iter()
                .find(|id| !candidates.iter().any(|c| c.submission_id == **id))
            {
                return Err(Error::BadRequest(format!(
                    "submission {id} is not a ready {} bot",
                    game.display_name()
                )));
            }
            ids.clone()
        }
    };
    // Below 2^53, so the seed survives any JSON reader unchanged.
    let base_seed = req.base_seed.unwrap_or_else(|| rand::random::<u64>() >> 11);
    let mut spec = ScheduleSpec::new(rules, req.rounds, base_seed);
    if let Some(format) = req.format {
        if !Scheme::of(game).offers(format) {
            return Err(Error::BadRequest(format!(
                "{} is not played as {format}: its formats are {}",
                game.display_name(),
                formats(game)
            )));
        }
        spec.format = Some(format);
    }
    if let Some(settings) = &req.settings {
        spec.settings = settings.clone();
    }
    let planned = croupier_league::schedule(game, &spec, &chosen)
        .map_err(|e| Error::BadRequest(schedule_error(game, &e)))?;
    let format = spec
        .format
        .unwrap_or_else(|| Scheme::of(game).default_format());
    let settings = json!({
        "rounds": req.rounds,
        "base_seed": base_seed,
        "format": format,
        "move_time_ms": req.move_time_ms,
        "games_per_match": req.games_per_match,
        "rule_settings": spec.settings,
    });
    let mut matches = Vec::with_capacity(planned.len());
    for m in planned {
        matches.push(NewMatch {
            ordinal: i32::try_from(m.ordinal).map_err(Error::internal)?,
            game: game.as_str().to_owned(),
            rules: rules.to_owned(),
            seed: m.seed,
            settings: if m.settings.is_null() {
                json!({})
            } else {
                m.settings
            },
            seats: m.seats.into_iter().map(SeatRef::Submission).collect(),
        });
    }
    let new = NewCompetition {
        name,
        game: game.as_str(),
        rules,
        settings: &settings,
        created_by,
        entries: &chosen,
    };
    let competition_id = competitions::create(&state.pool, &new, &matches).await?;
    tracing::info!(%competition_id, by = %created_by, game = %game, matches = matches.len(), "competition created");
    Ok(Created {
        competition_id,
        entrants: chosen.len(),
        matches: matches.len(),
    })
}

/// The league's refusal, worded for the admin.
fn schedule_error(game: GameId, e: &LeagueError) -> String {
    match e {
        LeagueError::TooFewEntrants { need, got, .. } => format!(
            "{} needs at least {need} ready bots from the teams, and {got} {} chosen",
            game.display_name(),
            if *got == 1 { "was" } else { "were" }
        ),
        other => format!("cannot schedule this competition: {other}"),
    }
}

//! Creating a competition, shared by the admin page and the admin API: check the request,
//! expand it into matches with `croupier_league::schedule`, and store the competition, its
//! entries and every match with its seats and job in one transaction (nothing on an error).
//!
//! The competition's settings are one [`CompetitionSettings`]: what the schedule was made from
//! (rounds, base seed, format, rule-set overrides) and how matches are played (time per move,
//! games per match). They are validated here, once, and stored as JSON; the worker and the pages
//! read them back as the same struct.

use std::fmt::Display;

use croupier_games::GameId;
use croupier_league::{
    CompetitionSettings, LadderBudget, LeagueError, SettingsError, FINAL_TOP,
    LADDER_MATCHES_PER_HOUR,
};
use croupier_store::competitions::{self, Candidate, NewCompetition};
use croupier_store::{competition_admin, CompetitionKind};
use serde::Deserialize;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::{i18n, AppState};

pub use croupier_league::{formats, Format, MAX_GAMES_PER_MATCH, MAX_MOVE_TIME_MS, MAX_ROUNDS};

/// What an admin asks for (the API's JSON body; the page's form is read into it). A field it
/// does not know is refused, so a misspelt setting is not silently left at its default.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompetitionRequest {
    pub name: String,
    /// `round_robin` (the default: every match scheduled now) or `ladder` (matches made
    /// continuously by the workers as results land; every team's newest ready bot enters).
    #[serde(default = "round_robin")]
    pub kind: CompetitionKind,
    /// A ladder's pace and matchmaking; `None`: the defaults (600 matches an hour, 6 at once).
    #[serde(default)]
    pub ladder: Option<LadderBudget>,
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
    /// Each bot seat's memory in MiB; `None`: the workers' default.
    #[serde(default)]
    pub seat_memory_mib: Option<u64>,
    /// Each bot seat's disk in MiB; `None`: the workers' default.
    #[serde(default)]
    pub seat_disk_mib: Option<u64>,
    /// Each bot seat's CPU in thousandths of a core; `None`: the workers' default.
    #[serde(default)]
    pub seat_cpu_millicores: Option<u32>,
    /// `swiss`: the number of Swiss rounds; `None`: chosen from the field size
    /// (`croupier_league::swiss_rounds`).
    #[serde(default)]
    pub swiss_rounds: Option<u32>,
    /// `adaptive`: the most matches it may play (required).
    #[serde(default)]
    pub budget: Option<u32>,
    /// `adaptive`: what must be decided: the top k (`Some(k)`) or the whole order (`None`).
    #[serde(default)]
    pub decide_top: Option<u32>,
    /// `swiss` and `adaptive`: a final stage, a round-robin of the top n once the plan is
    /// done; `None`: none.
    #[serde(default)]
    pub final_top: Option<u32>,
}

fn one() -> u32 {
    1
}

fn round_robin() -> CompetitionKind {
    CompetitionKind::RoundRobin
}

/// What was stored.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Created {
    pub competition_id: Uuid,
    pub entrants: usize,
    pub matches: usize,
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

/// A competition's name, trimmed: 1 to 80 characters (400 otherwise).
pub fn check_name(name: &str) -> Result<&str> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 80 {
        return Err(Error::BadRequest(i18n::t("competition-bad-name")));
    }
    Ok(name)
}

/// Checks `req`, schedules it and stores it all, or stores nothing and says why (400/409).
pub async fn create(
    state: &AppState,
    created_by: Uuid,
    req: &CompetitionRequest,
) -> Result<Created> {
    let name = check_name(&req.name)?;
    let game = parse_game(&req.game)?;
    let rules = match req.rules.trim() {
        "" => game.rule_sets().first().copied().unwrap_or_default(),
        r => r,
    };
    if !game.rule_sets().contains(&rules) {
        let (sets, asked) = (game.rule_sets().join(", "), format!("{rules:?}"));
        let args: [(&str, &dyn Display); 3] = [
            ("game", &game.display_name()),
            ("rule_sets", &sets),
            ("rules", &asked),
        ];
        let said = i18n::t_with("competition-bad-rules", &args);
        return Err(Error::BadRequest(said));
    }
    // Below 2^53, so the seed survives any JSON reader unchanged.
    let base_seed = req.base_seed.unwrap_or_else(|| rand::random::<u64>() >> 11);
    let mut settings = CompetitionSettings {
        rounds: req.rounds,
        base_seed,
        format: req.format,
        move_time_ms: req.move_time_ms,
        games_per_match: req.games_per_match,
        rule_settings: req.settings.clone().unwrap_or_default(),
        seat_memory_mib: req.seat_memory_mib,
        seat_disk_mib: req.seat_disk_mib,
        seat_cpu_millicores: req.seat_cpu_millicores,
        ladder: req.ladder.unwrap_or_default(),
        plan: plan_of(req)?,
        final_top: req.final_top,
    };
    settings
        .validate(game)
        .map_err(|e| Error::BadRequest(settings_error(&e)))?;
    // Stored with the format played, so the leaderboard never has to guess it.
    settings.format = Some(settings.format_of(game));
    let candidates = competitions::candidates(&state.pool, game.as_str()).await?;
    let chosen = match &req.submissions {
        None => default_choice(&candidates),
        Some(ids) => {
            if let Some(id) = ids
                .iter()
                .find(|id| !candidates.iter().any(|c| c.submission_id == **id))
            {
                let args: [(&str, &dyn Display); 2] = [("id", id), ("game", &game.display_name())];
                let said = i18n::t_with("competition-not-ready", &args);
                return Err(Error::BadRequest(said));
            }
            ids.clone()
        }
    };
    // A person enters one team per competition: the organiser who chose two such teams is
    // told which; a ladder's default field leaves the later team out (its tick does the same).
    let shared = competitions::shared_members(&state.pool, &chosen).await?;
    let chosen = match shared.first() {
        None => chosen,
        Some(s) if req.submissions.is_some() || req.kind != CompetitionKind::Ladder => {
            let args: [(&str, &dyn Display); 3] = [
                ("user", &s.username),
                ("first", &s.first_team),
                ("second", &s.second_team),
            ];
            return Err(Error::BadRequest(i18n::t_with(
                "competition-shared-member",
                &args,
            )));
        }
        Some(_) => chosen
            .into_iter()
            .filter(|id| !shared.iter().any(|s| s.second_submission == *id))
            .collect(),
    };
    if req.final_top.is_some() && req.kind == CompetitionKind::RoundRobin {
        return Err(Error::BadRequest(i18n::t("competition-final-after-rr")));
    }
    let mut first_round = None;
    let planned = match (req.kind, settings.plan) {
        (CompetitionKind::RoundRobin, _) => {
            croupier_league::schedule(game, &settings.schedule_spec(rules), &chosen)
                .map_err(|e| Error::BadRequest(schedule_error(game, &e)))?
        }
        // A ladder schedules as it goes (`croupier_worker`'s ladder tick).
        (CompetitionKind::Ladder, _) => Vec::new(),
        // The first round now; the workers' rounds tick plans the others as rounds end.
        (CompetitionKind::Swiss | CompetitionKind::Adaptive, Some(mut plan)) => {
            if let croupier_league::Plan::Swiss { rounds: None } = plan {
                let format = settings.format_of(game);
                let rounds = croupier_league::swiss_rounds(format, chosen.len());
                plan = croupier_league::Plan::Swiss {
                    rounds: Some(rounds),
                };
                settings.plan = Some(plan);
            }
            let start = croupier_league::RoundStart {
                round: 0,
                ordinal: 0,
                group: 0,
            };
            let spec = settings.schedule_spec(rules);
            let next = croupier_league::next_round(game, &spec, &plan, &chosen, &[], start)
                .map_err(|e| Error::BadRequest(schedule_error(game, &e)))?;
            first_round = Some(croupier_league::RoundsState {
                planned: 1,
                round_matches: u32::try_from(next.matches.len()).unwrap_or(u32::MAX),
                byes: next.byes,
                progress: next.progress,
            });
            next.matches
        }
        _ => return Err(Error::BadRequest(i18n::t("competition-bad-kind"))),
    };
    let first_round = first_round.map(|state| serde_json::to_value(state).unwrap_or_default());
    let matches = croupier_board::new_matches(game, rules, planned);
    let new = NewCompetition {
        name,
        game: game.as_str(),
        rules,
        settings: &settings.to_stored(),
        created_by,
        entries: &chosen,
        kind: req.kind,
        stage_of: None,
        round_progress: first_round.as_ref(),
    };
    let competition_id = competitions::create(&state.pool, &new, &matches).await?;
    tracing::info!(%competition_id, by = %created_by, game = %game, matches = matches.len(), "competition created");
    Ok(Created {
        competition_id,
        entrants: chosen.len(),
        matches: matches.len(),
    })
}

/// The plan of a Swiss or adaptive competition (`None` for the other kinds); an adaptive one
/// must name its budget.
fn plan_of(req: &CompetitionRequest) -> Result<Option<croupier_league::Plan>> {
    use croupier_league::{Decide, Plan};
    match req.kind {
        CompetitionKind::Swiss => Ok(Some(Plan::Swiss {
            rounds: req.swiss_rounds,
        })),
        CompetitionKind::Adaptive => {
            let budget = req
                .budget
                .ok_or_else(|| Error::BadRequest(i18n::t("competition-no-budget")))?;
            let decide = req.decide_top.map_or(Decide::Order, Decide::Top);
            Ok(Some(Plan::Adaptive { budget, decide }))
        }
        _ => Ok(None),
    }
}

/// A refusal of the settings in the request's language (the league's words in English); the
/// ones only the API can cause, as the league says them.
fn settings_error(e: &SettingsError) -> String {
    match e {
        SettingsError::Rounds(n) => {
            let args: [(&str, &dyn Display); 2] = [("max", &MAX_ROUNDS), ("n", n)];
            i18n::t_with("competition-bad-rounds", &args)
        }
        SettingsError::MoveTime(ms) => {
            let args: [(&str, &dyn Display); 2] = [("max", &MAX_MOVE_TIME_MS), ("n", ms)];
            i18n::t_with("competition-bad-move-time", &args)
        }
        SettingsError::GamesPerMatch(n) => {
            let args: [(&str, &dyn Display); 2] = [("max", &MAX_GAMES_PER_MATCH), ("n", n)];
            i18n::t_with("competition-bad-games-per-match", &args)
        }
        SettingsError::GamesPerMatchOfGame { game, max, asked } => {
            let args: [(&str, &dyn Display); 3] = [("game", game), ("max", max), ("n", asked)];
            i18n::t_with("competition-too-many-games", &args)
        }
        // The JSON after the words: a value like `5.0` would be read as a number.
        SettingsError::RuleSettings(value) => {
            format!("{} {value}", i18n::t("competition-bad-rule-settings"))
        }
        SettingsError::LadderPace(n) => {
            let (lo, hi) = (
                LADDER_MATCHES_PER_HOUR.start(),
                LADDER_MATCHES_PER_HOUR.end(),
            );
            let args: [(&str, &dyn Display); 3] = [("lo", lo), ("hi", hi), ("n", n)];
            i18n::t_with("competition-bad-ladder-pace", &args)
        }
        SettingsError::SwissRounds(n) => {
            let args: [(&str, &dyn Display); 2] = [("max", &MAX_ROUNDS), ("n", n)];
            i18n::t_with("competition-bad-swiss-rounds", &args)
        }
        SettingsError::Budget { budget, group } => {
            let args: [(&str, &dyn Display); 2] = [("group", group), ("n", budget)];
            i18n::t_with("competition-bad-budget", &args)
        }
        SettingsError::DecideTop => i18n::t("competition-bad-decide-top"),
        SettingsError::FinalTop(n) => {
            let (lo, hi) = (FINAL_TOP.start(), FINAL_TOP.end());
            let args: [(&str, &dyn Display); 3] = [("lo", lo), ("hi", hi), ("n", n)];
            i18n::t_with("competition-bad-final-top", &args)
        }
        other => other.to_string(),
    }
}

/// The league's refusal, worded for the admin.
fn schedule_error(game: GameId, e: &LeagueError) -> String {
    match e {
        LeagueError::TooFewEntrants { need, got, .. } => {
            let args: [(&str, &dyn Display); 3] =
                [("game", &game.display_name()), ("need", need), ("got", got)];
            i18n::t_with("competition-too-few", &args)
        }
        other => i18n::t_with("competition-cannot-schedule", &[("error", other)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_refusals_in_english_are_the_leagues_words() {
        let refusals = [
            SettingsError::Rounds(0),
            SettingsError::MoveTime(600_001),
            SettingsError::GamesPerMatch(101),
            SettingsError::GamesPerMatchOfGame {
                game: "Contract Bridge",
                max: 8,
                asked: 9,
            },
            SettingsError::RuleSettings("5.0".into()),
            SettingsError::LadderPace(0),
            SettingsError::SwissRounds(0),
            SettingsError::Budget {
                budget: 2,
                group: 3,
            },
            SettingsError::DecideTop,
            SettingsError::FinalTop(1),
        ];
        for e in refusals {
            assert_eq!(settings_error(&e), e.to_string());
        }
    }
}

/// An organiser's change to a competition's settings: the time per move, games per match and
/// seat limits (each absent or empty: the game's or the worker's default), allowed while none
/// of its matches has started; and a ladder's pace, allowed at any time.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsChange {
    pub move_time_ms: Option<u64>,
    pub games_per_match: Option<u32>,
    pub seat_memory_mib: Option<u64>,
    pub seat_disk_mib: Option<u64>,
    pub seat_cpu_millicores: Option<u32>,
    pub matches_per_hour: Option<u32>,
    pub max_pending: Option<u32>,
}

/// Checks `change` against the competition's game and stores it (400 for a bad value, 409 when
/// matches have started and the time or limits would change).
pub async fn change_settings(
    state: &AppState,
    by: Uuid,
    competition_id: Uuid,
    change: &SettingsChange,
) -> Result<CompetitionSettings> {
    let c = competitions::get(&state.pool, competition_id).await?;
    let game = parse_game(&c.game)?;
    let old = CompetitionSettings::from_stored(&c.settings)
        .map_err(|e| Error::BadRequest(settings_error(&e)))?;
    let mut new = old.clone();
    new.move_time_ms = change.move_time_ms;
    new.games_per_match = change.games_per_match;
    new.seat_memory_mib = change.seat_memory_mib;
    new.seat_disk_mib = change.seat_disk_mib;
    new.seat_cpu_millicores = change.seat_cpu_millicores;
    if c.kind == CompetitionKind::Ladder {
        new.ladder.matches_per_hour = change
            .matches_per_hour
            .unwrap_or(old.ladder.matches_per_hour);
        new.ladder.max_pending = change.max_pending.unwrap_or(old.ladder.max_pending);
    }
    new.validate(game)
        .map_err(|e| Error::BadRequest(settings_error(&e)))?;
    let played_with_changes = (
        new.move_time_ms,
        new.games_per_match,
        new.seat_memory_mib,
        new.seat_disk_mib,
        new.seat_cpu_millicores,
    ) != (
        old.move_time_ms,
        old.games_per_match,
        old.seat_memory_mib,
        old.seat_disk_mib,
        old.seat_cpu_millicores,
    );
    competition_admin::set_settings(
        &state.pool,
        competition_id,
        &new.to_stored(),
        played_with_changes,
    )
    .await?;
    tracing::info!(%competition_id, %by, "competition settings changed");
    Ok(new)
}

//! A competition's settings: what its schedule is made from (rounds, base seed, format, rule-set
//! overrides) and how its matches are played (time per move, games per match).
//!
//! One serde struct for every reader: the web server builds it from the admin's request and
//! [`validate`](CompetitionSettings::validate)s it once, before anything is stored; it is stored
//! as the competition's `settings` JSON; the worker and the pages read it back as this struct
//! (unknown fields are refused, absent ones take their defaults), never field by field.

use croupier_games::GameId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Decide, Format, LadderPick, Plan, ScheduleSpec, Scheme};

/// The most rounds one competition may have.
pub const MAX_ROUNDS: u32 = 1000;
/// The longest per-move time limit an admin may set (10 minutes).
pub const MAX_MOVE_TIME_MS: u64 = 600_000;
/// The most games one match may play.
pub const MAX_GAMES_PER_MATCH: u32 = 100;
/// The range of a seat's memory an admin may set, in MiB.
pub const SEAT_MEMORY_MIB: std::ops::RangeInclusive<u64> = 16..=16_384;
/// The range of a seat's disk (its `/bot`, `/tmp` and `/dev/shm` together) in MiB.
pub const SEAT_DISK_MIB: std::ops::RangeInclusive<u64> = 1..=4096;
/// The range of a seat's CPU bandwidth in thousandths of a core.
pub const SEAT_CPU_MILLICORES: std::ops::RangeInclusive<u32> = 100..=16_000;

/// A competition's settings, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompetitionSettings {
    /// Rounds of the schedule, 1 to [`MAX_ROUNDS`] (default 1).
    #[serde(default = "one")]
    pub rounds: u32,
    /// The schedule's base seed (round `r` plays on a seed derived from `base_seed + r`).
    #[serde(default)]
    pub base_seed: u64,
    /// The schedule's format; `None`: the game's default ([`Scheme::default_format`]).
    #[serde(default)]
    pub format: Option<Format>,
    /// Time per move in milliseconds, 1 to [`MAX_MOVE_TIME_MS`]; `None`: the game's own.
    #[serde(default)]
    pub move_time_ms: Option<u64>,
    /// Games per match (Guandan: games from level 2 to A; Bridge: boards per table), 1 to
    /// [`MAX_GAMES_PER_MATCH`]; `None`: the game's default.
    #[serde(default)]
    pub games_per_match: Option<u32>,
    /// Rule-set overrides copied into every match (`{"players": 5}`), or null; the game checks
    /// them when the schedule is made.
    #[serde(default)]
    pub rule_settings: Value,
    /// Memory of each bot seat in MiB ([`SEAT_MEMORY_MIB`]); `None`: the worker's default.
    #[serde(default)]
    pub seat_memory_mib: Option<u64>,
    /// Disk of each bot seat in MiB ([`SEAT_DISK_MIB`]); `None`: the worker's default.
    #[serde(default)]
    pub seat_disk_mib: Option<u64>,
    /// CPU bandwidth of each bot seat in thousandths of a core ([`SEAT_CPU_MILLICORES`]);
    /// `None`: the worker's default.
    #[serde(default)]
    pub seat_cpu_millicores: Option<u32>,
    /// A ladder's pace and matchmaking (round-robins ignore it).
    #[serde(default)]
    pub ladder: LadderBudget,
    /// How a round-by-round competition (Swiss, adaptive) chooses its rounds; `None` for a
    /// round-robin or a ladder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<Plan>,
    /// A final stage: when the plan is done, a round-robin of the fitted ranking's top `n`
    /// ([`FINAL_TOP`]). `None`: no final stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_top: Option<u32>,
}

/// The range of a final stage's field: a round-robin of 3 to 24 entrants (24 triples are
/// 6,072 matches a round).
pub const FINAL_TOP: std::ops::RangeInclusive<u32> = 2..=24;

/// How fast a ladder makes matches, and how it chooses them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LadderBudget {
    /// At most this many matches created per hour ([`LADDER_MATCHES_PER_HOUR`]).
    pub matches_per_hour: u32,
    /// At most this many matches queued or running at once: the ladder's share of the
    /// workers ([`LADDER_PENDING`]).
    pub max_pending: u32,
    /// Placement groups, the per-entrant pending cap and the opponent spread.
    pub pick: LadderPick,
}

/// The range of a ladder's matches per hour.
pub const LADDER_MATCHES_PER_HOUR: std::ops::RangeInclusive<u32> = 1..=1_000_000;
/// The range of a ladder's matches queued or running at once.
pub const LADDER_PENDING: std::ops::RangeInclusive<u32> = 1..=10_000;

impl Default for LadderBudget {
    /// 600 matches an hour, 6 at a time, the matchmaker's defaults.
    fn default() -> Self {
        LadderBudget {
            matches_per_hour: 600,
            max_pending: 6,
            pick: LadderPick::default(),
        }
    }
}

fn one() -> u32 {
    1
}

impl Default for CompetitionSettings {
    /// One round on base seed 0, the game's defaults for everything else.
    fn default() -> Self {
        CompetitionSettings {
            rounds: 1,
            base_seed: 0,
            format: None,
            move_time_ms: None,
            games_per_match: None,
            rule_settings: Value::Null,
            seat_memory_mib: None,
            seat_disk_mib: None,
            seat_cpu_millicores: None,
            ladder: LadderBudget::default(),
            plan: None,
            final_top: None,
        }
    }
}

/// Why settings were refused: a message for the admin (shown as a 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("the number of rounds must be 1 to {MAX_ROUNDS}, not {0}")]
    Rounds(u32),
    #[error("the time per move must be 1 to {MAX_MOVE_TIME_MS} ms, not {0}")]
    MoveTime(u64),
    #[error("the games per match must be 1 to {MAX_GAMES_PER_MATCH}, not {0}")]
    GamesPerMatch(u32),
    #[error("a {game} match plays at most {max} game(s), as on the original platform, not {asked}: ask for more rounds instead")]
    GamesPerMatchOfGame {
        /// The game's display name.
        game: &'static str,
        max: u32,
        asked: u32,
    },
    #[error("{game} is not played as {format}: its formats are {offered}")]
    Format {
        /// The game's display name.
        game: &'static str,
        format: Format,
        offered: String,
    },
    #[error("the rule-set overrides must be a JSON object, not {0}")]
    RuleSettings(String),
    #[error("a seat's memory must be {lo} to {hi} MiB, not {0}", lo = SEAT_MEMORY_MIB.start(), hi = SEAT_MEMORY_MIB.end())]
    SeatMemory(u64),
    #[error("a seat's disk must be {lo} to {hi} MiB, not {0}", lo = SEAT_DISK_MIB.start(), hi = SEAT_DISK_MIB.end())]
    SeatDisk(u64),
    #[error(
        "a seat's CPU must be {lo} to {hi} thousandths of a core, not {0}",
        lo = SEAT_CPU_MILLICORES.start(),
        hi = SEAT_CPU_MILLICORES.end()
    )]
    SeatCpu(u32),
    #[error(
        "a ladder makes {lo} to {hi} matches an hour, not {0}",
        lo = LADDER_MATCHES_PER_HOUR.start(),
        hi = LADDER_MATCHES_PER_HOUR.end()
    )]
    LadderPace(u32),
    #[error(
        "a ladder has {lo} to {hi} matches waiting or running at once, not {0}",
        lo = LADDER_PENDING.start(),
        hi = LADDER_PENDING.end()
    )]
    LadderPending(u32),
    #[error("a Swiss competition plays 1 to {MAX_ROUNDS} rounds, not {0}")]
    SwissRounds(u32),
    #[error("an adaptive competition needs a budget of at least {group} matches (one group), not {budget}")]
    Budget { budget: u32, group: u32 },
    #[error("the places to decide must be 1 or more (the top k), not 0")]
    DecideTop,
    #[error(
        "a final stage takes the top {lo} to {hi} entrants (and at least one group of the format), not {0}",
        lo = FINAL_TOP.start(),
        hi = FINAL_TOP.end()
    )]
    FinalTop(u32),
    /// The stored JSON is not settings (a stored competition only ever has valid ones).
    #[error("invalid competition settings: {0}")]
    Stored(String),
}

impl CompetitionSettings {
    /// Checks every setting for `game`; the first problem found is the error.
    pub fn validate(&self, game: GameId) -> Result<(), SettingsError> {
        if !LADDER_MATCHES_PER_HOUR.contains(&self.ladder.matches_per_hour) {
            return Err(SettingsError::LadderPace(self.ladder.matches_per_hour));
        }
        if !LADDER_PENDING.contains(&self.ladder.max_pending) {
            return Err(SettingsError::LadderPending(self.ladder.max_pending));
        }
        if self.rounds == 0 || self.rounds > MAX_ROUNDS {
            return Err(SettingsError::Rounds(self.rounds));
        }
        if let Some(ms) = self
            .move_time_ms
            .filter(|&ms| ms == 0 || ms > MAX_MOVE_TIME_MS)
        {
            return Err(SettingsError::MoveTime(ms));
        }
        if let Some(n) = self
            .games_per_match
            .filter(|&n| n == 0 || n > MAX_GAMES_PER_MATCH)
        {
            return Err(SettingsError::GamesPerMatch(n));
        }
        if let (Some(asked), Some(max)) = (self.games_per_match, game.def().max_games_per_match) {
            if asked > max {
                return Err(SettingsError::GamesPerMatchOfGame {
                    game: game.display_name(),
                    max,
                    asked,
                });
            }
        }
        if let Some(format) = self.format.filter(|&f| !Scheme::of(game).offers(f)) {
            return Err(SettingsError::Format {
                game: game.display_name(),
                format,
                offered: formats(game),
            });
        }
        if let Some(mib) = self
            .seat_memory_mib
            .filter(|m| !SEAT_MEMORY_MIB.contains(m))
        {
            return Err(SettingsError::SeatMemory(mib));
        }
        if let Some(mib) = self.seat_disk_mib.filter(|m| !SEAT_DISK_MIB.contains(m)) {
            return Err(SettingsError::SeatDisk(mib));
        }
        if let Some(mc) = self
            .seat_cpu_millicores
            .filter(|c| !SEAT_CPU_MILLICORES.contains(c))
        {
            return Err(SettingsError::SeatCpu(mc));
        }
        self.validate_plan(game)?;
        match &self.rule_settings {
            Value::Null | Value::Object(_) => Ok(()),
            other => Err(SettingsError::RuleSettings(other.to_string())),
        }
    }

    /// The plan's own limits, and the final stage's field.
    fn validate_plan(&self, game: GameId) -> Result<(), SettingsError> {
        let format = self.format_of(game);
        match self.plan {
            Some(Plan::Swiss { rounds: Some(r) }) if r == 0 || r > MAX_ROUNDS => {
                return Err(SettingsError::SwissRounds(r));
            }
            Some(Plan::Adaptive { budget, decide }) => {
                let group = crate::matches_per_group(format);
                if budget < group {
                    return Err(SettingsError::Budget { budget, group });
                }
                if decide == Decide::Top(0) {
                    return Err(SettingsError::DecideTop);
                }
            }
            _ => {}
        }
        match self.final_top {
            Some(n) if !FINAL_TOP.contains(&n) || (n as usize) < format.min_entrants() => {
                Err(SettingsError::FinalTop(n))
            }
            _ => Ok(()),
        }
    }

    /// The settings stored as `json`: [`SettingsError::Stored`] when they are not.
    pub fn from_stored(json: &Value) -> Result<Self, SettingsError> {
        serde_json::from_value(json.clone()).map_err(|e| SettingsError::Stored(e.to_string()))
    }

    /// The JSON to store.
    pub fn to_stored(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The format played: the chosen one, or the game's default.
    pub fn format_of(&self, game: GameId) -> Format {
        self.format
            .unwrap_or_else(|| Scheme::of(game).default_format())
    }

    /// The schedule these settings make under the rule set `rules`.
    pub fn schedule_spec(&self, rules: &str) -> ScheduleSpec {
        ScheduleSpec {
            rules: rules.to_owned(),
            rounds: self.rounds,
            base_seed: self.base_seed,
            format: self.format,
            settings: self.rule_settings.clone(),
        }
    }
}

/// The formats `game` offers, for messages: `triples` or `self_play, cross_play`.
pub fn formats(game: GameId) -> String {
    let names: Vec<&str> = (Scheme::of(game).formats.iter())
        .map(|f| f.as_str())
        .collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn absent_fields_take_their_defaults_and_unknown_ones_are_refused() {
        let empty = CompetitionSettings::from_stored(&json!({})).unwrap();
        assert_eq!(empty, CompetitionSettings::default());
        let stored = json!({
            "rounds": 2, "base_seed": 7, "format": "triples", "move_time_ms": null,
            "games_per_match": 3, "rule_settings": {"players": 5}
        });
        let s = CompetitionSettings::from_stored(&stored).unwrap();
        assert_eq!((s.rounds, s.base_seed, s.games_per_match), (2, 7, Some(3)));
        assert_eq!(s.format, Some(Format::Triples));
        assert_eq!(CompetitionSettings::from_stored(&s.to_stored()).unwrap(), s);

        let typo = CompetitionSettings::from_stored(&json!({"move_time": 500}));
        let err = typo.unwrap_err().to_string();
        assert!(err.contains("unknown field `move_time`"), "{err}");
    }

    #[test]
    fn validation_names_the_setting_out_of_range() {
        let with = |f: fn(&mut CompetitionSettings)| {
            let mut s = CompetitionSettings::default();
            f(&mut s);
            s.validate(GameId::NO_THANKS).map_err(|e| e.to_string())
        };
        assert_eq!(with(|_| {}), Ok(()));
        assert_eq!(
            with(|s| s.rounds = 0).unwrap_err(),
            "the number of rounds must be 1 to 1000, not 0"
        );
        assert!(with(|s| s.move_time_ms = Some(MAX_MOVE_TIME_MS + 1))
            .unwrap_err()
            .contains("time per move"));
        assert!(with(|s| s.games_per_match = Some(0))
            .unwrap_err()
            .contains("games per match"));
        assert_eq!(
            with(|s| s.format = Some(Format::SelfPlay)).unwrap_err(),
            "No Thanks! is not played as self_play: its formats are triples"
        );
        assert!(with(|s| s.rule_settings = json!([1]))
            .unwrap_err()
            .contains("JSON object"));
        assert_eq!(
            with(|s| s.seat_memory_mib = Some(8)).unwrap_err(),
            "a seat's memory must be 16 to 16384 MiB, not 8"
        );
        assert!(with(|s| s.seat_disk_mib = Some(0))
            .unwrap_err()
            .contains("disk"));
        assert!(with(|s| s.seat_cpu_millicores = Some(50))
            .unwrap_err()
            .contains("CPU"));
        assert_eq!(
            with(|s| {
                s.seat_memory_mib = Some(64);
                s.seat_disk_mib = Some(8);
                s.seat_cpu_millicores = Some(500);
            }),
            Ok(())
        );
    }
}

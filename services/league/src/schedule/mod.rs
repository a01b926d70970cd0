//! Schedules: a competition's entrants expanded into an ordered list of [`PlannedMatch`]es.
//!
//! Order is round-major: all of round 0, then all of round 1, … Within a round the pairings
//! (triples, pairs or single entrants) come in an order shuffled from the base seed, so that a
//! half-played schedule has spread its games over the whole field, and the seatings of one
//! pairing (its group) follow each other, so that duplicate sets finish together.

use croupier_games::GameId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::seed::{round_seed, SplitMix64};
use crate::{Format, LeagueError, Scheme};

/// The most matches one schedule may hold (ordinals must fit a PostgreSQL `integer`).
pub const MAX_MATCHES: u32 = 1_000_000;

/// What to schedule. Deserializes from a competition's settings: every field but `rules` has a
/// default (`rounds` 1, `base_seed` 0, the game's default format, no overrides).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduleSpec {
    /// A rule set of [`GameId::rule_sets`].
    pub rules: String,
    #[serde(default = "one")]
    pub rounds: u32,
    #[serde(default)]
    pub base_seed: u64,
    /// `None`: [`Scheme::default_format`].
    #[serde(default)]
    pub format: Option<Format>,
    /// Setting overrides (a JSON object, or null) copied into every match.
    #[serde(default)]
    pub settings: Value,
}

fn one() -> u32 {
    1
}

impl ScheduleSpec {
    /// The game's default format, no overrides.
    pub fn new(rules: impl Into<String>, rounds: u32, base_seed: u64) -> Self {
        ScheduleSpec {
            rules: rules.into(),
            rounds,
            base_seed,
            format: None,
            settings: Value::Null,
        }
    }

    pub fn with_format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    pub fn with_settings(mut self, settings: Value) -> Self {
        self.settings = settings;
        self
    }
}

/// One match of a schedule, ready to insert.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedMatch<E> {
    /// Position in the schedule from 0: the order to queue matches in and to rate them in.
    pub ordinal: u32,
    /// The round from 0; every match of a round is played on the round's seed.
    pub round: u32,
    /// The duplicate set: matches that replay one seed with the seats moved (a triple's 3
    /// rotations, a pair's 2 tables; in self-play the whole round). Numbered from 0 in order of
    /// first match; standings pair Bridge tables by it.
    pub group: u32,
    /// The engine seed, below 2^63: `splitmix64(base_seed + round)`.
    pub seed: u64,
    /// `seats[i]` is the entrant in seat `i`.
    pub seats: Vec<E>,
    /// The overrides to build the game with (self-play and cross-play add `players`).
    pub settings: Value,
}

/// How many matches `format` makes from `entrants` and `rounds` (0 below the format's minimum):
/// triples C(n,3)×3×rounds; team pairs and cross-play C(n,2)×2×rounds; self-play n×rounds.
pub fn match_count(format: Format, entrants: usize, rounds: u32) -> u128 {
    let n = entrants as u128;
    let per_round = match format {
        Format::Triples => choose(n, 3) * 3,
        Format::TeamPairs | Format::CrossPlay => choose(n, 2) * 2,
        Format::SelfPlay => n,
    };
    per_round * u128::from(rounds)
}

/// Matches one group plays: a triple's 3 rotations, a pair's 2 seatings, 1 self-play match.
pub fn matches_per_group(format: Format) -> u32 {
    match format {
        Format::Triples => 3,
        Format::TeamPairs | Format::CrossPlay => 2,
        Format::SelfPlay => 1,
    }
}

fn choose(n: u128, k: u128) -> u128 {
    (0..k).fold(1, |c, i| if n < k { 0 } else { c * (n - i) / (i + 1) })
}

/// Expands `entrants` into the match list of `game`'s scheme (see [`Format`] for the seatings
/// and counts). Entrants must be distinct; their order only affects which of a pair sits first.
pub fn schedule<E: Clone + PartialEq>(
    game: GameId,
    spec: &ScheduleSpec,
    entrants: &[E],
) -> Result<Vec<PlannedMatch<E>>, LeagueError> {
    let format = format_of(game, spec)?;
    if spec.rounds == 0 {
        return Err(LeagueError::NoRounds);
    }
    if entrants.len() < format.min_entrants() {
        return Err(LeagueError::TooFewEntrants {
            format,
            need: format.min_entrants(),
            got: entrants.len(),
        });
    }
    if let Some((first, second)) = first_duplicate(entrants) {
        return Err(LeagueError::DuplicateEntrant { first, second });
    }
    let count = match_count(format, entrants.len(), spec.rounds);
    if count > u128::from(MAX_MATCHES) {
        return Err(LeagueError::TooManyMatches {
            count,
            limit: MAX_MATCHES,
        });
    }
    let (seats, settings) = table_of(game, format, spec)?;

    let units = pairings(format, entrants.len());
    let mut planned = Vec::new();
    let mut group = 0_u32;
    for round in 0..spec.rounds {
        let seed = round_seed(spec.base_seed, round);
        let mut order = units.clone();
        SplitMix64::order(spec.base_seed, round).shuffle(&mut order);
        for unit in &order {
            for seating in seatings(format, unit, seats) {
                planned.push(PlannedMatch {
                    ordinal: u32::try_from(planned.len()).unwrap_or(u32::MAX),
                    round,
                    group,
                    seed,
                    seats: seating
                        .iter()
                        .filter_map(|&i| entrants.get(i).cloned())
                        .collect(),
                    settings: settings.clone(),
                });
            }
            if format != Format::SelfPlay {
                group += 1;
            }
        }
        if format == Format::SelfPlay {
            group += 1;
        }
    }
    Ok(planned)
}

/// The format `spec` asks for (the game's default when it names none), if the game offers it.
pub(crate) fn format_of(game: GameId, spec: &ScheduleSpec) -> Result<Format, LeagueError> {
    let scheme = Scheme::of(game);
    let format = spec.format.unwrap_or_else(|| scheme.default_format());
    if !scheme.offers(format) {
        let offered: Vec<_> = scheme.formats.iter().map(|f| f.as_str()).collect();
        return Err(LeagueError::FormatNotOffered {
            game,
            format,
            offered: offered.join(", "),
        });
    }
    Ok(format)
}

/// Seats per match and the overrides each match gets (see [`table`]), checked against the game
/// (see [`check_settings`]).
pub(crate) fn table_of(
    game: GameId,
    format: Format,
    spec: &ScheduleSpec,
) -> Result<(usize, Value), LeagueError> {
    let (seats, settings) = table(game, format, &spec.settings)?;
    check_settings(game, format, &spec.rules, &settings, seats)?;
    Ok((seats, settings))
}

pub(crate) fn first_duplicate<E: PartialEq>(entrants: &[E]) -> Option<(usize, usize)> {
    entrants.iter().enumerate().find_map(|(i, a)| {
        let rest = entrants.get(i + 1..)?;
        rest.iter().position(|b| a == b).map(|j| (i, i + 1 + j))
    })
}

/// Seats per match, and the overrides each match gets. A `players` override must agree with
/// the format; without one, self-play and cross-play seat the game's
/// [`default_seats`](GameId::default_seats) (its default rule set's count), and the overrides
/// stay as given — a game without a `players` setting never sees one.
fn table(game: GameId, format: Format, settings: &Value) -> Result<(usize, Value), LeagueError> {
    let players = settings.get("players");
    let refuse = |need: &str| LeagueError::Players {
        game,
        format,
        need: need.to_owned(),
        got: players.map(Value::to_string).unwrap_or_default(),
    };
    let fixed = match format {
        Format::Triples => Some(3),
        Format::TeamPairs => Some(4),
        Format::SelfPlay | Format::CrossPlay => None,
    };
    if let Some(fixed) = fixed {
        if players.is_some_and(|p| p.as_u64() != Some(fixed)) {
            return Err(refuse(&fixed.to_string()));
        }
        return Ok((fixed as usize, settings.clone()));
    }
    let least = if format == Format::CrossPlay { 2 } else { 1 };
    let seats = match players {
        None => game.default_seats(),
        Some(p) => p
            .as_u64()
            .filter(|&p| p >= least && p <= 16)
            .map(|p| p as usize)
            .ok_or_else(|| refuse(&format!("{least} to 16")))?,
    };
    Ok((seats, settings.clone()))
}

/// Builds one game when the engine exists (catching a misspelt override now rather than in
/// every match); otherwise checks the rule set name and the overrides' shape.
fn check_settings(
    game: GameId,
    format: Format,
    rules: &str,
    settings: &Value,
    seats: usize,
) -> Result<(), LeagueError> {
    match croupier_games::new_game(game, rules, settings, 0) {
        Ok(built) if built.seats() == seats => Ok(()),
        Ok(built) => Err(LeagueError::Players {
            game,
            format,
            need: seats.to_string(),
            got: built.seats().to_string(),
        }),
        Err(e) => Err(e.into()),
    }
}

/// The pairings of one round, as entrant indices in increasing order.
fn pairings(format: Format, n: usize) -> Vec<Vec<usize>> {
    match format {
        Format::SelfPlay => (0..n).map(|a| vec![a]).collect(),
        Format::TeamPairs | Format::CrossPlay => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| vec![a, b]))
            .collect(),
        Format::Triples => (0..n)
            .flat_map(|a| (a + 1..n).flat_map(move |b| (b + 1..n).map(move |c| vec![a, b, c])))
            .collect(),
    }
}

/// The seatings of one pairing, in play order; `seating[i]` is the index of seat `i`'s entrant.
pub(crate) fn seatings(format: Format, unit: &[usize], seats: usize) -> Vec<Vec<usize>> {
    let rotate = |by: usize| -> Vec<usize> {
        (0..seats)
            .filter_map(|s| unit.get((s + by) % unit.len().max(1)).copied())
            .collect()
    };
    match format {
        Format::SelfPlay => vec![rotate(0)],
        Format::TeamPairs | Format::CrossPlay => vec![rotate(0), rotate(1)],
        Format::Triples => vec![rotate(0), rotate(1), rotate(2)],
    }
}

#[cfg(test)]
mod tests;

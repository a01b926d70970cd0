//! Competitions scheduled round by round: **Swiss rounds** and **budgeted adaptive ranking**
//! ([`Plan`]). Instead of a whole schedule at creation, the scheduler asks [`next_round`]
//! "what next?" each time a round has finished, passing the entrants and every finished
//! result; it gets the next round's matches (or none, when the plan is done) and the progress
//! toward a decided ranking. Pure: the same inputs give the same round.
//!
//! * **Groups as today.** A group is what a round-robin plays for one pairing, seated by the
//!   same `seatings`: a triple's 3 rotations (No Thanks, Splendor), a pair's 2 seatings
//!   (Guandan, Bridge, Hanabi cross-play) or one self-play match. Every group of round `r` is
//!   played on the round's seed `splitmix64(base_seed + r)`, so the whole round meets the same
//!   deals; groups come in an order shuffled from the round's order stream, their matches
//!   consecutive.
//! * **Standing** is the [`fitted`](crate::fitted) strength over all results so far (a win over
//!   strong opponents counts for more than points would say); the first round, with nothing
//!   known, orders the field by the round's order stream.
//! * **Swiss** ([`swiss`]): each round groups entrants of similar standing, avoiding groups
//!   that met before; the entrants left over (n mod group size) sit out with a bye, those with
//!   the fewest byes and the lowest standing first. A bye is no game: it neither helps nor hurts
//!   the fitted ranking. The number of rounds is the organiser's or [`swiss_rounds`].
//! * **Adaptive** ([`adaptive`]): each round plays the groups whose order is least certain and
//!   stops when what must be decided ([`Decide`]) is separated at 95%, or when the next round
//!   would pass the match budget; the places still undecided are reported as ties.

mod adaptive;
mod swiss;

use croupier_games::GameId;
use serde::{Deserialize, Serialize};

use crate::fit::FieldFit;
pub(crate) use crate::fit::Z_95;
use crate::results::MatchResult;
use crate::schedule::{first_duplicate, format_of, seatings, table_of};
use crate::seed::{round_seed, SplitMix64};
use crate::{Format, LeagueError, PlannedMatch, ScheduleSpec};

pub use swiss::swiss_rounds;

/// How a round-by-round competition chooses its groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Plan {
    /// Swiss rounds; `rounds: None` lets [`swiss_rounds`] choose from the field size.
    Swiss {
        #[serde(default)]
        rounds: Option<u32>,
    },
    /// Adaptive rounds until `decide` is separated at 95% or `budget` matches are played.
    Adaptive { budget: u32, decide: Decide },
}

/// What an adaptive competition must decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decide {
    /// Every pair of neighbours in the final order.
    Order,
    /// Who the top `k` are: place k significantly ahead of every entrant below it (the order
    /// within the top k is reported, not waited for).
    Top(u32),
}

/// Where the next round continues from: its round number (0 for the first), and the next free
/// ordinal and group number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundStart {
    pub round: u32,
    pub ordinal: u32,
    pub group: u32,
}

/// The next round and where the competition stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NextRound<E> {
    /// Empty when the plan is done.
    pub matches: Vec<PlannedMatch<E>>,
    /// Entrants sitting this round out (Swiss: n mod the group size).
    pub byes: Vec<E>,
    pub progress: Progress,
}

/// Progress toward a decided ranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Rounds finished before this one.
    pub rounds_played: u32,
    /// Swiss: the number of rounds; adaptive: `None`.
    pub rounds: Option<u32>,
    /// Finished matches so far.
    pub matches_played: u32,
    /// Adaptive: the match budget.
    pub budget: Option<u32>,
    /// Whether what must be decided is decided (Swiss: the whole order).
    pub decided: bool,
    /// Whether the plan is done (no more rounds).
    pub finished: bool,
    /// Runs of places, `(first, last)`, whose order is not yet significant: over the whole
    /// order (Swiss; adaptive `Order`, at the threshold it stops at), or over the top k + 1
    /// at 95% (adaptive `Top`).
    pub ties: Vec<(u32, u32)>,
}

/// Where a round-by-round competition stands, as stored after each of its rounds is planned
/// (and read back by the pages).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundsState<E> {
    /// Rounds planned so far (the round just planned included).
    pub planned: u32,
    /// The last planned round's matches.
    pub round_matches: u32,
    /// Entrants sitting the last planned round out.
    pub byes: Vec<E>,
    /// Progress when the round was planned (the results before it).
    pub progress: Progress,
}

/// The matches `plan` plays for a field of `entrants`: a Swiss plan's rounds × groups ×
/// seatings (its rounds chosen by [`swiss_rounds`] when not given), an adaptive plan's budget
/// (at most). What the organiser's form shows before anything is created.
pub fn plan_matches(format: Format, plan: &Plan, entrants: usize) -> u64 {
    let groups = (entrants / format.min_entrants()) as u64;
    let per_group = u64::from(crate::matches_per_group(format));
    match *plan {
        Plan::Swiss { rounds } => {
            let rounds = rounds.unwrap_or_else(|| swiss_rounds(format, entrants));
            u64::from(rounds) * groups * per_group
        }
        Plan::Adaptive { budget, .. } => u64::from(budget),
    }
}

/// The next round of `plan` for `entrants` given every finished result so far (see the module
/// docs). `spec` gives the rule set, format, overrides and base seed as for
/// [`schedule`](crate::schedule) (its `rounds` is not used). Errors: the format or settings are
/// refused, an entrant is listed twice, too few entrants for one group, a Swiss plan of 0
/// rounds or more than [`MAX_ROUNDS`](crate::MAX_ROUNDS), or an adaptive budget below one group.
pub fn next_round<E: Clone + Ord>(
    game: GameId,
    spec: &ScheduleSpec,
    plan: &Plan,
    entrants: &[E],
    results: &[MatchResult<E>],
    start: RoundStart,
) -> Result<NextRound<E>, LeagueError> {
    let format = format_of(game, spec)?;
    let (seats, settings) = table_of(game, format, spec)?;
    if let Some((first, second)) = first_duplicate(entrants) {
        return Err(LeagueError::DuplicateEntrant { first, second });
    }
    let size = format.min_entrants();
    if entrants.len() < size {
        return Err(LeagueError::TooFewEntrants {
            format,
            need: size,
            got: entrants.len(),
        });
    }
    let per_group = seatings(format, &vec![0; size], seats).len();
    let field = Field::new(game, format, entrants, results, spec.base_seed, start.round);
    let (units, byes, progress) = match *plan {
        Plan::Swiss { rounds } => {
            let rounds = rounds.unwrap_or_else(|| swiss_rounds(format, entrants.len()));
            if rounds == 0 || rounds > crate::MAX_ROUNDS {
                return Err(LeagueError::SwissRounds(rounds));
            }
            swiss::round(&field, rounds, start.round)
        }
        Plan::Adaptive { budget, decide } => {
            if (budget as usize) < per_group {
                return Err(LeagueError::Budget {
                    budget,
                    group: per_group,
                });
            }
            adaptive::round(&field, budget, decide, per_group, start.round)
        }
    };
    let seed = round_seed(spec.base_seed, start.round);
    let mut rng = SplitMix64::order(spec.base_seed, start.round);
    let mut units = units;
    rng.shuffle(&mut units);
    let mut matches = Vec::new();
    for (k, mut unit) in units.into_iter().enumerate() {
        rng.shuffle(&mut unit);
        for seating in seatings(format, &unit, seats) {
            matches.push(PlannedMatch {
                ordinal: start.ordinal + matches.len() as u32,
                round: start.round,
                group: start.group + k as u32,
                seed,
                seats: seating.iter().map(|&i| entrants[i].clone()).collect(),
                settings: settings.clone(),
            });
        }
    }
    Ok(NextRound {
        matches,
        byes: byes.into_iter().map(|i| entrants[i].clone()).collect(),
        progress,
    })
}

/// The field as a round sees it: fitted, ordered, and what each entrant has played.
pub(crate) struct Field {
    pub(crate) format: Format,
    pub(crate) fit: FieldFit,
    /// Entrant indices, strongest first (ties by the round's order stream).
    pub(crate) order: Vec<usize>,
    /// Per entrant, the distinct groups it has played, as sorted member lists.
    pub(crate) met: Vec<Vec<Vec<usize>>>,
    /// Finished matches that count.
    pub(crate) matches_played: u32,
}

impl Field {
    fn new<E: Ord>(
        game: GameId,
        format: Format,
        entrants: &[E],
        results: &[MatchResult<E>],
        base_seed: u64,
        round: u32,
    ) -> Field {
        let n = entrants.len();
        let fit = FieldFit::new(game, entrants, results);
        let index: std::collections::BTreeMap<&E, usize> =
            entrants.iter().enumerate().map(|(i, e)| (e, i)).collect();
        let mut groups: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
        let mut matches_played = 0;
        for result in results.iter().filter(|r| r.counts()) {
            matches_played += 1;
            let members = groups.entry(result.group).or_default();
            for seat in &result.seats {
                if let Some(&i) = index.get(&seat.entrant) {
                    members.push(i);
                }
            }
        }
        let mut met = vec![Vec::new(); n];
        for mut members in groups.into_values() {
            members.sort_unstable();
            members.dedup();
            for &i in &members {
                met[i].push(members.clone());
            }
        }
        let mut tiebreak: Vec<u64> = Vec::with_capacity(n);
        let mut rng = SplitMix64::order(base_seed ^ 0x5357_4953_535f_7431, round); // "SWISS_t1"
        for _ in 0..n {
            tiebreak.push(rng.next_u64());
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            fit.fit.theta[b]
                .total_cmp(&fit.fit.theta[a])
                .then(tiebreak[a].cmp(&tiebreak[b]))
        });
        Field {
            format,
            fit,
            order,
            met,
            matches_played,
        }
    }

    /// The z of place `a` over place `b`.
    pub(crate) fn z(&self, a: usize, b: usize) -> f64 {
        match (self.order.get(a), self.order.get(b)) {
            (Some(&i), Some(&j)) => self.fit.fit.z(i, j),
            _ => 0.0,
        }
    }

    /// Runs of places (1-based) among the first `places` whose neighbours are less than `z`
    /// standard errors apart.
    pub(crate) fn ties(&self, places: usize, z: f64) -> Vec<(u32, u32)> {
        let last = places.min(self.order.len()).saturating_sub(1);
        let mut out = Vec::new();
        let mut start = 0;
        for p in 0..=last {
            if p == last || self.z(p, p + 1) >= z {
                if p > start {
                    out.push((start as u32 + 1, p as u32 + 1));
                }
                start = p + 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;

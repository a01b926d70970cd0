//! Ladders: continuous matchmaking. Instead of a fixed schedule, the scheduler asks
//! [`next_groups`] for a few more duplicate groups whenever the queue runs low, passing the
//! field as it stands (each entrant's rating and how many groups it has played or has waiting).
//! The rules are in `docs/rules.md#ladders`; in short:
//!
//! * **Native formats.** A group is what a round-robin plays for one pairing, built by the same
//!   `seatings` and checked by the same `table_of` as [`schedule`](crate::schedule): a triple's
//!   3 rotations (No Thanks, Splendor), a pair's 2 seatings (Guandan; Bridge table 1 with A
//!   North-South, table 2 with A East-West; Hanabi cross-play), or one self-play match with the
//!   entrant in every seat (Hanabi).
//! * **Seeds.** Group `g` is played on `splitmix64(seed_base + g)` with the top bit cleared —
//!   the seed [`schedule`](crate::schedule) gives round `g` — and is its own round
//!   (`round == group`). Its pairing randomness comes from the independent order stream of that
//!   round. The same inputs give the same groups.
//! * **Anchor.** Each group is built around one entrant. Entrants still in *placement* (fewer
//!   than [`LadderPick::placement`] groups played or pending) come first, fewest first; then
//!   the most under-sampled: highest σ, then fewest played + pending, then entrant order.
//!   Entrants with [`LadderPick::pending_cap`] groups pending take no part until some finish.
//! * **Opponents.** The rest of the group is drawn uniformly (from the group's seed) among the
//!   [`LadderPick::spread`] + needed eligible entrants whose match with the anchor is of the
//!   best quality — the Weng-Lin/TrueSkill draw probability of the two, which prefers a close μ
//!   and, at equal μ, the surer rating; ties go to the fewest played + pending, then entrant
//!   order. The group's entrants are then shuffled, so who sits first varies.
//! * **Load.** With `want_groups` above 1 the groups are chosen greedily, each counting as
//!   pending for the next, so the load spreads and the cap holds.
//! * **Waiting.** Too few eligible entrants for the format gives an empty list, not an error.

use croupier_games::GameId;
use serde::{Deserialize, Serialize};
use skillratings::weng_lin::WengLinConfig;

use crate::schedule::{first_duplicate, format_of, seatings, table_of};
use crate::seed::{round_seed, SplitMix64};
use crate::{LeagueError, PlannedMatch, ScheduleSpec, Skill};

/// One entrant of a ladder as the scheduler sees it now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contender<E> {
    pub entrant: E,
    /// Weng-Lin μ (25 for a newcomer; any equal value in unrated games).
    pub mu: f64,
    /// Weng-Lin σ (25/3 for a newcomer).
    pub sigma: f64,
    /// Rated groups (duplicate sets) finished so far.
    pub played: u32,
    /// Groups queued or running now.
    pub pending: u32,
}

impl<E> Contender<E> {
    /// A newcomer: the starting rating (μ 25, σ 25/3), nothing played or pending.
    pub fn new(entrant: E) -> Self {
        let start = Skill::default();
        Contender {
            entrant,
            mu: start.mu,
            sigma: start.sigma,
            played: 0,
            pending: 0,
        }
    }
}

/// How a ladder picks its groups. Deserializes from settings; every field has a default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LadderPick {
    /// Groups played + pending below which an entrant is still placing and anchors first (5).
    pub placement: u32,
    /// Groups pending at which an entrant waits for some to finish (2).
    pub pending_cap: u32,
    /// How many more candidates than needed the opponents are drawn from (2: a pair's opponent
    /// is one of the 3 best matches, a triple's two are 2 of the best 4).
    pub spread: usize,
}

impl Default for LadderPick {
    fn default() -> Self {
        LadderPick {
            placement: 5,
            pending_cap: 2,
            spread: 2,
        }
    }
}

/// Where the new groups continue from: the next free ordinal and group number, and the ladder's
/// seed base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextIds {
    pub ordinal: u32,
    pub group: u32,
    pub seed_base: u64,
}

/// Chooses up to `want_groups` more groups of a ladder (rules in `docs/rules.md#ladders` and
/// the module docs) and returns their matches in play order: whole groups in `game`'s native
/// format, ordinals and group numbers counting up from `next`, group `g` on seed
/// `splitmix64(next.seed_base + g)` (top bit cleared) with `round == g`.
///
/// `spec` gives the rule set, the format and the setting overrides exactly as for
/// [`schedule`](crate::schedule); its `rounds` and `base_seed` are not used. Fewer groups (or
/// none) come back when too few entrants are below the pending cap, or the ordinals would pass
/// `i32::MAX`. Errors: the format or settings are refused, or an entrant is listed twice.
pub fn next_groups<E: Clone + Ord>(
    game: GameId,
    spec: &ScheduleSpec,
    pick: &LadderPick,
    field: &[Contender<E>],
    want_groups: usize,
    next: NextIds,
) -> Result<Vec<PlannedMatch<E>>, LeagueError> {
    let format = format_of(game, spec)?;
    let (seats, settings) = table_of(game, format, spec)?;
    let entrants: Vec<&E> = field.iter().map(|c| &c.entrant).collect();
    if let Some((first, second)) = first_duplicate(&entrants) {
        return Err(LeagueError::DuplicateEntrant { first, second });
    }
    let mut ladder = Ladder {
        field,
        pick,
        load: field.iter().map(|c| c.pending).collect(),
        beta: WengLinConfig::new().beta,
    };
    let size = format.min_entrants();
    let mut planned = Vec::new();
    for k in 0..want_groups {
        let Some(group) = u32::try_from(k)
            .ok()
            .and_then(|k| next.group.checked_add(k))
        else {
            break;
        };
        let open = ladder.open();
        if open.len() < size {
            break;
        }
        let mut rng = SplitMix64::order(next.seed_base, group);
        let anchor = ladder.anchor(&open);
        let mut unit = ladder.opponents(&open, anchor, size - 1, &mut rng);
        unit.push(anchor);
        rng.shuffle(&mut unit);
        let seed = round_seed(next.seed_base, group);
        let tables = seatings(format, &unit, seats);
        let ordinals = (planned.len() + tables.len())
            .try_into()
            .ok()
            .and_then(|count: u32| next.ordinal.checked_add(count));
        if ordinals.is_none_or(|last| i32::try_from(last).is_err()) {
            break;
        }
        for seating in tables {
            planned.push(PlannedMatch {
                ordinal: next.ordinal + planned.len() as u32,
                round: group,
                group,
                seed,
                seats: seating
                    .iter()
                    .filter_map(|&i| entrants.get(i).map(|&e| e.clone()))
                    .collect(),
                settings: settings.clone(),
            });
        }
        for i in unit {
            if let Some(load) = ladder.load.get_mut(i) {
                *load += 1;
            }
        }
    }
    Ok(planned)
}

/// The field while groups are being chosen: `load[i]` is entrant `i`'s pending groups,
/// including the ones chosen so far.
struct Ladder<'a, E> {
    field: &'a [Contender<E>],
    pick: &'a LadderPick,
    load: Vec<u32>,
    /// Weng-Lin β, the skill difference that makes a win about 76% likely.
    beta: f64,
}

impl<E: Ord> Ladder<'_, E> {
    /// The entrants below the pending cap, by index.
    fn open(&self) -> Vec<usize> {
        (0..self.field.len())
            .filter(|&i| self.pending(i) < self.pick.pending_cap)
            .collect()
    }

    fn pending(&self, i: usize) -> u32 {
        self.load.get(i).copied().unwrap_or(u32::MAX)
    }

    /// Groups played + pending.
    fn busy(&self, i: usize) -> u32 {
        let played = self.field.get(i).map_or(0, |c| c.played);
        played.saturating_add(self.pending(i))
    }

    fn placing(&self, i: usize) -> bool {
        self.busy(i) < self.pick.placement
    }

    fn sigma(&self, i: usize) -> f64 {
        self.field.get(i).map_or(0.0, |c| c.sigma)
    }

    fn by_entrant(&self, a: usize, b: usize) -> std::cmp::Ordering {
        let entrant = |i: usize| self.field.get(i).map(|c| &c.entrant);
        entrant(a).cmp(&entrant(b))
    }

    /// Placing entrants first (fewest played + pending first), then highest σ, then fewest
    /// played + pending; entrant order last. `open` is not empty.
    fn anchor(&self, open: &[usize]) -> usize {
        let first = open.iter().copied().min_by(|&a, &b| {
            let (pa, pb) = (self.placing(a), self.placing(b));
            let sigma = if pa && pb {
                std::cmp::Ordering::Equal
            } else {
                self.sigma(b).total_cmp(&self.sigma(a))
            };
            pb.cmp(&pa)
                .then(sigma)
                .then(self.busy(a).cmp(&self.busy(b)))
                .then_with(|| self.by_entrant(a, b))
        });
        first.unwrap_or(0)
    }

    /// `need` opponents for `anchor`, drawn uniformly among the `need + spread` open entrants
    /// of best match quality with it.
    fn opponents(
        &self,
        open: &[usize],
        anchor: usize,
        need: usize,
        rng: &mut SplitMix64,
    ) -> Vec<usize> {
        let mut near: Vec<(f64, usize)> = open
            .iter()
            .filter(|&&i| i != anchor)
            .map(|&i| (self.quality(anchor, i), i))
            .collect();
        near.sort_by(|(qa, a), (qb, b)| {
            qb.total_cmp(qa)
                .then(self.busy(*a).cmp(&self.busy(*b)))
                .then_with(|| self.by_entrant(*a, *b))
        });
        let mut pool: Vec<usize> = near.into_iter().map(|(_, i)| i).collect();
        pool.truncate(need.saturating_add(self.pick.spread));
        rng.shuffle(&mut pool);
        pool.truncate(need);
        pool
    }

    /// The Weng-Lin/TrueSkill match quality of two entrants: the probability of a draw
    /// relative to the best possible, `√(2β² / c²) · exp(−(μa − μb)² / 2c²)` with
    /// `c² = 2β² + σa² + σb²`.
    fn quality(&self, a: usize, b: usize) -> f64 {
        let (Some(a), Some(b)) = (self.field.get(a), self.field.get(b)) else {
            return 0.0;
        };
        let two_beta2 = 2.0 * self.beta * self.beta;
        let c2 = two_beta2 + a.sigma * a.sigma + b.sigma * b.sigma;
        (two_beta2 / c2).sqrt() * (-(a.mu - b.mu).powi(2) / (2.0 * c2)).exp()
    }
}

#[cfg(test)]
mod tests;

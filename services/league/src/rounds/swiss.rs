//! Swiss rounds: groups of similar standing, new groups where possible, byes for the rest.
//!
//! Each round takes the field in standing order, sets aside the byes (n mod the group size:
//! fewest byes so far first, then the lowest standing), and then, greedily from the top, groups
//! the highest entrant left with the group size − 1 others among the next few
//! ([`WINDOW`] per seat) that cost least: a group already played costs most (10⁶), then each pair of
//! its entrants that met before (as much as 3 places), then the distance in standing. Near the bottom of the list
//! the choice may be forced, so members are then swapped between groups up to
//! [`SWAP_REACH`] apart while that lowers the same cost; a repeat is left only when no such
//! swap avoids it.

use super::{Field, Progress};
use crate::Format;

/// Candidates considered per seat to fill: a triple looks 8 places down, a pair 4.
const WINDOW: usize = 4;

/// The rounds a Swiss competition plays when the organiser names none: enough for the fitted
/// ranking of a field of `entrants` to find its order (see `docs/competitions.md`):
/// `4·⌈log₂ n⌉ + 8` for triples (40 for 200 entrants: Kendall τ about 0.9 in the benchmark),
/// `6·⌈log₂ n⌉ + 8` for pairs and self-play (a pair ranks two at once); never more than half
/// the matches of a round-robin (a small field of pairs is better played as one), at least 1,
/// at most [`MAX_ROUNDS`](crate::MAX_ROUNDS).
pub fn swiss_rounds(format: Format, entrants: usize) -> u32 {
    let log2 = usize::BITS - entrants.max(2).saturating_sub(1).leading_zeros();
    let per = match format {
        Format::Triples => 4,
        Format::TeamPairs | Format::CrossPlay | Format::SelfPlay => 6,
    };
    let groups = (entrants / format.min_entrants()).max(1) as u128;
    let half = crate::match_count(format, entrants, 1)
        / (groups * u128::from(crate::matches_per_group(format)))
        / 2;
    let half = u32::try_from(half).unwrap_or(u32::MAX).max(1);
    (per * log2 + 8).min(half).min(crate::MAX_ROUNDS)
}

/// Round `round` of `rounds`: its groups (entrant indices), its byes and the progress.
pub(super) fn round(
    field: &Field,
    rounds: u32,
    round: u32,
) -> (Vec<Vec<usize>>, Vec<usize>, Progress) {
    let n = field.order.len();
    let ties = field.ties(n, super::Z_95);
    let finished = round >= rounds;
    let progress = Progress {
        rounds_played: round.min(rounds),
        rounds: Some(rounds),
        matches_played: field.matches_played,
        budget: None,
        decided: ties.is_empty(),
        finished,
        ties,
    };
    if finished {
        return (Vec::new(), Vec::new(), progress);
    }
    let size = field.format.min_entrants();
    let byes_so_far = |i: usize| -> u32 {
        round.saturating_sub(field.met[i].len().try_into().unwrap_or(u32::MAX))
    };
    let mut by_bye: Vec<(usize, usize)> = field.order.iter().copied().enumerate().collect();
    by_bye.sort_by(|&(pa, a), &(pb, b)| byes_so_far(a).cmp(&byes_so_far(b)).then(pb.cmp(&pa)));
    let mut byes: Vec<usize> = by_bye.iter().take(n % size).map(|&(_, i)| i).collect();
    byes.sort_unstable();
    let mut left: Vec<usize> = field
        .order
        .iter()
        .copied()
        .filter(|i| byes.binary_search(i).is_err())
        .collect();
    let mut groups = Vec::new();
    while let Some((&anchor, rest)) = left.split_first() {
        let pool: Vec<usize> = rest.iter().copied().take(WINDOW * (size - 1)).collect();
        let chosen = cheapest(field, anchor, &pool, size - 1);
        let mut group = vec![anchor];
        group.extend(chosen.iter().map(|&k| pool[k]));
        left.retain(|i| !group.contains(i));
        groups.push(group);
    }
    improve(field, &mut groups);
    (groups, byes, progress)
}

/// The cost of two entrants meeting again, in places of standing: a pair repeat is worth
/// avoiding only when an opponent about as close is at hand.
const PAIR_REPEAT: f64 = 3.0;

/// Groups this close in the list may swap members.
const SWAP_REACH: usize = 3;

/// Swaps members between nearby groups while that lowers their total [`group_cost`]: the
/// greedy pass is forced at the bottom of the list, where a swap with a group above can
/// still avoid a repeat.
fn improve(field: &Field, groups: &mut [Vec<usize>]) {
    let place: Vec<usize> = {
        let mut place = vec![0; field.order.len()];
        for (p, &i) in field.order.iter().enumerate() {
            place[i] = p;
        }
        place
    };
    for _ in 0..5 {
        let mut better = false;
        for g in 0..groups.len() {
            for h in g + 1..groups.len().min(g + 1 + SWAP_REACH) {
                for a in 0..groups[g].len() {
                    for b in 0..groups[h].len() {
                        let before = group_cost(field, &place, &groups[g])
                            + group_cost(field, &place, &groups[h]);
                        let (x, y) = (groups[g][a], groups[h][b]);
                        groups[g][a] = y;
                        groups[h][b] = x;
                        let after = group_cost(field, &place, &groups[g])
                            + group_cost(field, &place, &groups[h]);
                        if after + 1e-9 < before {
                            better = true;
                        } else {
                            groups[g][a] = x;
                            groups[h][b] = y;
                        }
                    }
                }
            }
        }
        if !better {
            break;
        }
    }
}

/// A group's repeats ([`repeat_cost`]) plus how far its members are below its best member.
fn group_cost(field: &Field, place: &[usize], group: &[usize]) -> f64 {
    let mut members = group.to_vec();
    let top = members.iter().map(|&i| place[i]).min().unwrap_or(0);
    let spread: usize = members.iter().map(|&i| place[i] - top).sum();
    repeat_cost(field, &mut members) + spread as f64
}

/// The `need` positions in `pool` that make the cheapest group with `anchor`.
fn cheapest(field: &Field, anchor: usize, pool: &[usize], need: usize) -> Vec<usize> {
    let mut best: Option<(f64, Vec<usize>)> = None;
    let mut pick: Vec<usize> = (0..need).collect();
    if need > pool.len() {
        return (0..pool.len()).collect();
    }
    loop {
        let mut group: Vec<usize> = pick.iter().map(|&k| pool[k]).collect();
        group.push(anchor);
        let distance: usize = pick.iter().map(|&k| k + 1).sum();
        let cost = repeat_cost(field, &mut group) + distance as f64;
        if best.as_ref().is_none_or(|(b, _)| cost < *b) {
            best = Some((cost, pick.clone()));
        }
        // Next combination of `need` out of `pool.len()`, in lexicographic order.
        let Some(at) = (0..need).rev().find(|&i| pick[i] < pool.len() - need + i) else {
            break;
        };
        pick[at] += 1;
        for i in at + 1..need {
            pick[i] = pick[i - 1] + 1;
        }
    }
    best.map(|(_, p)| p).unwrap_or_default()
}

/// 10⁶ when the exact group has played, plus [`PAIR_REPEAT`] per pair of its entrants that
/// shared a group.
fn repeat_cost(field: &Field, group: &mut [usize]) -> f64 {
    group.sort_unstable();
    let Some(&first) = group.first() else {
        return 0.0;
    };
    let mut cost = 0.0;
    if field.met[first].iter().any(|g| g.as_slice() == &*group) {
        cost += 1e6;
    }
    for (k, &a) in group.iter().enumerate() {
        for &b in &group[k + 1..] {
            let shared = field.met[a]
                .iter()
                .filter(|g| g.binary_search(&b).is_ok())
                .count();
            cost += PAIR_REPEAT * shared as f64;
        }
    }
    cost
}

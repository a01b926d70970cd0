//! Budgeted adaptive ranking: each round plays the groups whose order is least certain.
//!
//! The pairs of places that must be decided are the neighbours of the whole order
//! ([`Decide::Order`]), or place k against every place below it ([`Decide::Top`]: who the top k
//! are; the order within them is reported, as ties at 95%, but not waited for). Those `m`
//! comparisons must hold together at 95% (Bonferroni): a pair is settled when the fitted
//! difference is `Φ⁻¹(1 − 0.025/m)` standard errors of the difference or more (1.96 for one
//! pair, 3.65 for the 190 of the top 10 of 200). The ranking is looked at
//! after every round, which the bound does not price in; the benchmark measures how often the
//! decided top is the true one. Each entrant in an unsettled pair is *in question*, most urgent
//! the one with the smallest z. A round takes the entrants in question, most urgent first, and
//! builds each a group with the closest-in-strength entrants not yet in this pass's groups,
//! those in question first. A round holds as many groups as a Swiss round would (n / group
//! size) when the budget pays for them: when too few entrants are in question to fill it,
//! further passes give them more groups (at most [`MAX_PASSES`] each), never the same group
//! twice in a round, as its deals are the same. It stops
//! when nothing is in question (decided) or the budget cannot pay for one more group.

use std::collections::BTreeSet;

use super::{Decide, Field, Progress};
use crate::normal_quantile;

/// The most groups one entrant plays in one round.
const MAX_PASSES: usize = 32;

/// Round `round`: its groups (entrant indices), no byes, and the progress.
pub(super) fn round(
    field: &Field,
    budget: u32,
    decide: Decide,
    per_group: usize,
    round: u32,
) -> (Vec<Vec<usize>>, Vec<usize>, Progress) {
    let n = field.order.len();
    let places = match decide {
        Decide::Order => n,
        Decide::Top(k) => (k as usize).saturating_add(1).min(n),
    };
    let comparisons = match decide {
        Decide::Top(k) if (k as usize) < n => n - k as usize,
        _ => n.saturating_sub(1),
    };
    let needed = normal_quantile(1.0 - 0.025 / comparisons.max(1) as f64);
    let mut urgency = vec![f64::INFINITY; n];
    let mut note = |a: usize, b: usize| {
        let z = field.z(a, b);
        if z < needed {
            urgency[a] = urgency[a].min(z);
            urgency[b] = urgency[b].min(z);
        }
    };
    match decide {
        Decide::Order => (0..n.saturating_sub(1)).for_each(|p| note(p, p + 1)),
        Decide::Top(k) => {
            let k = k as usize;
            if k >= 1 && k < n {
                (k..n).for_each(|j| note(k - 1, j));
            }
        }
    }
    let in_question: Vec<usize> = {
        let mut places: Vec<usize> = (0..n).filter(|&p| urgency[p].is_finite()).collect();
        places.sort_by(|&a, &b| urgency[a].total_cmp(&urgency[b]).then(a.cmp(&b)));
        places
    };
    let remaining = budget.saturating_sub(field.matches_played) as usize;
    let max_groups = remaining / per_group.max(1);
    let decided = in_question.is_empty();
    let finished = decided || max_groups == 0;
    let progress = Progress {
        rounds_played: round,
        rounds: None,
        matches_played: field.matches_played,
        budget: Some(budget),
        decided,
        finished,
        ties: match decide {
            Decide::Order => field.ties(places, needed),
            Decide::Top(_) => field.ties(places, super::Z_95),
        },
    };
    if finished {
        return (Vec::new(), Vec::new(), progress);
    }
    let size = field.format.min_entrants();
    let want = max_groups.min((n / size).max(1));
    let theta = |p: usize| field.fit.fit.theta[field.order[p]];
    let mut chosen: BTreeSet<Vec<usize>> = BTreeSet::new();
    let mut groups = Vec::new();
    for _ in 0..MAX_PASSES {
        let before = groups.len();
        let mut used = vec![false; n];
        for &p in &in_question {
            if groups.len() >= want {
                break;
            }
            if used[p] {
                continue;
            }
            let mut group = vec![p];
            while group.len() < size {
                let last = group.len() + 1 == size;
                let fits = |q: usize| {
                    if used[q] || group.contains(&q) {
                        return false;
                    }
                    if !last {
                        return true;
                    }
                    let mut whole = group.clone();
                    whole.push(q);
                    whole.sort_unstable();
                    !chosen.contains(&whole)
                };
                let next = (0..n).filter(|&q| fits(q)).min_by(|&a, &b| {
                    let key = |q: usize| (!urgency[q].is_finite(), (theta(q) - theta(p)).abs());
                    let (ka, kb) = (key(a), key(b));
                    ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1)).then(a.cmp(&b))
                });
                match next {
                    Some(q) => group.push(q),
                    None => break,
                }
            }
            let mut whole = group.clone();
            whole.sort_unstable();
            if group.len() < size || chosen.contains(&whole) {
                continue;
            }
            for &q in &group {
                used[q] = true;
            }
            chosen.insert(whole);
            groups.push(group.iter().map(|&q| field.order[q]).collect());
        }
        if groups.len() == before || groups.len() >= want {
            break;
        }
    }
    (groups, Vec::new(), progress)
}

//! A simple rule-based Guandan bot: shed the smallest non-bomb combination, keep bombs for
//! emergencies, never beat the partner, avoid spending wild cards.

use super::Bot;
use crate::guandan::action::{Action, Play};
use crate::guandan::{Guandan, Observation};
use crate::rng::GameRng;

/// Leads the combination that sheds the most cards at the lowest rank; follows with the
/// cheapest non-bomb that beats an opponent and passes on the partner's play; bombs only when
/// an opponent is down to `bomb_when_rest` cards or fewer. Deterministic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuandanHeuristic {
    pub bomb_when_rest: usize,
}

impl Default for GuandanHeuristic {
    fn default() -> Self {
        GuandanHeuristic { bomb_when_rest: 6 }
    }
}

/// Lower is cheaper: wild cards spent, then rank, then fewer cards kept back.
fn cost(play: &Play, level: u8) -> (usize, u8, std::cmp::Reverse<usize>) {
    let wilds = play.cards.iter().filter(|c| c.is_wild(level)).count();
    (wilds, play.key(level), std::cmp::Reverse(play.cards.len()))
}

impl Bot<Guandan> for GuandanHeuristic {
    fn choose(
        &mut self,
        observation: &Observation,
        legal: &[Action],
        _rng: &mut GameRng,
    ) -> Option<Action> {
        let level = observation.cur_rank.0;
        let plays = || {
            legal.iter().filter_map(|a| match a {
                Action::Play(p) => Some(p),
                _ => None,
            })
        };
        if plays().next().is_none() {
            // Tribute and return lists are in hand order: the first is the lowest.
            return legal.first().cloned();
        }
        let cheapest = |bombs: bool| {
            plays()
                .filter(|p| p.is_bomb() == bombs)
                .min_by_key(|p| cost(p, level))
                .cloned()
                .map(Action::Play)
        };
        let Some(greater) = observation.greater_pos else {
            return cheapest(false).or_else(|| cheapest(true));
        };
        let partner = observation
            .my_pos
            .is_some_and(|me| (me.0 + 2) % 4 == greater.0);
        if partner {
            return Some(Action::Pass);
        }
        let danger = observation
            .public_info
            .get(greater.0)
            .is_some_and(|p| p.rest <= self.bomb_when_rest);
        cheapest(false)
            .or_else(|| if danger { cheapest(true) } else { None })
            .or(Some(Action::Pass))
    }
}

//! A simple No Thanks heuristic: take a card when it is cheap for you, pass otherwise.

use super::Bot;
use crate::nothanks::{marginal_card_points, Action, NoThanks, Observation};
use crate::rng::GameRng;

/// Takes the face-up card when its *cost* — what it adds to your card points (nothing when it
/// extends a run upwards, less than nothing when it extends one downwards) minus the coins on it —
/// is at most a limit that grows as your purse empties: `rich_limit` with `rich_coins` or more,
/// plus `step` for every coin short of that. Never passes with no coins (it cannot).
/// Deterministic: it draws nothing from the RNG.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoThanksHeuristic {
    pub rich_limit: i64,
    pub rich_coins: u32,
    pub step: i64,
}

impl Default for NoThanksHeuristic {
    fn default() -> Self {
        NoThanksHeuristic {
            rich_limit: 3,
            rich_coins: 10,
            step: 2,
        }
    }
}

impl NoThanksHeuristic {
    /// Whether to pick the face-up card, seen from the seat on turn.
    pub fn wants_card(&self, observation: &Observation) -> bool {
        let (Some(seat), Some(card)) = (observation.to_act, observation.field_card) else {
            return true;
        };
        let Some(me) = observation.player(seat) else {
            return true;
        };
        let cost = marginal_card_points(&me.cards, card) - i64::from(observation.field_coins);
        let short = i64::from(self.rich_coins.saturating_sub(me.coins));
        me.coins == 0 || cost <= self.rich_limit + short * self.step
    }
}

impl Bot<NoThanks> for NoThanksHeuristic {
    fn choose(
        &mut self,
        observation: &Observation,
        legal: &[Action],
        _rng: &mut GameRng,
    ) -> Option<Action> {
        let wanted = if self.wants_card(observation) {
            Action::Pick
        } else {
            Action::Pass
        };
        if legal.contains(&wanted) {
            Some(wanted)
        } else {
            legal.first().copied()
        }
    }
}

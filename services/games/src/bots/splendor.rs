//! A greedy Splendor bot: buy the best-value card it can afford, else collect gems toward the
//! most attainable card, reserving it when gems cannot help.

use super::Bot;
use crate::rng::GameRng;
use crate::splendor::{Action, Card, Color, Gems, Observation, PlayerView, Splendor};

/// Greedy play, deterministic (it draws nothing from the RNG):
/// 1. buy the affordable card (face-up or reserved) with the most `points*2 + 1` per token paid,
///    a noble counting 6 (nobles are always claimed when a listed move names one);
/// 2. else pick a *target*, the face-up or reserved card with the most `points + 1` per missing
///    token, and take the gems that cover most of what it still lacks (most gems on a tie);
/// 3. else reserve the target if it is face up (a gold helps), else take any gems, else pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SplendorGreedy;

/// Tokens still missing for `card` after bonuses, gems and gold.
fn shortfall(me: &PlayerView, card: &Card) -> u32 {
    let missing: u32 = Color::GEMS
        .into_iter()
        .map(|c| u32::from(need(me, card, c)))
        .sum();
    missing.saturating_sub(u32::from(me.gems.gold))
}

/// Gems of `color` still missing for `card` (gold aside).
fn need(me: &PlayerView, card: &Card, color: Color) -> u8 {
    card.cost
        .get(color)
        .saturating_sub(me.bonuses.get(color))
        .saturating_sub(me.gems.get(color))
}

/// What a buy is worth per token paid.
fn buy_value(me: &PlayerView, action: &Action) -> Option<f64> {
    let card = match action {
        Action::Buy { card, .. } | Action::BuyReserved { card, .. } => card,
        _ => return None,
    };
    let paid = crate::splendor::payment(&card.cost, &me.gems, &me.bonuses)?;
    let noble = if action.noble().is_some() { 6.0 } else { 0.0 };
    Some((f64::from(card.points) * 2.0 + 1.0 + noble) / (f64::from(paid.total()) + 1.0))
}

/// Gems a take action adds, per colour.
fn taken(action: &Action) -> Option<Gems> {
    let mut gems = Gems::default();
    match action {
        Action::TakeDifferent { colors, .. } => colors.iter().for_each(|&c| *gems.slot(c) += 1),
        Action::TakeTwo { color, .. } => *gems.slot(*color) += 2,
        _ => return None,
    }
    Some(gems)
}

/// The first listed move that is best by `key` (ties keep list order).
fn best_by<F: Fn(&Action) -> Option<f64>>(legal: &[Action], key: F) -> Option<&Action> {
    let mut best: Option<(&Action, f64)> = None;
    for action in legal {
        if let Some(value) = key(action) {
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((action, value));
            }
        }
    }
    best.map(|(a, _)| a)
}

impl SplendorGreedy {
    /// The card worth collecting for.
    fn target(observation: &Observation, me: &PlayerView) -> Option<Card> {
        let cards = observation.table.cards.iter().chain(&me.reserved_cards);
        let mut best: Option<(Card, f64)> = None;
        for card in cards {
            let value = (f64::from(card.points) + 1.0) / (f64::from(shortfall(me, card)) + 1.0);
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((*card, value));
            }
        }
        best.map(|(c, _)| c)
    }

    fn pick(observation: &Observation, legal: &[Action]) -> Option<Action> {
        let me = observation.player(observation.to_act?)?;
        if let Some(buy) = best_by(legal, |a| buy_value(me, a)) {
            return Some(buy.clone());
        }
        let target = Self::target(observation, me)?;
        let useful = |a: &Action| {
            let gems = taken(a)?;
            let covered: u32 = Color::GEMS
                .into_iter()
                .map(|c| u32::from(gems.get(c).min(need(me, &target, c))))
                .sum();
            (covered > 0).then(|| f64::from(covered) * 10.0 + f64::from(gems.total()))
        };
        if let Some(take) = best_by(legal, useful) {
            return Some(take.clone());
        }
        let reserve = Action::Reserve {
            card: target,
            noble: None,
        };
        if legal.contains(&reserve) {
            return Some(reserve);
        }
        best_by(legal, |a| taken(a).map(|g| f64::from(g.total()))).cloned()
    }
}

impl Bot<Splendor> for SplendorGreedy {
    fn choose(
        &mut self,
        observation: &Observation,
        legal: &[Action],
        _rng: &mut GameRng,
    ) -> Option<Action> {
        let base = Self::pick(observation, legal).unwrap_or(Action::Pass);
        // Claim a noble whenever the chosen move can name one.
        let with_noble = legal
            .iter()
            .find(|a| a.noble().is_some() && (*a).clone().with_noble(None) == base);
        with_noble
            .cloned()
            .or_else(|| legal.contains(&base).then_some(base))
            .or_else(|| legal.first().cloned())
    }
}

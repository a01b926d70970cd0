//! A greedy Splendor bot: buy the best-value card it can afford, else collect gems toward the
//! most attainable card, never into a hand it could not spend.

use super::Bot;
use crate::rng::GameRng;
use crate::splendor::{Action, Card, Color, Gems, Observation, PlayerView, Splendor};

/// The hackathon judge's token cap: a move that would leave more is illegal, so a hand of
/// this many tokens that buys nothing can never change again.
const TOKEN_CAP: u32 = 10;
/// Cards a player may hold reserved.
const MAX_RESERVED: usize = 3;

/// Greedy play, deterministic (it draws nothing from the RNG):
/// 1. buy the affordable card (face-up or reserved) with the most `points*2 + 1` per token paid,
///    a noble counting 6 (nobles are always claimed when a listed move names one);
/// 2. else pick a *target*, the face-up or reserved card with the most `points + 1` per missing
///    token among the cards the hand can still reach under the token cap (tokens held plus
///    tokens missing at most 10), and take the gems that cover most of what it still lacks,
///    never a take after which the target is out of reach;
/// 3. else reserve the target if it is face up and at most 2 tokens short, or, when one gold
///    would complete the target, the card nearest to affordable for its gold, keeping the last
///    reserve slot free; else take the gems that bring some card closest; else reserve
///    anything; else pass.
///
/// Every step only considers moves after which the hand stays *live* (it can still take three
/// gems, or reserve, or buy a card that leaves it live): under the hackathon's cap a hand of
/// 10 tokens that buys nothing can never take again, so a greedy bot that hoards gems it
/// cannot spend stalls for the rest of the game. Only when no move is live does it choose
/// among all legal moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SplendorGreedy;

/// Gems of `color` still missing for `card` from `gems` (gold aside).
fn need(gems: &Gems, bonuses: &Gems, card: &Card, color: Color) -> u8 {
    card.cost
        .get(color)
        .saturating_sub(bonuses.get(color))
        .saturating_sub(gems.get(color))
}

/// Tokens still missing for `card` from `gems` after bonuses and gold.
fn shortfall(gems: &Gems, bonuses: &Gems, card: &Card) -> u32 {
    let missing: u32 = Color::GEMS
        .into_iter()
        .map(|c| u32::from(need(gems, bonuses, card, c)))
        .sum();
    missing.saturating_sub(u32::from(gems.gold))
}

/// Whether `card` can still be bought from `gems` without passing the token cap.
fn reachable(gems: &Gems, bonuses: &Gems, card: &Card) -> bool {
    gems.total() + shortfall(gems, bonuses, card) <= TOKEN_CAP
}

/// What a buy is worth per token paid.
fn buy_value(me: &PlayerView, action: &Action) -> Option<f64> {
    let (Action::Buy { card, .. } | Action::BuyReserved { card, .. }) = action else {
        return None;
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

/// `gems` plus `more`.
fn plus(gems: &Gems, more: &Gems) -> Gems {
    let mut out = *gems;
    for c in [Color::Gold].into_iter().chain(Color::GEMS) {
        *out.slot(c) = out.get(c).saturating_add(more.get(c));
    }
    out
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

/// What collecting for `card` is worth from `gems`.
fn target_value(gems: &Gems, bonuses: &Gems, card: &Card) -> f64 {
    (f64::from(card.points) + 1.0) / (f64::from(shortfall(gems, bonuses, card)) + 1.0)
}

impl SplendorGreedy {
    /// The card worth collecting for: the best reachable one, else the best of all.
    fn target(observation: &Observation, me: &PlayerView) -> Option<Card> {
        let cards: Vec<&Card> = (observation.table.cards.iter())
            .chain(&me.reserved_cards)
            .collect();
        let best = |reach_only: bool| {
            let mut best: Option<(Card, f64)> = None;
            for &card in &cards {
                if reach_only && !reachable(&me.gems, &me.bonuses, card) {
                    continue;
                }
                let value = target_value(&me.gems, &me.bonuses, card);
                if best.is_none_or(|(_, b)| value > b) {
                    best = Some((*card, value));
                }
            }
            best.map(|(c, _)| c)
        };
        best(true).or_else(|| best(false))
    }

    fn pick(observation: &Observation, legal: &[Action]) -> Option<Action> {
        let me = observation.player(observation.to_act?)?;
        // Passing is never progress; it is what remains when nothing else is chosen.
        let live: Vec<Action> = (legal.iter())
            .filter(|a| **a != Action::Pass && keeps_moving(observation, me, a))
            .cloned()
            .collect();
        Self::step(observation, me, &live)
            .or_else(|| Self::step(observation, me, legal))
            .or_else(|| {
                let reserve = legal.iter().find(|a| matches!(a, Action::Reserve { .. }));
                reserve.cloned()
            })
    }

    /// Steps 1 to 3 among `legal`.
    fn step(observation: &Observation, me: &PlayerView, legal: &[Action]) -> Option<Action> {
        if let Some(buy) = best_by(legal, |a| buy_value(me, a)) {
            return Some(buy.clone());
        }
        Self::collect(observation, me, legal)
    }

    /// Step 2 and 3 among `legal`.
    fn collect(observation: &Observation, me: &PlayerView, legal: &[Action]) -> Option<Action> {
        let target = Self::target(observation, me)?;
        let useful = |a: &Action| {
            let gems = taken(a)?;
            let after = plus(&me.gems, &gems);
            if !reachable(&after, &me.bonuses, &target) {
                return None;
            }
            let covered: u32 = Color::GEMS
                .into_iter()
                .map(|c| u32::from(gems.get(c).min(need(&me.gems, &me.bonuses, &target, c))))
                .sum();
            (covered > 0).then(|| f64::from(covered) * 10.0 + f64::from(gems.total()))
        };
        if let Some(take) = best_by(legal, useful) {
            return Some(take.clone());
        }
        let reserve = |card: Card| Action::Reserve { card, noble: None };
        // The last reserve slot stays free for a gold when the hand gets stuck.
        let may_reserve = me.reserved_cards.len() + 1 < MAX_RESERVED;
        let close = shortfall(&me.gems, &me.bonuses, &target) <= 2;
        if may_reserve && close && legal.contains(&reserve(target)) {
            return Some(reserve(target));
        }
        // A gold counts as any colour: when one gold completes the target, reserve the card
        // nearest to affordable for it — with the last slot too, which is kept for this.
        let gold = observation.table.gems.gold > 0;
        let slot_left = me.reserved_cards.len() < MAX_RESERVED;
        if slot_left && gold && shortfall(&me.gems, &me.bonuses, &target) == 1 {
            let for_gold = best_by(legal, |a| match a {
                Action::Reserve { card, .. } => {
                    Some(-f64::from(shortfall(&me.gems, &me.bonuses, card)))
                }
                _ => None,
            });
            if let Some(r) = for_gold {
                return Some(r.clone());
            }
        }
        // Any take, the one that brings some card closest first.
        let cards: Vec<&Card> = (observation.table.cards.iter())
            .chain(&me.reserved_cards)
            .collect();
        best_by(legal, |a| {
            let after = plus(&me.gems, &taken(a)?);
            (cards.iter())
                .map(|c| target_value(&after, &me.bonuses, c))
                .max_by(f64::total_cmp)
        })
        .cloned()
    }
}

/// A player's hand as far as being stuck goes.
#[derive(Clone)]
struct Hand {
    gems: Gems,
    bonuses: Gems,
    /// The cards it could buy (face up and its reserved ones).
    cards: Vec<Card>,
    reserved: usize,
}

impl Hand {
    /// The hand after buying `card`, if affordable.
    fn buy(&self, card: &Card, reserved: bool) -> Option<Hand> {
        let paid = crate::splendor::payment(&card.cost, &self.gems, &self.bonuses)?;
        let mut next = self.clone();
        for c in [Color::Gold].into_iter().chain(Color::GEMS) {
            *next.gems.slot(c) = next.gems.get(c).saturating_sub(paid.get(c));
        }
        *next.bonuses.slot(card.color) = next.bonuses.get(card.color).saturating_add(1);
        if let Some(i) = next.cards.iter().position(|c| c == card) {
            next.cards.swap_remove(i);
        }
        if reserved {
            next.reserved = next.reserved.saturating_sub(1);
        }
        Some(next)
    }

    /// Whether the hand can still change, looking `depth` moves ahead: it can take three gems,
    /// or take one gem (the judge takes one or two colours too) into a live hand, or reserve
    /// (taking a gold while any is left) into a live hand, or buy a card into a live hand. At
    /// depth 0 any affordable card will do.
    fn live(&self, depth: u32, gold_left: bool) -> bool {
        let tokens = self.gems.total();
        if tokens + 3 <= TOKEN_CAP {
            return true;
        }
        if depth == 0 {
            return self.cards.iter().any(|c| self.buy(c, false).is_some());
        }
        if tokens < TOKEN_CAP {
            let one_more = |c: Color| {
                let mut next = self.clone();
                *next.gems.slot(c) = next.gems.get(c).saturating_add(1);
                next.live(depth - 1, gold_left)
            };
            if Color::GEMS.into_iter().any(one_more) {
                return true;
            }
        }
        if self.reserved < MAX_RESERVED && tokens < TOKEN_CAP {
            let mut next = self.clone();
            next.reserved += 1;
            if gold_left {
                next.gems.gold = next.gems.gold.saturating_add(1);
            }
            if next.live(depth - 1, gold_left) {
                return true;
            }
        }
        (self.cards.iter()).any(|card| {
            self.buy(card, false)
                .is_some_and(|next| next.live(depth - 1, gold_left))
        })
    }
}

/// Whether the hand after `action` is still live ([`Hand::live`]): a hand that cannot take
/// or buy is stuck for the rest of the game, since nobody has to buy the cards around it.
fn keeps_moving(observation: &Observation, me: &PlayerView, action: &Action) -> bool {
    let mut hand = Hand {
        gems: me.gems,
        bonuses: me.bonuses,
        cards: (observation.table.cards.iter())
            .chain(&me.reserved_cards)
            .copied()
            .collect(),
        reserved: me.reserved_cards.len(),
    };
    match action {
        Action::Reserve { .. } => {
            hand.reserved += 1;
            if observation.table.gems.gold > 0 {
                hand.gems.gold = hand.gems.gold.saturating_add(1);
            }
        }
        Action::Buy { card, .. } | Action::BuyReserved { card, .. } => {
            let reserved = matches!(action, Action::BuyReserved { .. });
            match hand.buy(card, reserved) {
                Some(next) => hand = next,
                None => return true,
            }
        }
        other => {
            if let Some(more) = taken(other) {
                hand.gems = plus(&hand.gems, &more);
            }
        }
    }
    hand.live(3, observation.table.gems.gold > 0)
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

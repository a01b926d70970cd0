//! A Hanabi convention bot: play what hints make playable, hint playable cards, discard the
//! oldest unhinted card (by when it was drawn: a drawn card takes its predecessor's slot); in the last round, when a discard gains nothing, try the card most
//! likely to play.
//!
//! The convention, [`HanabiConvention::pick`]: a player plays a card the hints prove playable;
//! failing that (and with fewer than 2 errors) the newest *touched* card that may still be
//! playable. Because that choice depends only on public knowledge, the hinter simulates it for
//! the hand it sees and gives a hint only when the cards it leads to are really playable.
//! Deterministic: it draws nothing from the RNG.

use super::Bot;
use crate::api::Seat;
use crate::hanabi::{copies, Action, Card, Hanabi, Knowledge, Observation};
use crate::rng::GameRng;

/// The convention bot (built-in name `convention`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HanabiConvention;

type Stacks = [u8; 6];

fn playable(stacks: &Stacks, card: Card) -> bool {
    stacks.get(card.color.index()).map(|&h| h + 1) == Some(card.number)
}

fn useless(stacks: &Stacks, card: Card) -> bool {
    stacks
        .get(card.color.index())
        .is_none_or(|&h| card.number <= h)
}

/// Every card `k` may be satisfies `test` (and there is one).
fn surely(k: &Knowledge, test: impl Fn(Card) -> bool) -> bool {
    let mut any = false;
    k.possible().all(|c| {
        any = true;
        test(c)
    }) && any
}

/// The slots of a hand, its oldest card (the first drawn) first.
fn oldest_first(knowledge: &[Knowledge]) -> Vec<usize> {
    let mut slots: Vec<usize> = (0..knowledge.len()).collect();
    slots.sort_by_key(|&s| knowledge.get(s).map(|k| k.drawn));
    slots
}

/// A hint's effect on one hand, as seen by someone who sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Chain {
    /// Cards the convention makes the holder play, successfully, in a row.
    good: u32,
    /// The chain ends in a misplay.
    bad: bool,
    /// Its first play misses.
    bad_first: bool,
}

impl HanabiConvention {
    /// The slot the convention plays from a hand with this knowledge, if any.
    pub fn pick(knowledge: &[Knowledge], stacks: &Stacks, errors: u8) -> Option<usize> {
        let by_age = oldest_first(knowledge);
        let known = |&slot: &usize| knowledge.get(slot);
        if let Some(slot) = by_age
            .iter()
            .copied()
            .find(|s| known(s).is_some_and(|k| surely(k, |c| playable(stacks, c))))
        {
            return Some(slot);
        }
        if errors >= 2 {
            return None;
        }
        by_age.iter().rev().copied().find(|s| {
            known(s).is_some_and(|k| {
                k.touched
                    && k.possible().any(|c| playable(stacks, c))
                    && !surely(k, |c| useless(stacks, c))
            })
        })
    }

    /// Plays the convention out on a hand the simulator sees.
    fn chain(
        mut knowledge: Vec<Knowledge>,
        mut hand: Vec<Card>,
        mut stacks: Stacks,
        errors: u8,
    ) -> Chain {
        let mut chain = Chain::default();
        while let Some(slot) = Self::pick(&knowledge, &stacks, errors) {
            let Some(&card) = hand.get(slot) else { break };
            if !playable(&stacks, card) {
                chain.bad = true;
                chain.bad_first = chain.good == 0;
                break;
            }
            chain.good += 1;
            if let Some(h) = stacks.get_mut(card.color.index()) {
                *h += 1;
            }
            hand.remove(slot);
            knowledge.remove(slot);
        }
        chain
    }

    fn decide(obs: &Observation, legal: &[Action]) -> Option<Action> {
        let me = obs.to_act?;
        let mut stacks: Stacks = [5; 6];
        for (slot, &h) in stacks.iter_mut().zip(&obs.stacks) {
            *slot = h;
        }
        let errors = obs.error_tokens;
        if let Some(card) = Self::pick(obs.knowledge_of(me), &stacks, errors) {
            return Some(Action::Play { card });
        }
        // The other players in the order they move after us (the match may seat them in any
        // order: `seat_order`).
        let mut others = obs.others_after(me);
        if others.is_empty() {
            others = (1..obs.players)
                .map(|d| Seat((me.0 + d) % obs.players))
                .collect();
        }
        let hand = |p: Seat| {
            (0..obs.hand_len(p))
                .filter_map(|s| obs.card(p, s))
                .collect::<Vec<Card>>()
        };
        let simulate = |action: Option<Action>, p: Seat| {
            let mut knowledge = obs.knowledge_of(p).to_vec();
            let cards = hand(p);
            if let Some(action) = action {
                for (k, &card) in knowledge.iter_mut().zip(&cards) {
                    match action {
                        Action::HintColor { color, .. } => {
                            k.hint_color(color, color.touches(card.color));
                        }
                        Action::HintNumber { number, .. } => {
                            k.hint_number(number, card.number == number);
                        }
                        Action::Play { .. } | Action::Discard { .. } => {}
                    }
                }
            }
            Self::chain(knowledge, cards, stacks, errors)
        };
        let hints_to = |p: Seat| {
            legal.iter().copied().filter(move |a| {
                matches!(a, Action::HintColor { target, .. } | Action::HintNumber { target, .. } if *target == p)
            })
        };
        if obs.hint_tokens > 0 {
            // 1. Fix a hand the convention would misplay from, nearest player first.
            for &p in &others {
                if simulate(None, p).bad_first {
                    let fix = hints_to(p)
                        .map(|h| (h, simulate(Some(h), p)))
                        .filter(|(_, c)| !c.bad_first)
                        .max_by_key(|(_, c)| c.good);
                    if let Some((h, _)) = fix {
                        return Some(h);
                    }
                }
            }
            // 2. The hint that makes the most new cards playable, nearest player on ties.
            let mut best: Option<(i64, Action)> = None;
            for (distance, &p) in others.iter().enumerate() {
                let base = simulate(None, p).good;
                for h in hints_to(p) {
                    let c = simulate(Some(h), p);
                    let gain = i64::from(c.good) - i64::from(base);
                    if c.bad_first || gain <= 0 {
                        continue;
                    }
                    let value = gain * 100 - i64::from(c.bad) * 50 - distance as i64;
                    if best.is_none_or(|(v, _)| value > v) {
                        best = Some((value, h));
                    }
                }
            }
            if let Some((_, h)) = best {
                return Some(h);
            }
            // 3. Save the next player's oldest unhinted card if it is the last of its kind.
            if let Some(save) = Self::save(
                obs,
                &stacks,
                others.first().copied(),
                &hand,
                &hints_to,
                &simulate,
            ) {
                return Some(save);
            }
        }
        // The last round (the deck is out): a discard gains nothing any more, a lucky play
        // still scores. Gamble on the likeliest card while a miss cannot end the game.
        if obs.turns_left.is_some() && errors < 2 {
            if let Some(card) = Self::likeliest(obs, me, &stacks) {
                return Some(Action::Play { card });
            }
        }
        let mine = obs.knowledge_of(me);
        let by_age = oldest_first(mine);
        let first = |test: &dyn Fn(&Knowledge) -> bool| {
            by_age
                .iter()
                .copied()
                .find(|&s| mine.get(s).is_some_and(test))
        };
        let discard = first(&|k| surely(k, |c| useless(&stacks, c)))
            .or_else(|| first(&|k| !k.touched))
            .or_else(|| by_age.first().copied())
            .unwrap_or(0);
        if legal.contains(&Action::Discard { card: discard }) {
            return Some(Action::Discard { card: discard });
        }
        // 8 tokens and nothing useful to hint: any hint that does no harm.
        others
            .iter()
            .flat_map(|&p| hints_to(p).map(move |h| (h, p)))
            .find(|&(h, p)| !simulate(Some(h), p).bad_first)
            .map(|(h, _)| h)
    }

    /// The own slot most likely to be playable, each card it may be weighted by its copies
    /// not yet seen (discarded, on a stack, or in the other hands); `None` when no slot can be.
    fn likeliest(obs: &Observation, me: Seat, stacks: &Stacks) -> Option<usize> {
        let mut seen: Vec<Card> = obs.discards.clone();
        for p in (0..obs.players).map(Seat).filter(|&p| p != me) {
            seen.extend((0..obs.hand_len(p)).filter_map(|s| obs.card(p, s)));
        }
        let on_stacks =
            |c: Card| usize::from(stacks.get(c.color.index()).is_some_and(|&h| c.number <= h));
        let unseen = |c: Card| {
            let shown = seen.iter().filter(|&&s| s == c).count() + on_stacks(c);
            usize::from(copies(c.number)).saturating_sub(shown) as f64
        };
        let mut best: Option<(usize, f64)> = None;
        for (slot, k) in obs.knowledge_of(me).iter().enumerate() {
            let total: f64 = k.possible().map(unseen).sum();
            let good: f64 = k
                .possible()
                .filter(|&c| playable(stacks, c))
                .map(unseen)
                .sum();
            if total > 0.0 && good > 0.0 && best.is_none_or(|(_, b)| good / total > b) {
                best = Some((slot, good / total));
            }
        }
        best.map(|(slot, _)| slot)
    }

    fn save<H, I>(
        obs: &Observation,
        stacks: &Stacks,
        next: Option<Seat>,
        hand: &impl Fn(Seat) -> Vec<Card>,
        hints_to: &H,
        simulate: &impl Fn(Option<Action>, Seat) -> Chain,
    ) -> Option<Action>
    where
        H: Fn(Seat) -> I,
        I: Iterator<Item = Action>,
    {
        let p = next?;
        if simulate(None, p).good > 0 {
            return None;
        }
        let theirs = obs.knowledge_of(p);
        let chop = oldest_first(theirs)
            .into_iter()
            .find(|&s| theirs.get(s).is_some_and(|k| !k.touched))?;
        let card = *hand(p).get(chop)?;
        let discarded = obs.discards.iter().filter(|&&c| c == card).count();
        let critical = usize::from(copies(card.number)) == discarded + 1;
        if useless(stacks, card) || !critical {
            return None;
        }
        hints_to(p).find(|&h| {
            let touches = match h {
                Action::HintColor { color, .. } => color.touches(card.color),
                Action::HintNumber { number, .. } => card.number == number,
                Action::Play { .. } | Action::Discard { .. } => false,
            };
            touches && !simulate(Some(h), p).bad_first
        })
    }
}

impl Bot<Hanabi> for HanabiConvention {
    fn choose(
        &mut self,
        obs: &Observation,
        legal: &[Action],
        _rng: &mut GameRng,
    ) -> Option<Action> {
        match Self::decide(obs, legal) {
            Some(action) if legal.contains(&action) => Some(action),
            _ => legal
                .iter()
                .find(|a| matches!(a, Action::Discard { .. }))
                .or_else(|| legal.iter().find(|a| !matches!(a, Action::Play { .. })))
                .or_else(|| legal.first())
                .copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hanabi::Color;

    #[test]
    fn a_known_playable_card_is_played_and_a_touched_one_is_tried() {
        let mut k = Knowledge::fresh(5);
        let stacks: Stacks = [0, 0, 0, 0, 0, 5];
        assert_eq!(HanabiConvention::pick(&[k, k], &stacks, 0), None);
        k.hint_number(1, true);
        assert_eq!(
            HanabiConvention::pick(&[k, Knowledge::fresh(5)], &stacks, 0),
            Some(0)
        );
        let mut red = Knowledge::fresh(5);
        red.hint_color(Color::Red, true);
        assert_eq!(
            HanabiConvention::pick(&[red, Knowledge::fresh(5)], &stacks, 0),
            Some(0)
        );
        assert_eq!(
            HanabiConvention::pick(&[red], &stacks, 2),
            None,
            "no gamble at 2 errors"
        );
    }
}

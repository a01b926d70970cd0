//! Tribute (进贡), double tribute, anti-tribute (抗贡) and the return (还贡) between deals.

use super::cards::{sort_hand, Card, BIG_JOKER};
use super::events::Event;
use super::settings::SameTeamTribute;
use super::state::{team, Guandan, Stage};
use crate::api::Seat;

/// The cards a payer may give: their highest cards, heart level cards excluded (each distinct
/// card once, in hand order).
pub fn tribute_cards(hand: &[Card], level: u8) -> Vec<Card> {
    let eligible = hand.iter().filter(|c| !c.is_wild(level));
    let Some(top) = eligible.clone().map(|c| c.power(level)).max() else {
        return Vec::new();
    };
    distinct(eligible.filter(|c| c.power(level) == top).copied())
}

/// The cards a receiver may return: any card of rank 10 or lower that is not a level card;
/// if there is none, their lowest cards.
pub fn back_cards(hand: &[Card], level: u8) -> Vec<Card> {
    let low = distinct(
        hand.iter()
            .filter(|c| c.rank <= 10 && c.rank != level)
            .copied(),
    );
    if !low.is_empty() {
        return low;
    }
    let Some(bottom) = hand.iter().map(|c| c.power(level)).min() else {
        return Vec::new();
    };
    distinct(hand.iter().filter(|c| c.power(level) == bottom).copied())
}

fn distinct(cards: impl Iterator<Item = Card>) -> Vec<Card> {
    let mut out: Vec<Card> = Vec::new();
    for card in cards {
        if !out.contains(&card) {
            out.push(card);
        }
    }
    out
}

impl Guandan {
    /// After a deal's cards are dealt: sets up tribute from `order` (last deal's finishing
    /// order), or anti-tribute, or none; the stage and leader follow.
    pub(super) fn start_tribute(&mut self, order: &[Seat], events: &mut Vec<Event>) {
        let [first, second, third, fourth] = match order {
            [a, b, c, d] => [*a, *b, *c, *d],
            _ => return,
        };
        self.stage = super::state::Stage::Play;
        self.to_act = first;
        let payers = if team(first) == team(second) {
            vec![fourth, third]
        } else if team(first) == team(fourth)
            && self.settings.same_team_tribute == SameTeamTribute::NoTribute
        {
            return;
        } else {
            vec![fourth]
        };
        let big_jokers: usize = payers
            .iter()
            .map(|&p| self.hand(p).iter().filter(|c| c.rank == BIG_JOKER).count())
            .sum();
        if big_jokers >= 2 {
            let anti_pos = payers
                .iter()
                .copied()
                .filter(|&p| self.hand(p).iter().any(|c| c.rank == BIG_JOKER))
                .collect();
            events.push(Event::AntiTribute { anti_pos });
            return;
        }
        self.stage = Stage::Tribute {
            payers,
            paid: Vec::new(),
        };
        self.last_order = order.to_vec();
    }

    pub(super) fn pay_tribute(&mut self, seat: Seat, card: Card, events: &mut Vec<Event>) {
        self.take(seat, card);
        let Stage::Tribute { payers, paid } = &mut self.stage else {
            return;
        };
        payers.retain(|&p| p != seat);
        paid.push((seat, card));
        if !payers.is_empty() {
            return;
        }
        let mut paid = std::mem::take(paid);
        let level = self.level;
        // The higher tribute goes to the first finisher; on a tie the last finisher's does.
        paid.sort_by_key(|&(_, c)| std::cmp::Reverse(c.power(level)));
        let receivers = self.last_order.clone();
        let result: Vec<(Seat, Seat, Card)> = paid
            .iter()
            .zip(receivers.iter())
            .map(|(&(from, card), &to)| (from, to, card))
            .collect();
        for &(_, to, card) in &result {
            if let Some(hand) = self.hands.get_mut(to.index()) {
                hand.push(card);
                sort_hand(hand, level);
            }
        }
        let leader = result.first().map_or(seat, |&(from, _, _)| from);
        events.push(Event::Tribute {
            result: result.clone(),
        });
        self.stage = Stage::Back {
            returns: result.iter().map(|&(from, to, _)| (to, from)).collect(),
            done: Vec::new(),
            leader,
        };
    }

    pub(super) fn give_back(&mut self, seat: Seat, card: Card, events: &mut Vec<Event>) {
        self.take(seat, card);
        let level = self.level;
        let Stage::Back {
            returns,
            done,
            leader,
        } = &mut self.stage
        else {
            return;
        };
        let Some(at) = returns.iter().position(|&(r, _)| r == seat) else {
            return;
        };
        let (_, to) = returns.remove(at);
        done.push((seat, to, card));
        if let Some(hand) = self.hands.get_mut(to.index()) {
            hand.push(card);
            sort_hand(hand, level);
        }
        if returns.is_empty() {
            let (result, leader) = (std::mem::take(done), *leader);
            events.push(Event::Back { result });
            self.stage = Stage::Play;
            self.to_act = leader;
        }
    }

    fn take(&mut self, seat: Seat, card: Card) {
        if let Some(hand) = self.hands.get_mut(seat.index()) {
            if let Some(at) = hand.iter().position(|&c| c == card) {
                hand.remove(at);
            }
        }
    }
}

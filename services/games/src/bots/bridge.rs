//! Bridge bots: [`BridgeRobot`], the system strategy that takes over a faulty seat
//! (`docs/rules.md#contract-bridge`), and [`BridgeHeuristic`], a simple point-count bidder that
//! plays sensibly. Both are deterministic and read only the seat's observation.

use super::Bot;
use crate::bridge::{
    partners, trick_winner, Action, Bid, Bridge, Call, Card, Observation, Strain, Suit,
};
use crate::rng::GameRng;
use crate::Seat;

/// The robot: passes unless it holds 13+ high-card points, then opens one of its longest suit
/// (the cheapest legal bid in it, at most at level 2) once; plays the lowest legal card.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BridgeRobot;

/// Opens on 12+ points (1NT with 15–17 balanced), raises partner with support or bids its own
/// suit, jumps to game or slam on combined points; in the play wins as cheaply as it can,
/// cashes sure winners, leaves partner's winning trick alone and discards its lowest card.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BridgeHeuristic;

impl Bot<Bridge> for BridgeRobot {
    fn choose(&mut self, obs: &Observation, legal: &[Action], _: &mut GameRng) -> Option<Action> {
        let wanted = match (obs.to_act, obs.contract) {
            (Some(me), None) => robot_call(obs, me).map(Action::Call),
            _ => lowest(&cards(legal), None).map(Action::Play),
        };
        pick(wanted, legal)
    }
}

impl Bot<Bridge> for BridgeHeuristic {
    fn choose(&mut self, obs: &Observation, legal: &[Action], _: &mut GameRng) -> Option<Action> {
        let wanted = match (obs.to_act, obs.contract) {
            (Some(me), None) => heuristic_call(obs, me).map(Action::Call),
            (Some(_), Some(_)) => heuristic_card(obs, &cards(legal)).map(Action::Play),
            (None, _) => None,
        };
        pick(wanted, legal)
    }
}

/// `wanted` if legal, else the first legal action (always `pass` in the auction).
fn pick(wanted: Option<Action>, legal: &[Action]) -> Option<Action> {
    wanted
        .filter(|a| legal.contains(a))
        .or_else(|| legal.first().copied())
}

fn cards(legal: &[Action]) -> Vec<Card> {
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(c) => Some(*c),
            Action::Call(_) => None,
        })
        .collect()
}

/// High-card points of a hand.
pub fn hcp(hand: &[Card]) -> u32 {
    hand.iter().map(|c| c.hcp()).sum()
}

fn length(hand: &[Card], suit: Suit) -> usize {
    hand.iter().filter(|c| c.suit == suit).count()
}

/// The longest suit, the higher-ranking on a tie.
fn longest(hand: &[Card]) -> Suit {
    Suit::ALL
        .into_iter()
        .max_by_key(|&s| (length(hand, s), s))
        .unwrap_or(Suit::Clubs)
}

/// The lowest card, preferring any suit but `trump`; clubs before diamonds on equal ranks.
fn lowest(cards: &[Card], trump: Option<Suit>) -> Option<Card> {
    cards
        .iter()
        .copied()
        .min_by_key(|c| (Some(c.suit) == trump, c.rank, c.suit))
}

/// The cheapest bid in `strain` higher than everything called so far.
fn cheapest(obs: &Observation, strain: Strain) -> Option<Bid> {
    let last = obs.calls.iter().rev().find_map(|r| match r.call {
        Call::Bid(b) => Some(b),
        Call::Pass => None,
    });
    (1..=7)
        .filter_map(|level| Bid::new(level, strain))
        .find(|b| last.is_none_or(|l| *b > l))
}

/// The first bid of `seat`, if any.
fn first_bid(obs: &Observation, seat: Seat) -> Option<Bid> {
    obs.calls.iter().find_map(|r| match r.call {
        Call::Bid(b) if r.seat == seat => Some(b),
        _ => None,
    })
}

/// Where `seat` first bid in the auction, `usize::MAX` if never.
fn first_bid_at(obs: &Observation, seat: Seat) -> usize {
    obs.calls
        .iter()
        .position(|r| r.seat == seat && matches!(r.call, Call::Bid(_)))
        .unwrap_or(usize::MAX)
}

fn robot_call(obs: &Observation, me: Seat) -> Option<Call> {
    let hand = obs.hand(me)?;
    let side_bid = [me, Seat((me.0 + 2) % 4)]
        .iter()
        .any(|&s| first_bid(obs, s).is_some());
    if hcp(hand) < 13 || side_bid {
        return Some(Call::Pass);
    }
    let bid = cheapest(obs, Strain::of(longest(hand))).filter(|b| b.level <= 2);
    Some(bid.map_or(Call::Pass, Call::Bid))
}

fn heuristic_call(obs: &Observation, me: Seat) -> Option<Call> {
    let hand = obs.hand(me)?;
    let hcp = hcp(hand);
    let long_points: usize = Suit::ALL
        .iter()
        .map(|&s| length(hand, s).saturating_sub(4))
        .sum();
    let points = hcp + u32::try_from(long_points).unwrap_or(0);
    let partner = Seat((me.0 + 2) % 4);
    let balanced = Suit::ALL.iter().all(|&s| length(hand, s) >= 2);
    let longest = longest(hand);
    let (strain, target, jump) = match (first_bid(obs, partner), first_bid(obs, me)) {
        (None, Some(_)) => return Some(Call::Pass),
        (None, None) if points < 12 => return Some(Call::Pass),
        (None, None) if balanced && (15..=17).contains(&hcp) => (Strain::NoTrump, 1, false),
        (None, None) => (Strain::of(longest), 2, false),
        (Some(shown), mine) => {
            let partner_opened = first_bid_at(obs, partner) < first_bid_at(obs, me);
            let partner_points = match (partner_opened, shown.strain) {
                (true, Strain::NoTrump) => 16,
                (true, _) => 13,
                (false, _) => 8,
            };
            let strain = match shown.strain.trump() {
                Some(suit) if length(hand, suit) >= 3 => shown.strain,
                _ if length(hand, longest) >= 5 && mine.is_none() => Strain::of(longest),
                Some(_) if length(hand, longest) >= 6 => Strain::of(longest),
                _ => Strain::NoTrump,
            };
            let combined = points + partner_points;
            let game = match strain {
                Strain::NoTrump => 3,
                Strain::Hearts | Strain::Spades => 4,
                Strain::Clubs | Strain::Diamonds => 5,
            };
            let target = match combined {
                33.. => 6,
                25..=32 => game,
                20..=24 => 2,
                _ => return Some(Call::Pass),
            };
            (strain, target, target > 2)
        }
    };
    let side_holds = obs.calls.iter().rev().find_map(|r| match r.call {
        Call::Bid(b) => Some(partners(r.seat, me) && b.level >= target),
        Call::Pass => None,
    });
    if side_holds == Some(true) {
        return Some(Call::Pass);
    }
    let cheap = cheapest(obs, strain);
    let jump = Bid::new(target, strain).filter(|b| jump && cheap.is_some_and(|c| c <= *b));
    let bid = jump.or_else(|| cheap.filter(|b| b.level <= target));
    Some(bid.map_or(Call::Pass, Call::Bid))
}

/// Whether no unplayed card outside `hand` beats `card` in its suit.
fn is_master(obs: &Observation, hand: &[Card], card: Card) -> bool {
    let played = |c: &Card| obs.tricks.iter().any(|t| t.cards.contains(c));
    (card.rank + 1..=14)
        .filter_map(|rank| Card::new(card.suit, rank))
        .all(|c| hand.contains(&c) || played(&c))
}

fn heuristic_card(obs: &Observation, legal: &[Card]) -> Option<Card> {
    let me = obs.playing_hand?;
    let strain = obs.contract?.bid.strain;
    let trump = strain.trump();
    let hand = obs.hand(me)?;
    let trick = obs.current_trick()?;
    if trick.cards.is_empty() {
        let masters: Vec<Card> = legal
            .iter()
            .copied()
            .filter(|&c| is_master(obs, hand, c))
            .collect();
        if let Some(card) = masters
            .iter()
            .copied()
            .max_by_key(|c| (length(hand, c.suit), c.rank))
        {
            return Some(card);
        }
        let suit = Suit::ALL
            .into_iter()
            .filter(|&s| Some(s) != trump || length(hand, s) == hand.len())
            .max_by_key(|&s| (length(hand, s), s))?;
        return lowest(
            &legal
                .iter()
                .copied()
                .filter(|c| c.suit == suit)
                .collect::<Vec<_>>(),
            trump,
        )
        .or_else(|| lowest(legal, trump));
    }
    let leader_now = trick_winner(trick, strain)?;
    let last = trick.cards.len() == 3;
    let winning_card = trick
        .plays()
        .find(|(s, _)| *s == leader_now)
        .map(|(_, c)| c)?;
    if partners(leader_now, me)
        && (last || is_master(obs, hand, winning_card) || winning_card.rank >= 12)
    {
        return lowest(legal, trump);
    }
    let wins = |card: Card| {
        let mut t = trick.clone();
        t.cards.push(card);
        trick_winner(&t, strain) == Some(me)
    };
    let winners: Vec<Card> = legal.iter().copied().filter(|&c| wins(c)).collect();
    let cheapest_winner = winners
        .iter()
        .copied()
        .min_by_key(|c| (Some(c.suit) == trump, c.rank));
    match cheapest_winner {
        Some(card)
            if last
                || trick.cards.len() == 2
                || is_master(obs, hand, card)
                || Some(card.suit) == trump =>
        {
            Some(card)
        }
        _ => lowest(legal, trump),
    }
}

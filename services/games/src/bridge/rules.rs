//! The auction, the play and the scoring of a deal, as methods of [`Bridge`].

use super::cards::{Bid, Call, Card, Strain};
use super::event::Event;
use super::observation::{CallRecord, Contract, DealResult, Trick};
use super::score::{duplicate_score, Doubled};
use super::settings::FaultPenalty;
use super::state::Bridge;
use crate::api::Seat;
use crate::error::IllegalAction;

/// Whether two seats are partners (N-S or E-W).
pub const fn partners(a: Seat, b: Seat) -> bool {
    a.0 % 2 == b.0 % 2
}

/// The hand that wins a complete trick: the highest trump, else the highest card of the suit led.
pub fn trick_winner(trick: &Trick, strain: Strain) -> Option<Seat> {
    let led = trick.cards.first()?.suit;
    let trump = strain.trump();
    trick
        .plays()
        .max_by_key(|(_, c)| (Some(c.suit) == trump, c.suit == led, c.rank))
        .map(|(seat, _)| seat)
}

impl Bridge {
    fn last_bid(&self) -> Option<(Seat, Bid)> {
        self.calls.iter().rev().find_map(|r| match r.call {
            Call::Bid(bid) => Some((r.seat, bid)),
            Call::Pass => None,
        })
    }

    /// The most calls ever legal: a pass and the 35 bids.
    pub(super) const MOST_CALLS: usize = 1 + 7 * Strain::ALL.len();

    /// Pass, then every bid higher than the last, lowest first, one at a time (the legal
    /// actions are built from them without a list in between).
    pub(super) fn each_legal_call(&self, mut f: impl FnMut(Call)) {
        let last = self.last_bid().map(|(_, b)| b);
        f(Call::Pass);
        Bid::all()
            .filter(|&b| last.is_none_or(|l| b > l))
            .for_each(|bid| f(Call::Bid(bid)));
    }

    /// The cards of the hand due that follow the suit led, or all of them if it has none, one at
    /// a time.
    pub(super) fn each_legal_card(&self, mut f: impl FnMut(Card)) {
        let hand = self.hand(self.next);
        let led = self
            .tricks
            .last()
            .filter(|t| t.winner.is_none())
            .and_then(|t| t.cards.first())
            .map(|c| c.suit);
        match led {
            Some(suit) if hand.iter().any(|c| c.suit == suit) => hand
                .iter()
                .filter(|c| c.suit == suit)
                .for_each(|&card| f(card)),
            _ => hand.iter().for_each(|&card| f(card)),
        }
    }

    /// Tricks won so far by `seat`'s side.
    pub(super) fn side_tricks(&self, seat: Seat) -> u8 {
        Seat::all(4)
            .filter(|&s| partners(s, seat))
            .filter_map(|s| self.tricks_won.get(s.index()))
            .sum()
    }

    pub(super) fn call(&mut self, seat: Seat, call: Call) -> Result<Vec<Event>, IllegalAction> {
        if let (Call::Bid(bid), Some((_, last))) = (call, self.last_bid()) {
            if bid <= last {
                return Err(IllegalAction::against_rules(format!(
                    "insufficient bid: {bid} is not higher than {last}"
                )));
            }
        }
        self.calls.push(CallRecord { seat, call });
        self.next = seat.next(4);
        let mut events = vec![Event::Called { seat, call }];
        let passes = self
            .calls
            .iter()
            .rev()
            .take_while(|r| r.call == Call::Pass)
            .count();
        match self.last_bid() {
            None if passes == 4 => {
                self.result = Some(DealResult {
                    declarer_tricks: 0,
                    ns_score: 0,
                });
                events.push(Event::PassedOut);
            }
            Some((winner, bid)) if passes == 3 => {
                let declarer = self
                    .calls
                    .iter()
                    .find(|r| {
                        partners(r.seat, winner)
                            && matches!(r.call, Call::Bid(b) if b.strain == bid.strain)
                    })
                    .map_or(winner, |r| r.seat);
                let contract = Contract {
                    bid,
                    declarer,
                    doubled: Doubled::No,
                };
                let leader = declarer.next(4);
                self.contract = Some(contract);
                self.next = leader;
                self.tricks.push(Trick {
                    leader,
                    cards: Vec::new(),
                    winner: None,
                });
                events.push(Event::AuctionEnded { contract, leader });
            }
            _ => {}
        }
        Ok(events)
    }

    pub(super) fn play(
        &mut self,
        by: Seat,
        card: Card,
        contract: Contract,
    ) -> Result<Vec<Event>, IllegalAction> {
        let hand = self.next;
        let mut legal = false;
        self.each_legal_card(|c| legal |= c == card);
        if !legal {
            let reason = if self.hand(hand).contains(&card) {
                format!("{card} does not follow the suit led")
            } else {
                format!("{card} is not in the hand to play (seat {hand})")
            };
            return Err(IllegalAction::against_rules(reason));
        }
        let opening_lead = self.tricks.len() == 1 && self.tricks.iter().all(|t| t.cards.is_empty());
        let (Some(cards), Some(trick)) = (self.hands.get_mut(hand.index()), self.tricks.last_mut())
        else {
            return Err(IllegalAction::GameOver);
        };
        cards.retain(|&c| c != card);
        trick.cards.push(card);
        let mut events = vec![Event::Played { hand, by, card }];
        if opening_lead {
            let dummy = contract.dummy();
            events.push(Event::DummyShown {
                dummy,
                cards: self.hand(dummy).to_vec(),
            });
        }
        self.next = hand.next(4);
        let Some(trick) = self.tricks.last_mut() else {
            return Ok(events);
        };
        if trick.cards.len() == 4 {
            let winner = trick_winner(trick, contract.bid.strain).unwrap_or(hand);
            trick.winner = Some(winner);
            if let Some(won) = self.tricks_won.get_mut(winner.index()) {
                *won += 1;
            }
            let round = u8::try_from(self.tricks.len()).unwrap_or(13);
            events.push(Event::TrickWon { round, winner });
            self.next = winner;
            if self.tricks.len() == 13 {
                events.push(self.finish(contract));
            } else {
                self.tricks.push(Trick {
                    leader: winner,
                    cards: Vec::new(),
                    winner: None,
                });
            }
        }
        Ok(events)
    }

    /// Scores the deal after the 13th trick, applying the first fault's penalty.
    fn finish(&mut self, contract: Contract) -> Event {
        let declarer = contract.declarer;
        let mut declarer_tricks = self.side_tricks(declarer);
        let first_fault = self.faults.first().copied();
        if let (FaultPenalty::ConcedeRemainingTricks, Some(fault)) =
            (self.settings.fault_penalty, first_fault)
        {
            let offender_keeps = fault.side_tricks;
            declarer_tricks = if partners(fault.seat, declarer) {
                offender_keeps
            } else {
                13_u8.saturating_sub(offender_keeps)
            };
        }
        let vulnerable = self.vulnerability.of(declarer);
        let bid = contract.bid;
        let score = duplicate_score(
            bid.level,
            bid.strain,
            contract.doubled,
            declarer_tricks,
            vulnerable,
        );
        let ns_score = if partners(declarer, Seat(0)) {
            score
        } else {
            -score
        };
        self.result = Some(DealResult {
            declarer_tricks,
            ns_score,
        });
        Event::DealEnded {
            declarer_tricks,
            ns_score,
        }
    }
}

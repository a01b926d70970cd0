//! The public events of a deal, for the match log.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{format_hand, Call, Card};
use super::observation::Contract;
use crate::api::Seat;
use crate::plural::count;

/// What happened. Dummy's cards become public with [`Event::DummyShown`] after the opening lead;
/// no other hidden card appears in an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Called {
        seat: Seat,
        call: Call,
    },
    /// Four passes: the deal scores 0.
    PassedOut,
    /// Three passes after a bid: the contract, and who leads.
    AuctionEnded {
        contract: Contract,
        leader: Seat,
    },
    /// `hand`'s card, played by `by` (declarer when `hand` is dummy).
    Played {
        hand: Seat,
        by: Seat,
        card: Card,
    },
    DummyShown {
        dummy: Seat,
        cards: Vec<Card>,
    },
    TrickWon {
        round: u8,
        winner: Seat,
    },
    /// The deal is scored: `ns_score` for N-S, its negation for E-W.
    DealEnded {
        declarer_tricks: u8,
        ns_score: i64,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Called { seat, call } => write!(f, "seat {seat} calls {call}"),
            Event::PassedOut => f.write_str("passed out: the deal scores 0"),
            Event::AuctionEnded { contract, leader } => write!(
                f,
                "contract {} by seat {}; seat {leader} leads",
                contract.bid, contract.declarer
            ),
            Event::Played { hand, by, card } if hand == by => {
                write!(f, "seat {hand} plays {card}")
            }
            Event::Played { hand, by, card } => {
                write!(f, "seat {by} plays {card} from dummy (seat {hand})")
            }
            Event::DummyShown { dummy, cards } => {
                write!(f, "dummy (seat {dummy}) shows {}", format_hand(cards))
            }
            Event::TrickWon { round, winner } => write!(f, "seat {winner} wins trick {round}"),
            Event::DealEnded {
                declarer_tricks,
                ns_score,
            } => write!(
                f,
                "declarer took {}; N-S score {ns_score}",
                count(declarer_tricks, "trick")
            ),
        }
    }
}

//! What a Bridge seat sees: everything Board.txt and StepLog.txt carry
//! (`docs/protocols.md#contract-bridge`).

use serde::{Deserialize, Serialize};

use super::cards::{Bid, Call, Card};
use super::score::Doubled;
use super::settings::Vulnerability;
use super::state::Action;
use crate::api::{Seat, Viewer};

/// The stage of the deal (Board.txt's `Stage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Call,
    Play,
    Over,
}

/// The final contract (Board.txt's `Contract <strain>-<level>` and `Declarer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Contract {
    pub bid: Bid,
    pub declarer: Seat,
    /// Always `No` in the course protocol.
    pub doubled: Doubled,
}

impl Contract {
    /// Declarer's partner.
    pub const fn dummy(&self) -> Seat {
        Seat((self.declarer.0 + 2) % 4)
    }
}

/// One call of the auction (StepLog's `Player<N> call <X-n|pass>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CallRecord {
    pub seat: Seat,
    pub call: Call,
}

/// One trick (StepLog's `Round <r>` and its `play` lines): the cards in play order from
/// `leader`, and the winner once four are down.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Trick {
    pub leader: Seat,
    pub cards: Vec<Card>,
    pub winner: Option<Seat>,
}

impl Trick {
    /// The seat (hand) that played each card.
    pub fn plays(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        (0..)
            .zip(&self.cards)
            .map(|(k, &c)| (Seat((self.leader.0 + k) % 4), c))
    }
}

/// A protocol violation recorded by [`Game::record_fault`](crate::Game::record_fault).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fault {
    pub seat: Seat,
    /// Tricks complete when it happened (0 in the auction).
    pub tricks_played: u8,
    /// Tricks the offending side had won by then.
    pub side_tricks: u8,
}

/// How the deal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DealResult {
    /// Tricks scored for declarer's side (after any fault penalty); 0 when passed out.
    pub declarer_tricks: u8,
    /// Positive when N-S gain; E-W score the negation.
    pub ns_score: i64,
}

/// A seat's view. Hands a viewer may not see are `None`: a seat sees its own; everyone sees
/// dummy's after the opening lead; dummy also sees declarer's then (the seed's `Other`);
/// the omniscient viewer sees all four.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    pub viewer: Viewer,
    /// Board.txt's `Game`.
    pub board: u32,
    /// Board.txt's `Score`, per seat, before this deal.
    pub running_score: Vec<i64>,
    pub dealer: Seat,
    pub vulnerability: Vulnerability,
    pub stage: Stage,
    /// The decision maker on turn (declarer when dummy's card is due).
    pub to_act: Option<Seat>,
    /// Whose cards the move comes from: the caller, the hand due to play (dummy's or declarer's).
    pub playing_hand: Option<Seat>,
    /// Cards still held per seat, ascending, `None` where hidden.
    pub hands: Vec<Option<Vec<Card>>>,
    pub calls: Vec<CallRecord>,
    pub contract: Option<Contract>,
    /// Every trick so far, the one in progress last (Board.txt's `Round` is `tricks.len()`).
    pub tricks: Vec<Trick>,
    /// Tricks won per seat (Board.txt's `Bridge a,b,c,d`).
    pub tricks_won: Vec<u8>,
    /// Seats the robot has taken over after a fault (StepLog writes them as `Robot`).
    pub robot: Vec<bool>,
    pub faults: Vec<Fault>,
    pub result: Option<DealResult>,
}

/// The public record of a deal so far (its calls, the contract, the tricks), borrowed from
/// the game ([`Bridge::progress`](super::Bridge::progress)) or from an observation: what a
/// protocol adapter reads after every move, without building a whole [`Observation`].
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    pub calls: &'a [CallRecord],
    pub contract: Option<Contract>,
    pub tricks: &'a [Trick],
}

impl<'a> Progress<'a> {
    /// Board.txt's `Round`: the trick being played, 1..=13 (0 in the auction).
    pub fn round(self) -> usize {
        self.tricks.len()
    }

    /// The trick in progress, if any cards may still be added to it.
    pub fn current_trick(self) -> Option<&'a Trick> {
        self.tricks.last().filter(|t| t.winner.is_none())
    }

    /// The last call or card of the deal and the hand it came from.
    pub fn last_move(self) -> Option<(Seat, Action)> {
        let played = self.tricks.iter().rev().find(|t| !t.cards.is_empty());
        match played.and_then(|t| t.plays().last()) {
            Some((hand, card)) => Some((hand, Action::Play(card))),
            None => self.calls.last().map(|r| (r.seat, Action::Call(r.call))),
        }
    }
}

impl Observation {
    pub fn hand(&self, seat: Seat) -> Option<&[Card]> {
        self.hands.get(seat.index())?.as_deref()
    }

    /// The deal's record as this observation shows it.
    pub fn progress(&self) -> Progress<'_> {
        Progress {
            calls: &self.calls,
            contract: self.contract,
            tricks: &self.tricks,
        }
    }

    /// Board.txt's `Round`: the trick being played, 1..=13 (0 in the auction).
    pub fn round(&self) -> usize {
        self.progress().round()
    }

    /// The trick in progress, if any cards may still be added to it.
    pub fn current_trick(&self) -> Option<&Trick> {
        self.progress().current_trick()
    }

    /// Board.txt's `Hand` and `Other` for a seat viewer. `Hand` is the hand the seat plays from
    /// now (dummy's when declarer plays dummy, else its own); `Other` is the other visible
    /// hand (declarer's when `Hand` is dummy's or the viewer is dummy, else dummy's), `None`
    /// before the opening lead and in the auction.
    pub fn board_hands(&self) -> (Vec<Card>, Option<Vec<Card>>) {
        let Viewer::Seat(me) = self.viewer else {
            return (Vec::new(), None);
        };
        let own = |s: Seat| self.hand(s).map(<[Card]>::to_vec);
        let Some(contract) = self.contract else {
            return (own(me).unwrap_or_default(), None);
        };
        let (declarer, dummy) = (contract.declarer, contract.dummy());
        let playing_dummy = self.to_act == Some(me) && self.playing_hand == Some(dummy);
        if playing_dummy {
            (own(dummy).unwrap_or_default(), own(declarer))
        } else if me == dummy {
            (own(me).unwrap_or_default(), own(declarer))
        } else {
            (own(me).unwrap_or_default(), own(dummy))
        }
    }
}

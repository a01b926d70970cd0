//! Splendor moves and the public events they produce.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::data::{Card, Color, Gems, Noble};
use crate::api::Seat;
use crate::plural::count;

/// A move, canonical: gem lists are distinct colours in [`Color::GEMS`] order; cards and nobles
/// are given by content (as the protocol does). Every move except `Pass` may name a `noble`,
/// which is then received — it must be on the table and the player's bonuses after the move
/// must meet its requirement (moves naming an unqualified noble are not listed). Not naming a
/// qualifying noble forfeits it for this turn (hackathon rule). Serialized with an `action`
/// tag: `{"action":"take_two","color":"red"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// `get_different_color_gems`: 1 to 3 different colours, each on the table (the real judge
    /// accepts one or two even when more colours are available).
    TakeDifferent {
        colors: Vec<Color>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        noble: Option<Noble>,
    },
    /// `get_two_same_color_gems`: only when at least 4 of the colour are on the table.
    TakeTwo {
        color: Color,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        noble: Option<Noble>,
    },
    /// `reserve_card: {card}`: a face-up card, plus one gold if any is left.
    Reserve {
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        noble: Option<Noble>,
    },
    /// `reserve_card: {level}`: the top card of a level's deck, plus one gold if any is left.
    ReserveBlind {
        level: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        noble: Option<Noble>,
    },
    /// `purchase_card`: a face-up card; payment is fixed (see [`payment`](super::payment)).
    Buy {
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        noble: Option<Noble>,
    },
    /// `purchase_reserved_card`: any card of the player's reserve.
    BuyReserved {
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        noble: Option<Noble>,
    },
    /// The turn lost: the protocol's `{}` (or no known key), and what the referee substitutes
    /// for an illegal move, a timeout or a crash. Always legal; nothing changes.
    Pass,
}

impl Action {
    /// The noble this move names.
    pub fn noble(&self) -> Option<Noble> {
        match self {
            Action::TakeDifferent { noble, .. }
            | Action::TakeTwo { noble, .. }
            | Action::Reserve { noble, .. }
            | Action::ReserveBlind { noble, .. }
            | Action::Buy { noble, .. }
            | Action::BuyReserved { noble, .. } => *noble,
            Action::Pass => None,
        }
    }

    /// The same move naming `noble` instead (unchanged for `Pass`).
    pub fn with_noble(mut self, named: Option<Noble>) -> Action {
        match &mut self {
            Action::TakeDifferent { noble, .. }
            | Action::TakeTwo { noble, .. }
            | Action::Reserve { noble, .. }
            | Action::ReserveBlind { noble, .. }
            | Action::Buy { noble, .. }
            | Action::BuyReserved { noble, .. } => *noble = named,
            Action::Pass => {}
        }
        self
    }
}

/// What happened, for the match log; `Display` follows the judge's log wording.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Gems taken (a colour twice for `TakeTwo`).
    TookGems {
        seat: Seat,
        colors: Vec<Color>,
    },
    /// A face-up card reserved (`blind` false) or a deck's top card (`blind` true: reserved
    /// cards are public in the hackathon, so the card is shown).
    Reserved {
        seat: Seat,
        card: Card,
        blind: bool,
        gold: bool,
    },
    Bought {
        seat: Seat,
        card: Card,
        paid: Gems,
        from_reserve: bool,
    },
    NobleVisited {
        seat: Seat,
        noble: Noble,
    },
    /// The turn was lost or passed.
    Passed {
        seat: Seat,
    },
    RoundStarted {
        round: u32,
    },
    /// `points[i]` and `cards[i]` (purchased cards) are seat `i`'s.
    Ended {
        rounds: u32,
        points: Vec<u32>,
        cards: Vec<usize>,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::TookGems { seat, colors } => {
                let names: Vec<&str> = colors.iter().map(|c| c.name()).collect();
                write!(
                    f,
                    "seat {seat}: Successfully got {} gems.",
                    names.join(", ")
                )
            }
            Event::Reserved {
                seat,
                card,
                blind,
                gold,
            } => {
                let from = if *blind { " from the deck" } else { "" };
                let gold = if *gold { " and got 1 gold" } else { "" };
                write!(f, "seat {seat}: Successfully reserved {card}{from}{gold}.")
            }
            Event::Bought {
                seat,
                card,
                from_reserve,
                ..
            } => {
                let from = if *from_reserve { " from reserve" } else { "" };
                write!(f, "seat {seat}: Successfully purchased {card}{from}.")
            }
            Event::NobleVisited { seat, noble } => {
                write!(f, "seat {seat}: Successfully got {noble}.")
            }
            Event::Passed { seat } => write!(f, "seat {seat}: Pass, turn lost."),
            Event::RoundStarted { round } => write!(f, "Round {round}"),
            Event::Ended {
                rounds,
                points,
                cards,
            } => {
                let rows: Vec<String> = points
                    .iter()
                    .zip(cards)
                    .enumerate()
                    .map(|(s, (p, c))| {
                        format!("seat {s}: {}, {}", count(p, "point"), count(c, "card"))
                    })
                    .collect();
                write!(
                    f,
                    "Game over after {}; {}",
                    count(rounds, "round"),
                    rows.join("; ")
                )
            }
        }
    }
}

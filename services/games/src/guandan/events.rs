//! The public events of a Guandan game, one per protocol `notify` (plus trick and seat-out
//! markers for the log).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::cards::{Card, Level};
use crate::api::Seat;

/// What happened, for the match log (public: tribute cards are revealed only once all are paid).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A deal was dealt (notify `beginning`; each seat's cards are in its observation).
    DealStarted {
        deal: u32,
        cur_rank: Level,
        /// Team 0 (seats 0, 2) and team 1.
        levels: [Level; 2],
    },
    /// notify `play`: a play or PASS.
    Played { seat: Seat, action: Action },
    /// Everyone else passed: `leader` leads a new trick (the partner when 接风).
    TrickOver { leader: Seat },
    /// `seat` has no cards left and finishes in `place` (1..=4).
    Out { seat: Seat, place: usize },
    /// notify `tribute`: (from, to, card) for every payer.
    Tribute { result: Vec<(Seat, Seat, Card)> },
    /// notify `anti-tribute`: the payers holding big jokers refuse tribute.
    AntiTribute { anti_pos: Vec<Seat> },
    /// notify `back`: (from, to, card) for every return.
    Back { result: Vec<(Seat, Seat, Card)> },
    /// notify `episodeOver`: finishing order, the level the deal was played at (the
    /// protocol's `curRank`), the cards left in the hands of the seats not out (last place
    /// first, as the manual lists `restCards`), and the next deal's level.
    DealOver {
        order: Vec<Seat>,
        played_rank: Level,
        rest_cards: Vec<(Seat, Vec<Card>)>,
        cur_rank: Level,
        levels: [Level; 2],
    },
    /// The game is decided: `winner` is a team (0 = seats 0 and 2) or `None` for a draw.
    GameOver { winner: Option<usize> },
}

fn list(result: &[(Seat, Seat, Card)]) -> String {
    let parts: Vec<String> = result
        .iter()
        .map(|(from, to, card)| format!("seat {from} gives {card} to seat {to}"))
        .collect();
    parts.join(", ")
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::DealStarted { deal, cur_rank, .. } => {
                write!(f, "deal {deal} at level {}", String::from(*cur_rank))
            }
            Event::Played { seat, action } => write!(f, "seat {seat} plays {action}"),
            Event::TrickOver { leader } => write!(f, "trick over; seat {leader} leads"),
            Event::Out { seat, place } => write!(f, "seat {seat} is out in place {place}"),
            Event::Tribute { result } => write!(f, "tribute: {}", list(result)),
            Event::AntiTribute { anti_pos } => write!(f, "anti-tribute by seats {anti_pos:?}"),
            Event::Back { result } => write!(f, "return: {}", list(result)),
            Event::DealOver {
                order, cur_rank, ..
            } => write!(
                f,
                "deal over, order {order:?}; next level {}",
                String::from(*cur_rank)
            ),
            Event::GameOver { winner: Some(t) } => {
                write!(f, "game over: seats {t} and {} win", t + 2)
            }
            Event::GameOver { winner: None } => write!(f, "game over: a draw"),
        }
    }
}

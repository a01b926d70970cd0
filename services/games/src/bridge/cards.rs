//! Cards, strains, bids and calls, in the course protocol's text forms: cards `S-1` (ace) … `C-13`
//! (king), calls `H-2` (strain-level) or `pass`. Each serializes as that string, so actions read
//! in JSON exactly as a bot writes them in StepLog.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A suit, ordered clubs < diamonds < hearts < spades (the bidding order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    #[serde(rename = "C")]
    Clubs,
    #[serde(rename = "D")]
    Diamonds,
    #[serde(rename = "H")]
    Hearts,
    #[serde(rename = "S")]
    Spades,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    fn from_letter(c: &str) -> Option<Suit> {
        Suit::ALL.into_iter().find(|s| c == s.letter().to_string())
    }
}

/// One card. `rank` is 2..=14 inside the engine (14 = ace, the highest in play); the protocol
/// writes the ace as 1 (`S-1`), 11 J, 12 Q, 13 K. Ordered by suit, then rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
pub struct Card {
    pub suit: Suit,
    pub rank: u8,
}

impl Card {
    /// `None` unless `rank` is 2..=14.
    pub fn new(suit: Suit, rank: u8) -> Option<Card> {
        (2..=14).contains(&rank).then_some(Card { suit, rank })
    }

    /// The 52 cards, clubs 2 first.
    pub fn deck() -> Vec<Card> {
        Suit::ALL
            .into_iter()
            .flat_map(|suit| (2..=14).map(move |rank| Card { suit, rank }))
            .collect()
    }

    /// The protocol's name, `S-1` … `C-13`, from a table: written into a log line, a StepLog or
    /// a replay's JSON without formatting or allocating (every card of every move is).
    pub fn label(self) -> &'static str {
        const LABELS: [[&str; 13]; 4] = [
            [
                "C-2", "C-3", "C-4", "C-5", "C-6", "C-7", "C-8", "C-9", "C-10", "C-11", "C-12",
                "C-13", "C-1",
            ],
            [
                "D-2", "D-3", "D-4", "D-5", "D-6", "D-7", "D-8", "D-9", "D-10", "D-11", "D-12",
                "D-13", "D-1",
            ],
            [
                "H-2", "H-3", "H-4", "H-5", "H-6", "H-7", "H-8", "H-9", "H-10", "H-11", "H-12",
                "H-13", "H-1",
            ],
            [
                "S-2", "S-3", "S-4", "S-5", "S-6", "S-7", "S-8", "S-9", "S-10", "S-11", "S-12",
                "S-13", "S-1",
            ],
        ];
        LABELS
            .get(self.suit as usize)
            .and_then(|row| row.get(usize::from(self.rank.wrapping_sub(2))))
            .copied()
            .unwrap_or("?") // a rank outside 2..=14 is never built (`Card::new`)
    }

    /// High-card points: A 4, K 3, Q 2, J 1.
    pub const fn hcp(self) -> u32 {
        match self.rank {
            14 => 4,
            13 => 3,
            12 => 2,
            11 => 1,
            _ => 0,
        }
    }
}

/// `Display` and `Serialize` as the protocol's name, the type's `label()`: a table lookup, no
/// formatting and no allocation (every card and call of every move is written).
macro_rules! named_by_label {
    ($($name:ty),*) => {$(
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(self.label())
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.label())
            }
        }
    )*};
}

named_by_label!(Card, Call);

impl FromStr for Card {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("{s:?} is not a card like S-1 (ace) or H-12");
        let (suit, rank) = s.trim().split_once('-').ok_or_else(bad)?;
        let suit = Suit::from_letter(suit).ok_or_else(bad)?;
        let rank: u8 = rank.parse().map_err(|_| bad())?;
        match rank {
            1 => Ok(Card { suit, rank: 14 }),
            2..=13 => Ok(Card { suit, rank }),
            _ => Err(bad()),
        }
    }
}

impl TryFrom<String> for Card {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

/// A denomination: a trump suit or no trump, ordered C < D < H < S < N.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Strain {
    #[serde(rename = "C")]
    Clubs,
    #[serde(rename = "D")]
    Diamonds,
    #[serde(rename = "H")]
    Hearts,
    #[serde(rename = "S")]
    Spades,
    #[serde(rename = "N")]
    NoTrump,
}

impl Strain {
    pub const ALL: [Strain; 5] = [
        Strain::Clubs,
        Strain::Diamonds,
        Strain::Hearts,
        Strain::Spades,
        Strain::NoTrump,
    ];

    /// The trump suit, `None` for no trump.
    pub const fn trump(self) -> Option<Suit> {
        match self {
            Strain::Clubs => Some(Suit::Clubs),
            Strain::Diamonds => Some(Suit::Diamonds),
            Strain::Hearts => Some(Suit::Hearts),
            Strain::Spades => Some(Suit::Spades),
            Strain::NoTrump => None,
        }
    }

    /// The strain whose trump suit is `suit`.
    pub const fn of(suit: Suit) -> Strain {
        match suit {
            Suit::Clubs => Strain::Clubs,
            Suit::Diamonds => Strain::Diamonds,
            Suit::Hearts => Strain::Hearts,
            Suit::Spades => Strain::Spades,
        }
    }

    pub const fn letter(self) -> char {
        match self.trump() {
            Some(suit) => suit.letter(),
            None => 'N',
        }
    }
}

/// A bid: level 1..=7 and a strain. Ordered as the auction ranks bids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Bid {
    pub level: u8,
    pub strain: Strain,
}

impl Bid {
    /// `None` unless `level` is 1..=7.
    pub fn new(level: u8, strain: Strain) -> Option<Bid> {
        (1..=7).contains(&level).then_some(Bid { level, strain })
    }

    /// The 35 bids, lowest first.
    pub fn all() -> impl Iterator<Item = Bid> {
        (1..=7).flat_map(|level| {
            Strain::ALL
                .into_iter()
                .map(move |strain| Bid { level, strain })
        })
    }

    /// The protocol's name, `C-1` … `N-7`, from a table (as [`Card::label`]).
    pub fn label(self) -> &'static str {
        const LABELS: [[&str; 7]; 5] = [
            ["C-1", "C-2", "C-3", "C-4", "C-5", "C-6", "C-7"],
            ["D-1", "D-2", "D-3", "D-4", "D-5", "D-6", "D-7"],
            ["H-1", "H-2", "H-3", "H-4", "H-5", "H-6", "H-7"],
            ["S-1", "S-2", "S-3", "S-4", "S-5", "S-6", "S-7"],
            ["N-1", "N-2", "N-3", "N-4", "N-5", "N-6", "N-7"],
        ];
        LABELS
            .get(self.strain as usize)
            .and_then(|row| row.get(usize::from(self.level.wrapping_sub(1))))
            .copied()
            .unwrap_or("?") // a level outside 1..=7 is never built (`Bid::new`)
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.label())
    }
}

/// A call in the auction: `pass` or a bid such as `H-2`. No double or redouble in this protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "String")]
pub enum Call {
    Pass,
    Bid(Bid),
}

impl Call {
    /// The protocol's name: `pass` or the bid's ([`Bid::label`]).
    pub fn label(self) -> &'static str {
        match self {
            Call::Pass => "pass",
            Call::Bid(bid) => bid.label(),
        }
    }
}

impl FromStr for Call {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s == "pass" {
            return Ok(Call::Pass);
        }
        let bad = || format!("{s:?} is not a call like pass or H-2");
        let (strain, level) = s.split_once('-').ok_or_else(bad)?;
        let strain = Strain::ALL
            .into_iter()
            .find(|st| strain == st.letter().to_string())
            .ok_or_else(bad)?;
        let level = level.parse().map_err(|_| bad())?;
        Bid::new(level, strain).map(Call::Bid).ok_or_else(bad)
    }
}

impl TryFrom<String> for Call {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

/// Sorts a hand as the protocol prints it: spades, hearts, diamonds, clubs, each ascending by
/// strength, so the ace (written 1) comes last in its suit, as the seed prints
/// `S-5,S-8,S-11,S-1` and `S-11,S-1,H-12`.
pub fn protocol_order(hand: &mut [Card]) {
    hand.sort_by_key(|c| (std::cmp::Reverse(c.suit), c.rank));
}

/// Cards joined as Board.txt writes them: `S-5,S-8,H-12`, or `None` for no cards.
pub fn format_hand(hand: &[Card]) -> String {
    if hand.is_empty() {
        return "None".to_owned();
    }
    let mut sorted = hand.to_vec();
    protocol_order(&mut sorted);
    sorted
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_is_named_as_the_protocol_writes_it_and_reads_back() {
        for card in Card::deck() {
            let rank = if card.rank == 14 { 1 } else { card.rank };
            let name = format!("{}-{rank}", card.suit.letter());
            assert_eq!(card.label(), name);
            assert_eq!(card.to_string(), name);
            assert_eq!(serde_json::to_string(&card).unwrap(), format!("\"{name}\""));
            assert_eq!(name.parse::<Card>(), Ok(card));
            assert_eq!(
                serde_json::from_str::<Card>(&format!("\"{name}\"")).unwrap(),
                card
            );
        }
    }

    #[test]
    fn every_call_is_named_as_the_protocol_writes_it_and_reads_back() {
        let calls = std::iter::once(Call::Pass).chain(Bid::all().map(Call::Bid));
        for call in calls {
            let name = match call {
                Call::Pass => "pass".to_owned(),
                Call::Bid(bid) => format!("{}-{}", bid.strain.letter(), bid.level),
            };
            assert_eq!(call.label(), name);
            assert_eq!(call.to_string(), name);
            assert_eq!(serde_json::to_string(&call).unwrap(), format!("\"{name}\""));
            assert_eq!(name.parse::<Call>(), Ok(call));
            let read: Call = serde_json::from_str(&format!("\"{name}\"")).unwrap();
            assert_eq!(read, call);
        }
    }
}

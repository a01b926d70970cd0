//! Actions in the platform's form `[type, rank, [cards]]`, and which play beats which.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cards::{parse_rank, rank_char, rank_power, Card};

/// A card combination type (the protocol's type strings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kind {
    Single,
    Pair,
    Trips,
    ThreePair,
    ThreeWithTwo,
    TwoTrips,
    Straight,
    StraightFlush,
    Bomb,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::Single,
        Kind::Pair,
        Kind::Trips,
        Kind::ThreePair,
        Kind::ThreeWithTwo,
        Kind::TwoTrips,
        Kind::Straight,
        Kind::StraightFlush,
        Kind::Bomb,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Single => "Single",
            Kind::Pair => "Pair",
            Kind::Trips => "Trips",
            Kind::ThreePair => "ThreePair",
            Kind::ThreeWithTwo => "ThreeWithTwo",
            Kind::TwoTrips => "TwoTrips",
            Kind::Straight => "Straight",
            Kind::StraightFlush => "StraightFlush",
            Kind::Bomb => "Bomb",
        }
    }

    /// Whether the rank is a sequence's lowest card (A low = 1) rather than a group's rank.
    pub const fn is_sequence(self) -> bool {
        matches!(
            self,
            Kind::ThreePair | Kind::TwoTrips | Kind::Straight | Kind::StraightFlush
        )
    }
}

/// The rank of the four-joker bomb (written `"JOKER"`).
pub const JOKER_BOMB: u8 = 17;

/// The most cards a play has: a 10-card bomb (eight natural cards and both wilds).
pub const MAX_PLAY: usize = 10;

/// A play's cards, held inline: a list of 1,000s of plays is one allocation, not one per play.
#[derive(Clone, Copy)]
pub struct Cards {
    len: u8,
    cards: [Card; MAX_PLAY],
}

impl Cards {
    /// `cards` if there are at most [`MAX_PLAY`].
    pub fn from_slice(cards: &[Card]) -> Option<Cards> {
        let mut out = Cards {
            len: u8::try_from(cards.len()).ok()?,
            cards: [Card::new(0, 0); MAX_PLAY],
        };
        out.cards.get_mut(..cards.len())?.copy_from_slice(cards);
        Some(out)
    }

    /// From a full buffer whose first `len` cards are the play's (`len` at most [`MAX_PLAY`]).
    pub(super) const fn from_buffer(cards: [Card; MAX_PLAY], len: u8) -> Cards {
        Cards { len, cards }
    }

    pub fn as_slice(&self) -> &[Card] {
        self.cards.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

impl std::ops::Deref for Cards {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Cards {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl PartialEq for Cards {
    fn eq(&self, other: &Cards) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Cards {}

impl std::hash::Hash for Cards {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

/// A combination played from the hand. `rank` is the defining rank: a group's rank (2..=14,
/// jokers 15/16), a sequence's lowest card (1 for an A-low sequence), [`JOKER_BOMB`].
/// Wild cards appear where they substitute; groups list natural cards first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Play {
    pub kind: Kind,
    pub rank: u8,
    pub cards: Cards,
}

/// One move: a play, a pass, or a tribute / return card.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Value", into = "Value")]
pub enum Action {
    Pass,
    Play(Play),
    Tribute(Card),
    Back(Card),
}

/// `rank` as the protocol writes it.
pub fn rank_label(rank: u8) -> String {
    if rank == JOKER_BOMB {
        "JOKER".to_owned()
    } else {
        rank_char(rank).to_string()
    }
}

impl From<Action> for Value {
    fn from(action: Action) -> Value {
        let cards = |cards: &[Card]| {
            Value::from(
                cards
                    .iter()
                    .map(std::string::ToString::to_string)
                    .collect::<Vec<_>>(),
            )
        };
        match action {
            Action::Pass => serde_json::json!(["PASS", "PASS", "PASS"]),
            Action::Tribute(c) => serde_json::json!(["tribute", "tribute", [c.to_string()]]),
            Action::Back(c) => serde_json::json!(["back", "back", [c.to_string()]]),
            Action::Play(p) => {
                serde_json::json!([p.kind.name(), rank_label(p.rank), cards(&p.cards)])
            }
        }
    }
}

impl TryFrom<Value> for Action {
    type Error = String;
    fn try_from(value: Value) -> Result<Action, String> {
        let bad = || format!("not a Guandan action: {value}");
        let (kind, rank, cards): (String, String, Value) =
            serde_json::from_value(value.clone()).map_err(|_| bad())?;
        if kind == "PASS" {
            return Ok(Action::Pass);
        }
        let cards: Vec<Card> = serde_json::from_value(cards).map_err(|e| e.to_string())?;
        let one = || match cards.as_slice() {
            [c] => Ok(*c),
            _ => Err(bad()),
        };
        match kind.as_str() {
            "tribute" => return Ok(Action::Tribute(one()?)),
            "back" => return Ok(Action::Back(one()?)),
            _ => {}
        }
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.name() == kind)
            .ok_or_else(bad)?;
        let mut chars = rank.chars();
        let rank = match (
            rank.as_str(),
            chars.next().and_then(parse_rank),
            chars.next(),
        ) {
            ("JOKER", _, _) => JOKER_BOMB,
            (_, Some(14), None) if kind.is_sequence() => 1,
            (_, Some(r), None) => r,
            _ => return Err(bad()),
        };
        let cards = Cards::from_slice(&cards)
            .ok_or_else(|| format!("a Guandan play has at most {MAX_PLAY} cards: {value}"))?;
        Ok(Action::Play(Play { kind, rank, cards }))
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Value::from(self.clone()))
    }
}

impl Play {
    /// Bomb tier: 0 for ordinary types; 4-card 1, 5-card 2, straight flush 3, 6..=10-card 4..=8,
    /// four jokers 9.
    pub fn tier(&self) -> u8 {
        match (self.kind, self.cards.len()) {
            (Kind::Bomb, _) if self.rank == JOKER_BOMB => 9,
            (Kind::Bomb, n) => match n {
                4 => 1,
                5 => 2,
                n => u8::try_from(n).unwrap_or(10).saturating_sub(2),
            },
            (Kind::StraightFlush, _) => 3,
            _ => 0,
        }
    }

    /// The key compared within a tier or type: power for groups (level above A), the lowest
    /// card for sequences.
    pub fn key(&self, level: u8) -> u8 {
        if self.kind.is_sequence() {
            self.rank
        } else {
            rank_power(self.rank, level)
        }
    }

    /// Whether this play beats `other` at `level`.
    pub fn beats(&self, other: &Play, level: u8) -> bool {
        let (mine, theirs) = (self.tier(), other.tier());
        if mine == 0 {
            theirs == 0 && self.kind == other.kind && self.key(level) > other.key(level)
        } else {
            (mine, self.key(level)) > (theirs, other.key(level))
        }
    }

    pub fn is_bomb(&self) -> bool {
        self.tier() > 0
    }
}

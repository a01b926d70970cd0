//! Cards, levels and the platform's card strings (`S2`, `HT`, `SB`, `HR`).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rng::GameRng;

/// Suit letters in the platform's order: spades, hearts, clubs, diamonds.
pub const SUITS: [char; 4] = ['S', 'H', 'C', 'D'];
/// Rank of the small joker (`SB`).
pub const SMALL_JOKER: u8 = 15;
/// Rank of the big joker (`HR`).
pub const BIG_JOKER: u8 = 16;
/// Ace's natural rank (it may also stand low, as 1, in sequences).
pub const ACE: u8 = 14;
/// The hearts suit index: the heart level card is wild.
pub const HEARTS: u8 = 1;

/// One card: `rank` 2..=14 (A = 14) or a joker (15 small, 16 big); `suit` indexes [`SUITS`]
/// (the small joker is `S`, the big joker `H`, as the platform writes them).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Card {
    pub rank: u8,
    pub suit: u8,
}

impl Card {
    pub const SMALL_JOKER: Card = Card {
        rank: SMALL_JOKER,
        suit: 0,
    };
    pub const BIG_JOKER: Card = Card {
        rank: BIG_JOKER,
        suit: HEARTS,
    };

    pub const fn new(suit: u8, rank: u8) -> Card {
        Card { rank, suit }
    }

    /// The wild card of a deal at `level`: the heart level card.
    pub const fn wild(level: u8) -> Card {
        Card::new(HEARTS, level)
    }

    pub const fn is_joker(self) -> bool {
        self.rank >= SMALL_JOKER
    }

    pub const fn is_wild(self, level: u8) -> bool {
        self.rank == level && self.suit == HEARTS
    }

    /// Single-card strength: big joker 17 > small joker 16 > level 15 > A 14 > … > 2.
    pub const fn power(self, level: u8) -> u8 {
        rank_power(self.rank, level)
    }

    /// The platform's hand order: by power (level after A, before jokers), then suit S H C D.
    pub fn sort_key(self, level: u8) -> (u8, u8) {
        (self.power(level), self.suit)
    }
}

/// The strength of a rank as a single card or a group (see [`Card::power`]).
pub const fn rank_power(rank: u8, level: u8) -> u8 {
    if rank >= SMALL_JOKER {
        rank + 1
    } else if rank == level {
        15
    } else {
        rank
    }
}

/// The platform's rank letter: `A 2..9 T J Q K`, `B`/`R` for the jokers; 1 (A low) is `A`.
pub fn rank_char(rank: u8) -> char {
    match rank {
        1 | 14 => 'A',
        10 => 'T',
        11 => 'J',
        12 => 'Q',
        13 => 'K',
        SMALL_JOKER => 'B',
        BIG_JOKER => 'R',
        r => char::from_digit(u32::from(r), 10).unwrap_or('?'),
    }
}

/// Inverse of [`rank_char`] (A is 14).
pub fn parse_rank(c: char) -> Option<u8> {
    match c {
        'A' => Some(ACE),
        'T' => Some(10),
        'J' => Some(11),
        'Q' => Some(12),
        'K' => Some(13),
        'B' => Some(SMALL_JOKER),
        'R' => Some(BIG_JOKER),
        d => d
            .to_digit(10)
            .and_then(|d| u8::try_from(d).ok())
            .filter(|d| (2..=9).contains(d)),
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suit = SUITS.get(usize::from(self.suit)).copied().unwrap_or('?');
        write!(f, "{suit}{}", rank_char(self.rank))
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl From<Card> for String {
    fn from(card: Card) -> String {
        card.to_string()
    }
}

impl TryFrom<String> for Card {
    type Error = String;
    fn try_from(text: String) -> Result<Card, String> {
        text.parse()
    }
}

impl std::str::FromStr for Card {
    type Err = String;
    fn from_str(text: &str) -> Result<Card, String> {
        let bad = || format!("not a card: {text:?}");
        let mut chars = text.chars();
        let (Some(s), Some(r), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let suit = SUITS.iter().position(|&x| x == s).ok_or_else(bad)?;
        let suit = u8::try_from(suit).map_err(|_| bad())?;
        let card = Card::new(suit, parse_rank(r).ok_or_else(bad)?);
        let ok = match card.rank {
            SMALL_JOKER => suit == 0,
            BIG_JOKER => suit == HEARTS,
            _ => true,
        };
        if ok {
            Ok(card)
        } else {
            Err(bad())
        }
    }
}

/// A level (2..=14) written as the platform writes `curRank`: `"2"`…`"A"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Level(pub u8);

impl From<Level> for String {
    fn from(level: Level) -> String {
        rank_char(level.0).to_string()
    }
}

impl TryFrom<String> for Level {
    type Error = String;
    fn try_from(text: String) -> Result<Level, String> {
        let mut chars = text.chars();
        match (chars.next().and_then(parse_rank), chars.next()) {
            (Some(r), None) if r <= ACE => Ok(Level(r)),
            _ => Err(format!("not a level: {text:?}")),
        }
    }
}

/// The two decks and four jokers, 108 cards, in a fixed order.
pub fn full_deck() -> Vec<Card> {
    let mut deck = Vec::with_capacity(108);
    for _ in 0..2 {
        for suit in 0..4 {
            deck.extend((2..=ACE).map(|rank| Card::new(suit, rank)));
        }
        deck.push(Card::SMALL_JOKER);
        deck.push(Card::BIG_JOKER);
    }
    deck
}

/// Shuffles and deals 27 cards to each of four seats, each hand in platform order.
pub fn deal(rng: &mut GameRng, level: u8) -> Vec<Vec<Card>> {
    let mut deck = full_deck();
    rng.shuffle(&mut deck);
    deck.chunks(27)
        .map(|chunk| {
            let mut hand = chunk.to_vec();
            sort_hand(&mut hand, level);
            hand
        })
        .collect()
}

/// Sorts a hand into platform order.
pub fn sort_hand(hand: &mut [Card], level: u8) {
    hand.sort_by_key(|c| c.sort_key(level));
}

/// Parses space-separated card strings (for tests and tools).
pub fn parse_cards(text: &str) -> Result<Vec<Card>, String> {
    text.split_whitespace().map(str::parse).collect()
}

//! Colours, cards, the deck, and what the table knows about each card from the hints it got.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A card colour, serialized as the protocol's number: red 0, yellow 1, blue 2, green 3,
/// white 4, rainbow 5 (rainbow rule set only; it can never be named in a hint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub enum Color {
    Red,
    Yellow,
    Blue,
    Green,
    White,
    Rainbow,
}

impl Color {
    /// Every colour in protocol order.
    pub const ALL: [Color; 6] = [
        Color::Red,
        Color::Yellow,
        Color::Blue,
        Color::Green,
        Color::White,
        Color::Rainbow,
    ];

    /// The protocol number, also the index of its stack.
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Yellow => "yellow",
            Color::Blue => "blue",
            Color::Green => "green",
            Color::White => "white",
            Color::Rainbow => "rainbow",
        }
    }

    /// Whether a hint of colour `self` touches a card of colour `card`: the same colour, and
    /// every rainbow card.
    pub fn touches(self, card: Color) -> bool {
        card == self || card == Color::Rainbow
    }

    const fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl From<Color> for u8 {
    fn from(color: Color) -> u8 {
        color as u8
    }
}

impl TryFrom<u8> for Color {
    type Error = String;

    fn try_from(code: u8) -> Result<Self, String> {
        Color::ALL
            .get(usize::from(code))
            .copied()
            .ok_or_else(|| format!("no colour {code}: expected 0 (red) to 5 (rainbow)"))
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One card; serialized as the protocol's `[colour, number]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "[u8; 2]", try_from = "[u8; 2]")]
pub struct Card {
    pub color: Color,
    /// 1..=5.
    pub number: u8,
}

impl Card {
    pub const fn new(color: Color, number: u8) -> Self {
        Card { color, number }
    }

    /// The protocol's `[c, n]`.
    pub fn protocol(self) -> [i8; 2] {
        [self.color as i8, self.number as i8]
    }
}

/// A card its viewer may not see, in protocol form.
pub const HIDDEN: [i8; 2] = [-1, -1];
/// The protocol's `draw` when the deck was empty: nothing was drawn.
pub const NOTHING_DRAWN: [i8; 2] = [-1, 0];

impl From<Card> for [u8; 2] {
    fn from(card: Card) -> [u8; 2] {
        [card.color.into(), card.number]
    }
}

impl TryFrom<[u8; 2]> for Card {
    type Error = String;

    fn try_from([color, number]: [u8; 2]) -> Result<Self, String> {
        if !(1..=5).contains(&number) {
            return Err(format!("no card number {number}: expected 1 to 5"));
        }
        Ok(Card::new(Color::try_from(color)?, number))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.number)
    }
}

/// Copies of each number in a colour: three 1s, two each of 2–4, one 5.
pub const fn copies(number: u8) -> u8 {
    match number {
        1 => 3,
        2..=4 => 2,
        5 => 1,
        _ => 0,
    }
}

/// The unshuffled deck of the first `colors` colours (5: 50 cards, 6 with rainbow: 60).
pub fn full_deck(colors: usize) -> Vec<Card> {
    let mut deck = Vec::with_capacity(colors * 10);
    for &color in Color::ALL.iter().take(colors) {
        for number in 1..=5 {
            for _ in 0..copies(number) {
                deck.push(Card::new(color, number));
            }
        }
    }
    deck
}

/// What every player knows about one card from the hints so far, positive and negative (as in
/// deepmind's hanabi-learning-environment). Public: the holder knows it, and so does the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Knowledge {
    /// Bit `c` set: the card may still be of colour `c` ([`Color::index`]).
    pub colors: u8,
    /// Bit `n` set: the card may still have number `n` (1..=5; bit 0 is never set).
    pub numbers: u8,
    /// Whether any hint has touched the card.
    pub touched: bool,
    /// The card's place in the order cards left the deck (0: the first card dealt): its age,
    /// which every player saw. Slots do not tell it, since a drawn card takes the slot of the
    /// card it replaces.
    #[serde(default)]
    pub drawn: u8,
}

impl Knowledge {
    /// Nothing known about a card of a game with `colors` colours.
    pub fn fresh(colors: usize) -> Self {
        Knowledge {
            colors: Color::ALL
                .iter()
                .take(colors)
                .fold(0, |bits, c| bits | c.bit()),
            numbers: 0b11_1110,
            touched: false,
            drawn: 0,
        }
    }

    /// [`Knowledge::fresh`] for the `drawn`-th card to leave the deck.
    pub fn fresh_drawn(colors: usize, drawn: usize) -> Self {
        Knowledge {
            drawn: u8::try_from(drawn).unwrap_or(u8::MAX),
            ..Knowledge::fresh(colors)
        }
    }

    /// Whether the card may still be `card`.
    pub fn may_be(&self, card: Card) -> bool {
        self.colors & card.color.bit() != 0 && self.numbers & (1 << card.number) != 0
    }

    /// Every card this one may still be.
    pub fn possible(&self) -> impl Iterator<Item = Card> + '_ {
        Color::ALL
            .into_iter()
            .flat_map(|color| (1..=5).map(move |number| Card::new(color, number)))
            .filter(|&card| self.may_be(card))
    }

    /// A hint of `color` touched (or missed) this card.
    pub(crate) fn hint_color(&mut self, color: Color, touched: bool) {
        let mask = color.bit() | Color::Rainbow.bit();
        if touched {
            self.colors &= mask;
            self.touched = true;
        } else {
            self.colors &= !mask;
        }
    }

    /// A hint of `number` touched (or missed) this card.
    pub(crate) fn hint_number(&mut self, number: u8, touched: bool) {
        let bit = 1_u8.checked_shl(u32::from(number)).unwrap_or(0);
        if touched {
            self.numbers &= bit;
            self.touched = true;
        } else {
            self.numbers &= !bit;
        }
    }
}

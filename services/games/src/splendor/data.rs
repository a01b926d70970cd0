//! Splendor's pieces: colours, token counts, development cards and nobles, with the 90 cards and
//! 10 nobles embedded from `data/splendor/*.csv` (see `data/README.md`).

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::plural::count;

/// A token colour: the five gem colours and gold (the joker). Cards' bonuses are never gold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    White,
    Blue,
    Green,
    Red,
    Black,
    Gold,
}

impl Color {
    /// The five gem colours, in canonical order (the order of [`Action`](super::Action) lists).
    pub const GEMS: [Color; 5] = [
        Color::White,
        Color::Blue,
        Color::Green,
        Color::Red,
        Color::Black,
    ];

    /// The protocol's lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Blue => "blue",
            Color::Green => "green",
            Color::Red => "red",
            Color::Black => "black",
            Color::Gold => "gold",
        }
    }

    fn parse(name: &str) -> Option<Color> {
        [Color::Gold]
            .into_iter()
            .chain(Color::GEMS)
            .find(|c| c.name() == name.trim())
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A count per colour: tokens held or on the table, a card's cost (gold 0), a noble's
/// requirement (gold 0), a player's bonuses (gold 0). Serialized as `{"white":1,...}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Gems {
    pub white: u8,
    pub blue: u8,
    pub green: u8,
    pub red: u8,
    pub black: u8,
    pub gold: u8,
}

impl Gems {
    /// `n` of each gem colour and `gold` gold.
    pub const fn uniform(n: u8, gold: u8) -> Gems {
        Gems {
            white: n,
            blue: n,
            green: n,
            red: n,
            black: n,
            gold,
        }
    }

    pub const fn get(&self, color: Color) -> u8 {
        match color {
            Color::White => self.white,
            Color::Blue => self.blue,
            Color::Green => self.green,
            Color::Red => self.red,
            Color::Black => self.black,
            Color::Gold => self.gold,
        }
    }

    pub fn slot(&mut self, color: Color) -> &mut u8 {
        match color {
            Color::White => &mut self.white,
            Color::Blue => &mut self.blue,
            Color::Green => &mut self.green,
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
            Color::Gold => &mut self.gold,
        }
    }

    /// All tokens, gold included.
    pub fn total(&self) -> u32 {
        [Color::Gold]
            .into_iter()
            .chain(Color::GEMS)
            .map(|c| u32::from(self.get(c)))
            .sum()
    }

    /// Whether every colour of `self` is at least that of `other`.
    pub fn covers(&self, other: &Gems) -> bool {
        Color::GEMS.into_iter().all(|c| self.get(c) >= other.get(c))
    }
}

/// A development card. Cards are identified by content (all 90 differ), as in the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    /// 1..=3.
    pub level: u8,
    /// The bonus it gives.
    pub color: Color,
    pub points: u8,
    pub cost: Gems,
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cost: Vec<String> = Color::GEMS
            .into_iter()
            .filter(|&c| self.cost.get(c) > 0)
            .map(|c| format!("{} {c}", self.cost.get(c)))
            .collect();
        write!(
            f,
            "level {} {} card ({}, cost {})",
            self.level,
            self.color,
            count(self.points, "point"),
            cost.join(", ")
        )
    }
}

/// A noble: 3 points for the player whose bonuses meet `requires` and who names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Noble {
    pub points: u8,
    pub requires: Gems,
}

impl fmt::Display for Noble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let needs: Vec<String> = Color::GEMS
            .into_iter()
            .filter(|&c| self.requires.get(c) > 0)
            .map(|c| format!("{} {c}", self.requires.get(c)))
            .collect();
        write!(
            f,
            "noble ({}, {})",
            count(self.points, "point"),
            needs.join(", ")
        )
    }
}

const CARDS_CSV: &str = include_str!("../../data/splendor/cards.csv");
const NOBLES_CSV: &str = include_str!("../../data/splendor/nobles.csv");

/// Parses a header + rows CSV of counts into `Gems` by the header's colour names.
fn counts(header: &[Option<Color>], fields: &[&str]) -> Option<Gems> {
    let mut gems = Gems::default();
    for (color, field) in header.iter().zip(fields) {
        if let Some(color) = color {
            *gems.slot(*color) = field.trim().parse().ok()?;
        }
    }
    Some(gems)
}

fn header(line: &str) -> Vec<Option<Color>> {
    line.split(',').map(Color::parse).collect()
}

/// The 90 development cards, file order (level 1 first). Malformed rows are skipped (the data
/// test counts them).
pub fn all_cards() -> &'static [Card] {
    static CARDS: OnceLock<Vec<Card>> = OnceLock::new();
    CARDS.get_or_init(|| {
        let mut lines = CARDS_CSV.lines();
        // level,color,points,white,blue,green,red,black
        let head = header(lines.next().unwrap_or_default());
        lines
            .filter_map(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                let (level, color, points) = match fields.as_slice() {
                    [l, c, p, ..] => (
                        l.trim().parse().ok()?,
                        Color::parse(c)?,
                        p.trim().parse().ok()?,
                    ),
                    _ => return None,
                };
                let cost = counts(&head, &fields)?;
                Some(Card {
                    level,
                    color,
                    points,
                    cost,
                })
            })
            .collect()
    })
}

/// The 10 nobles, file order.
pub fn all_nobles() -> &'static [Noble] {
    static NOBLES: OnceLock<Vec<Noble>> = OnceLock::new();
    NOBLES.get_or_init(|| {
        let mut lines = NOBLES_CSV.lines();
        // white,black,blue,green,red
        let head = header(lines.next().unwrap_or_default());
        lines
            .filter(|line| !line.trim().is_empty())
            .filter_map(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                Some(Noble {
                    points: 3,
                    requires: counts(&head, &fields)?,
                })
            })
            .collect()
    })
}

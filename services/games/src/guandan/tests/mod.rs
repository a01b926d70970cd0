//! Guandan unit tests: types and comparison, the manual's test vector, tricks and deals.

mod combos;
mod golden;
mod play;
mod rules;

use super::action::{Action, Cards, Kind, Play};
use super::cards::{parse_cards, Card};

pub(super) fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap()
}

pub(super) fn play(kind: Kind, rank: u8, text: &str) -> Play {
    Play {
        kind,
        rank,
        cards: Cards::from_slice(&cards(text)).unwrap(),
    }
}

pub(super) fn action(json: serde_json::Value) -> Action {
    serde_json::from_value(json).unwrap()
}

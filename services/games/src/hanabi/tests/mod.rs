//! Hanabi unit tests: every rule of `docs/rules.md#hanabi` plus setup, tokens, the end and the
//! view.

mod bench;
mod end;
mod order;
mod play;
mod setup;
mod view;

use super::*;
use crate::{Game, Seat};

pub(super) fn standard(players: usize, seed: u64) -> Hanabi {
    Hanabi::new(Settings::standard(players), seed).unwrap()
}

pub(super) fn on_turn(game: &Hanabi) -> Seat {
    game.turn().seat().expect("the game is not over")
}

pub(super) fn card(color: Color, number: u8) -> Card {
    Card::new(color, number)
}

/// A game with the given hands and deck (next card first); everything else fresh.
pub(super) fn rigged(settings: Settings, hands: Vec<Vec<Card>>, deck: Vec<Card>) -> Hanabi {
    let mut game = Hanabi::new(settings, 0).unwrap();
    let colors = game.settings.colors();
    game.knowledge = hands
        .iter()
        .map(|h| vec![Knowledge::fresh(colors); h.len()])
        .collect();
    game.hands = hands;
    game.deck = deck.into_iter().rev().collect();
    game
}

/// Two players holding all red and all blue cards (5 each), with a long deck of white cards.
pub(super) fn two_hands(settings: Settings) -> Hanabi {
    use Color::*;
    rigged(
        settings,
        vec![
            (1..=5).map(|n| card(Red, n)).collect(),
            vec![
                card(Blue, 1),
                card(Blue, 2),
                card(Green, 3),
                card(Blue, 4),
                card(Yellow, 5),
            ],
        ],
        (0..20).map(|i| card(White, 1 + i % 4)).collect(),
    )
}

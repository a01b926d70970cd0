//! Splendor unit tests: every rule of `docs/rules.md#splendor`, the data, setup, moves, the end and
//! the view.

mod data;
mod end;
mod moves;
mod view;

use super::*;
use crate::{Game, Seat};

pub(super) fn game(seed: u64) -> Splendor {
    Splendor::new(Settings::hackathon(), seed).unwrap()
}

pub(super) fn on_turn(game: &Splendor) -> Seat {
    game.turn().seat().expect("the game is not over")
}

#[test]
fn the_engine_passes_the_conformance_playouts() {
    let stats = crate::conformance::random_playouts::<Splendor>(
        &Settings::hackathon(),
        &crate::conformance::Playouts::quick(),
    );
    assert_eq!(stats.games, 30);
}

//! No Thanks unit tests: every rule of `docs/rules.md#no-thanks` plus setup, turns, the end and the
//! view.

mod play;
mod setup;
mod view;

use super::*;
use crate::{Game, Seat, Viewer};

pub(super) fn boardcoder(seed: u64) -> NoThanks {
    NoThanks::new(Settings::boardcoder(), seed).unwrap()
}

pub(super) fn standard(players: usize, seed: u64) -> NoThanks {
    NoThanks::new(Settings::standard(players), seed).unwrap()
}

pub(super) fn on_turn(game: &NoThanks) -> Seat {
    game.turn().seat().expect("the game is not over")
}

pub(super) fn total_coins(game: &NoThanks) -> u32 {
    let obs = game.observe(Viewer::Spectator);
    obs.players.iter().map(|p| p.coins).sum::<u32>() + obs.field_coins
}

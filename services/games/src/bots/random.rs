//! The uniformly random bot, for every game.

use serde_json::Value;

use super::{Bot, DynBot};
use crate::api::{Game, Seat};
use crate::dynamic::{DynGame, Played};
use crate::rng::GameRng;

/// Plays a uniformly random legal action.
#[derive(Debug, Clone, Copy, Default)]
pub struct Random;

impl<G: Game> Bot<G> for Random {
    fn choose(
        &mut self,
        _observation: &G::Observation,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> Option<G::Action> {
        rng.choose(legal).cloned()
    }
}

impl DynBot for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, game: &dyn DynGame, seat: Seat, rng: &mut GameRng) -> Option<Value> {
        game.random_legal_json(seat, rng)
    }

    fn play(&mut self, game: &mut dyn DynGame, seat: Seat, rng: &mut GameRng) -> Option<Played> {
        game.play_random(seat, rng)
    }
}

//! The conformance test must catch broken engines: each test here breaks No Thanks one way.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{random_playouts, Playouts};
use crate::api::{Game, Seat, Turn, Viewer};
use crate::error::{IllegalAction, SettingsError};
use crate::nothanks::{Action, NoThanks, Settings};
use crate::outcome::Outcome;
use crate::GameId;

const LISTS_UNPLAYABLE_PASS: u8 = 1;
const DIRTY_REFUSAL: u8 = 2;
const IGNORES_SEED: u8 = 3;
const ALL_RANK_FIRST: u8 = 4;
const NONDETERMINISTIC: u8 = 5;
const HIDES_PASS_IT_ACCEPTS: u8 = 6;

static GAMES_CREATED: AtomicU64 = AtomicU64::new(0);

/// No Thanks with one flaw.
#[derive(Debug, Clone, PartialEq)]
struct Flawed<const FLAW: u8> {
    inner: NoThanks,
    refusals: u32,
    moves: u32,
}

impl<const FLAW: u8> Game for Flawed<FLAW> {
    const ID: GameId = GameId::NO_THANKS;
    type Settings = Settings;
    type Action = Action;
    type Observation = crate::nothanks::Observation;
    type Event = crate::nothanks::Event;

    fn new(settings: Settings, seed: u64) -> Result<Self, SettingsError> {
        let seed = match FLAW {
            IGNORES_SEED => 0,
            NONDETERMINISTIC => GAMES_CREATED.fetch_add(1, Ordering::Relaxed),
            _ => seed,
        };
        Ok(Flawed {
            inner: NoThanks::new(settings, seed)?,
            refusals: 0,
            moves: 0,
        })
    }

    fn settings(&self) -> &Settings {
        self.inner.settings()
    }

    fn seats(&self) -> usize {
        self.inner.seats()
    }

    fn turn(&self) -> Turn {
        self.inner.turn()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let legal = self.inner.legal_actions(seat);
        if FLAW == LISTS_UNPLAYABLE_PASS && !legal.is_empty() {
            vec![Action::Pick, Action::Pass]
        } else if FLAW == HIDES_PASS_IT_ACCEPTS && self.moves % 2 == 1 {
            legal.into_iter().filter(|a| *a != Action::Pass).collect()
        } else {
            legal
        }
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Self::Event>, IllegalAction> {
        let result = self.inner.apply(seat, action);
        if FLAW == DIRTY_REFUSAL && result.is_err() {
            self.refusals += 1;
        }
        if FLAW == HIDES_PASS_IT_ACCEPTS && result.is_ok() {
            self.moves += 1;
        }
        result
    }

    fn observe(&self, viewer: Viewer) -> Self::Observation {
        self.inner.observe(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut outcome = self.inner.outcome()?;
        if FLAW == ALL_RANK_FIRST {
            outcome.seats.iter_mut().for_each(|r| r.rank = 1);
        }
        Some(outcome)
    }
}

fn poor() -> Settings {
    Settings {
        starting_coins: Some(1),
        ..Settings::boardcoder()
    }
}

#[test]
fn an_honest_engine_passes() {
    let stats = random_playouts::<Flawed<0>>(&poor(), &Playouts::quick());
    assert_eq!(stats.games, 30);
    assert!(stats.moves >= 30 * 30, "at least one pick per card");
    assert!(stats.unlisted_probes > 0, "the unlisted-action probe ran");
}

#[test]
#[should_panic(expected = "expected AgainstRules")]
fn accepting_a_move_that_is_not_listed_is_caught() {
    random_playouts::<Flawed<HIDES_PASS_IT_ACCEPTS>>(&poor(), &Playouts::quick());
}

#[test]
#[should_panic(expected = "the unlisted-action probe never ran")]
fn a_run_in_which_every_move_stays_legal_fails_rather_than_passing_unprobed() {
    // With a thousand coins nobody ever runs out: pick and pass are always both legal.
    let rich = Settings {
        starting_coins: Some(1000),
        ..Settings::boardcoder()
    };
    random_playouts::<Flawed<0>>(&rich, &Playouts::quick());
}

#[test]
#[should_panic(expected = "is refused")]
fn listing_a_move_that_apply_refuses_is_caught() {
    random_playouts::<Flawed<LISTS_UNPLAYABLE_PASS>>(&poor(), &Playouts::quick());
}

#[test]
#[should_panic(expected = "changed the state")]
fn a_refusal_that_changes_the_state_is_caught() {
    random_playouts::<Flawed<DIRTY_REFUSAL>>(&poor(), &Playouts::quick());
}

#[test]
#[should_panic(expected = "the seed is not used")]
fn ignoring_the_seed_is_caught() {
    random_playouts::<Flawed<IGNORES_SEED>>(&poor(), &Playouts::quick());
}

#[test]
#[should_panic(expected = "inconsistent outcome")]
fn ranks_that_contradict_scores_are_caught() {
    random_playouts::<Flawed<ALL_RANK_FIRST>>(&poor(), &Playouts::quick());
}

#[test]
#[should_panic(expected = "two new games from one seed differ")]
fn nondeterminism_is_caught() {
    random_playouts::<Flawed<NONDETERMINISTIC>>(&poor(), &Playouts::quick());
}

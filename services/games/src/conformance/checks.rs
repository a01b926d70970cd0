//! The per-step checks of the random playouts.

use std::collections::HashSet;

use serde::Deserialize;

use super::{viewers, Playouts};
use crate::api::{Game, Seat};
use crate::error::IllegalAction;
use crate::rng::GameRng;
use crate::settings::GameSettings;

/// Distinct actions seen legal somewhere: the source of actions to probe as illegal elsewhere.
pub(super) struct Pool<G: Game> {
    actions: Vec<G::Action>,
    keys: HashSet<String>,
}

impl<G: Game> Default for Pool<G> {
    fn default() -> Self {
        Pool {
            actions: Vec::new(),
            keys: HashSet::new(),
        }
    }
}

const POOL_LIMIT: usize = 20_000;

impl<G: Game> Pool<G> {
    fn add(&mut self, action: &G::Action, key: String) {
        if self.actions.len() < POOL_LIMIT && self.keys.insert(key) {
            self.actions.push(action.clone());
        }
    }

    fn sample<'a>(&'a self, rng: &mut GameRng, count: usize) -> Vec<&'a G::Action> {
        (0..count)
            .filter_map(|_| rng.choose(&self.actions))
            .collect()
    }
}

fn key<T: serde::Serialize + std::fmt::Debug>(value: &T, at: &str) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|e| panic!("{at}: {value:?} does not serialize: {e}"))
}

/// Resolved settings must survive the JSON round trip a replay puts them through.
pub(super) fn check_settings<G: Game>(settings: &G::Settings) {
    let json = serde_json::to_value(settings)
        .unwrap_or_else(|e| panic!("the settings do not serialize: {e}"));
    let back = G::Settings::deserialize(&json)
        .unwrap_or_else(|e| panic!("the settings do not deserialize from {json}: {e}"));
    assert!(
        &back == settings,
        "the settings change in a JSON round trip: {json}"
    );
    let reparsed = G::Settings::parse(G::Settings::default_rules(), &json)
        .unwrap_or_else(|e| panic!("the settings are not valid overrides: {e}"));
    assert!(
        &reparsed == settings,
        "the settings do not reparse over the default rule set"
    );
}

pub(super) fn check_observations<G: Game>(game: &G, at: &str) {
    for viewer in viewers(game.seats()) {
        key(&game.observe(viewer), at);
    }
}

/// Checks the seat on turn and every other seat, and returns the legal actions and how many
/// unlisted actions were tried.
pub(super) fn check_on_turn<G: Game>(
    game: &G,
    seat: Seat,
    pool: &mut Pool<G>,
    playouts: &Playouts,
    rng: &mut GameRng,
    at: &str,
) -> (Vec<G::Action>, usize) {
    assert!(
        seat.index() < game.seats(),
        "{at}: seat {seat} is on turn at a table of {}",
        game.seats()
    );
    assert!(game.outcome().is_none(), "{at}: an outcome before the end");
    let legal = game.legal_actions(seat);
    assert!(
        !legal.is_empty(),
        "{at}: seat {seat} is on turn with no legal action"
    );

    let mut keys = HashSet::new();
    for action in &legal {
        let k = key(action, at);
        let back: Option<G::Action> = serde_json::from_str(&k).ok();
        assert!(
            back.as_ref() == Some(action),
            "{at}: {action:?} changes in a JSON round trip"
        );
        assert!(keys.insert(k.clone()), "{at}: {action:?} is listed twice");
        pool.add(action, k);
    }

    let checked: Vec<&G::Action> = if legal.len() <= playouts.max_checked_actions {
        legal.iter().collect()
    } else {
        (0..playouts.max_checked_actions)
            .filter_map(|_| rng.choose(&legal))
            .collect()
    };
    for action in checked {
        let mut probe = game.clone();
        if let Err(e) = probe.apply(seat, action.clone()) {
            panic!("{at}: listed action {action:?} is refused: {e}");
        }
    }

    for other in Seat::all(game.seats()).filter(|&s| s != seat) {
        assert!(
            game.legal_actions(other).is_empty(),
            "{at}: seat {other} has legal actions off turn"
        );
        if let Some(action) = legal.first() {
            let mut probe = game.clone();
            let refused = probe.apply(other, action.clone());
            assert!(
                matches!(refused, Err(IllegalAction::NotYourTurn { .. })),
                "{at}: seat {other} playing off turn got {refused:?}"
            );
            assert!(
                &probe == game,
                "{at}: a refused off-turn move changed the state"
            );
        }
    }

    let mut probed = 0;
    for action in pool.sample(rng, playouts.illegal_probes) {
        if keys.contains(&key(action, at)) {
            continue;
        }
        probed += 1;
        let mut probe = game.clone();
        let refused = probe.apply(seat, action.clone());
        assert!(
            matches!(refused, Err(IllegalAction::AgainstRules { .. })),
            "{at}: unlisted action {action:?} got {refused:?}, expected AgainstRules"
        );
        assert!(
            &probe == game,
            "{at}: refused action {action:?} changed the state"
        );
    }
    (legal, probed)
}

/// At the end: nobody may act and the outcome is consistent.
pub(super) fn check_over<G: Game>(game: &G, pool: &Pool<G>, at: &str) {
    let outcome = game
        .outcome()
        .unwrap_or_else(|| panic!("{at}: over without an outcome"));
    if let Err(e) = outcome.check(game.seats()) {
        panic!("{at}: inconsistent outcome {outcome:?}: {e}");
    }
    for seat in Seat::all(game.seats()) {
        assert!(
            game.legal_actions(seat).is_empty(),
            "{at}: seat {seat} has legal actions after the end"
        );
        for action in pool.actions.iter().take(8) {
            let mut probe = game.clone();
            let refused = probe.apply(seat, action.clone());
            assert!(
                matches!(refused, Err(IllegalAction::GameOver)),
                "{at}: a move after the end got {refused:?}"
            );
            assert!(
                &probe == game,
                "{at}: a move after the end changed the state"
            );
        }
    }
}

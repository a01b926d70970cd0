//! The shared random-playout test every game must pass (after open_spiel's `RandomSimTest` and
//! board-game-rs's `board_test_main`). A new game adds one line to its tests:
//!
//! ```
//! use croupier_games::conformance::{random_playouts, Playouts};
//! use croupier_games::nothanks::{NoThanks, Settings};
//!
//! random_playouts::<NoThanks>(&Settings::boardcoder(), &Playouts::quick());
//! ```
//!
//! From each seed it plays random legal moves to the end and checks, at every step:
//! * the seat on turn exists and has legal actions, without duplicates, each surviving a JSON
//!   round trip; every other seat has none and is refused with `NotYourTurn`;
//! * every listed action is accepted by `apply` on a clone (up to
//!   [`max_checked_actions`](Playouts::max_checked_actions), sampled);
//! * actions seen legal elsewhere but not listed now are refused with `AgainstRules`, leaving
//!   the state unchanged (when uniform play never makes a listed action illegal, more games
//!   that mostly play one position of the list follow, and the run fails if the probe still
//!   never found an action to try: a check that never ran cannot pass);
//! * every viewer's observation and every event serializes; there is no outcome yet;
//!
//! and, at the end: the game ended within [`max_moves`](Playouts::max_moves); nobody has a legal
//! action and every move is refused with `GameOver`; the outcome is consistent
//! ([`Outcome::check`](crate::Outcome::check)); replaying the same seed and moves gives equal
//! events, observations, outcome and state. Across seeds, the deal must differ.
//!
//! It panics with a message naming the seed and move on the first failure.
//! [`dyn_random_playouts`] runs the same kind of game through the dynamic layer and the replay
//! record.

mod checks;
mod dynamic;

use std::collections::HashSet;

use serde_json::Value;

use crate::api::{Game, Seat, Turn, Viewer};
use crate::rng::{GameRng, Stream};
use checks::{check_observations, check_on_turn, check_over, check_settings, Pool};
pub use dynamic::dyn_random_playouts;

/// How many games to play and how hard to probe each step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playouts {
    /// Games to play, one per seed from `first_seed`.
    pub games: u64,
    pub first_seed: u64,
    /// A game longer than this fails the test.
    pub max_moves: usize,
    /// Per step, how many listed actions to apply on a clone (all if there are fewer).
    pub max_checked_actions: usize,
    /// Per step, how many unlisted actions to try.
    pub illegal_probes: usize,
}

impl Default for Playouts {
    fn default() -> Self {
        Playouts {
            games: 200,
            first_seed: 0,
            max_moves: 100_000,
            max_checked_actions: 64,
            illegal_probes: 4,
        }
    }
}

impl Playouts {
    /// A lighter run: 30 games.
    pub fn quick() -> Self {
        Playouts {
            games: 30,
            ..Playouts::default()
        }
    }
}

/// What the playouts covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    pub games: u64,
    pub moves: usize,
    pub longest_game: usize,
    /// Unlisted actions tried (and refused with `AgainstRules`).
    pub unlisted_probes: usize,
    /// Games played after the uniform ones because those never made a listed action
    /// illegal (not counted in `games`).
    pub edge_games: u64,
}

/// One recorded move: seat, action and the events it produced, as JSON.
type Record<A> = Vec<(Seat, A, Value)>;

/// Plays `playouts.games` random games of `G` with `settings`, checking the engine contract at
/// every step (see the module docs). Panics on the first violation.
pub fn random_playouts<G: Game>(settings: &G::Settings, playouts: &Playouts) -> Stats {
    check_settings::<G>(settings);
    let mut stats = Stats::default();
    let mut pool = Pool::<G>::default();
    let mut deals = HashSet::new();
    let end_seed = playouts.first_seed.saturating_add(playouts.games);
    for seed in playouts.first_seed..end_seed {
        let fresh = new_game::<G>(settings, seed);
        deals.insert(json(
            &fresh.observe(Viewer::Omniscient),
            seed,
            "observation",
        ));
        check_one(
            settings,
            fresh,
            seed,
            Policy::Uniform,
            playouts,
            &mut pool,
            &mut stats,
        );
        stats.games += 1;
    }
    assert!(
        playouts.games < 2 || deals.len() > 1,
        "every seed dealt the same game: the seed is not used"
    );
    // Uniform play may never make a listed action illegal (No Thanks: nobody runs out of
    // coins), and then the unlisted-action probe never runs. Games that mostly play the same
    // position of the list (the first, the second, …) reach the edges uniform play misses.
    let probing = playouts.illegal_probes > 0 && playouts.games > 0;
    let mut position = 0;
    while probing && stats.unlisted_probes == 0 && stats.edge_games < playouts.games {
        let seed = end_seed.saturating_add(stats.edge_games);
        let fresh = new_game::<G>(settings, seed);
        let policy = Policy::Favourite(position);
        check_one(
            settings, fresh, seed, policy, playouts, &mut pool, &mut stats,
        );
        stats.edge_games += 1;
        position += 1;
    }
    assert!(
        !probing || stats.unlisted_probes > 0,
        "the unlisted-action probe never ran: no action seen legal was ever missing from a \
         later list in {} uniform and {} one-sided games; use settings where moves become \
         illegal",
        stats.games,
        stats.edge_games
    );
    stats
}

/// How a playout picks among the legal actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Policy {
    Uniform,
    /// Three times in four the action at this position of the list (the last if the list is
    /// shorter), else any.
    Favourite(usize),
}

/// Plays one game from `fresh` and checks its replay.
fn check_one<G: Game>(
    settings: &G::Settings,
    fresh: G,
    seed: u64,
    policy: Policy,
    playouts: &Playouts,
    pool: &mut Pool<G>,
    stats: &mut Stats,
) {
    let (end, record) = play_one(fresh, seed, policy, playouts, pool, stats);
    check_replay::<G>(settings, seed, &record, &end);
    stats.moves += record.len();
    stats.longest_game = stats.longest_game.max(record.len());
}

fn play_one<G: Game>(
    mut game: G,
    seed: u64,
    policy: Policy,
    playouts: &Playouts,
    pool: &mut Pool<G>,
    stats: &mut Stats,
) -> (G, Record<G::Action>) {
    let mut rng = GameRng::derive(seed, Stream::Testing);
    let mut record = Vec::new();
    loop {
        let at = format!("seed {seed}, move {}", record.len());
        check_observations(&game, &at);
        let seat = match game.turn() {
            Turn::Over => {
                check_over(&game, pool, &at);
                return (game, record);
            }
            Turn::Seat(seat) => seat,
        };
        assert!(
            record.len() < playouts.max_moves,
            "{at}: the game did not end within {} moves",
            playouts.max_moves
        );
        let (legal, probed) = check_on_turn(&game, seat, pool, playouts, &mut rng, &at);
        stats.unlisted_probes += probed;
        let favourite = match policy {
            Policy::Favourite(at) if rng.below(4) != 0 => legal.get(at).or(legal.last()),
            Policy::Favourite(_) | Policy::Uniform => rng.choose(&legal),
        };
        let Some(action) = favourite.cloned() else {
            panic!("{at}: no legal action to play");
        };
        let events = game
            .apply(seat, action.clone())
            .unwrap_or_else(|e| panic!("{at}: {action:?} was listed but refused: {e}"));
        for event in &events {
            assert!(
                !event.to_string().is_empty(),
                "{at}: {event:?} has an empty log line"
            );
        }
        record.push((seat, action, json(&events, seed, "events")));
    }
}

/// The same seed and moves must give the same events, observations, outcome and state.
fn check_replay<G: Game>(settings: &G::Settings, seed: u64, record: &Record<G::Action>, end: &G) {
    let mut game = new_game::<G>(settings, seed);
    for (i, (seat, action, events)) in record.iter().enumerate() {
        let replayed = game
            .apply(*seat, action.clone())
            .unwrap_or_else(|e| panic!("seed {seed}, replayed move {i} was refused: {e}"));
        assert_eq!(
            &json(&replayed, seed, "events"),
            events,
            "seed {seed}, replayed move {i} produced different events"
        );
    }
    for viewer in viewers(end.seats()) {
        assert_eq!(
            json(&game.observe(viewer), seed, "observation"),
            json(&end.observe(viewer), seed, "observation"),
            "seed {seed}: the replay shows {viewer:?} something else"
        );
    }
    assert_eq!(
        game.outcome(),
        end.outcome(),
        "seed {seed}: the replay's outcome differs"
    );
    assert!(
        &game == end,
        "seed {seed}: the replay ends in a different state"
    );
}

fn new_game<G: Game>(settings: &G::Settings, seed: u64) -> G {
    let game = G::new(settings.clone(), seed)
        .unwrap_or_else(|e| panic!("seed {seed}: the game cannot be created: {e}"));
    let again = G::new(settings.clone(), seed).ok();
    assert!(
        again.as_ref() == Some(&game),
        "seed {seed}: two new games from one seed differ"
    );
    game
}

/// Every seat, a spectator and the omniscient view.
fn viewers(seats: usize) -> impl Iterator<Item = Viewer> {
    Seat::all(seats)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator, Viewer::Omniscient])
}

fn json<T: serde::Serialize + ?Sized>(value: &T, seed: u64, what: &str) -> Value {
    serde_json::to_value(value)
        .unwrap_or_else(|e| panic!("seed {seed}: the {what} does not serialize: {e}"))
}

#[cfg(test)]
mod tests;

//! Random playouts through the dynamic layer and the replay record.

use serde_json::Value;

use super::Playouts;
use crate::api::{Turn, Viewer};
use crate::dynamic::new_game;
use crate::error::IllegalAction;
use crate::replay::{Recorder, Replay};
use crate::rng::{GameRng, Stream};
use crate::GameId;

/// Plays random games of `game` built by [`new_game`](crate::new_game) from `rules` and
/// `overrides`, recording them with a [`Recorder`], and checks that: JSON actions listed as
/// legal are accepted; an unreadable action is refused as `Unreadable` and recorded; every
/// observation is JSON; the game ends with a consistent outcome; the replay survives a JSON
/// round trip and rebuilds the same final state; `settings_json` rebuilds the same game.
/// Panics on the first failure; returns the number of moves played.
pub fn dyn_random_playouts(
    game: GameId,
    rules: &str,
    overrides: &Value,
    playouts: &Playouts,
) -> usize {
    let mut moves = 0;
    for seed in playouts.first_seed..playouts.first_seed.saturating_add(playouts.games) {
        let mut recorder = Recorder::new(game, rules, overrides, seed)
            .unwrap_or_else(|e| panic!("{game} {rules:?} seed {seed}: cannot create: {e}"));
        let settings = recorder.game().settings_json();
        let rebuilt = new_game(game, rules, &settings, seed).unwrap_or_else(|e| {
            panic!("seed {seed}: settings_json {settings} does not reparse: {e}")
        });
        assert!(
            rebuilt.same_state(recorder.game()),
            "seed {seed}: settings_json rebuilds another game"
        );

        let mut rng = GameRng::derive(seed, Stream::Testing);
        let mut probed = false;
        while let Turn::Seat(seat) = recorder.game().turn() {
            let at = format!("{game} seed {seed}, move {moves}");
            assert!(
                moves < playouts.max_moves,
                "{at}: no end within {} moves",
                playouts.max_moves
            );
            for viewer in [Viewer::Seat(seat), Viewer::Spectator, Viewer::Omniscient] {
                assert!(
                    !recorder.game().observe_json(viewer).is_null(),
                    "{at}: null observation"
                );
            }
            if !probed {
                probed = true;
                let refused = recorder.apply(seat, Value::from("\u{0}not an action"));
                assert!(
                    matches!(refused, Err(IllegalAction::Unreadable { .. })),
                    "{at}: an unreadable action got {refused:?}"
                );
            }
            let legal = recorder.game().legal_actions_json(seat);
            // The built-in `random` bot's shortcut draws exactly what choosing from the list does.
            let mut shortcut = rng.clone();
            let drawn = recorder.game().random_legal_json(seat, &mut shortcut);
            let Some(action) = rng.choose(&legal).cloned() else {
                panic!("{at}: no legal action");
            };
            assert_eq!(drawn.as_ref(), Some(&action), "{at}: random_legal_json");
            assert_eq!(
                recorder.game().first_legal_json(seat).as_ref(),
                legal.first(),
                "{at}: first_legal_json"
            );
            assert!(shortcut == rng, "{at}: random_legal_json drew differently");
            if let Err(e) = recorder.apply(seat, action.clone()) {
                panic!("{at}: listed action {action} is refused: {e}");
            }
            moves += 1;
        }

        let outcome = recorder
            .game()
            .outcome()
            .unwrap_or_else(|| panic!("seed {seed}: no outcome"));
        if let Err(e) = outcome.check(recorder.game().seats()) {
            panic!("seed {seed}: inconsistent outcome: {e}");
        }
        let replay = recorder.replay();
        assert_eq!(
            replay.outcome.as_ref(),
            Some(&outcome),
            "seed {seed}: the replay lacks the outcome"
        );
        let text = serde_json::to_string(replay).unwrap_or_else(|e| panic!("replay to JSON: {e}"));
        let back: Replay =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("replay from JSON: {e}"));
        assert!(
            &back == replay,
            "seed {seed}: the replay changes in a JSON round trip"
        );
        let end = back
            .rebuild()
            .unwrap_or_else(|e| panic!("seed {seed}: the replay does not rebuild: {e}"));
        assert!(
            end.same_state(recorder.game()),
            "seed {seed}: the replay rebuilds another state"
        );
        assert!(
            recorder.game().clone_box().same_state(recorder.game()),
            "seed {seed}: clone differs"
        );
    }
    moves
}

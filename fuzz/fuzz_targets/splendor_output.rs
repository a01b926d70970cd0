//! Splendor: the bot's stdout (one JSON object) read into a move and played on a real state.
//! Input: a byte picking the state, then the stdout.
#![no_main]

use croupier_fuzz::{pick, snapshots};
use croupier_games::splendor::Splendor;
use croupier_games::{DynGame, Dynamic, Game, Turn, Viewer};
use croupier_referee::fuzzing::splendor_output;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

thread_local! {
    static STATES: Vec<(Splendor, ())> = snapshots(&Value::Null, (), |_, _, _, _, _| {});
}

fuzz_target!(|data: &[u8]| {
    STATES.with(|states| {
        let Some(((game, ()), stdout)) = pick(states, data) else {
            return;
        };
        let Ok((Ok(action), _ignored)) = splendor_output(stdout) else {
            return;
        };
        let Turn::Seat(seat) = game.turn() else {
            return;
        };
        // As the adapter: through the table's JSON, and on a typed copy for the log.
        let json = serde_json::to_value(&action).expect("an action serializes");
        let by_json = Dynamic(game.clone()).apply_json(seat, &json).is_ok();
        let mut typed = game.clone();
        let by_type = typed.apply(seat, action).is_ok();
        assert_eq!(by_json, by_type, "the JSON and typed moves disagree");
        if by_type {
            let _ = typed.observe(Viewer::Seat(seat));
        }
    });
});

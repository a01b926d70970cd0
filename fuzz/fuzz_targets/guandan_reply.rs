//! Guandan: a text frame read as `{"actIndex": i}` and, when in range, the listed move played on
//! a real state (as the adapter: a listed move must be accepted). Input: a byte picking the
//! state, then the frame.
#![no_main]

use croupier_fuzz::{pick, snapshots};
use croupier_games::guandan::{Action, Guandan};
use croupier_games::{DynGame, Dynamic, Game, Seat, Turn, Viewer};
use croupier_referee::fuzzing::guandan_reply;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// States on a seat's turn, with that seat's listed actions (the `act` message's list).
fn states() -> Vec<(Guandan, Seat, Vec<Action>)> {
    snapshots::<Guandan, ()>(&Value::Null, (), |_, _, _, _, _| {})
        .into_iter()
        .filter_map(|(game, ())| {
            let Turn::Seat(seat) = game.turn() else {
                return None;
            };
            let list = game.observe(Viewer::Seat(seat)).action_list;
            Some((game, seat, list))
        })
        .collect()
}

thread_local! {
    static STATES: Vec<(Guandan, Seat, Vec<Action>)> = states();
}

fuzz_target!(|data: &[u8]| {
    STATES.with(|states| {
        let Some(((game, seat, list), frame)) = pick(states, data) else {
            return;
        };
        // A binary frame that is not UTF-8 is garbage before any parsing.
        let Ok(text) = std::str::from_utf8(frame) else {
            return;
        };
        let Ok(index) = guandan_reply(text) else {
            return;
        };
        let Some(action) = usize::try_from(index).ok().and_then(|i| list.get(i)) else {
            return;
        };
        let json = Value::from(action.clone());
        Dynamic(game.clone())
            .apply_json(*seat, &json)
            .expect("a listed move is accepted");
    });
});

//! Hanabi: a websocket frame's payload read as JSON, then as the answer to `turn` under a
//! protocol seat order, and played on a real state. Input: a byte picking the state, a byte
//! picking the order (a rotation, reversed when the high bit is set), then the payload.
#![no_main]

use croupier_fuzz::{pick, snapshots};
use croupier_games::hanabi::Hanabi;
use croupier_games::{DynGame, Dynamic, Game, Turn};
use croupier_referee::fuzzing::{hanabi_answer, hanabi_frame};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

fn states() -> Vec<(Hanabi, ())> {
    let mut all = Vec::new();
    for overrides in [Value::Null, json!({"players": 2}), json!({"players": 5})] {
        all.extend(snapshots(&overrides, (), |_, _, _, _, _| {}));
    }
    all
}

thread_local! {
    static STATES: Vec<(Hanabi, ())> = states();
}

fuzz_target!(|data: &[u8]| {
    STATES.with(|states| {
        let Some(((game, ()), rest)) = pick(states, data) else {
            return;
        };
        let Some((&shape, payload)) = rest.split_first() else {
            return;
        };
        let seats = game.seats();
        let mut order: Vec<usize> = (0..seats)
            .map(|k| (k + usize::from(shape)) % seats)
            .collect();
        if shape & 0x80 != 0 {
            order.reverse();
        }
        let Ok((value, _text)) = hanabi_frame(payload) else {
            return;
        };
        let Ok(action) = hanabi_answer(&value, order) else {
            return;
        };
        if let Turn::Seat(seat) = game.turn() {
            let _ = Dynamic(game.clone()).apply_json(seat, &action);
        }
    });
});

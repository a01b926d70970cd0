//! No Thanks: a connection's byte stream read as JSON values (in small pieces, as a socket
//! delivers them), each read as a message, and every `reply_action` played on a real state
//! in turn. Input: a byte picking the state, a byte for the read size, a byte for the value
//! cap (16 << (b % 10) bytes), then the stream.
#![no_main]

use croupier_fuzz::{pick, snapshots, Chunked};
use croupier_games::nothanks::NoThanks;
use croupier_games::{DynGame, Dynamic, Turn};
use croupier_referee::fuzzing::{nothanks_incoming, NoThanksMessage, NoThanksReader};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

thread_local! {
    static STATES: Vec<(NoThanks, ())> = snapshots(&Value::Null, (), |_, _, _, _, _| {});
    static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
}

fuzz_target!(|data: &[u8]| {
    STATES.with(|states| {
        let Some(((game, ()), rest)) = pick(states, data) else {
            return;
        };
        let [chunk, cap, stream @ ..] = rest else {
            return;
        };
        let reader = Chunked {
            bytes: stream,
            chunk: usize::from(*chunk),
        };
        let mut reader = NoThanksReader::new(reader, 16 << (cap % 10));
        let mut game = Dynamic(game.clone());
        RUNTIME.with(|rt| {
            rt.block_on(async {
                while let Ok(Some((value, _text))) = reader.next().await {
                    if let NoThanksMessage::Action(action) = nothanks_incoming(&value) {
                        if let Turn::Seat(seat) = game.turn() {
                            let _ = game.apply_json(seat, &Value::String(action));
                        }
                    }
                }
            })
        });
    });
});

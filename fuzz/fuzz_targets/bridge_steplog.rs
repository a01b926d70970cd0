//! Bridge: what a call left in Board.txt and StepLog.txt judged into a move, played on a real
//! state. Input: a byte picking the state (with its StepLog), a byte choosing what the bytes
//! replace (0, 1: appended to StepLog.txt; 2: the whole StepLog.txt; 3: the whole Board.txt),
//! then the bytes.
#![no_main]

use croupier_fuzz::{pick, snapshots};
use croupier_games::bridge::{Action, Bridge};
use croupier_games::{DynGame, Dynamic, Game, Turn, Viewer};
use croupier_referee::bridge::answer::{judge, Signer};
use croupier_referee::bridge::files::{board_text, Author, StepLog};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// The StepLog the referee writes, move by move (a program seat's line under the hand that
/// moved, then the markers).
fn record(
    log: &mut StepLog,
    before: &Bridge,
    after: &Bridge,
    seat: croupier_games::Seat,
    action: &Action,
) {
    let hand = before
        .observe(Viewer::Seat(seat))
        .playing_hand
        .unwrap_or(seat);
    match action {
        Action::Call(call) => log.call(Author::Player(hand), *call),
        Action::Play(card) => log.play(Author::Player(hand), *card),
    }
    log.catch_up(&after.observe(Viewer::Spectator));
}

thread_local! {
    static STATES: Vec<(Bridge, StepLog)> = snapshots(&Value::Null, StepLog::new(), record);
}

fuzz_target!(|data: &[u8]| {
    STATES.with(|states| {
        let Some(((game, log), rest)) = pick(states, data) else {
            return;
        };
        let Some((&mode, bytes)) = rest.split_first() else {
            return;
        };
        let Turn::Seat(seat) = game.turn() else {
            return;
        };
        let obs = game.observe(Viewer::Seat(seat));
        let signer = Signer {
            seat,
            hand: obs.playing_hand.unwrap_or(seat),
        };
        let board = board_text(&obs).expect("a Board.txt while the deal runs");
        let log_sent = log.text();
        let (board_now, log_now) = match mode % 4 {
            0 | 1 => (
                board.as_bytes().to_vec(),
                [log_sent.as_bytes(), bytes].concat(),
            ),
            2 => (board.as_bytes().to_vec(), bytes.to_vec()),
            _ => (bytes.to_vec(), log_sent.as_bytes().to_vec()),
        };
        match judge(
            board.as_bytes(),
            Some(&board_now),
            log_sent.as_bytes(),
            Some(&log_now),
            signer,
        ) {
            Ok((action, _line)) => {
                let json = serde_json::to_value(action).expect("an action serializes");
                let _ = Dynamic(game.clone()).apply_json(seat, &json);
            }
            Err(violation) => {
                let _ = violation.reason();
            }
        }
    });
});

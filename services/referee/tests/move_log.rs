//! A program seat's move records (time, memory peak, stderr of each move) from real sandboxed
//! matches: a long-lived bot over TCP (No Thanks) and per-move processes (Splendor's kit).

mod common;

use common::*;
use croupier_games::Entry;
use croupier_referee::SeatSpec;
use croupier_sandbox::EndState;

/// Prints `move K` on stderr just before each answer (flushed, so it races the answer to the
/// referee), and holds 48 MiB during its fifth move only.
const CHATTY: &str = r#"
moves = 0
def on_request(msg):
    global moves
    moves += 1
    if moves == 5:
        block = bytearray(48 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        del block
    sys.stderr.write("move %d\n" % moves)
    sys.stderr.flush()
    send("reply_action", {"action_type": "pass" if "pass" in msg["payload"]["action_types"] else "pick"})
run(on_request)
"#;

#[tokio::test]
async fn a_long_lived_seat_gets_each_moves_own_stderr_and_memory_peak() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let source = format!("{HOSTILE}\n{CHATTY}");
    let seats = vec![
        bots.script("chatty", &source),
        SeatSpec::builtin("heuristic"),
        bots.python_kit("kit", None),
    ];

    let result = play(&sb, nothanks(5, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    let chatty = &result.seats[0];
    assert_eq!(chatty.end_state, EndState::Ok, "{}", describe(&result));
    let log = &chatty.move_log;
    assert_eq!(log.len(), chatty.moves as usize, "one record per answer");
    assert!(log.len() >= 5, "{}", describe(&result));
    let entries = &result.games[0].replay.entries;
    for (k, record) in log.iter().enumerate() {
        assert_eq!(
            record.stderr,
            format!("move {}\n", k + 1),
            "move {} holds its own line and nothing else: {log:#?}",
            k + 1
        );
        assert_eq!(record.game, 0);
        assert_eq!(record.ms, chatty.move_ms[k]);
        let entry = &entries[record.entry as usize - 1];
        assert!(
            matches!(entry, Entry::Move { seat, forced: false, .. } if seat.index() == 0),
            "record {k} points at the seat's own move: {entry:?}"
        );
    }
    let peaks: Vec<u64> = log
        .iter()
        .map(|r| r.peak_kib.expect("the sandbox measures each move's memory"))
        .collect();
    assert!(
        peaks[4] >= 48 << 10,
        "the fifth move held 48 MiB: {peaks:?}"
    );
    for (k, peak) in peaks.iter().enumerate().skip(5) {
        assert!(
            *peak < 40 << 10,
            "move {} came after the block was freed: its own peak, not the match's: {peaks:?}",
            k + 1
        );
    }
    assert!(result.seats[1].move_log.is_empty(), "a built-in has none");
    let kit = &result.seats[2];
    assert_eq!(kit.move_log.len(), kit.moves as usize);
    assert_no_slot_processes(uids);
}

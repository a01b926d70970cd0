//! Whole No Thanks matches with the starter kits through the real sandbox, over TCP.

mod common;

use std::time::Instant;

use common::*;
use croupier_referee::{play, Direction, SeatSpec};
use croupier_sandbox::EndState;

#[tokio::test]
async fn a_python_bot_a_c_bot_and_a_builtin_play_a_full_match_that_replays_identically() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.python_kit("py", None),
        bots.c_kit("c", Some(1000)),
        SeatSpec::builtin("heuristic"),
    ];

    let t0 = Instant::now();
    let first = play(&sb, nothanks(42, seats.clone())).await.unwrap();
    let took = t0.elapsed();
    let second = play(&sb, nothanks(42, seats)).await.unwrap();

    eprintln!("{}\nwall {took:?}", describe(&first));
    assert_consistent(&first);
    for seat in &first.seats {
        assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&first));
        assert!(
            seat.moves > 0 && seat.forced_moves == 0,
            "{}",
            describe(&first)
        );
        assert!(seat.detail.is_empty());
    }
    assert!(
        first.seats[0].stderr_tail.contains("game 1 over"),
        "{}",
        describe(&first)
    );
    assert!(
        first.seats[1].stderr_tail.contains("game 1 over"),
        "{}",
        describe(&first)
    );
    assert_eq!(first.seats[0].move_ms.len(), first.seats[0].moves as usize);
    assert_eq!(first.games.len(), 1);
    assert_eq!(
        first.games[0].replay, second.games[0].replay,
        "same seed, same bots: same game"
    );
    assert_eq!(first.outcome, second.outcome);
    assert_no_slot_processes(uids);
}

/// A bot written for the original server: it checks every message it gets against §4.
const RAW_CLIENT: &str = include_str!("raw_client.py");

#[tokio::test]
async fn a_raw_client_on_port_1000_sees_every_message_in_protocol_order() {
    let (sb, _) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        SeatSpec::builtin("heuristic"),
        bots.script("raw", RAW_CLIENT),
        bots.python_kit("kit", None),
    ];

    let result = play(&sb, nothanks(7, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    let raw = &result.seats[1];
    assert_eq!(raw.end_state, EndState::Ok, "{}", describe(&result));
    assert!(
        raw.stderr_tail.contains("PROTOCOL OK"),
        "{}",
        raw.stderr_tail
    );
}

#[tokio::test]
async fn a_learning_room_plays_three_games_with_notice_epoc_before_each() {
    let (sb, _) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.python_kit("py", None),
        bots.c_kit("c", None),
        SeatSpec::builtin("random"),
    ];
    let mut spec = nothanks(5, seats);
    spec.games = 3;

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert_eq!(result.games.len(), 3);
    let seeds: Vec<u64> = result.games.iter().map(|g| g.replay.seed).collect();
    assert_eq!(seeds, croupier_referee::game_seeds(5, 3));
    assert!(result.seats.iter().all(|s| s.end_state == EndState::Ok));
    let to_py: Vec<&str> = result
        .transcript
        .iter()
        .filter(|l| l.direction == Direction::ToBot && l.seat == Some(croupier_games::Seat(0)))
        .map(|l| l.text.as_str())
        .collect();
    let epocs: Vec<usize> = (1..=3)
        .map(|k| {
            to_py
                .iter()
                .position(|t| t.contains(&format!("\"epoc_num\": {k}")))
                .unwrap()
        })
        .collect();
    let starts: Vec<usize> = to_py
        .iter()
        .enumerate()
        .filter(|(_, t)| t.contains("\"notice_start\""))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(starts.len(), 3);
    for k in 0..3 {
        assert!(
            epocs[k] + 1 == starts[k],
            "notice_epoc {} directly precedes notice_start",
            k + 1
        );
    }
    let totals: i64 = result.games.iter().map(|g| g.outcome.seats[0].score).sum();
    assert_eq!(result.seats[0].score, totals);
}

#[tokio::test]
async fn two_matches_at_once_each_serve_their_own_port_2004() {
    let (sb, _) = sandbox().await;
    let mut bots = Bots::default();
    let a = nothanks(
        1,
        vec![
            bots.python_kit("a1", None),
            bots.python_kit("a2", None),
            SeatSpec::builtin("heuristic"),
        ],
    );
    let b = nothanks(
        2,
        vec![
            bots.python_kit("b1", None),
            bots.c_kit("b2", None),
            SeatSpec::builtin("heuristic"),
        ],
    );

    let (a, b) = tokio::join!(play(&sb, a), play(&sb, b));

    let (a, b) = (a.unwrap(), b.unwrap());
    eprintln!("{}\n{}", describe(&a), describe(&b));
    for (result, own, other) in [(&a, "a1", "b1"), (&b, "b1", "a1")] {
        assert_consistent(result);
        assert!(
            result.seats.iter().all(|s| s.end_state == EndState::Ok),
            "{}",
            describe(result)
        );
        let text: String = result.transcript.iter().map(|l| l.text.as_str()).collect();
        assert!(
            text.contains(own) && !text.contains(other),
            "each match saw only its own bots"
        );
    }
    assert!(
        std::net::TcpStream::connect("127.0.0.1:2004").is_err(),
        "the host's loopback is untouched"
    );
}

#[tokio::test]
async fn the_same_match_runs_unsandboxed_for_local_play() {
    let sb = unsandboxed().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.c_kit("c", None),
        bots.python_kit("py", Some(1000)),
        SeatSpec::builtin("heuristic"),
    ];

    let result = play(&sb, nothanks(3, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert!(
        result.seats.iter().all(|s| s.end_state == EndState::Ok),
        "{}",
        describe(&result)
    );
}

#[tokio::test]
async fn three_built_in_bots_play_without_any_process() {
    let sb = unsandboxed().await;
    let seats = vec![
        SeatSpec::builtin("heuristic"),
        SeatSpec::builtin("random"),
        SeatSpec::builtin("heuristic"),
    ];

    let result = play(&sb, nothanks(8, seats)).await.unwrap();

    assert_consistent(&result);
    let names: Vec<&str> = result.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["heuristic", "random", "heuristic-2"]);
    assert!(result.transcript.is_empty());
}

/// A bot that also watches its match: a viewer connection (opened first) counts what it is
/// sent, then the bot plays on a player connection (always `pass` when it may).
const WATCHER: &str = r#"import json, socket, sys, threading
room, name = sys.stdin.readline().strip(), sys.stdin.readline().strip()
def join(role):
    f = socket.create_connection(("127.0.0.1", 2004)).makefile("rw")
    while json.loads(f.readline())["type"] != "request_room_name_and_role":
        pass  # notice_connection_ok first
    reply = {"room_name": room, "role": role, "player_name": name}
    f.write(json.dumps({"type": "reply_room_name_and_role", "payload": reply}) + "\n"); f.flush()
    return f
seen = {}
def watch(v):
    for line in v:
        kind = json.loads(line)["type"]
        seen[kind] = seen.get(kind, 0) + 1
        if kind == "notice_end":
            break
viewer = threading.Thread(target=watch, args=(join("viewer"),))
viewer.start()
f = join("player")
for line in f:
    msg = json.loads(line)
    if msg["type"] == "request_action":
        act = "pass" if "pass" in msg["payload"]["action_types"] else "pick"
        f.write(json.dumps({"type": "reply_action", "payload": {"action_type": act}}) + "\n"); f.flush()
    elif msg["type"] == "notice_end":
        break
viewer.join()
print("VIEWER SAW " + json.dumps(seen, sort_keys=True), file=sys.stderr, flush=True)
"#;

#[tokio::test]
async fn a_viewer_is_sent_information_game_before_every_turn_and_nobody_else_is() {
    let (sb, _) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.script("watcher", WATCHER),
        SeatSpec::builtin("heuristic"),
        SeatSpec::builtin("random"),
    ];

    let result = play(&sb, nothanks(11, seats)).await.unwrap();

    assert_consistent(&result);
    let watcher = &result.seats[0];
    assert_eq!(watcher.end_state, EndState::Ok, "{}", describe(&result));
    // The lines the referee sent, per connection (the viewer's and the player's).
    let sent = |kind: &str| -> Vec<u64> {
        result
            .transcript
            .iter()
            .filter(|l| l.direction == Direction::ToBot && l.text.contains(kind))
            .map(|l| l.conn)
            .collect()
    };
    let informed = sent("\"information_game\"");
    let turns = result.games[0].replay.entries.len();
    assert!(
        !informed.is_empty() && informed.iter().all(|c| *c == informed[0]),
        "information_game goes to the viewer only: {informed:?}"
    );
    assert!(
        informed.len() <= turns && informed.len() + 3 >= turns,
        "one information_game per turn once the viewer is in: {} for {turns} turns",
        informed.len()
    );
    let said = format!("\"information_game\": {}", informed.len());
    assert!(
        watcher.stderr_tail.contains(&said),
        "the viewer read what was sent ({said}): {}",
        watcher.stderr_tail
    );
}

//! Bots that break the protocol: every fault is recorded against its seat, the game ends (or,
//! with `on_illegal = ask_again`, goes on) and everyone still connected gets `onGameEnd`.

use std::time::Duration;

use super::*;

/// The last message each seat got: the `onGameEnd` of a game ended by a fault has reason -1.
pub(super) fn assert_fault_end_reached_everyone(result: &MatchResult, seats: &[usize]) {
    for &seat in seats {
        let got = sent_to(result, seat);
        let end = got.last().unwrap();
        assert_eq!(end["event"], "onGameEnd", "seat {seat}: {got:?}");
        assert_eq!(end["reason"], -1, "seat {seat}");
        assert_eq!(end["score"], json!(result.seats[seat].score));
    }
}

pub(super) fn others_ok(result: &MatchResult, faulty: usize) {
    for (i, seat) in result.seats.iter().enumerate() {
        if i != faulty {
            assert_eq!(seat.end_state, EndState::Ok, "{}", describe(result));
        }
    }
}

#[tokio::test]
async fn garbage_on_its_turn_is_invalid_output_and_ends_the_game_for_everyone() {
    let (sb, uids) = sandbox().await;
    let mut dirs = Dirs::default();
    let body = "run(lambda conn, msg, seen: conn.send('this is not json'))\ntime.sleep(30)";
    let seats = vec![
        dirs.ws_kit("a", &[]),
        dirs.hostile("garbage", body),
        dirs.ws_kit("b", &[]),
        SeatSpec::builtin("convention"),
    ];

    let result = play(&sb, hanabi("standard", 3, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert_eq!(result.seats[1].end_state, EndState::InvalidOutput);
    assert!(
        result.seats[1].detail.contains("not JSON"),
        "{}",
        result.seats[1].detail
    );
    others_ok(&result, 1);
    assert_fault_end_reached_everyone(&result, &[0, 2]);
    assert!(result.seats[0].stderr_tail.contains("game over: reason -1"));
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn an_illegal_move_ends_the_game_with_the_score_so_far_and_the_mover_gets_on_game_end() {
    let (sb, _) = sandbox().await;
    let mut dirs = Dirs::default();
    // Seat 0 moves first (the spec fixes the turn order), with all 8 hint tokens: discarding
    // is illegal.
    let body = "import json\nrun(lambda conn, msg, seen: conn.send_binary(json.dumps({'actionType': 3, 'target': 0}).encode()))";
    let seats = vec![
        dirs.hostile("illegal", body),
        dirs.ws_kit("a", &[]),
        dirs.class_kit("b"),
        dirs.ws_kit("c", &[]),
    ];
    let mut spec = hanabi("standard", 4, seats);
    spec.settings = json!({"seat_order": [0, 2, 3, 1]});

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    let mover = &result.seats[0];
    assert_eq!(mover.end_state, EndState::IllegalAction);
    assert!(mover.detail.contains("8 hint tokens"), "{}", mover.detail);
    assert!(
        mover
            .stderr_tail
            .contains(r#""event": "onGameEnd", "reason": -1, "score": 0"#),
        "{}",
        mover.stderr_tail
    );
    others_ok(&result, 0);
    assert_fault_end_reached_everyone(&result, &[0, 1, 2, 3]);
    assert_eq!(result.seats[2].score, 0);
    assert_eq!(
        indices::seat_order(&result),
        [0, 2, 3, 1],
        "a given order is kept"
    );
    let got = sent_to(&result, 1);
    let own = got[0]["handColor"][3].as_array().unwrap();
    assert!(own.iter().all(|c| c == -1), "seat 1 is index 3: {}", got[0]);
}

#[tokio::test]
async fn with_ask_again_an_illegal_move_is_refused_and_the_bot_gets_turn_again() {
    let (sb, _) = sandbox().await;
    let mut dirs = Dirs::default();
    // First answer: discard with 8 tokens (illegal); then always play the oldest card.
    let body = r#"
import json
def on_turn(conn, msg, seen):
    kind = 3 if sum(m["event"] == "turn" for m in seen) == 1 else 2
    conn.send(json.dumps({"actionType": kind, "target": 0}))
run(on_turn)
"#;
    let seats = vec![
        dirs.hostile("stubborn", body),
        dirs.ws_kit("a", &[]),
        SeatSpec::builtin("convention"),
        dirs.class_kit("b"),
    ];
    // Seat 0 moves first: the spec fixes the turn order.
    let mut spec = hanabi("standard", 8, seats);
    spec.settings = json!({"on_illegal": "ask_again", "seat_order": [0, 3, 1, 2]});

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert_eq!(result.seats[0].end_state, EndState::IllegalAction);
    others_ok(&result, 0);
    let got = sent_to(&result, 0);
    assert_eq!(
        events(&got)[..4],
        ["onStart", "onTurnStart", "turn", "turn"]
    );
    let end = got.last().unwrap();
    assert!(
        (0..=2).contains(&end["reason"].as_i64().unwrap()),
        "a normal end: {end}"
    );
    let turns = got.iter().filter(|m| m["event"] == "turn").count() as u32;
    assert_eq!(
        result.seats[0].moves, turns,
        "one answer per `turn`, the refused one too"
    );
}

#[tokio::test]
async fn a_bot_that_hangs_is_time_limit_and_one_that_exits_is_crashed() {
    let (sb, uids) = sandbox().await;
    let mut dirs = Dirs::default();
    let hang = "run(lambda conn, msg, seen: time.sleep(60))";
    let seats = vec![
        dirs.ws_kit("a", &[]),
        dirs.hostile("hang", hang),
        SeatSpec::builtin("convention"),
        SeatSpec::builtin("random"),
    ];
    let result = play(&sb, hanabi("standard", 6, seats)).await.unwrap();
    eprintln!("{}", describe(&result));
    assert_eq!(result.seats[1].end_state, EndState::TimeLimit);
    assert!(result.seats[1].detail.contains("did not answer `turn`"));
    others_ok(&result, 1);
    assert_fault_end_reached_everyone(&result, &[0]);

    let exit = "run(lambda conn, msg, seen: sys.exit(3))";
    let seats = vec![
        dirs.hostile("exit", exit),
        dirs.ws_kit("a", &[]),
        dirs.class_kit("b"),
        SeatSpec::builtin("convention"),
    ];
    let result = play(&sb, hanabi("standard", 6, seats)).await.unwrap();
    eprintln!("{}", describe(&result));
    let crashed = EndState::Crashed {
        signal: None,
        code: Some(3),
    };
    assert_eq!(result.seats[0].end_state, crashed);
    others_ok(&result, 0);
    assert_fault_end_reached_everyone(&result, &[1, 2]);
    assert_consistent(&result);
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_bot_that_never_connects_is_time_limit_and_the_others_get_on_game_end() {
    let (sb, _) = sandbox().await;
    let mut dirs = Dirs::default();
    let absent = ("bot.py", "import time\ntime.sleep(60)\n".to_owned());
    let seats = vec![
        dirs.python("absent", &[absent], &[]),
        dirs.class_kit("class"),
        dirs.ws_kit("a", &[]),
    ];
    let mut spec = hanabi("standard", 9, seats);
    spec.settings = json!({"players": 3});
    spec.limits.join_time = Duration::from_secs(2);

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert_eq!(result.seats[0].end_state, EndState::TimeLimit);
    assert!(result.seats[0].detail.contains("did not connect"));
    others_ok(&result, 0);
    for seat in [1, 2] {
        assert_eq!(events(&sent_to(&result, seat)), ["onStart", "onGameEnd"]);
    }
    assert_fault_end_reached_everyone(&result, &[1, 2]);
}

#[tokio::test]
async fn a_connection_after_the_game_started_is_closed_at_once() {
    let (sb, _) = sandbox().await;
    let mut dirs = Dirs::default();
    // After onStart, opens a second connection, then plays its oldest card every turn.
    let twice = r#"
first = conn.recv()
try:
    second = websocket.create_connection("ws://127.0.0.1:9999/")
    got = second.recv()
    print("SECOND CLOSED" if not got else "SECOND GOT " + str(got), file=sys.stderr)
except Exception as e:
    print("SECOND CLOSED", type(e).__name__, file=sys.stderr)
run(lambda conn, msg, seen: conn.send('{"actionType": 2, "target": 0}'))
"#;
    let seats = vec![
        dirs.ws_kit("a", &[]),
        dirs.hostile("twice", twice),
        dirs.ws_kit("b", &[]),
    ];
    let mut spec = hanabi("standard", 10, seats);
    spec.settings = json!({"players": 3});

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    for seat in &result.seats {
        assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
    }
    let tail = &result.seats[1].stderr_tail;
    assert!(tail.contains("SECOND CLOSED"), "{tail}");
    assert!(tail.contains(r#""event": "onGameEnd""#), "{tail}");
}

#[tokio::test]
async fn without_a_sandbox_class_based_and_websocket_bots_play_and_a_match_is_one_game() {
    let sb = unsandboxed().await;
    let mut dirs = Dirs::default();
    let seats = vec![
        dirs.class_kit("class"),
        SeatSpec::builtin("convention"),
        dirs.ws_kit("ws", &[]),
        dirs.raw("raw", &[]),
    ];
    let mut spec = hanabi("standard", 21, seats);
    spec.limits = Default::default();

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    for seat in &result.seats {
        assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
    }
    let mut spec = hanabi("standard", 1, vec![SeatSpec::builtin("random"); 4]);
    spec.games = 2;
    let refused = play(&sb, spec).await.unwrap_err();
    assert!(refused.to_string().contains("one game"), "{refused}");
}

#[tokio::test]
async fn with_ask_again_the_referee_plays_for_a_seat_that_left_and_the_game_completes() {
    let (sb, _) = sandbox().await;
    let mut dirs = Dirs::default();
    let seats = vec![
        dirs.ws_kit("a", &[]),
        dirs.hostile("quitter", "run(lambda conn, msg, seen: sys.exit(0))"),
        dirs.class_kit("b"),
        SeatSpec::builtin("convention"),
    ];
    let mut spec = hanabi("standard", 12, seats);
    spec.settings = json!({"on_illegal": "ask_again"});

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    let quitter = &result.seats[1];
    let exited = EndState::Crashed {
        signal: None,
        code: Some(0),
    };
    assert_eq!(quitter.end_state, exited, "an exit before the end, even 0");
    assert!(quitter.forced_moves > 0, "{}", describe(&result));
    others_ok(&result, 1);
    let end = sent_to(&result, 0).pop().unwrap();
    assert!((0..=2).contains(&end["reason"].as_i64().unwrap()), "{end}");
}

#[tokio::test]
async fn a_message_over_the_size_cap_is_invalid_output() {
    let (sb, _) = sandbox().await;
    let mut dirs = Dirs::default();
    let body = "run(lambda conn, msg, seen: conn.send('[' + '1,' * 100000 + '1]'))";
    let seats = vec![
        dirs.hostile("big", body),
        dirs.ws_kit("a", &[]),
        SeatSpec::builtin("convention"),
        SeatSpec::builtin("random"),
    ];
    let mut spec = hanabi("standard", 13, seats);
    spec.limits.line_bytes = 64 << 10;

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_eq!(result.seats[0].end_state, EndState::InvalidOutput);
    assert!(
        result.seats[0].detail.contains("over 65536 bytes"),
        "{}",
        result.seats[0].detail
    );
    others_ok(&result, 0);
    assert_fault_end_reached_everyone(&result, &[1]);
}

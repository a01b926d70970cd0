//! Whole Guandan games over the v1006 websocket protocol through the real sandbox: a client
//! that checks every message against `docs/protocols.md#guandan`, hostile bots, and the starter
//! kit.

mod common;

use std::time::{Duration, Instant};

use common::*;
use croupier_games::GameId;
use croupier_referee::{play, Direction, MatchLimits, MatchSpec, SeatSpec};
use croupier_sandbox::EndState;

const CHECKER: &str = include_str!("guandan/checker.py");
const HOSTILE_BOT: &str = include_str!("guandan/hostile.py");
const SLOW_JOIN: &str = include_str!("guandan/slow_join.py");
const THIEF: &str = include_str!("guandan/thief.py");
const KIT: &str = include_str!("../../../kits/guandan/python/client.py");
const SLOW_FIRST_READ: &str = include_str!("guandan/slow_first_read.py");

fn checker(bots: &mut Bots, pos: usize, path: &str) -> SeatSpec {
    checker_style(bots, pos, path, if pos % 2 == 0 { "shed" } else { "weak" })
}

fn checker_style(bots: &mut Bots, pos: usize, path: &str, style: &str) -> SeatSpec {
    let source = format!("EXPECT_POS = {pos}\nPATH = {path:?}\nSTYLE = {style:?}\n{CHECKER}");
    bots.script(&format!("checker{pos}"), &source)
}

fn hostile(bots: &mut Bots, mode: &str) -> SeatSpec {
    bots.script(mode, &format!("MODE = {mode:?}\n{HOSTILE_BOT}"))
}

fn guandan(seed: u64, seats: Vec<SeatSpec>, games: u32) -> MatchSpec {
    let mut spec = MatchSpec::new(GameId::GUANDAN, seed, seats);
    spec.games = games;
    spec
}

#[tokio::test]
async fn four_checking_clients_see_protocol_order_and_fields_for_whole_games() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        checker(&mut bots, 0, "/game/client1"),
        checker(&mut bots, 1, "/game/gd/client2"),
        checker(&mut bots, 2, "/game/client3"),
        checker(&mut bots, 3, "/game/gd/x/y"),
    ];

    let mut spec = guandan(5, seats, 2);
    spec.limits.transcript_bytes = 256 << 20;
    let t0 = Instant::now();
    let result = play(&sb, spec).await.unwrap();
    let took = t0.elapsed();

    eprintln!("{}\nwall {took:?}", describe(&result));
    assert_consistent(&result);
    assert_eq!(result.games.len(), 2);
    for seat in &result.seats {
        assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
        assert!(
            seat.stderr_tail.contains("PROTOCOL OK"),
            "{}",
            seat.stderr_tail
        );
        assert!(seat.moves > 0 && seat.forced_moves == 0);
    }
    // The shedding team (seats 0 and 2) wins both games; partners score alike.
    let scores: Vec<i64> = result.seats.iter().map(|s| s.score).collect();
    assert_eq!(scores, [2, 0, 2, 0]);
    for stage in [
        "beginning",
        "tribute",
        "back",
        "episodeOver",
        "gameOver",
        "gameResult",
    ] {
        let tag = format!("\"stage\":\"{stage}\"");
        assert!(
            result.transcript.iter().any(|l| l.text.contains(&tag)),
            "no {stage} message was sent"
        );
    }
    let to_bot = |seat: usize| {
        result
            .transcript
            .iter()
            .filter(|l| {
                l.seat.map(croupier_games::Seat::index) == Some(seat)
                    && l.direction == Direction::ToBot
            })
            .count()
    };
    assert!(
        result.transcript_truncated || (0..4).all(|s| to_bot(s) > 100),
        "every seat is sent the notifications"
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn hostile_bots_are_recorded_and_the_game_completes() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        hostile(&mut bots, "bad_index"),
        hostile(&mut bots, "garbage"),
        hostile(&mut bots, "hang"),
        hostile(&mut bots, "exit"),
    ];
    let mut spec = guandan(11, seats, 1);
    spec.limits = MatchLimits {
        move_time: Duration::from_secs(1),
        join_time: Duration::from_secs(10),
        ..quick_limits()
    };

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    let [bad, garbage, hang, exit] = [0, 1, 2, 3].map(|i| &result.seats[i]);
    assert_eq!(
        bad.end_state,
        EndState::IllegalAction,
        "{}",
        describe(&result)
    );
    assert!(bad.detail.contains("actIndex") && bad.detail.contains("re-sends"));
    assert!(
        bad.forced_moves > 0 && bad.moves == bad.forced_moves,
        "{}",
        describe(&result)
    );
    assert!(
        bad.stderr_tail.contains("saw gameResult"),
        "an illegal index keeps the seat in the game: {}",
        bad.stderr_tail
    );
    assert_eq!(garbage.end_state, EndState::InvalidOutput);
    assert!(garbage.detail.contains("not JSON"), "{}", garbage.detail);
    assert!(
        garbage.stderr_tail.contains("refused: 404"),
        "{}",
        garbage.stderr_tail
    );
    assert_eq!(hang.end_state, EndState::TimeLimit);
    assert!(hang.detail.contains("no actIndex within"));
    assert_eq!(
        exit.end_state,
        EndState::Crashed {
            signal: None,
            code: Some(3)
        }
    );
    for seat in &result.seats {
        assert!(seat.forced_moves > 0, "{}", describe(&result));
    }
    let faults = result.games[0]
        .replay
        .entries
        .iter()
        .filter(|e| format!("{e:?}").contains("referee plays"))
        .count();
    assert!(faults >= 3, "the retirements are in the replay");
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_seat_that_never_connects_is_timed_out_and_the_kit_plays_on() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.script("kit", KIT),
        bots.script("slow", SLOW_JOIN),
        SeatSpec::builtin("heuristic"),
        SeatSpec::builtin("random"),
    ];
    let mut spec = guandan(3, seats, 1);
    spec.limits.join_time = Duration::from_secs(2);

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert_eq!(result.seats[1].end_state, EndState::TimeLimit);
    assert!(result.seats[1].detail.contains("did not connect"));
    assert!(result.seats[1].forced_moves > 0);
    assert_eq!(
        result.seats[0].end_state,
        EndState::Ok,
        "{}",
        describe(&result)
    );
    assert!(result.seats[0].stderr_tail.contains("result: wins"));
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn the_starter_kit_plays_a_full_game_against_the_builtins() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.script("kit-a", KIT),
        SeatSpec::builtin("random"),
        bots.script("kit-b", KIT),
        SeatSpec::builtin("random"),
    ];

    let t0 = Instant::now();
    let result = play(&sb, guandan(8, seats, 1)).await.unwrap();

    eprintln!("{}\nwall {:?}", describe(&result), t0.elapsed());
    assert_consistent(&result);
    for i in [0, 2] {
        let kit = &result.seats[i];
        assert_eq!(kit.end_state, EndState::Ok, "{}", describe(&result));
        assert!(kit.forced_moves == 0 && kit.moves > 0);
        assert!(
            kit.stderr_tail.contains("game 1 of 1 over"),
            "{}",
            kit.stderr_tail
        );
    }
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_ws4py_client_slow_to_read_the_handshake_answer_gets_no_frame_with_it() {
    // Seat 3 joins last, and the deal starts as soon as it has: the first frames would follow
    // the 101 response at once.
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let slow = format!("{SLOW_FIRST_READ}\n{KIT}");
    let seats = vec![
        SeatSpec::builtin("random"),
        bots.script("kit-a", KIT),
        SeatSpec::builtin("random"),
        bots.script("kit-slow", &slow),
    ];

    let result = play(&sb, guandan(9, seats, 1)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    for i in [1, 3] {
        let kit = &result.seats[i];
        assert_eq!(kit.end_state, EndState::Ok, "{}", describe(&result));
        assert!(!kit.stderr_tail.contains("parser"), "{}", kit.stderr_tail);
        assert!(kit.forced_moves == 0 && kit.moves > 0);
    }
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_bot_cannot_take_the_next_seat_with_a_second_connection() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.script("thief", THIEF),
        checker_style(&mut bots, 1, "/game/victim", "shed"),
        SeatSpec::builtin("random"),
        SeatSpec::builtin("heuristic"),
    ];

    let result = play(&sb, guandan(21, seats, 1)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    let (thief, victim) = (&result.seats[0], &result.seats[1]);
    assert_eq!(victim.end_state, EndState::Ok, "{}", describe(&result));
    assert!(
        victim.stderr_tail.contains("PROTOCOL OK"),
        "{}",
        victim.stderr_tail
    );
    assert!(
        thief.stderr_tail.contains("attempt closed")
            && thief.stderr_tail.contains("stolen connections: 0")
            && !thief.stderr_tail.contains("STOLE"),
        "the second connections were refused: {}",
        thief.stderr_tail
    );
    assert_no_slot_processes(uids);
}

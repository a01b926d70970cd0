//! Hostile seats: each ends in the right end state, the referee plays for it, and the other
//! seats' match completes.

mod common;

use std::time::{Duration, Instant};

use common::*;
use croupier_referee::{MatchResult, MatchSpec, SeatSpec};
use croupier_sandbox::EndState;

/// Plays `hostile` in seat 1 between the Python kit (seat 0) and a built-in (seat 2).
async fn against(hostile: &str, limits: impl FnOnce(&mut MatchSpec)) -> MatchResult {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let source = format!("{HOSTILE}\n{hostile}");
    let seats = vec![
        bots.python_kit("kit", None),
        bots.script("hostile", &source),
        SeatSpec::builtin("heuristic"),
    ];
    let mut spec = nothanks(11, seats);
    spec.limits = quick_limits();
    limits(&mut spec);
    let t0 = Instant::now();
    let result = play(&sb, spec)
        .await
        .expect("a bot's fault is a result, not an error");
    eprintln!("{}\nwall {:?}", describe(&result), t0.elapsed());
    assert_consistent(&result);
    for s in [&result.seats[0], &result.seats[2]] {
        assert_eq!(s.end_state, EndState::Ok, "{}", describe(&result));
    }
    assert!(result.seats[0].moves > 0);
    // The synthesized-report path drops the process and cleans up on a thread: allow a moment.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_no_slot_processes(uids);
    result
}

fn hostile_seat(result: &MatchResult) -> &croupier_referee::SeatOutcome {
    &result.seats[1]
}

#[tokio::test]
async fn a_bot_that_exits_at_once_is_crashed_and_played_for() {
    let join_time = Duration::from_secs(20);
    let result = against("sys.exit(3)", |spec| spec.limits.join_time = join_time).await;

    let seat = hostile_seat(&result);
    assert_eq!(
        seat.end_state,
        EndState::Crashed {
            signal: None,
            code: Some(3)
        }
    );
    assert!(seat.moves == 0 && seat.forced_moves > 0);
    assert!(
        result.wall_ms < 4000,
        "no need to wait for the join deadline"
    );
}

#[tokio::test]
async fn garbage_instead_of_json_is_invalid_output() {
    let result = against(r#"run(lambda msg: conn.sendall(b"I pick!\n"))"#, |_| {}).await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::InvalidOutput, "{}", seat.detail);
    assert!(seat.detail.contains("not JSON"), "{}", seat.detail);
    assert!(seat.forced_moves > 0);
}

#[tokio::test]
async fn a_message_of_unknown_type_is_invalid_output() {
    let result = against(r#"run(lambda msg: send("hello", {}))"#, |_| {}).await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::InvalidOutput);
    assert!(
        seat.detail.contains("unknown type \"hello\""),
        "{}",
        seat.detail
    );
}

#[tokio::test]
async fn a_bot_that_never_answers_hits_the_move_time_limit() {
    let result = against("run(lambda msg: time.sleep(1000))", |_| {}).await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::TimeLimit);
    assert!(
        seat.detail
            .contains("did not answer request_action within 1s"),
        "{}",
        seat.detail
    );
}

#[tokio::test]
async fn an_infinite_cpu_loop_hits_the_move_time_limit_and_is_killed() {
    let burn = "def burn(msg):\n    while True:\n        pass\nrun(burn)";
    let result = against(burn, |_| {}).await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::TimeLimit);
    // Up to a second of CPU, less on a loaded machine: the clock is wall time.
    assert!(
        seat.cpu_ms >= 100,
        "it burned CPU until it was killed: {} ms",
        seat.cpu_ms
    );
    assert!(result.wall_ms < 10_000);
}

#[tokio::test]
async fn passing_with_no_coins_is_an_illegal_action_declined_each_time_while_the_seat_plays_on() {
    let result = against(
        r#"run(lambda msg: send("reply_action", {"action_type": "pass"}))"#,
        |_| {},
    )
    .await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::IllegalAction);
    assert!(
        seat.detail.lines().count() >= 2,
        "declined repeatedly: {}",
        seat.detail
    );
    assert!(seat.detail.contains("no coins"), "{}", seat.detail);
    assert!(
        seat.moves > 25 && seat.forced_moves >= 2,
        "it stays in the game"
    );
    let declined = result
        .transcript
        .iter()
        .filter(|l| l.text.contains("\"result\": \"declined\""))
        .count();
    assert_eq!(declined as u32, seat.forced_moves);
}

#[tokio::test]
async fn flooding_stdout_is_output_limit_without_memory_blow_up() {
    let flood =
        "def flood(msg):\n    while True:\n        sys.stdout.write('x' * 65536)\nrun(flood)";
    let result = against(flood, |spec| spec.limits.output_bytes = 4 << 20).await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::OutputLimit, "{}", seat.detail);
    assert!(
        seat.stdout_tail.len() <= (64 << 10) + 100,
        "only a tail is kept"
    );
    assert!(seat.stdout_tail.contains("earlier bytes not kept"));
}

/// The bot picks while `name` is in `playerinfo`, and answers nonsense otherwise.
fn picks_while_named(name: &str) -> String {
    format!(
        "run(lambda msg: send('reply_action', {{'action_type': 'pick' if {name:?} in \
         msg['payload']['game_status']['playerinfo'] else 'nonsense'}}), name={name:?})"
    )
}

#[tokio::test]
async fn a_bot_that_sends_its_own_name_plays_under_that_name() {
    let result = against(&picks_while_named("Nickname"), |_| {}).await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::Ok, "{}", seat.detail);
    assert!(
        seat.moves > 0 && seat.forced_moves == 0,
        "{}",
        describe(&result)
    );
    assert_eq!(seat.detail, "");
}

#[tokio::test]
async fn two_seats_sending_one_name_both_play_and_the_later_gets_a_suffix() {
    // The kit in seat 0 is called "kit"; the other bot sends "kit" too.
    let result = against(&picks_while_named("kit"), |_| {}).await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::Ok, "{}", seat.detail);
    assert!(
        seat.moves > 0 && seat.forced_moves == 0,
        "{}",
        describe(&result)
    );
    let notes: Vec<&str> = result.seats[..2]
        .iter()
        .map(|s| s.detail.as_str())
        .collect();
    assert_eq!(
        notes
            .iter()
            .filter(|d| d.contains("plays as \"kit-2\""))
            .count(),
        1,
        "{notes:?}"
    );
}

#[tokio::test]
async fn a_bot_that_never_joins_times_out_of_the_lobby() {
    let sleeper = "time.sleep(1000)";
    let t0 = Instant::now();
    let result = against(sleeper, |spec| {
        spec.limits.join_time = Duration::from_secs(2);
    })
    .await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::TimeLimit);
    assert!(seat.detail.contains("did not join"), "{}", seat.detail);
    assert!(t0.elapsed() >= Duration::from_secs(2));
}

#[tokio::test]
async fn a_bot_that_exits_cleanly_in_the_middle_of_the_game_is_crashed_with_code_0() {
    let result = against("run(lambda msg: sys.exit(0))", |_| {}).await;

    let seat = hostile_seat(&result);
    assert_eq!(
        seat.end_state,
        EndState::Crashed {
            signal: None,
            code: Some(0)
        },
        "{}",
        seat.detail
    );
    assert!(seat.forced_moves > 0);
}

#[tokio::test]
async fn a_bot_that_hangs_up_and_keeps_running_is_invalid_output_and_killed() {
    let hang_up = "run(lambda msg: (conn.shutdown(socket.SHUT_RDWR), time.sleep(1000)))";
    let result = against(hang_up, |_| {}).await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::InvalidOutput, "{}", seat.detail);
    assert!(
        seat.detail.contains("closed its connection"),
        "{}",
        seat.detail
    );
}

#[tokio::test]
async fn a_bot_holding_many_connections_keeps_only_a_few_and_nobody_else_is_locked_out() {
    let hog = "extra = []\n\
               def hog(msg):\n\
               \x20   extra.extend(socket.create_connection((\"127.0.0.1\", 2004)) for _ in range(40 - len(extra)))\n\
               \x20   send('reply_action', {'action_type': 'pick'})\n\
               run(hog)";
    let result = against(hog, |_| {}).await;

    let seat = hostile_seat(&result);
    assert_eq!(seat.end_state, EndState::Ok, "{}", seat.detail);
    let opened = result
        .transcript
        .iter()
        .filter(|l| l.text.contains("notice_connection_ok"));
    assert!(opened.count() <= 1 + 4, "one for the kit, four for the hog");
}

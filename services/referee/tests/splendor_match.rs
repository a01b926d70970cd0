//! Whole Splendor matches through the real sandbox, one process per move: the starter kits, the
//! judge's input format as a bot sees it, and bots that fail in every way the judge knows.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::*;
use croupier_games::GameId;
use croupier_referee::{Direction, MatchResult, MatchSpec, SeatSpec};
use croupier_sandbox::EndState;
use serde_json::json;
use tempfile::TempDir;

const FIXTURES: &str = include_str!("splendor/fixtures.py");
const PROBE: &str = include_str!("splendor/probe.py");

fn kits() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kits/splendor")
}

/// Bot directories that live as long as the test.
#[derive(Default)]
struct Bots(Vec<TempDir>);

impl Bots {
    fn python(&mut self, name: &str, source: &str) -> SeatSpec {
        let dir = open_dir();
        fs::write(dir.path().join("bot.py"), source).unwrap();
        let seat = SeatSpec::program(name, dir.path(), ["/usr/bin/python3", "/bot/bot.py"]);
        self.0.push(dir);
        seat
    }

    fn python_kit(&mut self, name: &str) -> SeatSpec {
        self.python(
            name,
            &fs::read_to_string(kits().join("python/bot.py")).unwrap(),
        )
    }

    /// One of `fixtures.py`'s misbehaving bots.
    fn fixture(&mut self, name: &str, mode: &str) -> SeatSpec {
        self.python(name, &format!("MODE = {mode:?}\n{FIXTURES}"))
    }

    /// The C++ kit, compiled as the worker compiles C++ (toolchain.rs).
    fn cpp_kit(&mut self, name: &str) -> SeatSpec {
        let dir = open_dir();
        let status = Command::new("g++")
            .args(["-O2", "-std=c++17", "-I/usr/include/jsoncpp", "-o"])
            .arg(dir.path().join("bot"))
            .arg(kits().join("cpp/bot.cpp"))
            .args(["-ljsoncpp", "-lm"])
            .status()
            .expect("g++ runs");
        assert!(status.success(), "the C++ kit compiles");
        let seat = SeatSpec::program(name, dir.path(), ["/bot/bot"]);
        self.0.push(dir);
        seat
    }
}

fn splendor(seed: u64, seats: Vec<SeatSpec>) -> MatchSpec {
    let spec = MatchSpec::new(GameId::SPLENDOR, seed, seats);
    assert_eq!(
        spec.limits.move_time,
        Duration::from_secs(2),
        "the judge's 2 s"
    );
    spec
}

/// A short game (`max_rounds`) with a 1 s move time.
fn short(seed: u64, rounds: u32, seats: Vec<SeatSpec>) -> MatchSpec {
    let mut spec = splendor(seed, seats);
    spec.settings = json!({ "max_rounds": rounds });
    spec.limits.move_time = Duration::from_secs(1);
    spec
}

fn log(result: &MatchResult) -> Vec<&str> {
    result.transcript.iter().map(|l| l.text.as_str()).collect()
}

fn assert_healthy(result: &MatchResult, seat: usize, rounds: u32) {
    let s = &result.seats[seat];
    assert_eq!(s.end_state, EndState::Ok, "{}", describe(result));
    assert_eq!(
        (s.moves, s.forced_moves),
        (rounds, 0),
        "{}",
        describe(result)
    );
    assert!(s.detail.is_empty(), "{}", describe(result));
}

/// A seat that lost every turn: the end state, the reason in its detail, no move of its own.
fn assert_lost_every_turn(result: &MatchResult, seat: usize, state: &EndState, why: &str) {
    let s = &result.seats[seat];
    assert_eq!(&s.end_state, state, "{}", describe(result));
    assert!(s.detail.contains(why), "{why:?} in {}", describe(result));
    assert!(s.forced_moves > 0, "{}", describe(result));
    assert_eq!(s.detail.lines().count() as u32, s.forced_moves);
}

#[tokio::test]
async fn the_python_and_cpp_kits_play_full_games_that_replay_identically() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.python_kit("py"),
        bots.cpp_kit("cpp"),
        SeatSpec::builtin("greedy"),
    ];

    // Seed 43: a deal on which both kits qualify for a noble.
    let first = play(&sb, splendor(43, seats.clone())).await.unwrap();
    let second = play(&sb, splendor(43, seats)).await.unwrap();

    eprintln!("{}", describe(&first));
    assert_consistent(&first);
    for seat in &first.seats {
        assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&first));
        assert!(seat.moves > 0 && seat.forced_moves == 0 && seat.detail.is_empty());
        assert_eq!(seat.move_ms.len(), seat.moves as usize);
    }
    assert!(first.seats[0].stderr_tail.contains("[call 1]\nround 1, py"));
    // Each call is its own move record: its stderr, its own memory peak, its time.
    for seat in &first.seats[..2] {
        assert_eq!(seat.move_log.len(), seat.moves as usize);
        for (record, ms) in seat.move_log.iter().zip(&seat.move_ms) {
            assert_eq!(record.ms, *ms);
            assert!(record.peak_kib.is_some_and(|k| k > 0), "{record:?}");
        }
    }
    let py = &first.seats[0].move_log;
    assert!(py[0].stderr.starts_with("round 1, py"), "{py:?}");
    assert!(!py[0].stderr.contains("[call"), "{py:?}");
    assert!(first.seats[2].move_log.is_empty(), "a built-in has none");
    assert!(first.seats[1].cpu_ms > 0 && first.seats[1].max_rss_bytes > 0);
    let top = first.games[0].outcome.seats.iter().map(|s| s.score).max();
    assert!(top >= Some(15), "someone reached 15: {}", describe(&first));
    assert_eq!(first.games[0].replay, second.games[0].replay);
    let lines = log(&first);
    let named = |seat: usize| {
        first.transcript.iter().any(|l| {
            l.seat.map(croupier_games::Seat::index) == Some(seat)
                && l.text.starts_with("Successfully got noble")
        })
    };
    assert!(named(0) || named(1), "a kit named a noble it qualified for");
    eprintln!("the match log begins:\n{}", lines[..24].join("\n"));
    for expected in [
        "Game starts!",
        "Round 1",
        "Player py's turn",
        "Player cpp's turn",
        "Player greedy's turn",
    ] {
        assert!(lines.contains(&expected), "{expected:?} in the log");
    }
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Successfully got ") && l.ends_with(" gems.")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Successfully purchased ")));
    assert!(lines.iter().any(|l| l.starts_with("Game over after ")));
    assert!(lines.last().unwrap().starts_with("Ranking: 1. "));
    let from_bot = first
        .transcript
        .iter()
        .filter(|l| l.direction == Direction::FromBot);
    assert!(from_bot.count() as u32 >= first.seats[0].moves + first.seats[1].moves);
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn bots_see_the_state_in_argv_and_stdin_and_a_blind_reserve_in_the_next_call() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = ["a", "b", "c"].map(|n| bots.python(n, PROBE)).to_vec();

    let result = play(&sb, short(5, 2, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    for seat in 0..3 {
        assert_healthy(&result, seat, 2);
        let tail = &result.seats[seat].stderr_tail;
        assert_eq!(tail.matches("PROTOCOL OK").count(), 2, "{tail}");
    }
    // a reserves blind in round 1: b (the next call) and c see it, a sees it in round 2.
    let tail = |s: usize| result.seats[s].stderr_tail.clone();
    assert!(tail(0).contains("round 1 a sees reserved [0, 0, 0]"));
    assert!(tail(1).contains("round 1 b sees reserved [1, 0, 0]"));
    assert!(tail(2).contains("round 1 c sees reserved [1, 1, 0]"));
    assert!(tail(0).contains("round 2 a sees reserved [1, 1, 1]"));
    let lines = log(&result);
    assert!(lines
        .iter()
        .any(|l| l.contains("from the deck and got 1 gold.")));
    assert_eq!(
        lines.iter().filter(|l| **l == "Pass, turn lost.").count(),
        3
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn silent_and_crashing_bots_lose_their_turns_and_keep_playing() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.fixture("silent", "silent"),
        bots.python_kit("kit"),
        bots.fixture("exit1", "exit1"),
    ];

    let result = play(&sb, short(8, 3, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert_lost_every_turn(&result, 0, &EndState::InvalidOutput, "printed nothing");
    let crashed = EndState::Crashed {
        signal: None,
        code: Some(1),
    };
    assert_lost_every_turn(&result, 2, &crashed, "execution error (exit code 1)");
    assert_eq!(result.seats[2].forced_moves, 3);
    assert!(result.seats[2]
        .detail
        .contains("game 1, round 3 (call 3): "));
    assert!(result.seats[2].stderr_tail.contains("mode exit1, round 3"));
    assert_healthy(&result, 1, 3);
    let lines = log(&result);
    assert!(
        lines.contains(&"Invalid output: printed nothing (expected one JSON object). Turn lost.")
    );
    assert!(lines.contains(&"Execution error (exit code 1). Turn lost."));
    let faults = result.games[0].replay.entries.iter();
    let faults = faults
        .filter(|e| format!("{e:?}").contains("Fault"))
        .count();
    assert_eq!(
        faults, 6,
        "every lost turn is in the replay with its reason"
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn overspending_and_sleeping_past_the_limit_lose_the_turn() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.fixture("overspend", "overspend"),
        bots.fixture("sleeper", "sleeper"),
        bots.python_kit("kit"),
    ];

    let t0 = Instant::now();
    let result = play(&sb, short(9, 2, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert!(
        t0.elapsed() < Duration::from_secs(20),
        "the sleeper is cut at 1 s"
    );
    assert_consistent(&result);
    assert_lost_every_turn(
        &result,
        0,
        &EndState::IllegalAction,
        "Invalid Action. Doesn't have enough gems to purchase.",
    );
    assert_eq!(result.seats[0].moves, 2, "a refused move is an answer");
    assert_lost_every_turn(&result, 1, &EndState::TimeLimit, "time limit exceeded (1s)");
    assert_eq!(result.seats[1].moves, 0);
    assert_healthy(&result, 2, 2);
    let lines = log(&result);
    assert!(lines.contains(&"Invalid Action. Doesn't have enough gems to purchase."));
    assert!(lines.contains(&"Time limit exceeded (1s). Turn lost."));
    let refused = result.games[0].replay.entries.iter();
    assert_eq!(
        refused
            .filter(|e| format!("{e:?}").contains("Refused"))
            .count(),
        2
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn garbage_two_objects_and_two_actions_are_handled_as_the_judge_does() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.fixture("garbage", "garbage"),
        bots.fixture("two_objects", "two_objects"),
        bots.fixture("two_actions", "two_actions"),
    ];

    let result = play(&sb, short(10, 3, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert_lost_every_turn(&result, 0, &EndState::InvalidOutput, "invalid JSON");
    assert_lost_every_turn(&result, 1, &EndState::InvalidOutput, "trailing characters");
    assert_healthy(&result, 2, 3);
    let lines = log(&result);
    let several = lines
        .iter()
        .filter(|l| l.starts_with("Several actions given"))
        .count();
    assert_eq!(several, 3, "the log names the ignored keys");
    assert!(lines.iter().any(|l| l.contains("purchase_card ignored")));
    assert!(
        lines.contains(&"I would like some red gems please"),
        "the bot's output is in the log"
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn more_than_10_tokens_and_an_output_flood_are_recorded_and_the_game_completes() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.fixture("taker", "taker"),
        bots.fixture("flood", "flood"),
        SeatSpec::builtin("greedy"),
    ];

    let result = play(&sb, short(11, 5, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    let taker = &result.seats[0];
    assert_eq!(
        taker.end_state,
        EndState::IllegalAction,
        "{}",
        describe(&result)
    );
    assert_eq!(
        (taker.moves, taker.forced_moves),
        (5, 2),
        "{}",
        describe(&result)
    );
    assert!(taker
        .detail
        .starts_with("game 1, round 4 (call 4): Invalid action. Can't hold more than 10 gems."));
    assert_lost_every_turn(&result, 1, &EndState::OutputLimit, "output limit exceeded");
    assert_eq!(result.seats[1].forced_moves, 5);
    assert_eq!(result.seats[2].end_state, EndState::Ok);
    assert!(log(&result).contains(&"Invalid action. Can't hold more than 10 gems."));
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_memory_hog_and_a_segfault_are_recorded_per_call() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.fixture("hog", "hog"),
        bots.fixture("segv", "segv"),
        bots.python_kit("kit"),
    ];
    let mut spec = short(12, 2, seats);
    spec.limits.seat.memory_bytes = 64 << 20;

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert_lost_every_turn(&result, 0, &EndState::MemoryLimit, "memory limit exceeded");
    let segv = EndState::Crashed {
        signal: Some(11),
        code: None,
    };
    assert_lost_every_turn(&result, 1, &segv, "execution error (killed by signal 11)");
    assert_healthy(&result, 2, 2);
    assert!(log(&result).contains(&"Memory limit exceeded. Turn lost."));
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_two_game_match_without_isolation_logs_each_game_as_the_judge_does() {
    let sb = unsandboxed().await;
    let mut bots = Bots::default();
    let seats = vec![
        SeatSpec::builtin("random"),
        bots.python_kit("kit"),
        SeatSpec::builtin("greedy"),
    ];
    let mut spec = splendor(3, seats);
    spec.games = 2;

    let result = play(&sb, spec).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    assert_eq!(result.games.len(), 2);
    assert_ne!(result.games[0].replay, result.games[1].replay);
    assert_eq!(result.seats[1].end_state, EndState::Ok);
    assert_eq!(result.seats[1].forced_moves, 0);
    let lines = log(&result);
    assert_eq!(lines.iter().filter(|l| **l == "Game starts!").count(), 2);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("Ranking: ")).count(),
        2
    );
    assert!(lines.contains(&"Player random's turn"));
}

#[tokio::test]
async fn the_kits_never_lose_a_turn_over_several_seeds() {
    let sb = unsandboxed().await;
    let mut bots = Bots::default();
    let seats = vec![
        bots.cpp_kit("cpp"),
        bots.python_kit("py"),
        bots.cpp_kit("cpp2"),
    ];
    for seed in 100..104 {
        let result = play(&sb, splendor(seed, seats.clone())).await.unwrap();
        assert_consistent(&result);
        for seat in &result.seats {
            assert_eq!(
                seat.end_state,
                EndState::Ok,
                "seed {seed}: {}",
                describe(&result)
            );
            assert_eq!(seat.forced_moves, 0, "seed {seed}: {}", describe(&result));
        }
    }
}

/// A Python seat's moves are forked from its warm Python (the standard modules the bot imports
/// are there before the move starts: the kit's `json`) unless its entry file opts out (every move a new `python3`,
/// as when `MatchLimits::warm_python` is off); both play the same.
#[tokio::test]
async fn a_python_bot_whose_entry_file_opts_out_starts_python_every_move() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let kit = fs::read_to_string(kits().join("python/bot.py")).unwrap();
    let tell = "import sys\nprint('preloaded', 'json' in sys.modules, file=sys.stderr)\n";
    let seats = vec![
        bots.python("warm", &format!("{tell}{kit}")),
        bots.python(
            "cold",
            &format!("{tell}{}\n{kit}", croupier_referee::COLD_PYTHON_PRAGMA),
        ),
        SeatSpec::builtin("greedy"),
    ];
    let result = play(&sb, short(5, 3, seats)).await.unwrap();
    for seat in 0..2 {
        assert_healthy(&result, seat, 3);
    }
    let preloaded = |seat: usize| {
        let tail = &result.seats[seat].stderr_tail;
        assert_eq!(tail.matches("preloaded").count(), 3, "{tail}");
        !tail.contains("preloaded False")
    };
    assert_eq!(preloaded(0), python_warm(), "{}", describe(&result));
    assert!(!preloaded(1), "{}", describe(&result));
    assert_no_slot_processes(uids);
}

/// The platform's cost per move: three C++ kits through the real sandbox; prints the numbers.
/// `cargo test -p croupier-referee --test splendor_match overhead -- --nocapture`
#[tokio::test]
async fn overhead_of_a_hosted_game_of_three_cpp_kits() {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let seats = vec![bots.cpp_kit("a"), bots.cpp_kit("b"), bots.cpp_kit("c")];

    let t0 = Instant::now();
    let result = play(&sb, splendor(2026, seats)).await.unwrap();
    let wall = t0.elapsed();

    assert_consistent(&result);
    for seat in &result.seats {
        assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
    }
    let calls: u32 = result.seats.iter().map(|s| s.moves).sum();
    let cpu_ms: u64 = result.seats.iter().map(|s| s.cpu_ms).sum();
    let wall_ms = wall.as_millis() as u64;
    let per_move = (wall_ms - cpu_ms.min(wall_ms)) as f64 / f64::from(calls);
    let in_sandbox: u64 = result
        .seats
        .iter()
        .flat_map(|s| &s.move_ms)
        .map(|&ms| u64::from(ms))
        .sum();
    println!(
        "splendor, 3 C++ kits: {calls} calls, wall {wall_ms} ms, bots' CPU {cpu_ms} ms, \
         overhead {per_move:.1} ms per move (spawn to exit {in_sandbox} ms in all, \
         {:.1} ms per move outside the sandbox)",
        (wall_ms - in_sandbox.min(wall_ms)) as f64 / f64::from(calls)
    );
    assert!(calls >= 30, "a real game");
    assert_no_slot_processes(uids);
}

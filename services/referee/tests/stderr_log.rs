//! One rule for every protocol: stderr is the bot's log and never ends its seat. Each game's
//! Python starter kit, behind a launcher that first writes a flood to stderr, plays its match to
//! the end as `ok`; the team keeps the end of the log, which says how much was not kept.
//! (A long-lived bot's stdout past its cap is still `output_limit`: `hostile.rs`.)

mod common;

use std::fs;
use std::path::Path;
use std::time::Duration;

use common::*;
use croupier_games::GameId;
use croupier_referee::{MatchSpec, SeatSpec};
use croupier_sandbox::EndState;
use tempfile::TempDir;

/// A long-lived seat writes this much once, at the start (the flood that once ended a seat).
const LONG_LIVED_MIB: usize = 200;
/// A per-move seat writes this much on every move, within the move's time limit.
const PER_MOVE_MIB: usize = 16;

/// A directory with the game's Python kit as `kit.py` and a launcher `bot.py` that writes
/// `mib` MiB to stderr, then runs the kit as `__main__` with the launcher's arguments.
fn flooding_kit(kit: &str, mib: usize, dirs: &mut Vec<TempDir>) -> SeatSpec {
    let dir = open_dir();
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../kits")
        .join(kit);
    fs::copy(source, dir.path().join("kit.py")).unwrap();
    let launcher = format!(
        "import os, runpy, sys\n\
         line = b'a chatty bot logs a lot of lines like this one\\n'\n\
         chunk = line * ((1 << 20) // len(line))\n\
         for _ in range({mib}):\n    os.write(2, chunk)\n\
         os.write(2, b'FLOOD DONE\\n')\n\
         sys.argv[0] = '/bot/kit.py'\n\
         runpy.run_path('/bot/kit.py', run_name='__main__')\n"
    );
    fs::write(dir.path().join("bot.py"), launcher).unwrap();
    let seat = SeatSpec::program("flood", dir.path(), ["/usr/bin/python3", "/bot/bot.py"]);
    dirs.push(dir);
    seat
}

/// Plays `spec` (the flooding kit in seat 0) and checks the policy.
async fn the_flooding_seat_plays_on(spec: MatchSpec, per_move: bool) {
    let (sb, uids) = sandbox().await;
    let result = play(&sb, spec).await.expect("a result");
    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    let seat = &result.seats[0];
    assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
    assert!(
        seat.moves > 0 && seat.forced_moves == 0,
        "{}",
        describe(&result)
    );
    assert!(
        seat.stderr_tail.len() <= 128 << 10,
        "only the end is kept: {} bytes",
        seat.stderr_tail.len()
    );
    if !per_move {
        assert!(seat.stderr_tail.contains("earlier bytes not kept"));
        assert!(seat.stderr_tail.contains("FLOOD DONE"));
    }
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_no_thanks_seat_flooding_stderr_plays_its_match_to_the_end() {
    let mut dirs = Vec::new();
    let seats = vec![
        flooding_kit("nothanks/python/bot.py", LONG_LIVED_MIB, &mut dirs),
        SeatSpec::builtin("heuristic"),
        SeatSpec::builtin("random"),
    ];
    the_flooding_seat_plays_on(nothanks(5, seats), false).await;
}

#[tokio::test]
async fn a_hanabi_seat_flooding_stderr_plays_its_match_to_the_end() {
    let mut dirs = Vec::new();
    let mut seats = vec![flooding_kit(
        "hanabi/python/ws_bot.py",
        LONG_LIVED_MIB,
        &mut dirs,
    )];
    seats.extend((0..3).map(|_| SeatSpec::builtin("convention")));
    let spec = MatchSpec::new(GameId::HANABI, 5, seats);
    the_flooding_seat_plays_on(spec, false).await;
}

#[tokio::test]
async fn a_guandan_seat_flooding_stderr_plays_its_match_to_the_end() {
    let mut dirs = Vec::new();
    let mut seats = vec![flooding_kit(
        "guandan/python/client.py",
        LONG_LIVED_MIB,
        &mut dirs,
    )];
    seats.extend((0..3).map(|_| SeatSpec::builtin("random")));
    let mut spec = MatchSpec::new(GameId::GUANDAN, 5, seats);
    spec.games = 1;
    the_flooding_seat_plays_on(spec, false).await;
}

#[tokio::test]
async fn a_splendor_seat_flooding_stderr_on_every_move_plays_its_match_to_the_end() {
    let mut dirs = Vec::new();
    let seats = vec![
        flooding_kit("splendor/python/bot.py", PER_MOVE_MIB, &mut dirs),
        SeatSpec::builtin("greedy"),
        SeatSpec::builtin("random"),
    ];
    let mut spec = MatchSpec::new(GameId::SPLENDOR, 5, seats);
    spec.limits.move_time = Duration::from_secs(10);
    the_flooding_seat_plays_on(spec, true).await;
}

#[tokio::test]
async fn a_bridge_seat_flooding_stderr_on_every_move_plays_its_match_to_the_end() {
    let mut dirs = Vec::new();
    let mut seats = vec![flooding_kit(
        "bridge/python/bot.py",
        PER_MOVE_MIB,
        &mut dirs,
    )];
    seats.extend((0..3).map(|_| SeatSpec::builtin("heuristic")));
    let mut spec = MatchSpec::new(GameId::BRIDGE, 5, seats);
    spec.games = 1;
    spec.limits.move_time = Duration::from_secs(10);
    the_flooding_seat_plays_on(spec, true).await;
}

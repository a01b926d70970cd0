//! A seat's per-move processes in one sandbox ([`croupier_sandbox::MoveRunner`]): what a move
//! keeps (the seat's files) and what it does not (processes of earlier moves), the limits per
//! move, and a zygote no move can reach.

mod common;

use std::time::Duration;

use common::*;
use croupier_sandbox::{EndState, MoveRunner, RunReport, Sandbox, SeatDir};

/// A runner of `program` (a shell script in `bot`) in a seat dir, as the referee makes one.
async fn runner(sb: &Sandbox, bot: &tempfile::TempDir, wall: Duration) -> (MoveRunner, SeatDir) {
    let mut spec = spec("/bot/bot", bot.path(), wall);
    let seat = sb
        .seat_dir(bot.path(), "/bot", &spec.limits)
        .await
        .expect("a seat dir");
    spec.seat_dir = Some(seat.clone());
    (sb.move_runner(spec), seat)
}

fn out(report: &RunReport) -> String {
    String::from_utf8_lossy(&report.stdout).into_owned()
}

/// Each move: its words and stdin, a count kept in the seat's files, its pid, and whether the
/// daemon the previous move left behind still runs; then it leaves a new daemon.
const COUNTER: &str = r#"#!/bin/sh
read line
n=$(( $(cat /bot/count 2>/dev/null || echo 0) + 1 ))
echo $n > /bot/count
if [ -f /bot/daemon ] && kill -0 "$(cat /bot/daemon)" 2>/dev/null; then left=alive; else left=gone; fi
echo "args=$* stdin=$line count=$n pid=$$ daemon=$left"
sleep 300 </dev/null >/dev/null 2>&1 &
echo $! > /bot/daemon
"#;

#[tokio::test]
async fn moves_share_the_seats_sandbox_and_files_but_no_process_of_an_earlier_move() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot("bot", COUNTER);
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(5)).await;

    let mut pids = Vec::new();
    for n in 1..=3 {
        let report = moves
            .run(&[format!("move{n}"), "x y".into()], b"hello\n".to_vec())
            .await;
        let text = out(&report);
        eprintln!("move {n}: {:?} {text}", report.end_state);
        assert_eq!(report.end_state, EndState::Ok, "{text}");
        assert!(
            text.contains(&format!("args=move{n} x y stdin=hello count={n} ")),
            "{text}"
        );
        assert!(
            text.contains("daemon=gone"),
            "a move's daemon outlived it: {text}"
        );
        let pid: u32 = text
            .split_whitespace()
            .find_map(|w| w.strip_prefix("pid=")?.parse().ok())
            .unwrap();
        pids.push(pid);
    }
    assert!(
        pids.windows(2).all(|w| w[1] > w[0]),
        "every move runs in the one sandbox of the seat (pids {pids:?} would all be 2 in sandboxes of their own)"
    );
    moves.close().await;
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_move_can_neither_kill_nor_read_the_zygote() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot(
        "bot",
        "#!/bin/sh\nkill -9 1; kill -STOP 1\n\
         cat /proc/1/environ >/dev/null 2>&1 && echo environ=read || echo environ=denied\n\
         ls /proc/1/fd >/dev/null 2>&1 && echo fds=listed || echo fds=denied\necho done\n",
    );
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(5)).await;

    for _ in 0..2 {
        let report = moves.run(&[], Vec::new()).await;
        let text = out(&report);
        eprintln!("{:?} {text}", report.end_state);
        assert_eq!(report.end_state, EndState::Ok, "{text}");
        assert!(
            text.contains("environ=denied") && text.contains("fds=denied"),
            "{text}"
        );
    }
    moves.close().await;
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_move_past_its_deadline_is_time_limit_and_the_next_move_gets_a_fresh_sandbox() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot(
        "bot",
        "#!/bin/sh\nif [ \"$1\" = hang ]; then sleep 30; fi\necho pid=$$\n",
    );
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(1)).await;

    let first = moves.run(&["fine".into()], Vec::new()).await;
    assert_eq!(first.end_state, EndState::Ok);
    let hung = moves.run(&["hang".into()], Vec::new()).await;
    eprintln!("hung: {:?} after {:?}", hung.end_state, hung.wall);
    assert_eq!(hung.end_state, EndState::TimeLimit);
    assert!(hung.wall < Duration::from_secs(3), "{:?}", hung.wall);
    let next = moves.run(&["fine".into()], Vec::new()).await;
    assert_eq!(next.end_state, EndState::Ok);
    assert_eq!(out(&next).trim(), "pid=2", "a fresh sandbox after the kill");
    moves.close().await;
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn limits_apply_to_each_move_and_the_seat_plays_on_after_each_fault() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot(
        "bot",
        "#!/bin/sh\ncase \"$1\" in\n\
         memory) exec python3 -c 'b = b\"x\" * (2 << 30)' ;;\n\
         flood) exec yes ;;\n\
         crash) exit 3 ;;\n\
         leave) i=0; while [ $i -lt 40 ]; do sleep 30 & i=$((i+1)); done ;;\n\
         spin) python3 -c 'import time\nt=time.process_time()\nwhile time.process_time()-t<0.3: pass' ;;\n\
         esac\necho ok\n",
    );
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(3)).await;

    let cases = [
        ("memory", EndState::MemoryLimit),
        ("flood", EndState::OutputLimit),
        (
            "crash",
            EndState::Crashed {
                signal: None,
                code: Some(3),
            },
        ),
        ("leave", EndState::Ok),
    ];
    for (word, want) in cases {
        let report = moves.run(&[word.into()], Vec::new()).await;
        eprintln!("{word}: {:?} in {:?}", report.end_state, report.wall);
        assert_eq!(report.end_state, want, "{word}");
        let after = moves.run(&[], Vec::new()).await;
        assert_eq!(after.end_state, EndState::Ok, "the move after {word}");
        assert_eq!(out(&after).trim(), "ok");
    }
    // The flood's stdout is closed at the cap and the bot dies of SIGPIPE: whichever the
    // supervisor sees first, the move is an output limit, never a crash by signal 13.
    for _ in 0..8 {
        let report = moves.run(&["flood".into()], Vec::new()).await;
        assert_eq!(report.end_state, EndState::OutputLimit, "flood again");
    }
    let spin = moves.run(&["spin".into()], Vec::new()).await;
    assert_eq!(spin.end_state, EndState::Ok);
    assert!(
        spin.cpu >= Duration::from_millis(250),
        "a move's own CPU time is measured: {:?}",
        spin.cpu
    );
    moves.close().await;
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_missing_program_is_a_crash_with_code_127_and_the_zygote_stays() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot("bot", "#!/bin/sh\necho ok\n");
    let mut spec = spec("/bot/nothing-here", bot.path(), Duration::from_secs(3));
    let seat = sb.seat_dir(bot.path(), "/bot", &spec.limits).await.unwrap();
    spec.seat_dir = Some(seat);
    let mut moves = sb.move_runner(spec);

    for _ in 0..2 {
        let report = moves.run(&[], Vec::new()).await;
        assert_eq!(
            report.end_state,
            EndState::Crashed {
                signal: None,
                code: Some(127)
            }
        );
    }
    drop(moves); // the seat's sandbox ends in the background
    let t0 = std::time::Instant::now();
    while !slot_processes(uids).is_empty() && t0.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_no_slot_processes(uids);
}

//! A seat's private writable directory: a capped copy of the bot that persists between the seat's
//! processes, is never shared, leaves the submission alone, and goes away whatever the bot left.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use croupier_sandbox::{EndState, Limits, Sandbox, SeatDir, Spec};

fn mounted(path: &Path) -> bool {
    let info = fs::read_to_string("/proc/self/mountinfo").unwrap();
    let p = path.to_string_lossy();
    info.lines()
        .any(|l| l.split_whitespace().nth(4) == Some(&*p))
}

async fn run_in(sb: &Sandbox, seat: &SeatDir, bot: &Path, program: &str) -> (EndState, String) {
    let mut spec = spec(program, bot, Duration::from_secs(20));
    spec.seat_dir = Some(seat.clone());
    let report = sb.run(spec, Vec::new()).await;
    let text = String::from_utf8_lossy(&report.stdout).into_owned()
        + &String::from_utf8_lossy(&report.stderr);
    (report.end_state, text)
}

/// Appends to a file next to itself and prints what is there, plus who owns its directory.
const NOTE: &str =
    "#!/bin/sh\ncd \"$(dirname \"$0\")\"\necho \"run $(cat runs 2>/dev/null | wc -l)\" >> runs\n\
                    cat runs\necho tmp > /tmp/t && cat /tmp/t\npwd\n";

#[tokio::test]
async fn a_seat_dir_is_a_private_writable_copy_kept_between_the_seats_processes() {
    let (sb, _) = sandbox().await;
    let bot = script_bot("bot", NOTE);
    let before: Vec<_> = fs::read_dir(bot.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    let limits = Limits::default();
    let (a, b) = (
        sb.seat_dir(bot.path(), "/bot", &limits).await.unwrap(),
        sb.seat_dir(bot.path(), "/bot", &limits).await.unwrap(),
    );
    assert_ne!(a.uid(), b.uid(), "each seat has its own slot uid");

    let first = run_in(&sb, &a, bot.path(), "/bot/bot").await;
    let second = run_in(&sb, &a, bot.path(), "/bot/bot").await;
    let other = run_in(&sb, &b, bot.path(), "/bot/bot").await;

    eprintln!("first: {first:?}\nsecond: {second:?}\nother seat: {other:?}");
    assert_eq!(first, (EndState::Ok, "run 0\ntmp\n/bot\n".into()));
    assert_eq!(second, (EndState::Ok, "run 0\nrun 1\ntmp\n/bot\n".into()));
    assert_eq!(
        other,
        (EndState::Ok, "run 0\ntmp\n/bot\n".into()),
        "seats share nothing"
    );
    let after: Vec<_> = fs::read_dir(bot.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(before, after, "the submission is never written");
    assert_eq!(fs::read_to_string(bot.path().join("bot")).unwrap(), NOTE);

    let root = a.path().parent().unwrap().to_owned();
    assert!(mounted(&root));
    drop(a);
    assert!(!mounted(&root) && !root.exists(), "unmounted and removed");
}

/// Writes 9 MiB to each writable place and reports how each write ended.
const FILL: &str = "#!/bin/sh\nfor f in /bot/fill /tmp/fill /dev/shm/fill; do\n\
                    dd if=/dev/zero of=$f bs=1M count=9 2>&1 | grep -o 'No space left on device' || echo \"$f fit\"\ndone\n\
                    df -B1 --output=size /bot | tail -1\n";

#[tokio::test]
async fn every_writable_place_of_a_seat_shares_one_cap_and_a_full_disk_is_enospc() {
    let (sb, _) = sandbox().await;
    let bot = script_bot("bot", FILL);
    let limits = Limits {
        disk_bytes: 8 << 20,
        ..Limits::default()
    };
    let seat = sb.seat_dir(bot.path(), "/bot", &limits).await.unwrap();

    let (end, out) = run_in(&sb, &seat, bot.path(), "/bot/bot").await;

    eprintln!("filling a seat capped at 8 MiB:\n{out}");
    assert_eq!(end, EndState::Ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "No space left on device",
        "/bot alone is over the cap"
    );
    assert_eq!(lines[1..3], ["No space left on device"; 2]);
    let size: u64 = lines[3].trim().parse().unwrap();
    assert!(size < (8 << 20) + (64 << 10), "tmpfs size {size}");
    let written = fs::metadata(seat.path().join("fill")).map_or(0, |m| m.len());
    assert!(written <= 8 << 20, "{written}");
}

/// Builds a directory tree deeper than PATH_MAX (4000 levels of 100-byte names).
const DEEP: &str = r#"#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void){ char name[101]; memset(name, 'd', 100); name[100] = 0; int i;
  for(i = 0; i < 4000; i++){ if(mkdir(name, 0700) || chdir(name)) break; }
  printf("%d\n", i); return 0; }"#;

#[tokio::test]
async fn a_tree_deeper_than_path_max_left_in_the_seat_dir_is_no_platform_fault() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot(DEEP);
    let limits = Limits::default();
    let seat = sb.seat_dir(bot.path(), "/bot", &limits).await.unwrap();

    let first = run_in(&sb, &seat, bot.path(), "/bot/bot").await;
    let second = run_in(&sb, &seat, bot.path(), "/bot/bot").await;

    eprintln!("deep tree: {first:?} then {second:?}");
    assert_eq!(first.0, EndState::Ok);
    assert!(
        first.1.trim().parse::<u32>().unwrap() > 41,
        "deeper than PATH_MAX"
    );
    assert_eq!(second.0, EndState::Ok, "the next process starts as usual");
    let root = seat.path().parent().unwrap().to_owned();
    drop(seat);
    assert!(!mounted(&root) && !root.exists());
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_seat_mount_left_by_a_crashed_worker_is_removed_at_startup() {
    let cfg = config();
    let stale = cfg.state_dir.join(format!("seats/{}", cfg.first_uid + 1));
    fs::create_dir_all(&stale).unwrap();
    let st = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "leftover"])
        .arg(&stale)
        .status()
        .unwrap();
    assert!(st.success());
    assert!(mounted(&stale));

    let _sb = Sandbox::new(cfg).await.unwrap();

    assert!(!mounted(&stale) && !stale.exists(), "swept at startup");
}

#[tokio::test]
async fn mode_none_gives_a_plain_writable_copy() {
    let mut cfg = config();
    cfg.mode = croupier_sandbox::Mode::None;
    let sb = Sandbox::new(cfg).await.unwrap();
    let bot = script_bot("bot", NOTE);
    let seat = sb
        .seat_dir(bot.path(), "/bot", &Limits::default())
        .await
        .unwrap();
    let mut spec = Spec::new("/bot/bot", bot.path());
    spec.seat_dir = Some(seat.clone());

    let report = sb.run(spec, Vec::new()).await;

    assert_eq!(report.end_state, EndState::Ok);
    assert!(seat.path().join("runs").is_file());
    assert!(!bot.path().join("runs").exists());
}

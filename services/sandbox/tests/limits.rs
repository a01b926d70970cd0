//! Per-move runs against hostile bots: every limit ends in its end state and leaves nothing behind.

mod common;

use std::time::Duration;

use common::*;
use croupier_sandbox::EndState;

const ECHO: &str = r#"#include <stdio.h>
int main(void){ char b[4096]; size_t n; while((n=fread(b,1,sizeof b,stdin))>0) fwrite(b,1,n,stdout); return 0; }"#;

#[tokio::test]
async fn an_echo_bot_returns_its_input_and_ends_ok() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot(ECHO);
    let input = br#"{"n":41,"board":[1,2,3]}"#.to_vec();

    let report = sb
        .run(
            spec("/bot/bot", bot.path(), Duration::from_secs(5)),
            input.clone(),
        )
        .await;

    assert_eq!(
        report.end_state,
        EndState::Ok,
        "stderr: {}",
        String::from_utf8_lossy(&report.stderr)
    );
    assert_eq!(report.stdout, input);
    assert!(report.max_rss_bytes > 0);
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn an_infinite_loop_ends_in_time_limit_at_the_wall_deadline() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot("int main(void){ volatile unsigned long i=0; for(;;) i++; }");

    let report = sb
        .run(
            spec("/bot/bot", bot.path(), Duration::from_secs(1)),
            Vec::new(),
        )
        .await;

    eprintln!(
        "infinite loop: {:?} after {:?}, cpu {:?}",
        report.end_state, report.wall, report.cpu
    );
    assert_eq!(report.end_state, EndState::TimeLimit);
    assert!(
        report.wall >= Duration::from_secs(1) && report.wall < Duration::from_millis(1500),
        "{:?}",
        report.wall
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn allocating_two_gibibytes_ends_in_memory_limit() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot(
        r#"#include <stdlib.h>
int main(void){ size_t n = 2048UL<<20; volatile char *p = malloc(n); if(!p) return 4;
 for(size_t i=0;i<n;i+=4096) p[i]=1; return p[n-4096] == 1 ? 0 : 5; }"#,
    );

    let report = sb
        .run(
            spec("/bot/bot", bot.path(), Duration::from_secs(10)),
            Vec::new(),
        )
        .await;

    eprintln!(
        "2 GiB: {:?} exit {:?} rss {} MiB",
        report.end_state,
        report.exit,
        report.max_rss_bytes >> 20
    );
    assert_eq!(report.end_state, EndState::MemoryLimit);
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_fork_bomb_is_contained_and_its_whole_tree_dies() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot(
        r#"#include <unistd.h>
#include <stdio.h>
int main(void){ int ok=0, failed=0; for(int i=0;i<2000;i++){ pid_t p=fork(); if(p==0){ for(;;) pause(); } if(p>0) ok++; else failed++; }
 printf("forked=%d failed=%d\n", ok, failed); fflush(stdout); for(;;) pause(); }"#,
    );

    let report = sb
        .run(
            spec("/bot/bot", bot.path(), Duration::from_secs(2)),
            Vec::new(),
        )
        .await;

    let out = String::from_utf8_lossy(&report.stdout);
    eprintln!("fork bomb: {:?}, {out}", report.end_state);
    assert_eq!(report.end_state, EndState::TimeLimit);
    let forked: u32 = out
        .split_whitespace()
        .find_map(|w| w.strip_prefix("forked=")?.parse().ok())
        .unwrap();
    assert!(forked < 64, "the pids cap let {forked} children through");
    assert_no_slot_processes(uids);
}

const BIGWRITE: &str = r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv){ static char b[1<<20]; memset(b, 'x', sizeof b); FILE *f = fopen(argv[1], "w"); if(!f) return 6;
 for(long i=0;i<10240;i++){ if(fwrite(b,1,sizeof b,f)!=sizeof b){ perror("write"); return 7; } } fclose(f); return 0; }"#;

#[tokio::test]
async fn writing_ten_gibibytes_to_tmp_ends_in_output_limit() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot(BIGWRITE);
    let mut spec = spec("/bot/bot", bot.path(), Duration::from_secs(20));
    spec.args = vec!["/tmp/big".into()];

    let report = sb.run(spec, Vec::new()).await;

    eprintln!(
        "10 GiB to /tmp: {:?} exit {:?}",
        report.end_state, report.exit
    );
    assert_eq!(report.end_state, EndState::OutputLimit);
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn writing_ten_gibibytes_to_the_seat_dir_stops_at_the_file_size_limit() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot(BIGWRITE);
    let mut spec = spec("/bot/bot", bot.path(), Duration::from_secs(20));
    spec.limits.disk_bytes = 1 << 30;
    let seat = sb.seat_dir(bot.path(), "/bot", &spec.limits).await.unwrap();
    spec.seat_dir = Some(seat.clone());
    spec.args = vec!["/bot/big".into()];
    let cap = spec.limits.file_size_bytes;

    let report = sb.run(spec, Vec::new()).await;

    let size = std::fs::metadata(seat.path().join("big")).unwrap().len();
    eprintln!(
        "10 GiB to the seat dir: {:?} exit {:?}, file {size} bytes",
        report.end_state, report.exit
    );
    assert_eq!(report.end_state, EndState::OutputLimit);
    assert!(size <= cap);
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn flooding_stdout_ends_in_output_limit() {
    let (sb, uids) = sandbox().await;
    let bot = open_dir();

    let report = sb
        .run(
            spec("/usr/bin/yes", bot.path(), Duration::from_secs(5)),
            Vec::new(),
        )
        .await;

    eprintln!(
        "stdout flood: {:?} after {:?}",
        report.end_state, report.wall
    );
    assert_eq!(report.end_state, EndState::OutputLimit);
    assert_eq!(
        report.stdout.len(),
        croupier_sandbox::Limits::default().stdout_bytes
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn exiting_with_code_three_is_a_crash_with_code_three() {
    let (sb, _) = sandbox().await;
    let bot = script_bot("bot", "#!/bin/sh\necho dying >&2\nexit 3\n");

    let report = sb
        .run(
            spec("/bot/bot", bot.path(), Duration::from_secs(5)),
            Vec::new(),
        )
        .await;

    assert_eq!(
        report.end_state,
        EndState::Crashed {
            signal: None,
            code: Some(3)
        }
    );
    assert_eq!(report.stderr, b"dying\n");
}

#[tokio::test]
async fn a_missing_bot_dir_is_a_setup_error_not_the_bots_fault() {
    let (sb, _) = sandbox().await;

    let report = sb
        .run(
            spec(
                "/bot/bot",
                "/nonexistent/team".as_ref(),
                Duration::from_secs(5),
            ),
            Vec::new(),
        )
        .await;

    eprintln!("missing dir: {:?}", report.end_state);
    assert!(
        matches!(report.end_state, EndState::SetupError(ref m) if m.contains("/nonexistent/team"))
    );
}

#[tokio::test]
async fn spinning_past_the_cpu_backstop_ends_in_time_limit_before_the_wall_deadline() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot("int main(void){ volatile unsigned long i=0; for(;;) i++; }");
    let mut spec = spec("/bot/bot", bot.path(), Duration::from_secs(20));
    spec.limits.cpu = Duration::from_secs(1);

    let report = sb.run(spec, Vec::new()).await;

    eprintln!(
        "cpu backstop: {:?} exit {:?} after {:?}, cpu {:?}",
        report.end_state, report.exit, report.wall, report.cpu
    );
    assert_eq!(report.end_state, EndState::TimeLimit);
    assert_eq!(
        report.exit.signal,
        Some(24),
        "SIGXCPU reaches the bot, which is not pid 1"
    );
    assert!(report.wall < Duration::from_secs(10));
    assert_no_slot_processes(uids);
}

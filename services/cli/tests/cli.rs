//! The new subcommands' help, settings errors and the engine benchmark, through the binary.

mod common;

use common::*;

#[test]
fn the_help_of_play_work_bench_and_up_exits_0() {
    for command in ["play", "work", "bench", "up"] {
        let out = croupier(&[command, "--help"]);
        assert!(out.status.success(), "{command} --help: {}", stderr(&out));
        assert!(
            stdout(&out).contains("Usage"),
            "{command}:\n{}",
            stdout(&out)
        );
    }
    assert!(stdout(&croupier(&["up", "--help"])).contains("--workers"));
    assert!(stdout(&croupier(&["play", "--help"])).contains("--replay-dir"));
}

#[test]
fn work_without_database_url_names_the_variable() {
    let out = croupier(&["work"]);
    assert_fails_naming(&out, &["DATABASE_URL"]);
}

#[test]
fn bad_worker_settings_name_the_flag_and_the_variable() {
    let out = croupier(&["work", "--workers", "many"]);
    assert_fails_naming(&out, &["--workers", "CROUPIER_WORKERS", "many"]);
    let out = croupier(&["work", "--sandbox", "chroot"]);
    assert_fails_naming(&out, &["--sandbox", "CROUPIER_SANDBOX", "isolated or none"]);
}

#[test]
fn a_failed_sandbox_probe_stops_work_and_names_what_is_missing() {
    let out = croupier(&[
        "work",
        "--database-url",
        "postgres://nobody@127.0.0.1:1/none",
        "--sandbox-init",
        "/nonexistent/croupier-sandbox-init",
    ]);
    assert_fails_naming(&out, &["sandbox unavailable", "--sandbox=none"]);
    if is_root() {
        // (without root the probe stops earlier, at the cgroups and the slot directory)
        assert_fails_naming(&out, &["/nonexistent/croupier-sandbox-init"]);
    }
}

#[test]
fn bench_engine_reports_games_per_second() {
    let out = croupier(&["bench", "engine", "--seconds", "0.2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("typed") && text.contains("dynamic"), "{text}");
    assert!(text.contains("games/s"), "{text}");
}

#[test]
fn bench_guandan_actions_reports_the_worst_lists_against_the_goal() {
    let out = croupier(&["bench", "guandan-actions", "--deals", "20", "--runs", "10"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("worst of 20 deals"), "{text}");
    // The hand-built worst case: six ranks of four suits and both wilds.
    assert!(
        text.contains("hand-built worst case") && text.contains("16897 actions"),
        "{text}"
    );
    assert!(
        text.contains("median") && text.contains("the 100 µs goal"),
        "{text}"
    );
}

#[test]
fn bench_hosted_plays_every_queued_match_with_two_workers_in_a_scratch_database() {
    let Ok(url) = std::env::var("DATABASE_URL") else {
        eprintln!("skipped: DATABASE_URL is not set");
        return;
    };
    let sandbox = if is_root() { "isolated" } else { "none" };
    let out = croupier(&[
        "bench",
        "hosted",
        "--matches",
        "4",
        "--database-url",
        &url,
        "--sandbox",
        sandbox,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("matches/min") && text.contains("finished 4"),
        "{text}"
    );
}

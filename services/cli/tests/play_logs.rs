//! `croupier play` shows what the bots said: `--logs DIR` holds every program seat's stderr
//! and verdict, the table lists failing seats with their last lines, `--json` their log paths.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;

use common::*;
use serde_json::Value;

/// A No Thanks bot that writes a line on stderr and exits 2 before joining.
fn talking_crash() -> (tempfile::TempDir, String) {
    let dir = tempfile::Builder::new()
        .prefix("croupier-logs-")
        .tempdir()
        .unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.path().join("bot.py");
    fs::write(
        &path,
        "import sys\nprint('about to fail: no strategy yet', file=sys.stderr)\nsys.exit(2)\n",
    )
    .unwrap();
    (dir, format!("python3 {}", path.display()))
}

#[test]
fn logs_hold_each_program_seats_stderr_and_the_table_shows_the_failures() {
    // Arrange
    let (_dir, bot) = talking_crash();
    let logs = tempfile::tempdir().unwrap();
    let dir = logs.path().to_str().unwrap();
    let play = |json: bool| {
        let mut args = vec![
            "play",
            "nothanks",
            "--bot",
            &bot,
            "--bot",
            "builtin:heuristic",
            "--bot",
            "builtin:random",
            "--games",
            "3",
            "--logs",
            dir,
        ];
        if json {
            args.push("--json");
        }
        croupier(&args)
    };

    // Act
    let table = play(false);
    let json = play(true);

    // Assert: one log per match for the program seat, holding its stderr and its verdict.
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(table.status.success(), "{text}");
    let mut files: Vec<_> = fs::read_dir(logs.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "{files:?}");
    for file in &files {
        let log = fs::read_to_string(logs.path().join(file)).unwrap();
        assert!(log.contains("about to fail: no strategy yet"), "{log}");
        assert!(log.contains("end state: crashed (exit code 2)"), "{log}");
    }
    assert!(text.contains("Seats that did not end ok"), "{text}");
    assert!(text.contains("| about to fail: no strategy yet"), "{text}");
    let doc: Value = serde_json::from_slice(&json.stdout).expect("one JSON object");
    let seats = doc["seats"].as_array().expect("seats");
    assert_eq!(seats.len(), 3, "{doc}");
    for seat in seats {
        assert_eq!(seat["end_state"], "crashed (exit code 2)", "{seat}");
        let log = seat["log"].as_str().expect("a log path");
        assert!(fs::read_to_string(log).unwrap().contains("about to fail"));
    }
}

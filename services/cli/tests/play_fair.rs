//! `croupier play` compares like with like: a bot that crashes on every call never ranks level
//! with or above a built-in (issues 12 and 20), and a bot that holds several seats shows
//! per-seat-game figures, not sums over its seats.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;

use common::*;
use serde_json::Value;

/// A bot directory holding `crash.py`, which exits 1 on every call.
fn crash_bot() -> (tempfile::TempDir, String) {
    let dir = tempfile::Builder::new()
        .prefix("croupier-crash-")
        .tempdir()
        .unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.path().join("crash.py");
    fs::write(&path, "import sys\nsys.exit(1)\n").unwrap();
    let command = format!("python3 {}", path.display());
    (dir, command)
}

fn row<'a>(json: &'a Value, bot: &str) -> &'a Value {
    (json["standings"].as_array().expect("standings").iter())
        .find(|r| r["bot"] == bot)
        .unwrap_or_else(|| panic!("no row for {bot}: {json}"))
}

#[test]
fn splendor_greedy_ranks_first_in_every_game_against_a_bot_that_crashes_on_every_call() {
    // Arrange: the run, crash / greedy / crash over 3 games, with the replays kept.
    let (_dir, crash) = crash_bot();
    let replays = tempfile::tempdir().unwrap();
    let replay_dir = replays.path().to_str().unwrap();
    let args = [
        "play",
        "splendor",
        "--bot",
        &crash,
        "--bot",
        "builtin:greedy",
        "--bot",
        &crash,
        "--games",
        "3",
        "--json",
        "--replay-dir",
        replay_dir,
    ];

    // Act
    let out = croupier(&args);

    // Assert: greedy is first in the table with 4 points per seat-game, the crashing bot
    // second with its 6 seat-games shown and no win.
    assert!(
        out.status.success(),
        "croupier play failed:\n{}",
        stderr(&out)
    );
    let json: Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    let rows = json["standings"].as_array().expect("standings");
    assert_eq!(rows[0]["bot"], "builtin:greedy", "{json}");
    let greedy = row(&json, "builtin:greedy");
    let crashing = row(&json, &crash);
    assert_eq!(greedy["seat_games"], 3, "{json}");
    assert_eq!(
        crashing["seat_games"], 6,
        "two seats in each of 3 games: {json}"
    );
    assert_eq!(greedy["points"], 4, "4 rank points in every game: {json}");
    assert_eq!(greedy["win_rate"], 1.0, "{json}");
    assert_eq!(crashing["wins"], 0, "{json}");
    assert!(
        crashing["points"].as_f64() < greedy["points"].as_f64(),
        "{json}"
    );
    assert_eq!(crashing["end_states"]["crashed"], 6, "{json}");

    // Assert: in every game, greedy ranks 1st alone and reaches 15 points.
    for i in 0..3 {
        let path = replays.path().join(format!("match-{i:04}.json"));
        let replay: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        let players = replay["players"].as_array().unwrap();
        let seats = replay["outcome"]["seats"].as_array().unwrap();
        for (player, seat) in players.iter().zip(seats) {
            let greedy = player.as_str().unwrap().starts_with("greedy");
            let rank = seat["rank"].as_u64().unwrap();
            if greedy {
                assert_eq!(rank, 1, "game {i}: {replay:#}");
                assert!(seat["score"].as_i64() >= Some(15), "game {i}: {seat}");
            } else {
                assert!(
                    rank > 1,
                    "game {i}: a crashing seat ranks below greedy: {seat}"
                );
            }
        }
    }
}

#[test]
fn the_table_shows_seat_games_and_per_seat_figures_for_a_bot_given_twice() {
    // Arrange
    let (_dir, crash) = crash_bot();

    // Act
    let out = croupier(&[
        "play",
        "nothanks",
        "--bot",
        &crash,
        "--bot",
        "builtin:heuristic",
        "--bot",
        &crash,
        "--games",
        "3",
    ]);

    // Assert: heuristic first; the crashing bot's line counts 6 seat-games and never ranks
    // level with the heuristic.
    assert!(
        out.status.success(),
        "croupier play failed:\n{}",
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        text.contains("seat-games") && text.contains("points/game"),
        "{text}"
    );
    // The table ends at the first blank line (the failing seats are listed after it).
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.contains("builtin:") || l.contains("crash.py"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].trim_start().starts_with("1  builtin:heuristic"),
        "{text}"
    );
    assert!(lines[1].trim_start().starts_with("2  python3"), "{text}");
    let seat_games: Vec<&str> = lines[1].split_whitespace().collect();
    assert!(seat_games.contains(&"6"), "6 seat-games: {text}");
}

#[test]
fn a_bot_that_plays_only_itself_in_a_team_game_still_has_its_row() {
    // Act: the same built-in on both sides of a Guandan duplicate pair.
    let out = croupier(&[
        "play",
        "guandan",
        "--bot",
        "builtin:heuristic",
        "--bot",
        "builtin:heuristic",
        "--games",
        "2",
        "--json",
    ]);

    // Assert: one row, all 8 seat-games, half of them won.
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let row = row(&json, "builtin:heuristic");
    assert_eq!(
        json["standings"].as_array().map(Vec::len),
        Some(1),
        "{json}"
    );
    assert_eq!(row["seat_games"], 8, "{json}");
    assert_eq!(row["win_rate"], 0.5, "{json}");
}

//! `croupier play --replay FILE`: a replay written by `croupier play --replay-dir` re-runs as
//! "identical"; a tampered copy names its first difference and fails.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

/// Plays one match of `game` between built-in bots and returns its replay file.
fn played(dir: &Path, game: &str, bots: &[&str], extra: &[&str]) -> PathBuf {
    let mut args = vec!["play", game, "--games", "1", "--seed", "5", "--replay-dir"];
    args.push(dir.to_str().expect("a UTF-8 temp dir"));
    for bot in bots {
        args.extend(["--bot", bot]);
    }
    args.extend_from_slice(extra);
    let out = croupier(&args);
    assert!(
        out.status.success(),
        "croupier play failed:\n{}",
        stderr(&out)
    );
    dir.join("match-0000.json")
}

fn check(path: &Path) -> std::process::Output {
    croupier(&["play", "--replay", path.to_str().expect("UTF-8 path")])
}

/// A copy of the replay at `path` with `change` applied, written next to it.
fn tampered(path: &Path, name: &str, change: impl FnOnce(&mut Value)) -> PathBuf {
    let mut doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    change(&mut doc);
    let copy = path.with_file_name(name);
    std::fs::write(&copy, serde_json::to_vec(&doc).unwrap()).unwrap();
    copy
}

#[test]
fn a_no_thanks_replay_re_runs_identical_and_a_tampered_one_names_its_first_difference() {
    // Arrange
    let dir = tempfile::tempdir().unwrap();
    let bots = ["builtin:heuristic", "builtin:random", "builtin:random"];
    let replay = played(dir.path(), "nothanks", &bots, &[]);
    let other_event = tampered(&replay, "event.json", |doc| {
        doc["games"][0]["replay"]["entries"][3]["events"][0]["text"] = "seat 0 takes it all".into();
    });
    let other_outcome = tampered(&replay, "outcome.json", |doc| {
        let score = &mut doc["games"][0]["replay"]["outcome"]["seats"][1]["score"];
        *score = (score.as_i64().unwrap() + 1).into();
    });
    let cut = tampered(&replay, "cut.json", |doc| {
        let entries = doc["games"][0]["replay"]["entries"].as_array_mut().unwrap();
        entries.truncate(entries.len() / 2);
    });
    let other_format = tampered(&replay, "format.json", |doc| doc["format"] = 2.into());

    // Act
    let same = check(&replay);
    let event = check(&other_event);
    let outcome = check(&other_outcome);
    let short = check(&cut);
    let format = check(&other_format);

    // Assert
    assert!(same.status.success(), "{}", stderr(&same));
    assert!(stdout(&same).starts_with("identical"), "{}", stdout(&same));
    assert_fails_naming(
        &event,
        &["differs: game 1, entry 3", "other events than recorded"],
    );
    assert_fails_naming(&outcome, &["differs: game 1", "the engine's outcome is"]);
    assert_fails_naming(&short, &["differs: game 1", "none (the game did not end)"]);
    assert_fails_naming(&format, &["replay format 2"]);
    for out in [&event, &outcome, &short, &format] {
        assert!(!stdout(out).contains("identical"));
    }
}

#[test]
fn a_bridge_replay_of_two_boards_re_runs_identical_and_a_call_by_the_wrong_seat_is_refused() {
    // Arrange
    let dir = tempfile::tempdir().unwrap();
    let replay = played(
        dir.path(),
        "bridge",
        &["builtin:heuristic", "builtin:random"],
        &["--boards", "2"],
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    assert_eq!(doc["games"].as_array().map(Vec::len), Some(2), "two boards");
    let moved = tampered(&replay, "moved.json", |doc| {
        let entries = doc["games"][1]["replay"]["entries"].as_array_mut().unwrap();
        let seat = entries[0]["seat"].as_u64().unwrap();
        entries[0]["seat"] = ((seat + 1) % 4).into();
    });

    // Act
    let same = check(&replay);
    let changed = check(&moved);

    // Assert
    assert!(same.status.success(), "{}", stderr(&same));
    assert!(
        stdout(&same).starts_with("identical: 2 game(s)"),
        "{}",
        stdout(&same)
    );
    assert_fails_naming(&changed, &["differs: game 2, entry 0", "refused now"]);
}

#[test]
fn a_replay_of_every_registered_game_re_runs_identical() {
    for game in croupier_games::GameId::all() {
        // Arrange: one match of built-in bots, one per seat
        let dir = tempfile::tempdir().unwrap();
        let names = croupier_games::bots::names(game);
        let bot = format!(
            "builtin:{}",
            names.iter().find(|n| **n == "random").unwrap_or(&names[0])
        );
        let bots = vec![bot.as_str(); game.default_seats()];
        let replay = played(dir.path(), game.as_str(), &bots, &["--sandbox", "none"]);

        // Act
        let out = check(&replay);

        // Assert
        assert!(out.status.success(), "{game:?}: {}", stderr(&out));
        assert!(
            stdout(&out).starts_with("identical"),
            "{game:?}: {}",
            stdout(&out)
        );
    }
}

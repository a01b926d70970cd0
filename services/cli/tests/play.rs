//! `croupier play` end to end: the real binary, the referee, the sandbox and the python kit.

mod common;

use common::*;
use serde_json::Value;

const PYTHON_KIT: &str = "python3 kits/nothanks/python/bot.py";

fn play(extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "play",
        "nothanks",
        "--bot",
        "builtin:heuristic",
        "--bot",
        "builtin:random",
        "--bot",
        PYTHON_KIT,
    ];
    args.extend_from_slice(extra);
    croupier(&args)
}

fn json_of(o: &std::process::Output) -> Value {
    assert!(o.status.success(), "croupier play failed:\n{}", stderr(o));
    serde_json::from_str(&stdout(o))
        .unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}):\n{}", stdout(o)))
}

#[test]
fn play_json_has_three_standings_and_the_same_seed_gives_the_same_output() {
    // Act
    let first = play(&["--games", "6", "--seed", "1", "--json"]);
    let second = play(&["--games", "6", "--seed", "1", "--json"]);

    // Assert
    let json = json_of(&first);
    assert_eq!(json["game"], "nothanks");
    assert_eq!(json["rules"], "boardcoder");
    assert_eq!(json["games"], 6);
    let standings = json["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 3, "{json}");
    let mut bots: Vec<&str> = standings.iter().filter_map(|s| s["bot"].as_str()).collect();
    bots.sort_unstable();
    assert_eq!(bots, ["builtin:heuristic", "builtin:random", PYTHON_KIT]);
    let mut points = 0.0;
    for s in standings {
        assert!(s["mean_score"].is_number() && s["wins"].is_u64(), "{s}");
        assert_eq!(
            s["end_states"]["ok"], 6,
            "every bot ends every match ok: {s}"
        );
        assert_eq!(s["seat_games"], 6, "one seat in each of 6 matches: {s}");
        let per_game = s["points"].as_f64().expect("points per seat-game");
        points += per_game * 6.0;
    }
    assert!(
        (points - 6.0 * (4.0 + 2.0 + 1.0)).abs() < 0.01,
        "rank points 4/2/1 (ties share): {points}"
    );
    let without_timing = |o: &std::process::Output| {
        let mut json = json_of(o);
        assert!(json["timing"]["wall_ms"].is_u64(), "{json}");
        assert!(
            json["timing"]["bot_moves"].as_u64() > Some(0),
            "the python kit moved: {json}"
        );
        json.as_object_mut().map(|o| o.remove("timing"));
        json
    };
    assert_eq!(
        without_timing(&first),
        without_timing(&second),
        "same seed, same standings"
    );
    assert_eq!(stdout(&first).lines().count(), 1, "exactly one JSON line");
}

#[test]
fn the_isolated_sandbox_and_plain_processes_give_the_same_result() {
    if !is_root() {
        eprintln!("skipped: the isolated sandbox needs root");
        return;
    }
    let isolated = play(&[
        "--games",
        "3",
        "--seed",
        "9",
        "--json",
        "--sandbox",
        "isolated",
    ]);
    let none = play(&["--games", "3", "--seed", "9", "--json", "--sandbox", "none"]);
    let standings = |o: &std::process::Output| json_of(o)["standings"].clone();
    assert_eq!(standings(&isolated), standings(&none));
    assert!(
        stderr(&none).contains("WITHOUT any sandbox"),
        "{}",
        stderr(&none)
    );
}

#[test]
fn every_bot_plays_every_seat_and_each_replay_is_written() {
    // Arrange
    let dir = tempfile::tempdir().expect("tempdir");
    let replays = dir.path().join("replays");

    // Act
    let out = play(&["--games", "3", "--seed", "5", "--replay-dir"]);
    assert!(!out.status.success(), "--replay-dir needs a value");
    let out = play(&[
        "--games",
        "3",
        "--seed",
        "5",
        "--replay-dir",
        replays.to_str().unwrap(),
    ]);

    // Assert
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("points"),
        "a table:\n{}",
        stdout(&out)
    );
    for game in 0..3 {
        let path = replays.join(format!("match-{game:04}.json"));
        let replay: Value =
            serde_json::from_slice(&std::fs::read(&path).expect("replay")).expect("replay JSON");
        let players: Vec<&str> = replay["players"]
            .as_array()
            .expect("players")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        // The python bot (the third --bot, player name "bot-3") moves one seat left each game.
        assert_eq!(
            players.iter().position(|p| *p == "bot-3"),
            Some(2 - game),
            "{players:?}"
        );
        assert_eq!(replay["games"].as_array().map(Vec::len), Some(1));
    }
}

#[test]
fn wrong_bot_counts_unknown_games_bots_and_commands_are_refused_clearly() {
    let two = croupier(&[
        "play",
        "nothanks",
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:random",
    ]);
    assert_fails_naming(&two, &["seats 3 players", "2 bot(s)", "--bot"]);

    let chess = croupier(&["play", "chess", "--bot", "builtin:random"]);
    assert_fails_naming(&chess, &["unknown game \"chess\"", "nothanks"]);

    let unknown = croupier(&[
        "play",
        "nothanks",
        "--bot",
        "builtin:nope",
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:random",
    ]);
    assert_fails_naming(&unknown, &["builtin:nope", "builtin:heuristic"]);

    for (bot, needle) in [
        ("./no-such-bot", "bot command not found: ./no-such-bot"),
        (
            "no-such-program-xyz",
            "bot command not found: no-such-program-xyz",
        ),
        (
            "python3 no/such/bot.py",
            "bot file not found: no/such/bot.py",
        ),
    ] {
        let out = croupier(&[
            "play",
            "nothanks",
            "--bot",
            "builtin:random",
            "--bot",
            "builtin:random",
            "--bot",
            bot,
        ]);
        assert_fails_naming(&out, &[needle]);
    }
}

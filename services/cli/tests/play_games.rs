//! `croupier play` for Splendor, Hanabi, Guandan and Bridge with built-in bots: the real
//! binary, each game's referee adapter and the league's scheme for the standings. (The
//! protocol adapters with real sandboxed programs are tested in the referee crate.)

mod common;

use common::*;
use serde_json::Value;

fn play_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = play_table(&all);
    serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}):\n{out}"))
}

/// What `croupier play <args>` prints on stdout (the table, or the JSON with `--json`).
fn play_table(args: &[&str]) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let out = croupier(&all);
    assert!(
        out.status.success(),
        "croupier {all:?} failed:\n{}",
        stderr(&out)
    );
    stdout(&out)
}

fn standing<'a>(json: &'a Value, bot: &str) -> &'a Value {
    let rows = json["standings"].as_array().expect("standings");
    rows.iter()
        .find(|r| r["bot"] == bot)
        .unwrap_or_else(|| panic!("no row for {bot}: {json}"))
}

#[test]
fn splendor_greedy_beats_two_random_bots_on_rank_points() {
    let json = play_json(&[
        "splendor",
        "--bot",
        "builtin:greedy",
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:random",
        "--games",
        "6",
    ]);
    assert_eq!(json["games"], 6);
    let rows = json["standings"].as_array().expect("standings");
    assert_eq!(rows.len(), 2, "the same bot twice is one entrant: {json}");
    let greedy = standing(&json, "builtin:greedy");
    let random = standing(&json, "builtin:random");
    assert_eq!(greedy["seat_games"], 6, "{json}");
    assert_eq!(
        random["seat_games"], 12,
        "two seats in each of 6 matches: {json}"
    );
    assert!(
        greedy["points"].as_f64() > random["points"].as_f64(),
        "greedy earns more rank points per seat-game than random: {json}"
    );
    assert_eq!(greedy["end_states"]["ok"], 6, "{json}");
}

#[test]
fn hanabi_self_play_reports_one_mean_score_per_bot_in_both_rule_sets() {
    for rules in ["standard", "rainbow"] {
        let json = play_json(&[
            "hanabi",
            "--rules",
            rules,
            "--bot",
            "builtin:convention",
            "--bot",
            "builtin:convention",
            "--bot",
            "builtin:convention",
            "--bot",
            "builtin:convention",
            "--games",
            "3",
        ]);
        assert_eq!(json["rules"], rules);
        let rows = json["standings"].as_array().expect("standings");
        assert_eq!(rows.len(), 1, "self-play is one entrant: {json}");
        let mean = rows[0]["points"].as_f64().expect("mean score");
        assert!(
            (5.0..=30.0).contains(&mean),
            "a convention bot scores: {json}"
        );
        assert!(
            rows[0].get("wins").is_none() && rows[0].get("win_rate").is_none(),
            "a cooperative game has no winner: {json}"
        );
    }
    let table = play_table(&[
        "hanabi",
        "--bot",
        "builtin:convention",
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:convention",
        "--bot",
        "builtin:random",
        "--games",
        "2",
    ]);
    assert!(!table.contains("wins"), "no wins column: {table}");
    assert!(table.contains("mean score"), "{table}");
}

#[test]
fn guandan_plays_a_duplicate_pair_with_partners_sharing_a_bot() {
    let json = play_json(&[
        "guandan",
        "--bot",
        "builtin:heuristic",
        "--bot",
        "builtin:random",
    ]);
    assert_eq!(json["games"], 2, "one duplicate pair by default");
    let heuristic = standing(&json, "builtin:heuristic");
    let random = standing(&json, "builtin:random");
    let won = |r: &Value| r["points"].as_f64().expect("games won per game");
    assert_eq!(
        won(heuristic) + won(random),
        1.0,
        "each game is won once: {json}"
    );
    assert_eq!(
        heuristic["seat_games"], 4,
        "two seats in each of 2 matches: {json}"
    );
}

#[test]
fn bridge_scores_two_tables_in_imps_and_refuses_boards_elsewhere() {
    let json = play_json(&[
        "bridge",
        "--bot",
        "builtin:heuristic",
        "--bot",
        "builtin:robot",
        "--boards",
        "2",
    ]);
    let heuristic = standing(&json, "builtin:heuristic");
    let robot = standing(&json, "builtin:robot");
    let imps = |r: &Value| r["points"].as_f64().expect("imps");
    assert_eq!(imps(heuristic), -imps(robot), "IMPs are zero-sum: {json}");

    let out = croupier(&[
        "play",
        "nothanks",
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:random",
        "--boards",
        "2",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--boards is for games played in boards"),
        "{}",
        stderr(&out)
    );
}

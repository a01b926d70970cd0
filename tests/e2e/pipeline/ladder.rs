//! Ladders end to end: `croupier up` with its in-process workers, an organiser who creates a
//! Bridge ladder and then does nothing, and two teams who upload. The workers' ladder tick
//! enters their bots and plays duplicate sets continuously; the board changes as results land;
//! a team's new version replaces its old one on the board.

use std::time::Duration;

use serde_json::{json, Value};

use super::api::Api;
use super::bots::game_kit;
use super::procs::{eventually, scratch, Proc};
use crate::helpers::PASSWORD;

fn rows(board: &Value) -> Vec<Value> {
    board["leaderboard"]["rows"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn row<'a>(rows: &'a [Value], team: &str) -> Option<&'a Value> {
    rows.iter().find(|r| r["team_name"] == team)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_ladder_plays_by_itself_and_a_new_version_replaces_the_old_one_on_its_board() {
    // Arrange: the platform, and an organiser's Bridge ladder (one board per table so that a
    // duplicate set takes seconds) created before any bot exists.
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let created = admin
        .post(
            "/api/v1/admin/competitions",
            json!({ "name": "Bridge ladder", "game": "bridge", "kind": "ladder",
                    "games_per_match": 1, "base_seed": 5,
                    "ladder": { "matches_per_hour": 3600, "max_pending": 2 } }),
        )
        .await;
    assert_eq!(
        created["matches"], 0,
        "a ladder schedules as it goes: {created:#}"
    );
    assert_eq!(created["competition"]["status"], "running", "{created:#}");
    assert_eq!(created["competition"]["kind"], "ladder", "{created:#}");
    let id = created["competition"]["competition_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let board_path = format!("/api/v1/competitions/{id}/leaderboard");

    // Act: two teams upload; nobody schedules anything.
    let ann = Api::user(&base, "ann", PASSWORD, true).await;
    let bob = Api::user(&base, "bob", PASSWORD, true).await;
    let (north, south) = (ann.team("North").await, bob.team("South").await);
    let python = game_kit("bridge", "python/bot.py");
    let first = ann
        .upload(&north, "bridge", "python3", "bot.py", python.clone())
        .await;
    let c = bob
        .upload(
            &south,
            "bridge",
            "c",
            "bot.c",
            game_kit("bridge", "c/bot.c"),
        )
        .await;
    ann.wait_ready(&first).await;
    bob.wait_ready(&c).await;

    // Assert: the ladder entered both and played duplicate sets: both have IMP standings and
    // ratings, and the board keeps changing as more sets land.
    let early = eventually(
        Duration::from_secs(300),
        "a rated duplicate set",
        || async {
            let board = admin.get(&board_path).await;
            let rows = rows(&board);
            let rated = ["North", "South"]
                .iter()
                .all(|t| row(&rows, t).is_some_and(|r| r["games"].as_u64() >= Some(2)));
            rated.then_some(board)
        },
    )
    .await;
    for team in ["North", "South"] {
        let r = row(&rows(&early), team).cloned().unwrap_or_default();
        assert!(r["position"].is_u64(), "{team} is ranked: {early:#}");
        assert!(
            r["rating"]["sigma"].as_f64() < Some(25.0 / 3.0),
            "{team} rated: {r:#}"
        );
        assert_eq!(r["extra"]["kind"], "bridge", "{r:#}");
    }
    let finished = |b: &Value| {
        b["competition"]["progress"]["finished"]
            .as_i64()
            .unwrap_or(0)
    };
    let before = finished(&early);
    let later = eventually(Duration::from_secs(300), "more matches to land", || async {
        let board = admin.get(&board_path).await;
        (finished(&board) >= before + 2).then_some(board)
    })
    .await;
    let games = |b: &Value, t: &str| row(&rows(b), t).map(|r| r["games"].clone());
    assert_ne!(games(&early, "North"), games(&later, "North"), "{later:#}");

    // Act: North uploads a new version.
    let second = ann
        .upload(&north, "bridge", "python3", "bot.py", python)
        .await;
    ann.wait_ready(&second).await;

    // Assert: version 2 stands for North on the board and plays; version 1 is gone from the
    // board but keeps its history.
    let replaced = eventually(
        Duration::from_secs(300),
        "version 2 on the board",
        || async {
            let board = admin.get(&board_path).await;
            let rows = rows(&board);
            let north: Vec<&Value> = rows.iter().filter(|r| r["team_name"] == "North").collect();
            (north.len() == 1
                && north[0]["submission_id"] == second.as_str()
                && north[0]["games"].as_u64() >= Some(2))
            .then_some(board)
        },
    )
    .await;
    assert_eq!(rows(&replaced).len(), 2, "one entry per team: {replaced:#}");
    let history = admin
        .get(&format!("/api/v1/competitions/{id}/history"))
        .await;
    assert!(
        history["entries"].as_array().is_some_and(|e| e.len() == 2),
        "{history:#}"
    );
    let old = admin.get(&format!("/api/v1/submissions/{first}")).await;
    assert_eq!(old["submission"]["status"], "ready", "{old:#}");

    // Act: the organiser pauses the ladder, then finishes it.
    let paused = admin
        .post(
            &format!("/api/v1/admin/competitions/{id}/ladder"),
            json!({ "action": "pause" }),
        )
        .await;
    assert_eq!(paused["competition"]["status"], "paused", "{paused:#}");
    let drained = eventually(Duration::from_secs(120), "the queue to drain", || async {
        let board = admin.get(&board_path).await;
        let p = &board["competition"]["progress"];
        (p["queued"] == 0 && p["running"] == 0).then_some(board)
    })
    .await;
    // Two ticks' worth of waiting: a paused ladder makes no match.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let still = admin.get(&board_path).await;
    assert_eq!(
        still["competition"]["progress"], drained["competition"]["progress"],
        "no new match while paused"
    );
    let done = admin
        .post(
            &format!("/api/v1/admin/competitions/{id}/ladder"),
            json!({ "action": "finish" }),
        )
        .await;
    assert_eq!(done["competition"]["status"], "finished", "{done:#}");
    up.stop().await;
}

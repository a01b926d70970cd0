//! Upload, compile, schedule, play, rank: `croupier up` with its in-process workers.

use std::time::Duration;

use serde_json::{json, Value};

use super::api::Api;
use super::bots;
use super::procs::{scratch, Proc};
use crate::binary::process::croupier;
use crate::helpers::PASSWORD;

fn row_of<'a>(board: &'a Value, team: &str) -> &'a Value {
    board["leaderboard"]["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["team_name"] == team)
        .unwrap_or_else(|| panic!("{team} is on the leaderboard: {board:#}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn three_uploaded_bots_compile_play_a_round_robin_and_rank_as_their_strategies_imply() {
    // Arrange: the whole platform on one machine, and three teams with a bot each
    // (two Python, one C); one of the Python bots passes whenever it may, which loses.
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let admin_password = up.admin_password();
    let kit = Api::user(&base, "kit_team", PASSWORD, true).await;
    let passer = Api::user(&base, "passer_team", PASSWORD, true).await;
    let c = Api::user(&base, "c_team", PASSWORD, true).await;
    let kit_bot = kit
        .team_with_bot("Kit", "python3", "bot.py", bots::python_kit())
        .await;
    let passer_bot = passer
        .team_with_bot("Passer", "python3", "bot.py", bots::python_always_passes())
        .await;
    let c_bot = c.team_with_bot("Sea", "c", "bot.c", bots::c_kit()).await;

    // Act: the workers compile and validate; the admin schedules 2 rounds.
    for (api, id) in [(&kit, &kit_bot), (&passer, &passer_bot), (&c, &c_bot)] {
        api.wait_ready(id).await;
    }
    let admin = Api::user(&base, "admin", &admin_password, false).await;
    let created = admin
        .post(
            "/api/v1/admin/competitions",
            json!({ "name": "Spring cup", "game": "nothanks", "rounds": 2, "base_seed": 2026 }),
        )
        .await;
    let competition_id = created["competition"]["competition_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let board = admin
        .wait_finished(&competition_id, Duration::from_secs(300))
        .await;

    // Assert: C(3,3) × 3 seat rotations × 2 rounds, all finished and counted once per seat.
    assert_eq!(created["matches"], 6);
    let progress = &board["competition"]["progress"];
    assert_eq!(
        (progress["finished"].as_i64(), progress["failed"].as_i64()),
        (Some(6), Some(0)),
        "{board:#}"
    );
    for team in ["Kit", "Passer", "Sea"] {
        let row = row_of(&board, team);
        assert_eq!(row["games"], 6, "{team}: {row:#}");
        assert_eq!(row["faults"], 0, "{team}: {row:#}");
    }
    let last = row_of(&board, "Passer");
    assert_eq!(
        last["position"], 3,
        "passing whenever possible finishes last: {board:#}"
    );
    for team in ["Kit", "Sea"] {
        let row = row_of(&board, team);
        assert!(
            row["rank_points"].as_u64() > last["rank_points"].as_u64(),
            "{board:#}"
        );
        assert!(
            row["mean_score"].as_f64() < last["mean_score"].as_f64(),
            "lower is better: {board:#}"
        );
    }
    let points: u64 = ["Kit", "Passer", "Sea"]
        .iter()
        .map(|t| row_of(&board, t)["rank_points"].as_u64().unwrap_or(0))
        .sum();
    assert!(
        points <= 6 * 7,
        "at most 4 + 2 + 1 points a game: {board:#}"
    );

    // Assert: the API lists the matches, and a replay downloaded from it (as the worker
    // stored it) re-runs identical with `croupier play --replay`.
    let listed = admin
        .get(&format!("/api/v1/matches?competition={competition_id}"))
        .await;
    assert_eq!(listed["total"], 6, "{listed:#}");
    let newest = listed["matches"][0]["match_id"]
        .as_str()
        .expect("a match id");
    let replay = reqwest::get(format!("{base}/api/v1/matches/{newest}/replay"))
        .await
        .expect("the replay")
        .bytes()
        .await
        .expect("its bytes");
    let doc: Value = serde_json::from_slice(&replay).expect("a JSON document");
    let entries = doc["games"][0]["replay"]["entries"]
        .as_array()
        .expect("entries");
    assert!(
        entries
            .iter()
            .filter(|e| e["entry"] == "move")
            .all(|e| e["events"].as_array().is_some_and(|ev| !ev.is_empty())),
        "stored without them, the replay is handed out with every move's events: {doc:#}"
    );
    assert!(doc["games"][0]["replay"].get("events_left_out").is_none());
    let file = dir.path().join(format!("match-{newest}.json"));
    std::fs::write(&file, &replay).expect("write the replay");
    let checked = croupier()
        .args(["play", "--replay"])
        .arg(&file)
        .output()
        .expect("croupier play --replay");
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(
        checked.status.success() && said.starts_with("identical"),
        "{said}{}",
        String::from_utf8_lossy(&checked.stderr)
    );

    // Assert: the organiser sees the fleet: `croupier up`'s workers, alive, on this host.
    let fleet = admin.get("/api/v1/admin/workers").await;
    let workers = fleet["workers"].as_array().expect("a list of workers");
    assert!(!workers.is_empty(), "{fleet:#}");
    for w in workers {
        assert!(w["stopped_at"].is_null(), "{w:#}");
        assert!(
            w["silent_secs"].as_f64().unwrap_or(f64::MAX) < 45.0,
            "{w:#}"
        );
        assert_eq!(w["version"], env!("CARGO_PKG_VERSION"), "{w:#}");
    }
    up.stop().await;
}

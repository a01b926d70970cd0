//! Tables with a person never hold a worker loop: `croupier up` with its 2 loops, two people
//! who sit at tables and do not answer, and a round-robin that compiles, plays and ranks while
//! both tables stay open.

use std::time::Duration;

use serde_json::{json, Value};

use super::api::{three_ready_bots, Api};
use super::procs::{eventually, scratch, Proc};
use crate::helpers::PASSWORD;

/// The person sits at seat 0 of a No Thanks table against two built-ins, with an hour per move;
/// returns the challenge.
async fn sit_down(person: &Api, team: &str, competition: &str) -> String {
    let team = person.team(team).await;
    let asked = person
        .post(
            &format!("/api/v1/competitions/{competition}/challenges"),
            json!({ "team_id": team, "human_move_secs": 3600,
                    "seats": [{ "human": true }, { "builtin": "random" }, { "builtin": "random" }] }),
        )
        .await;
    asked["challenge"]["challenge_id"]
        .as_str()
        .unwrap_or_else(|| panic!("a challenge: {asked:#}"))
        .to_owned()
}

async fn table(person: &Api, challenge: &str) -> Value {
    person.get(&format!("/api/v1/challenges/{challenge}")).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_round_robin_finishes_while_two_people_sit_at_tables_on_a_two_loop_worker() {
    // Arrange: the platform with 2 worker loops; two people at tables who never answer, both
    // tables taken by the workers (running) before any bot is uploaded.
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let lobby = admin.small_ladder("Tables", "nothanks").await;
    let dan = Api::user(&base, "dan", PASSWORD, true).await;
    let eve = Api::user(&base, "eve", PASSWORD, true).await;
    let dans = sit_down(&dan, "Dan's table", &lobby).await;
    let eves = sit_down(&eve, "Eve's table", &lobby).await;
    for (person, id) in [(&dan, &dans), (&eve, &eves)] {
        eventually(Duration::from_secs(60), "the table to start", || async {
            let t = table(person, id).await;
            (t["matches"]["running"] == 1).then_some(())
        })
        .await;
    }

    // Act: three teams upload bots (compiled and validated by the loops), and the admin runs
    // a 2-round round-robin of them.
    three_ready_bots(&base).await;
    let created = admin
        .post(
            "/api/v1/admin/competitions",
            json!({ "name": "Busy evening", "game": "nothanks", "rounds": 2, "base_seed": 41 }),
        )
        .await;
    let competition = created["competition"]["competition_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let board = admin
        .wait_finished(&competition, Duration::from_secs(300))
        .await;

    // Assert: every bot match finished, and both people are still at their tables: the tables
    // ran beside the loops, not in them.
    let progress = &board["competition"]["progress"];
    assert_eq!(
        (progress["finished"].as_i64(), progress["failed"].as_i64()),
        (Some(6), Some(0)),
        "{board:#}"
    );
    for (person, id) in [(&dan, &dans), (&eve, &eves)] {
        let t = table(person, id).await;
        assert_eq!(
            (&t["matches"]["running"], &t["matches"]["finished"]),
            (&json!(1), &json!(0)),
            "the table is still open: {t:#}"
        );
    }
    let fleet = admin.get("/api/v1/admin/workers").await;
    let lanes: Vec<&str> = (fleet["workers"].as_array().into_iter().flatten())
        .filter_map(|w| w["worker_id"].as_str())
        .filter(|id| id.ends_with("-tables"))
        .collect();
    assert_eq!(
        lanes.len(),
        1,
        "the fleet shows the lane of tables: {fleet:#}"
    );
    up.stop().await;
}

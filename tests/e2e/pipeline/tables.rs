//! Tables with a person never hold a worker loop: `croupier up` with its 2 loops, two people
//! who sit at tables and do not answer, and a round-robin that compiles, plays and ranks while
//! both tables stay open. A worker killed mid-table loses nothing: the table is played again
//! from its start, and nobody's result is written for the lost attempt.

use std::time::Duration;

use serde_json::{json, Value};

use super::api::{three_ready_bots, Api};
use super::faults::{platform, worker, BOSS_PASSWORD};
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

#[tokio::test(flavor = "multi_thread")]
async fn a_worker_killed_mid_table_loses_nothing_and_the_table_starts_again_elsewhere() {
    // Arrange: separate processes (a 4 s lease); dan at a table, asked his first turn
    let dir = scratch();
    let p = platform(dir.path()).await;
    let first = worker(&p, dir.path(), "worker-1").await;
    let boss = Api::user(&p.base, "boss", BOSS_PASSWORD, false).await;
    let lobby = boss.small_ladder("Tables", "nothanks").await;
    let dan = Api::user(&p.base, "dan", PASSWORD, true).await;
    let table_id = sit_down(&dan, "Dan's table", &lobby).await;
    let match_id: uuid::Uuid = table(&dan, &table_id).await["match_list"][0]["match_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("the table's match");
    let asked = |after: i32| {
        let pool = p.pool.clone();
        async move {
            sqlx::query_as::<_, (i32,)>(
                "select j.attempt from human_turn h join job j using (match_id)
                 where h.match_id = $1 and j.attempt > $2 and j.status = 'running'",
            )
            .bind(match_id)
            .bind(after)
            .fetch_optional(&pool)
            .await
            .expect("query")
            .map(|(attempt,)| attempt)
        }
    };
    let attempt = eventually(Duration::from_secs(60), "dan's first turn", || asked(0)).await;

    // Act: the worker dies with the table open; another worker starts
    first.kill_hard().await;
    let _second = worker(&p, dir.path(), "worker-2").await;
    let again = eventually(Duration::from_secs(60), "the table to start again", || {
        asked(attempt)
    })
    .await;

    // Assert: the same table, played again from its start on a new attempt, running, with no
    // result written for anyone, and dan's turn open
    let (status, results, turn, answer): (String, i64, i32, Option<i32>) = sqlx::query_as(
        "select m.status::text, (select count(*) from seat_result r where r.match_id = m.match_id),
                h.turn, h.answer
         from match m join human_turn h using (match_id) where m.match_id = $1",
    )
    .bind(match_id)
    .fetch_one(&p.pool)
    .await
    .expect("the table");
    assert_eq!(again, attempt + 1, "a new attempt");
    assert_eq!(status, "running");
    assert_eq!(results, 0, "nothing is counted for the lost attempt");
    assert_eq!(
        (turn, answer),
        (1, None),
        "dan is asked his first turn again"
    );
    let t = table(&dan, &table_id).await;
    assert_eq!(t["matches"]["running"], 1, "{t:#}");
}

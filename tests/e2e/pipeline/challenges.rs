//! Challenges and A/B tests end to end through the API, with `croupier up`'s workers: a team
//! challenges built-in bots with its bot on duplicate seeds and reads the results once the
//! workers have finished the challenge; then tests its new version against its old one, and the
//! workers stop the test when it is decided.
//! Neither changes the competition's board.

use std::time::Duration;

use serde_json::{json, Value};

use super::api::Api;
use super::bots;
use super::procs::{eventually, scratch, Proc};
use crate::helpers::PASSWORD;

async fn wait_done(api: &Api, id: &str, limit: Duration) -> Value {
    eventually(limit, "the challenge to be done", || async {
        let r = api.get(&format!("/api/v1/challenges/{id}")).await;
        (r["done"] == true).then_some(r)
    })
    .await
}

/// The admin, and ann who owns the team "Ants" (its id).
async fn admin_and_ann_of_the_ants(up: &Proc) -> (Api, Api, String) {
    let base = up.url();
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let ann = Api::user(&base, "ann", PASSWORD, true).await;
    let team = ann.team("Ants").await;
    (admin, ann, team)
}

/// A challenge of `submission` against two built-in `random` bots on 2 seeds; its id.
async fn against_two_builtins(
    api: &Api,
    competition: &str,
    team: &str,
    submission: &str,
) -> String {
    let asked = api
        .post(
            &format!("/api/v1/competitions/{competition}/challenges"),
            json!({ "team_id": team, "games": 2,
                    "seats": [{ "submission_id": submission }, { "builtin": "random" }, { "builtin": "random" }] }),
        )
        .await;
    asked["challenge"]["challenge_id"]
        .as_str()
        .unwrap_or_else(|| panic!("a challenge: {asked:#}"))
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_team_challenges_builtin_bots_and_ab_tests_two_of_its_versions() {
    // Arrange: the platform, a No Thanks round-robin with one entry, and a team with two
    // versions: the kit (v1) and a bot that passes whenever it may (v2, much weaker).
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let (admin, ann, team) = admin_and_ann_of_the_ants(&up).await;
    let kit = ann
        .upload(&team, "nothanks", "python3", "bot.py", bots::python_kit())
        .await;
    ann.wait_ready(&kit).await;
    let competition = admin.small_ladder("Open ladder", "nothanks").await;
    let passer = ann
        .upload(
            &team,
            "nothanks",
            "python3",
            "bot.py",
            bots::python_always_passes(),
        )
        .await;
    ann.wait_ready(&passer).await;

    // Act: a challenge of the kit against two built-in bots, 2 duplicate groups.
    let id = against_two_builtins(&ann, &competition, &team, &kit).await;
    let done = wait_done(&ann, &id, Duration::from_secs(300)).await;

    // Assert: over once its last match ended, as an A/B test is once decided; 2 seeds × 3
    // rotations, the kit in all 6 with a score and an interval, unrated.
    assert_eq!(done["challenge"]["status"], "finished", "{done:#}");
    assert_eq!(done["matches"]["finished"], 6, "{done:#}");
    let parts = done["participants"].as_array().cloned().unwrap_or_default();
    let mine = parts
        .iter()
        .find(|p| p["submission_id"] == kit.as_str())
        .unwrap_or_else(|| panic!("the kit's row: {done:#}"));
    assert_eq!(mine["games"], 6, "{done:#}");
    assert!(mine["score"]["half_width"].is_number(), "{mine:#}");
    let random = parts
        .iter()
        .find(|p| p["builtin"] == "random")
        .expect("random's row");
    assert_eq!(
        random["games"], 6,
        "one row per participant, its seats averaged: {done:#}"
    );
    let board = admin
        .get(&format!("/api/v1/competitions/{competition}/leaderboard"))
        .await;
    assert_eq!(
        board["competition"]["progress"]["finished"], 0,
        "challenges are no competition matches: {board:#}"
    );

    // Another team's member cannot read it.
    let bob = Api::user(&base, "bob", PASSWORD, true).await;
    let status = reqwest::Client::new()
        .get(format!("{base}/api/v1/challenges/{id}"))
        .bearer_auth(bob.token())
        .send()
        .await
        .expect("a response")
        .status();
    assert_eq!(status, reqwest::StatusCode::NOT_FOUND);

    // Act: an A/B test of the kit (A) against the passer (B), at most 12 groups.
    let asked = ann
        .post(
            &format!("/api/v1/competitions/{competition}/ab_tests"),
            json!({ "team_id": team, "a": kit, "b": passer, "max_games": 12 }),
        )
        .await;
    let id = asked["challenge"]["challenge_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let done = wait_done(&ann, &id, Duration::from_secs(600)).await;

    // Assert: the workers played it to a verdict and stopped; A scores better (fewer points).
    let ab = &done["ab"];
    assert_eq!(done["challenge"]["status"], "finished", "{done:#}");
    assert!(ab["games"].as_u64() <= Some(12), "{ab:#}");
    assert!(
        ab["mean_diff"].as_f64() > Some(0.0),
        "the kit beats passing: {ab:#}"
    );
    assert!(
        matches!(ab["verdict"].as_str(), Some("a_better" | "inconclusive")),
        "{ab:#}"
    );
    assert!(ab["ci95"]["mean"].is_number(), "{ab:#}");
    up.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_running_bot_match_reports_its_moves_as_it_plays() {
    // Arrange: a team's slow bot (0.12 s a move) challenges two built-in bots, 2 seeds
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let (admin, ann, team) = admin_and_ann_of_the_ants(&up).await;
    let slow = ann
        .upload(
            &team,
            "nothanks",
            "python3",
            "bot.py",
            bots::python_slow(0.12),
        )
        .await;
    ann.wait_ready(&slow).await;
    let competition = admin.small_ladder("Open ladder", "nothanks").await;
    let id = against_two_builtins(&ann, &competition, &team, &slow).await;

    // Act: read a match of it while it runs, until it reports moves
    let seen = eventually(
        Duration::from_secs(180),
        "a running match's moves",
        || async {
            let c = ann.get(&format!("/api/v1/challenges/{id}")).await;
            for m in c["match_list"].as_array().cloned().unwrap_or_default() {
                let id = m["match_id"].as_str().unwrap_or_default();
                let one = ann.get(&format!("/api/v1/matches/{id}")).await;
                let progress = &one["match"]["progress"];
                if one["match"]["status"] == "running" && progress["moves"].as_u64() > Some(0) {
                    return Some(progress.clone());
                }
            }
            None
        },
    )
    .await;
    let done = wait_done(&ann, &id, Duration::from_secs(300)).await;

    // Assert: game 1 with moves played while it ran; none reported once the matches ended
    assert_eq!(seen["game"], 1, "{seen}");
    assert!(seen["moves"].as_u64() > Some(0), "{seen}");
    let first = done["match_list"][0]["match_id"].as_str().expect("a match");
    let ended = ann.get(&format!("/api/v1/matches/{first}")).await;
    assert_eq!(ended["match"]["status"], "finished", "{ended:#}");
    assert_eq!(ended["match"]["progress"], Value::Null, "{ended:#}");
}

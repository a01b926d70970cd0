//! Splendor, Hanabi, Bridge and Guandan hosted end to end: the starter kits uploaded over HTTP are
//! compiled and validated by sandboxed workers, an admin schedules each game's competition with
//! its own format, the workers play every match over the original protocol, and each
//! leaderboard shows the game's own scheme.

use std::time::Duration;

use serde_json::{json, Value};

use super::api::Api;
use super::bots::game_kit;
use super::procs::{scratch, Proc};
use crate::helpers::PASSWORD;

fn rows(board: &Value) -> &Vec<Value> {
    board["leaderboard"]["rows"].as_array().expect("rows")
}

/// The competition's public page and its first match's page, as a visitor sees them: both
/// answer, the match page shows the replay timeline, and the replay viewer's frames rebuild
/// from the stored replay.
async fn pages_show_a_timeline(base: &str, competition_id: &str, shows: &str) {
    let get = |path: String| async move {
        let resp = reqwest::get(format!("{base}{path}")).await.expect("GET");
        assert_eq!(resp.status(), 200, "{path}");
        resp.text().await.expect("html")
    };
    let page = get(format!("/competitions/{competition_id}")).await;
    assert!(
        page.contains(shows),
        "the competition page shows {shows:?}:\n{page}"
    );
    let at = page.find("/matches/").expect("the page links its matches");
    let id: String = page[at + "/matches/".len()..].chars().take(36).collect();
    let page = get(format!("/matches/{id}")).await;
    assert!(
        page.contains(r#"<ol class="timeline""#),
        "a timeline:\n{page}"
    );
    assert!(
        page.contains("<h2>Match log</h2>"),
        "the protocol log:\n{page}"
    );
    if shows == "battle score" {
        assert!(
            page.contains("Game starts!") && page.contains("Successfully"),
            "Splendor's log reads like the judge's:\n{page}"
        );
    }
    assert!(!page.contains("No replay was stored"), "{page}");
    // the replay viewer's frames: the stored replay rebuilds, step by step, for a seat
    let frames: Value = reqwest::get(format!("{base}/matches/{id}/frames.json?view=seat:0"))
        .await
        .expect("GET frames")
        .json()
        .await
        .expect("frames JSON");
    let steps = frames["frames"].as_array().expect("frames");
    assert!(steps.len() > 1, "{frames:#}");
    assert!(steps
        .iter()
        .all(|f| f["observation"].get("hidden").is_none()));
    assert!(steps.last().is_some_and(|f| f["outcome"].is_object()));
}

/// Creates the competition, waits for it, checks every match finished and none failed, and
/// that its pages show it.
async fn run(admin: &Api, body: Value, matches: u64, shows: &str) -> Value {
    let created = admin.post("/api/v1/admin/competitions", body.clone()).await;
    assert_eq!(created["matches"], matches, "{body}: {created:#}");
    let id = created["competition"]["competition_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let board = admin.wait_finished(&id, Duration::from_secs(600)).await;
    let progress = &board["competition"]["progress"];
    assert_eq!(
        (progress["finished"].as_u64(), progress["failed"].as_u64()),
        (Some(matches), Some(0)),
        "{board:#}"
    );
    for row in rows(&board) {
        assert_eq!(row["faults"], 0, "the kits play cleanly: {board:#}");
    }
    pages_show_a_timeline(&admin.base, &id, shows).await;
    board
}

#[tokio::test(flavor = "multi_thread")]
async fn the_kits_of_four_games_play_competitions_ranked_by_each_games_scheme() {
    // Arrange: the platform, and three teams with kits of four games.
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let admin_password = up.admin_password();
    let base = up.url();
    let mut submissions = Vec::new();
    for (i, user) in ["ruby", "onyx", "jade"].iter().enumerate() {
        let api = Api::user(&base, user, PASSWORD, true).await;
        let team = api.team(&format!("Team {user}")).await;
        let up = |game, lang, file, src| {
            let (api, team) = (&api, &team);
            async move { api.upload(team, game, lang, file, src).await }
        };
        let splendor = match i {
            1 => {
                up(
                    "splendor",
                    "cpp",
                    "bot.cpp",
                    game_kit("splendor", "cpp/bot.cpp"),
                )
                .await
            }
            _ => {
                up(
                    "splendor",
                    "python3",
                    "bot.py",
                    game_kit("splendor", "python/bot.py"),
                )
                .await
            }
        };
        let hanabi = match i {
            1 => {
                up(
                    "hanabi",
                    "python3",
                    "bot.py",
                    game_kit("hanabi", "python/ws_bot.py"),
                )
                .await
            }
            _ => {
                up(
                    "hanabi",
                    "python3",
                    "player.py",
                    game_kit("hanabi", "python/player.py"),
                )
                .await
            }
        };
        let bridge = match i {
            1 => up("bridge", "c", "bot.c", game_kit("bridge", "c/bot.c")).await,
            _ => {
                up(
                    "bridge",
                    "python3",
                    "bot.py",
                    game_kit("bridge", "python/bot.py"),
                )
                .await
            }
        };
        let guandan = up(
            "guandan",
            "python3",
            "client.py",
            game_kit("guandan", "python/client.py"),
        )
        .await;
        submissions.push((api, [splendor, hanabi, bridge, guandan]));
    }
    for (api, ids) in &submissions {
        for id in ids {
            api.wait_ready(id).await;
        }
    }
    let admin = Api::user(&base, "admin", &admin_password, false).await;
    let ids = |game: usize, teams: &[usize]| -> Vec<String> {
        teams
            .iter()
            .map(|&t| submissions[t].1[game].clone())
            .collect()
    };

    // Splendor: one triple × 3 seat orders on one deck; rank points and the battle score.
    let board = run(
        &admin,
        json!({ "name": "Splendor cup", "game": "splendor", "base_seed": 5,
                "submissions": ids(0, &[0, 1, 2]) }),
        3,
        "battle score",
    )
    .await;
    let points: u64 = rows(&board)
        .iter()
        .map(|r| r["rank_points"].as_u64().unwrap_or(0))
        .sum();
    assert!(
        (3 * 4..=3 * 7).contains(&points),
        "4/2/1 per match: {board:#}"
    );
    for row in rows(&board) {
        assert_eq!(row["games"], 3, "{board:#}");
        assert_eq!(row["extra"]["kind"], "splendor", "{board:#}");
        let position = row["position"].as_u64().expect("position");
        assert_eq!(row["extra"]["battle_score"], 11 - position, "{board:#}");
    }

    // Hanabi self-play (each bot fills all four seats) and cross-play (pairs mixed).
    let board = run(
        &admin,
        json!({ "name": "Hanabi self-play", "game": "hanabi", "rules": "rainbow", "rounds": 2,
                "submissions": ids(1, &[0, 1]) }),
        4,
        "mean score",
    )
    .await;
    for row in rows(&board) {
        assert_eq!(row["games"], 2, "{board:#}");
        let mean = row["metric"].as_f64().expect("mean score");
        assert!(
            (1.0..=30.0).contains(&mean),
            "the kits score points: {board:#}"
        );
    }
    let board = run(
        &admin,
        json!({ "name": "Hanabi cross-play", "game": "hanabi", "format": "cross_play",
                "submissions": ids(1, &[0, 1]) }),
        2,
        "mean score",
    )
    .await;
    let [a, b] = [&rows(&board)[0], &rows(&board)[1]];
    assert_eq!(
        a["metric"], b["metric"],
        "cross-play partners share a score: {board:#}"
    );

    // Bridge: two tables of 4 boards on the same deals; the C kit against the Python kit.
    let board = run(
        &admin,
        json!({ "name": "Bridge teams", "game": "bridge", "base_seed": 11,
                "submissions": ids(2, &[1, 0]) }),
        2,
        "IMPs",
    )
    .await;
    let imps: Vec<i64> = rows(&board)
        .iter()
        .map(|r| {
            assert_eq!(r["extra"]["kind"], "bridge", "{board:#}");
            assert_eq!(r["extra"]["boards"], 4, "IMPs board by board: {board:#}");
            r["extra"]["imps"].as_i64().expect("imps")
        })
        .collect();
    assert_eq!(imps.iter().sum::<i64>(), 0, "IMPs are zero-sum: {board:#}");

    // Guandan: the pair plays both seatings (A-B-A-B, B-A-B-A) on the same deals.
    let board = run(
        &admin,
        json!({ "name": "Guandan pairs", "game": "guandan", "base_seed": 3,
                "submissions": ids(3, &[0, 1]) }),
        2,
        "games won",
    )
    .await;
    let won: f64 = rows(&board)
        .iter()
        .map(|r| {
            assert_eq!(r["extra"]["kind"], "guandan", "{board:#}");
            assert_eq!(r["games"], 2, "{board:#}");
            r["extra"]["games_won"].as_f64().expect("games won")
        })
        .sum();
    assert_eq!(
        won, 2.0,
        "each game is won once (draws half each): {board:#}"
    );
    up.stop().await;
}

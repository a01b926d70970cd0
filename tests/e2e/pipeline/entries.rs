//! Entry points through the whole platform over HTTP: a Guandan contest folder with one client
//! per seat (`gd/client0.py` … `gd/client3.py`) is refused without an entry, listing the
//! candidates, and with one (over the API or `croupier submit --entry`) it is compiled,
//! validated and plays a competition; an origin-style
//! Hanabi class file plays with the class its entry names, and one with several player
//! classes and none named `player` fails its build listing them.

use std::time::Duration;

use serde_json::json;

use super::api::Api;
use super::bots::game_kit;
use super::procs::{scratch, Proc};
use crate::binary::process::croupier;
use crate::helpers::archives::zip;
use crate::helpers::PASSWORD;

/// The origin-style class bots of the referee's tests (a console `player`, `careful`,
/// `cautious(hintP)`), importing `game`.
fn origin_bots() -> String {
    include_str!("../../../services/referee/tests/hanabi/origin_bots.py").replace("GAME", "game")
}

fn four_clients() -> Vec<u8> {
    let client = game_kit("guandan", "python/client.py");
    let names: Vec<String> = (0..4).map(|i| format!("gd/client{i}.py")).collect();
    let files: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &client[..])).collect();
    zip(&files)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_folder_of_clients_and_a_hanabi_class_play_with_the_entry_their_team_chose() {
    // Arrange
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    // Two people, a team each: a person enters one team per competition.
    let api = Api::user(&base, "ruby", PASSWORD, true).await;
    let onyx_api = Api::user(&base, "onyx", PASSWORD, true).await;
    let (ruby, onyx) = (
        api.team("Team ruby").await,
        onyx_api.team("Team onyx").await,
    );
    let guandan = |entry| ["guandan", "python3", "gd.zip", entry];

    // Act + Assert: no entry, no upload
    let (status, refused) = api.try_upload(&ruby, guandan(""), four_clients()).await;
    assert_eq!(status, 400, "{refused}");
    let message = refused["error"].as_str().unwrap_or_default();
    assert!(
        message.contains("gd/client0.py, gd/client1.py, gd/client2.py, gd/client3.py"),
        "{message}"
    );

    // Act: the chosen clients (over the API, and with `croupier submit --entry`), and the
    // Hanabi class files
    let (status, body) = api
        .try_upload(&ruby, guandan("client0.py"), four_clients())
        .await;
    assert_eq!(status, 201, "{body}");
    let mut ids = vec![body["submission"]["submission_id"]
        .as_str()
        .unwrap()
        .to_owned()];
    let folder = dir.path().join("gd.zip");
    std::fs::write(&folder, four_clients()).unwrap();
    let submitted = croupier()
        .args([
            "submit",
            "--server",
            &base,
            "--token",
            onyx_api.token(),
            "--team",
            &onyx,
        ])
        .args([
            "--game",
            "guandan",
            "--lang",
            "python3",
            "--entry",
            "gd/client3.py",
        ])
        .arg(&folder)
        .output()
        .expect("croupier submit");
    let out = String::from_utf8_lossy(&submitted.stdout);
    assert!(submitted.status.success(), "{out} {submitted:?}");
    let listed = onyx_api
        .get(&format!("/api/v1/teams/{onyx}/submissions"))
        .await;
    let mine = &listed["submissions"][0];
    assert_eq!(mine["entry"], "gd/client3.py", "{listed:#}");
    ids.push(mine["submission_id"].as_str().unwrap().to_owned());
    let hanabi = |entry| ["hanabi", "python3", "bots.py", entry];
    let (_, class) = api
        .try_upload(
            &ruby,
            hanabi("bots.py:cautious(0.3)"),
            origin_bots().into_bytes(),
        )
        .await;
    let no_player = origin_bots()
        .replace("class player(basePlayer)", "class console(basePlayer)")
        .replace("class careful(player)", "class careful(console)");
    let (_, ambiguous) = onyx_api
        .try_upload(&onyx, hanabi(""), no_player.into_bytes())
        .await;

    // Assert: built and validated (one game against the built-in bots each)
    api.wait_ready(&ids[0]).await;
    onyx_api.wait_ready(&ids[1]).await;
    let class_id = class["submission"]["submission_id"].as_str().unwrap();
    api.wait_ready(class_id).await;
    let shown = api.get(&format!("/api/v1/submissions/{class_id}")).await;
    assert_eq!(shown["submission"]["entry"], "bots.py:cautious(0.3)");
    let failed = onyx_api
        .wait_built(ambiguous["submission"]["submission_id"].as_str().unwrap())
        .await;
    assert_eq!(failed["submission"]["status"], "failed", "{failed:#}");
    let reason = failed["submission"]["failure_reason"]
        .as_str()
        .unwrap_or_default();
    assert!(
        reason.contains("console, careful, cautious") && reason.contains("bots.py:console"),
        "{reason}"
    );

    // Assert: the two folders play a Guandan competition through their chosen clients
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let created = admin
        .post(
            "/api/v1/admin/competitions",
            json!({ "name": "Guandan folders", "game": "guandan", "base_seed": 4,
                    "submissions": ids }),
        )
        .await;
    let id = created["competition"]["competition_id"].as_str().unwrap();
    let board = admin.wait_finished(id, Duration::from_secs(600)).await;
    let progress = &board["competition"]["progress"];
    assert_eq!(progress["failed"], 0, "{board:#}");
    assert!(progress["finished"].as_u64() > Some(0), "{board:#}");
    for row in board["leaderboard"]["rows"].as_array().unwrap() {
        assert_eq!(row["faults"], 0, "the clients play cleanly: {board:#}");
    }
    up.stop().await;
}

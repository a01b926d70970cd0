//! A small typed client for the JSON API, as the CLI and scripts use it.

use std::time::Duration;

use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

use super::bots;
use super::procs::eventually;
use crate::helpers::PASSWORD;

pub struct Api {
    pub base: String,
    client: reqwest::Client,
    token: String,
}

async fn ok_json(resp: reqwest::Response, what: &str) -> Value {
    let status = resp.status();
    let body = resp.text().await.expect("body");
    assert!(status.is_success(), "{what}: {status} {body}");
    serde_json::from_str(&body).expect("json")
}

impl Api {
    /// Signs up (unless `password` already belongs to an existing user) and takes a token.
    pub async fn user(base: &str, username: &str, password: &str, sign_up: bool) -> Api {
        let client = reqwest::Client::new();
        if sign_up {
            let resp = client
                .post(format!("{base}/api/v1/users"))
                .json(&json!({ "username": username, "password": password }))
                .send()
                .await
                .expect("sign up");
            ok_json(resp, "sign up").await;
        }
        let resp = client
            .post(format!("{base}/api/v1/tokens"))
            .json(&json!({ "username": username, "password": password }))
            .send()
            .await
            .expect("token");
        let token = ok_json(resp, "token").await["token"]
            .as_str()
            .expect("token")
            .to_owned();
        Api {
            base: base.to_owned(),
            client,
            token,
        }
    }

    /// The API token, for `croupier submit --token`.
    pub fn token(&self) -> &str {
        &self.token
    }

    pub async fn get(&self, path: &str) -> Value {
        let resp = self
            .client
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .expect("get");
        ok_json(resp, path).await
    }

    /// `GET path`, or `None` when the request fails or is not answered with a success (while
    /// the platform recovers from a fault).
    pub async fn try_get(&self, path: &str) -> Option<Value> {
        let resp = (self.client.get(format!("{}{path}", self.base)))
            .bearer_auth(&self.token)
            .send()
            .await
            .ok()?;
        if !resp.status().is_success() {
            return None;
        }
        resp.json().await.ok()
    }

    pub async fn post(&self, path: &str, body: Value) -> Value {
        let resp = self
            .client
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .expect("post");
        ok_json(resp, path).await
    }

    /// Creates a team and uploads one bot for it; returns the submission id.
    pub async fn team_with_bot(
        &self,
        team: &str,
        language: &str,
        filename: &str,
        source: Vec<u8>,
    ) -> String {
        let team_id = self.team(team).await;
        self.upload(&team_id, "nothanks", language, filename, source)
            .await
    }

    /// Creates a team named `team`; returns its id.
    /// As an admin: a `game` ladder named `name` with the smallest budget (1 match an hour, 1
    /// pending), for tests that play challenges in it; its id.
    pub async fn small_ladder(&self, name: &str, game: &str) -> String {
        let created = self
            .post(
                "/api/v1/admin/competitions",
                json!({ "name": name, "game": game, "kind": "ladder",
                        "ladder": { "matches_per_hour": 1, "max_pending": 1 } }),
            )
            .await;
        created["competition"]["competition_id"]
            .as_str()
            .expect("id")
            .to_owned()
    }

    pub async fn team(&self, team: &str) -> String {
        let created = self.post("/api/v1/teams", json!({ "name": team })).await;
        created["team"]["team_id"]
            .as_str()
            .expect("team id")
            .to_owned()
    }

    /// Uploads a bot for `game` to the team; returns the submission id.
    pub async fn upload(
        &self,
        team_id: &str,
        game: &str,
        language: &str,
        filename: &str,
        source: Vec<u8>,
    ) -> String {
        let (status, body) = self
            .try_upload(team_id, [game, language, filename, ""], source)
            .await;
        assert!(status.is_success(), "upload: {status} {body}");
        body["submission"]["submission_id"]
            .as_str()
            .expect("id")
            .to_owned()
    }

    /// Uploads `source` with the fields `[game, language, filename, entry]`; returns the
    /// status and the JSON answer, whatever they are.
    pub async fn try_upload(
        &self,
        team_id: &str,
        [game, language, filename, entry]: [&str; 4],
        source: Vec<u8>,
    ) -> (reqwest::StatusCode, Value) {
        let form = Form::new()
            .text("game", game.to_owned())
            .text("language", language.to_owned())
            .text("entry", entry.to_owned())
            .part("file", Part::bytes(source).file_name(filename.to_owned()));
        let resp = self
            .client
            .post(format!("{}/api/v1/teams/{team_id}/submissions", self.base))
            .bearer_auth(&self.token)
            .multipart(form)
            .send()
            .await
            .expect("upload");
        let status = resp.status();
        let body = resp.text().await.expect("body");
        (status, serde_json::from_str(&body).expect("json"))
    }

    /// Waits until the submission is compiled and validated; panics with its log if it failed.
    pub async fn wait_ready(&self, submission_id: &str) {
        let last = self.wait_built(submission_id).await;
        assert_eq!(
            last["submission"]["status"], "ready",
            "submission {submission_id}: {last:#}"
        );
    }

    /// Waits until the submission is `ready` or `failed`; returns it.
    pub async fn wait_built(&self, submission_id: &str) -> Value {
        eventually(
            Duration::from_secs(180),
            "the submission to be compiled and validated",
            || async {
                let s = self
                    .get(&format!("/api/v1/submissions/{submission_id}"))
                    .await;
                let status = s["submission"]["status"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                matches!(status.as_str(), "ready" | "failed").then_some(s)
            },
        )
        .await
    }

    /// Waits until no match of the competition is queued or running; returns the leaderboard.
    pub async fn wait_finished(&self, competition_id: &str, limit: Duration) -> Value {
        eventually(
            limit,
            "every match of the competition to finish",
            || async {
                let board = self
                    .get(&format!(
                        "/api/v1/competitions/{competition_id}/leaderboard"
                    ))
                    .await;
                let p = &board["competition"]["progress"];
                (p["queued"] == 0 && p["running"] == 0).then_some(board)
            },
        )
        .await
    }
}

/// Three teams (ann, bob, cyd) with ready No Thanks bots: the Python kit, the C kit and a slow
/// Python bot (so that matches last a few seconds).
pub async fn three_ready_bots(base: &str) {
    let a = Api::user(base, "ann", PASSWORD, true).await;
    let b = Api::user(base, "bob", PASSWORD, true).await;
    let c = Api::user(base, "cyd", PASSWORD, true).await;
    let ids = [
        (
            &a,
            a.team_with_bot("Ants", "python3", "bot.py", bots::python_kit())
                .await,
        ),
        (
            &b,
            b.team_with_bot("Bees", "c", "bot.c", bots::c_kit()).await,
        ),
        (
            &c,
            c.team_with_bot("Cows", "python3", "bot.py", bots::python_slow(0.08))
                .await,
        ),
    ];
    for (api, id) in &ids {
        api.wait_ready(id).await;
    }
}

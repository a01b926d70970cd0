//! `croupier` as a client of a hosted Croupier platform, on its JSON API (`/api/v1`): `login`
//! keeps a token ([`credentials`]); `submit` uploads a bot; `submissions` and `matches` list
//! the team's; `replay` and `logs` download a match's replay and a seat's log; `leaderboard`
//! shows a competition's standings (or lists the competitions); `challenge` starts one.
//!
//! Every command takes `--server` and `--token` (or `CROUPIER_SERVER`, `CROUPIER_TOKEN`), else
//! the saved login. [`Remote`] holds the connection and turns the API's errors
//! (`{"error": …}`) into messages naming the server's words and the HTTP status.

pub mod challenge;
pub mod credentials;
pub mod login;
pub mod matches;
pub mod standings;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde_json::Value;

/// Where the platform is and who asks: flags, environment, or the saved login.
#[derive(Args, Debug, Clone, Default)]
pub struct ServerArgs {
    /// The Croupier server, e.g. https://croupier.example.org (default: the saved login's).
    #[arg(long, env = "CROUPIER_SERVER")]
    pub server: Option<String>,
    /// An API token (default: the saved login's; `croupier login` makes one, and so does your
    /// team's page).
    #[arg(long, env = "CROUPIER_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
}

/// A connection to a platform's API.
pub struct Remote {
    pub client: reqwest::Client,
    /// `https://host`, without a trailing slash.
    pub base: String,
    token: Option<String>,
}

impl Remote {
    /// The platform the flags name (or the saved login's), with a token when `need_token`
    /// (an anonymous connection otherwise, unless a token is at hand).
    pub fn open(args: &ServerArgs, need_token: bool) -> Result<Remote> {
        let saved = credentials::load()?;
        let server = args
            .server
            .clone()
            .filter(|s| !s.trim().is_empty())
            .or_else(|| saved.as_ref().map(|c| c.server.clone()))
            .ok_or_else(|| {
                anyhow!(
                    "which platform? run `croupier login --server URL` once, or pass --server URL"
                )
            })?;
        let base = normalize(&server)?;
        // A saved token is for its own server only.
        let token = args
            .token
            .clone()
            .filter(|t| !t.trim().is_empty())
            .or_else(|| {
                saved
                    .filter(|c| normalize(&c.server).ok().as_deref() == Some(base.as_str()))
                    .map(|c| c.token)
            });
        if need_token && token.is_none() {
            bail!("not logged in to {base}: run `croupier login --server {base}`, or pass --token");
        }
        Ok(Remote {
            client: reqwest::Client::builder().build()?,
            base,
            token,
        })
    }

    /// A connection to `base` with `token` (for `login`, before anything is saved).
    pub fn with_token(base: &str, token: Option<String>) -> Result<Remote> {
        Ok(Remote {
            client: reqwest::Client::builder().build()?,
            base: normalize(base)?,
            token,
        })
    }

    /// `{base}/api/v1{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.base)
    }

    /// Sends `request` (with the token, when there is one) and returns the successful response.
    pub async fn send(&self, request: reqwest::RequestBuilder) -> Result<reqwest::Response> {
        let request = match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        };
        let resp = request
            .send()
            .await
            .with_context(|| format!("cannot reach {}", self.base))?;
        if !resp.status().is_success() {
            return Err(api_error(resp).await);
        }
        Ok(resp)
    }

    /// `GET /api/v1{path}` as JSON.
    pub async fn get(&self, path: &str) -> Result<Value> {
        let resp = self.send(self.client.get(self.url(path))).await?;
        Ok(resp.json().await?)
    }

    /// `POST /api/v1{path}` with a JSON body, answered in JSON.
    pub async fn post(&self, path: &str, body: &Value) -> Result<Value> {
        let resp = self
            .send(self.client.post(self.url(path)).json(body))
            .await?;
        Ok(resp.json().await?)
    }

    /// The team a command acts for: `team` when given, else the token's team, else the
    /// caller's only team.
    pub async fn team(&self, team: Option<&str>) -> Result<String> {
        if let Some(team) = team.filter(|t| !t.trim().is_empty()) {
            return Ok(team.trim().to_owned());
        }
        let me = self.get("/me").await?;
        if let Some(team) = me.get("token_team_id").and_then(Value::as_str) {
            return Ok(team.to_owned());
        }
        match me.get("teams").and_then(Value::as_array).map(Vec::as_slice) {
            Some([only]) => only
                .get("team_id")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| anyhow!("unexpected answer from the server")),
            Some([]) | None => {
                bail!("you are not in a team yet: create or join one on the website first")
            }
            Some(_) => bail!("you are in several teams: choose one with --team TEAM_ID"),
        }
    }
}

/// `http://host:port` from what a person typed: a scheme is required, a trailing `/` dropped.
pub fn normalize(server: &str) -> Result<String> {
    let server = server.trim().trim_end_matches('/');
    let url = reqwest::Url::parse(server).map_err(|e| {
        anyhow!(
            "{server:?} is not a server address ({e}): expected e.g. https://croupier.example.org"
        )
    })?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        bail!("{server:?} is not a server address: expected e.g. https://croupier.example.org");
    }
    Ok(server.to_owned())
}

/// The API's error (`{"error": "..."}`) with its status, or the body as it came.
pub async fn api_error(resp: reqwest::Response) -> anyhow::Error {
    let status = resp.status();
    let body = resp.text().await.unwrap_or_default();
    let message = serde_json::from_str::<Value>(&body)
        .ok()
        .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or(body);
    anyhow!("the server refused ({status}): {message}")
}

/// `s` cut to `width` characters (with `…`), for table cells.
pub fn cell(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_owned()
    } else {
        let mut cut: String = s.chars().take(width.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_address_needs_a_scheme_and_loses_its_trailing_slash() {
        assert_eq!(
            normalize(" http://127.0.0.1:8080/ ").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            normalize("https://croupier.example.org").unwrap(),
            "https://croupier.example.org"
        );
        for bad in ["127.0.0.1:8080", "croupier.example.org", "ftp://x", ""] {
            let e = normalize(bad).unwrap_err().to_string();
            assert!(e.contains("not a server address"), "{bad}: {e}");
        }
    }

    #[test]
    fn long_cells_are_cut_with_an_ellipsis() {
        assert_eq!(cell("abc", 5), "abc");
        assert_eq!(cell("abcdefgh", 5), "abcd…");
    }
}

//! `croupier submit`: upload a bot through the JSON API (`POST
//! /api/v1/teams/{team}/submissions`), with the saved login ([`crate::remote`]) or
//! `--server` / `--token`.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use croupier_bundle::Language;
use reqwest::multipart::{Form, Part};
use serde_json::Value;

use crate::remote::{Remote, ServerArgs};

#[derive(Args, Debug)]
pub struct SubmitArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// nothanks, splendor, hanabi, guandan or bridge.
    #[arg(long)]
    pub game: String,
    /// python3, c, cpp or binary.
    #[arg(long = "lang")]
    pub language: Language,
    /// Team id; defaults to the token's team, or your only team.
    #[arg(long)]
    pub team: Option<String>,
    /// A short label shown next to the version, e.g. "greedy v2".
    #[arg(long, default_value = "")]
    pub label: String,
    /// The entry point, when the upload has several candidates: the file that starts the bot
    /// (`client0.py`, `gd/client2.py`), and for a Hanabi class bot the class and its arguments
    /// (Python literals): `player.py:cautious(0.3)`.
    #[arg(long, default_value = "")]
    pub entry: String,
    /// The rule set the bot is for, which its validation game plays (`rainbow`); default: the
    /// rule set of the game's newest open competition, else the game's first.
    #[arg(long, default_value = "")]
    pub rules: String,
    /// The number of players the bot is for, where the rule set lets it be chosen (Hanabi
    /// 2–5, No Thanks 3–7); default: the newest open competition's, else the rule set's own.
    #[arg(long)]
    pub players: Option<u32>,
    /// Wait until the bot is built and validated, and print the verdict: `ready` (with any
    /// faults its validation game saw) or `failed` and why. Exits non-zero when it failed.
    #[arg(long)]
    pub wait: bool,
    /// The bot: a single file, a .zip or a .tar.gz.
    pub path: PathBuf,
}

pub async fn run(args: SubmitArgs) -> Result<()> {
    let bytes = std::fs::read(&args.path)
        .with_context(|| format!("cannot read {}", args.path.display()))?;
    let filename = args
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| anyhow!("{} has no usable file name", args.path.display()))?
        .to_owned();
    let remote = Remote::open(&args.server, true)?;
    let team = remote.team(args.team.as_deref()).await?;
    let form = Form::new()
        .text("game", args.game)
        .text("language", args.language.as_str())
        .text("label", args.label)
        .text("entry", args.entry)
        .text("rules", args.rules)
        .text(
            "players",
            args.players.map_or_else(String::new, |n| n.to_string()),
        )
        .part("file", Part::bytes(bytes).file_name(filename));
    let request = remote
        .client
        .post(remote.url(&format!("/teams/{team}/submissions")))
        .multipart(form);
    let body: Value = remote.send(request).await?.json().await?;
    let sub = &body["submission"];
    let files = body["files"].as_array().map_or(0, Vec::len);
    println!(
        "uploaded {} bot version {} ({} file{}), status {}",
        sub["game"].as_str().unwrap_or("?"),
        sub["version"],
        files,
        if files == 1 { "" } else { "s" },
        sub["status"].as_str().unwrap_or("?"),
    );
    println!("validation game: {}", table(sub));
    let id = sub["submission_id"].as_str().unwrap_or("?").to_owned();
    println!("{}/submissions/{id}", remote.base);
    if !args.wait {
        return Ok(());
    }
    let done = wait_validated(&remote, &id).await?;
    print!("{}", verdict(&done));
    if done["status"] == "failed" {
        bail!("the bot failed its build or validation game");
    }
    Ok(())
}

/// `rainbow, 3 players, seed 123` (the players only where the upload chose them).
fn table(sub: &Value) -> String {
    let mut parts = vec![sub["rules"].as_str().unwrap_or("?").to_owned()];
    if let Some(n) = sub["players"].as_i64() {
        parts.push(format!("{n} players"));
    }
    parts.push(format!("seed {}", sub["validation_seed"]));
    parts.join(", ")
}

/// Polls the submission until it is `ready` or `failed`.
async fn wait_validated(remote: &Remote, id: &str) -> Result<Value> {
    loop {
        let body = remote.get(&format!("/submissions/{id}")).await?;
        let sub = &body["submission"];
        if matches!(sub["status"].as_str(), Some("ready" | "failed")) {
            return Ok(sub.clone());
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}

/// The verdict as printed: the status, then the failure's reason or the warning's faults.
fn verdict(sub: &Value) -> String {
    let mut out = format!("status {}\n", sub["status"].as_str().unwrap_or("?"));
    if let Some(reason) = sub["failure_reason"].as_str() {
        out.push_str(&format!("reason: {reason}\n"));
    }
    let warning = &sub["validation_warning"];
    if let Some(faults) = warning["faults"].as_u64() {
        let kinds: Vec<String> = (warning["kinds"].as_array().into_iter().flatten())
            .map(|k| format!("{} × {}", k["kind"].as_str().unwrap_or("?"), k["count"]))
            .collect();
        out.push_str(&format!(
            "warning: {faults} fault{} in the validation game, played on after: {}\n",
            if faults == 1 { "" } else { "s" },
            kinds.join(", ")
        ));
        for reason in
            (warning["reasons"].as_array().into_iter().flatten()).filter_map(Value::as_str)
        {
            out.push_str(&format!("  {reason}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Submit {
        #[command(flatten)]
        args: SubmitArgs,
    }

    fn parse(lang: &str) -> Result<Language, String> {
        let argv = [
            "submit", "--server", "http://x", "--token", "t", "--game", "nothanks",
        ];
        Submit::try_parse_from(argv.into_iter().chain(["--lang", lang, "bot.py"]))
            .map(|s| s.args.language)
            .map_err(|e| e.to_string())
    }

    /// `--lang` is one of the server's languages, checked before anything is sent.
    #[test]
    fn the_language_is_one_of_the_platforms_before_anything_is_uploaded() {
        for l in Language::ALL {
            assert_eq!(parse(l.as_str()), Ok(l));
        }
        let err = parse("python").unwrap_err();
        assert!(
            err.contains("unknown language \"python\": expected one of python3, c, cpp, binary"),
            "{err}"
        );
    }
}

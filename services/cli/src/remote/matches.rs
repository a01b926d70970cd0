//! A team's bots and matches on the platform: `croupier submissions` (`GET
//! /api/v1/teams/{team}/submissions`), `croupier matches` (`GET /api/v1/matches?team=…`, or a
//! submission's or a competition's), `croupier replay ID` (`GET …/matches/{id}/replay`, the
//! document `croupier play --replay` re-checks) and `croupier logs ID SEAT` (`GET
//! …/matches/{id}/seats/{seat}/log`, a seat's verdict and stderr, for the seat's own team).

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::Value;

use super::{cell, Remote, ServerArgs};

#[derive(Args, Debug)]
pub struct SubmissionsArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The team (its id); default: the token's team, or your only team.
    #[arg(long)]
    pub team: Option<String>,
    /// Print the API's JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct MatchesArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The matches of this team (its id); default: yours (the token's team, or your only team).
    #[arg(long, conflicts_with_all = ["submission", "competition"])]
    pub team: Option<String>,
    /// The matches of this submission (its id).
    #[arg(long, conflicts_with = "competition")]
    pub submission: Option<String>,
    /// The matches of this competition (its id).
    #[arg(long)]
    pub competition: Option<String>,
    /// Only a submission's wins, losses or faults (with --submission).
    #[arg(long, requires = "submission", value_parser = ["win", "loss", "fault"])]
    pub result: Option<String>,
    /// The page (from 1, newest first).
    #[arg(long, default_value_t = 1)]
    pub page: u32,
    /// Matches per page (1 to 100).
    #[arg(long, default_value_t = 20)]
    pub per_page: u32,
    /// Print the API's JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The match's id.
    pub match_id: String,
    /// Where to write the replay (default: match-ID.json; `-` for stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct LogsArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The match's id.
    pub match_id: String,
    /// The seat (from 0, as the match page numbers them).
    pub seat: u32,
    /// Print the API's JSON (with every move's time) instead of the verdict and the stderr.
    #[arg(long)]
    pub json: bool,
}

pub async fn submissions(args: SubmissionsArgs) -> Result<()> {
    let remote = Remote::open(&args.server, true)?;
    let team = remote.team(args.team.as_deref()).await?;
    let body = remote.get(&format!("/teams/{team}/submissions")).await?;
    if args.json {
        println!("{body}");
        return Ok(());
    }
    let list = body["submissions"].as_array().cloned().unwrap_or_default();
    if list.is_empty() {
        println!("no submissions yet: upload one with `croupier submit`");
        return Ok(());
    }
    println!(
        "{:<36}  {:<9} {:>4}  {:<8} {:<8} label",
        "submission", "game", "ver", "language", "status"
    );
    for s in &list {
        println!(
            "{:<36}  {:<9} {:>4}  {:<8} {:<8} {}",
            text(&s["submission_id"]),
            text(&s["game"]),
            text(&s["version"]),
            text(&s["language"]),
            text(&s["status"]),
            cell(&text(&s["label"]), 30),
        );
    }
    Ok(())
}

pub async fn matches(args: MatchesArgs) -> Result<()> {
    let remote = Remote::open(&args.server, args.competition.is_none())?;
    let mut query = match (&args.submission, &args.competition) {
        (Some(s), _) => format!("submission={}", s.trim()),
        (None, Some(c)) => format!("competition={}", c.trim()),
        (None, None) => format!("team={}", remote.team(args.team.as_deref()).await?),
    };
    if let Some(r) = &args.result {
        query.push_str(&format!("&result={r}"));
    }
    query.push_str(&format!("&page={}&per_page={}", args.page, args.per_page));
    let body = remote.get(&format!("/matches?{query}")).await?;
    if args.json {
        println!("{body}");
        return Ok(());
    }
    let list = body["matches"].as_array().cloned().unwrap_or_default();
    println!(
        "{} match{} in all; page {} ({} per page), newest first",
        body["total"],
        if body["total"] == 1 { "" } else { "es" },
        body["page"],
        body["per_page"]
    );
    if list.is_empty() {
        return Ok(());
    }
    println!(
        "{:<36}  {:<9} {:<9}  seats (rank, score, end)",
        "match", "game", "status"
    );
    for m in &list {
        println!(
            "{:<36}  {:<9} {:<9}  {}",
            text(&m["match_id"]),
            text(&m["game"]),
            text(&m["status"]),
            seats(&m["seats"])
        );
    }
    Ok(())
}

/// `0 team-a v2 #1 12 ok · 1 builtin:random #2 3 ok`.
fn seats(seats: &Value) -> String {
    let list: Vec<String> = (seats.as_array().into_iter().flatten())
        .map(|s| {
            let who = match (&s["team_name"], &s["builtin"], &s["person"]) {
                (Value::String(team), _, _) => format!("{team} v{}", text(&s["version"])),
                (_, Value::String(b), _) => format!("builtin:{b}"),
                (_, _, Value::String(p)) => p.clone(),
                _ => "?".to_owned(),
            };
            let mut out = format!("{} {}", text(&s["seat"]), cell(&who, 24));
            if !s["rank"].is_null() {
                out.push_str(&format!(" #{}", text(&s["rank"])));
            }
            if !s["score"].is_null() {
                out.push_str(&format!(" {}", text(&s["score"])));
            }
            if !s["end_state"].is_null() {
                out.push_str(&format!(" {}", text(&s["end_state"])));
            }
            out
        })
        .collect();
    list.join(" · ")
}

/// A JSON value as a table shows it: strings without quotes, `-` for null.
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_owned(),
        other => other.to_string(),
    }
}

pub async fn replay(args: ReplayArgs) -> Result<()> {
    // A public match's replay needs no login.
    let remote = Remote::open(&args.server, false)?;
    let id = args.match_id.trim();
    let resp = remote
        .send(
            remote
                .client
                .get(remote.url(&format!("/matches/{id}/replay"))),
        )
        .await?;
    let bytes = resp.bytes().await?;
    let output = args
        .output
        .unwrap_or_else(|| PathBuf::from(format!("match-{id}.json")));
    write_out(&output, &bytes)?;
    if output.as_os_str() != "-" {
        println!(
            "replay of match {id} written to {} ({} bytes); check it with `croupier play --replay {}`",
            output.display(),
            bytes.len(),
            output.display()
        );
    }
    Ok(())
}

pub async fn logs(args: LogsArgs) -> Result<()> {
    let remote = Remote::open(&args.server, true)?;
    let id = args.match_id.trim();
    let log = remote
        .get(&format!("/matches/{id}/seats/{}/log", args.seat))
        .await?;
    if args.json {
        println!("{log}");
        return Ok(());
    }
    println!(
        "match {id}, seat {}: {} v{}, rank {}, score {}, end {}{}, {} moves, {} ms CPU, {} KiB peak memory",
        args.seat,
        text(&log["team_name"]),
        text(&log["version"]),
        text(&log["rank"]),
        text(&log["score"]),
        text(&log["end_state"]),
        log["end_detail"]
            .as_str()
            .map(|d| format!(" ({d})"))
            .unwrap_or_default(),
        text(&log["moves"]),
        text(&log["cpu_ms"]),
        text(&log["max_rss_kb"]),
    );
    let stderr = log["stderr"].as_str().unwrap_or_default();
    if stderr.is_empty() {
        println!("(the bot wrote nothing on stderr)");
    } else {
        println!("--- stderr ---");
        print!("{stderr}");
        if !stderr.ends_with('\n') {
            println!();
        }
    }
    Ok(())
}

/// Writes `bytes` to `path`, or to stdout for `-`.
fn write_out(path: &PathBuf, bytes: &[u8]) -> Result<()> {
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        return Ok(out.flush()?);
    }
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

//! `croupier leaderboard`: a competition's standings (`GET
//! /api/v1/competitions/{id}/leaderboard`), or without an id the competitions to choose from
//! (`GET /api/v1/competitions`). Both are public: no login needed.

use anyhow::Result;
use clap::Args;
use serde_json::Value;

use super::matches::text;
use super::{cell, Remote, ServerArgs};

#[derive(Args, Debug)]
pub struct LeaderboardArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The competition's id (without it: the competitions, newest first).
    pub competition: Option<String>,
    /// Without an id: only this game's competitions.
    #[arg(long)]
    pub game: Option<String>,
    /// Print the API's JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub async fn run(args: LeaderboardArgs) -> Result<()> {
    let remote = Remote::open(&args.server, false)?;
    let Some(id) = args.competition.as_deref().map(str::trim) else {
        return competitions(&remote, args.game.as_deref(), args.json).await;
    };
    let body = remote
        .get(&format!("/competitions/{id}/leaderboard"))
        .await?;
    if args.json {
        println!("{body}");
        return Ok(());
    }
    let c = &body["competition"];
    let board = &body["leaderboard"];
    println!(
        "{} ({}, rules {}): {}, {} finished match{}, ranked by {}",
        text(&c["name"]),
        text(&c["game"]),
        text(&c["rules"]),
        text(&c["status"]),
        board["matches"],
        if board["matches"] == 1 { "" } else { "es" },
        text(&board["metric"])
    );
    let rows = board["rows"].as_array().cloned().unwrap_or_default();
    if rows.is_empty() {
        println!("no entries yet");
        return Ok(());
    }
    println!(
        "{:>4}  {:<28} {:>6} {:>10} {:>6} {:>6}  submission",
        "#", "team (version)", "games", "metric", "wins", "faults"
    );
    for r in &rows {
        let who = format!("{} v{}", text(&r["team_name"]), text(&r["version"]));
        println!(
            "{:>4}  {:<28} {:>6} {:>10} {:>6} {:>6}  {}",
            text(&r["position"]),
            cell(&who, 28),
            text(&r["games"]),
            r["metric"]
                .as_f64()
                .map_or_else(|| "-".to_owned(), |m| format!("{m:.2}")),
            text(&r["wins"]),
            text(&r["faults"]),
            text(&r["submission_id"]),
        );
    }
    Ok(())
}

async fn competitions(remote: &Remote, game: Option<&str>, json: bool) -> Result<()> {
    let body = remote.get("/competitions").await?;
    let list: Vec<&Value> = (body["competitions"].as_array().into_iter().flatten())
        .filter(|c| game.is_none_or(|g| c["game"] == g.trim()))
        .collect();
    if json {
        println!(
            "{}",
            serde_json::Value::Array(list.into_iter().cloned().collect())
        );
        return Ok(());
    }
    if list.is_empty() {
        println!("no competitions yet");
        return Ok(());
    }
    println!("{:<36}  {:<9} {:<10} name", "competition", "game", "status");
    for c in list {
        println!(
            "{:<36}  {:<9} {:<10} {}",
            text(&c["competition_id"]),
            text(&c["game"]),
            text(&c["status"]),
            text(&c["name"])
        );
    }
    println!("\nits standings: croupier leaderboard COMPETITION_ID");
    Ok(())
}

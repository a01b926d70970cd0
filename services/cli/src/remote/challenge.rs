//! `croupier challenge`: an unrated challenge in a competition (`POST
//! /api/v1/competitions/{id}/challenges`): the team's own ready bots and built-in bots at one
//! table, one `--seat` per seat, played by the platform's workers; `--wait` follows it (`GET
//! /api/v1/challenges/{id}`) until its matches are over and prints each participant's score.

use anyhow::{bail, Result};
use clap::Args;
use serde_json::{json, Value};

use super::matches::text;
use super::{Remote, ServerArgs};

#[derive(Args, Debug)]
pub struct ChallengeArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The competition's id (its game, rule set and entries; `croupier leaderboard` lists them).
    pub competition: String,
    /// One per seat, in seat order: a submission's id (your team's ready bot, or an entry of
    /// the competition) or `builtin:NAME`.
    #[arg(
        long = "seat",
        value_name = "SUBMISSION_ID|builtin:NAME",
        required = true
    )]
    pub seats: Vec<String>,
    /// Duplicate groups to play (each the seating and its rotations on one seed).
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// The asking team (its id); default: the token's team, or your only team.
    #[arg(long)]
    pub team: Option<String>,
    /// Wait until every match is over and print the scores.
    #[arg(long)]
    pub wait: bool,
    /// Print the API's JSON instead of a summary.
    #[arg(long)]
    pub json: bool,
}

/// A `--seat` as the API takes it.
fn seat(spec: &str) -> Value {
    let spec = spec.trim();
    match spec.strip_prefix("builtin:") {
        Some(name) => json!({ "builtin": name }),
        None => json!({ "submission_id": spec.strip_prefix("submission:").unwrap_or(spec) }),
    }
}

pub async fn run(args: ChallengeArgs) -> Result<()> {
    let remote = Remote::open(&args.server, true)?;
    let team = remote.team(args.team.as_deref()).await?;
    let body = json!({
        "team_id": team,
        "seats": args.seats.iter().map(|s| seat(s)).collect::<Vec<_>>(),
        "games": args.games,
    });
    let competition = args.competition.trim();
    let mut report = remote
        .post(&format!("/competitions/{competition}/challenges"), &body)
        .await?;
    let id = text(&report["challenge"]["challenge_id"]);
    if !args.json {
        println!(
            "challenge {id}: {} match{} queued\n{}{}",
            count(&report),
            if count(&report) == 1 { "" } else { "es" },
            remote.base,
            text(&report["page"])
        );
    }
    if args.wait {
        while report["done"] != true {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            report = remote.get(&format!("/challenges/{id}")).await?;
        }
        if !args.json {
            print!("{}", summary(&report));
        }
    }
    if args.json {
        println!("{report}");
    }
    if args.wait && report["matches"]["finished"] == 0 {
        bail!("no match of the challenge finished");
    }
    Ok(())
}

/// The challenge's matches in all states.
fn count(report: &Value) -> u64 {
    ["queued", "running", "finished", "failed", "cancelled"]
        .iter()
        .filter_map(|k| report["matches"][k].as_u64())
        .sum()
}

/// Each participant's games, mean score, wins and faults.
fn summary(report: &Value) -> String {
    let m = &report["matches"];
    let mut out = format!(
        "over: {} finished, {} failed, {} cancelled\n",
        m["finished"], m["failed"], m["cancelled"]
    );
    for p in report["participants"].as_array().into_iter().flatten() {
        let who = match (&p["submission_id"], &p["builtin"], &p["person"]) {
            (Value::String(s), _, _) => s.clone(),
            (_, Value::String(b), _) => format!("builtin:{b}"),
            (_, _, Value::String(person)) => person.clone(),
            _ => "?".to_owned(),
        };
        let mean = p["score"]["mean"]
            .as_f64()
            .map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"));
        out.push_str(&format!(
            "  {who:<38} games {:>3}  mean score {mean:>8}  wins {:>3}  faults {:>3}\n",
            p["games"], p["wins"], p["faults"]
        ));
    }
    out
}

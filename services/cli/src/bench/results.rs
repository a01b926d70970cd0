//! `bench results`: what recording one match result costs, leaderboard update included, on a
//! competition of any size (`scripts/bench/leaderboard` seeds one with 1,000,000 matches).
//!
//! For each of `--runs` runs, one No Thanks match between three of the competition's entries is
//! inserted and marked running (not timed); then the worker's result transaction is timed:
//! `matches::record_result` (seat results, replay blob, `finished`) and
//! `croupier_board::record` (the entrants' standings, ratings and history points), committed.
//! The matches stay in the competition (they count on its board like any other).

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use croupier_store::matches::{self, NewMatch, NewSeatResult, SeatRef};
use croupier_store::{competitions, EndState};
use uuid::Uuid;

use crate::settings::DbArgs;

pub async fn run(db: &DbArgs, competition_id: Uuid, runs: usize) -> Result<()> {
    let pool = croupier_store::connect(db.require()?, 2)
        .await
        .context("cannot connect to DATABASE_URL")?;
    let c = competitions::get(&pool, competition_id).await?;
    let entries = competitions::entries(&pool, competition_id).await?;
    if c.game != "nothanks" || entries.len() < 3 {
        bail!("bench results needs a No Thanks competition with at least 3 entries");
    }
    let mut samples = Vec::with_capacity(runs);
    // Per run: `matches::record_result`, `croupier_board::record`, the commit.
    let mut phases: [Vec<Duration>; 3] = Default::default();
    let first = i32::try_from(c.progress.total()).unwrap_or(i32::MAX);
    for i in 0..runs {
        let pick = |k: usize| entries[(i * 7 + k * 13) % entries.len()].submission_id;
        let seats = [pick(0), pick(1), pick(2)];
        if seats[0] == seats[1] || seats[1] == seats[2] || seats[0] == seats[2] {
            continue;
        }
        let mut tx = pool.begin().await?;
        let planned = NewMatch {
            ordinal: first.saturating_add(i32::try_from(i).unwrap_or(i32::MAX)),
            game: "nothanks".into(),
            rules: c.rules.clone(),
            seed: i as u64,
            settings: serde_json::json!({}),
            seats: seats.iter().map(|s| SeatRef::Submission(*s)).collect(),
            duplicate_set: None,
        };
        let ids = matches::create_many(&mut tx, competition_id, &[planned]).await?;
        let id = ids[0];
        sqlx::query("update match set status = 'running', started_at = now() where match_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        let results: Vec<NewSeatResult> = (0..3)
            .map(|seat| NewSeatResult {
                seat,
                rank: seat + 1,
                score: f64::from(10 * seat + i32::try_from(i % 5).unwrap_or(0)),
                end_state: EndState::Ok,
                end_detail: None,
                moves: 40,
                cpu_ms: 12,
                max_rss_kb: 9000,
                timings: serde_json::json!([]),
                stderr_tail: Vec::new(),
                move_log: Vec::new(),
                game_scores: Vec::new(),
            })
            .collect();
        let replay = format!("{{\"bench\": {i}}}");
        let started = Instant::now();
        let mut tx = pool.begin().await?;
        if !matches::record_result(&mut tx, id, &results, replay.as_bytes()).await? {
            bail!("match {id} was not running");
        }
        let recorded = Instant::now();
        croupier_board::record(&mut tx, id).await?;
        let boarded = Instant::now();
        tx.commit().await?;
        samples.push(started.elapsed());
        phases[0].push(recorded - started);
        phases[1].push(boarded - recorded);
        phases[2].push(boarded.elapsed());
    }
    let mut samples: Vec<Duration> = samples;
    println!(
        "results: recording one result with its leaderboard update, {} finished matches before: {}",
        c.progress.finished,
        super::summary(&mut samples)
    );
    for (name, phase) in ["the result itself", "the board's update", "commit"]
        .iter()
        .zip(&mut phases)
    {
        println!("  of which {name}: {}", super::summary(phase));
    }
    Ok(())
}

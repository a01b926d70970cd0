//! The match job: load the match and its seats, unpack the artifacts (cached), play it with the
//! referee, and write seat results, replay and `finished` in one fenced transaction.
//!
//! A `cancelled` match is completed without being played. A seat's crash, timeout or illegal
//! move is a result; a sandbox that cannot start or a retryable referee error is a platform
//! fault and the match is retried (and failed, never counted, after the last attempt). A match
//! that cannot be played anywhere (an invalid spec: unknown built-in bot, bad settings; a game
//! without an adapter) is failed at once, without retries.

use std::collections::HashSet;

use croupier_games::GameId;
use croupier_referee::{MatchSpec, SeatSpec};
use croupier_store::jobs::{self, Claimed};
use croupier_store::matches::{self, RunSeat};
use croupier_store::StoreError;

use crate::outcome::{replay_json, seat_row, setup_error};
use crate::worker::{Done, Worker};

pub(crate) async fn run(w: &Worker, job: &Claimed) -> Result<Done, StoreError> {
    let Some(match_id) = job.match_id else {
        return Ok(Done::Fatal("match job without a match".into()));
    };
    let m = matches::get(&w.pool, match_id).await?;
    if m.status == "cancelled" {
        tracing::info!("the match was cancelled: not playing it");
        return w.complete_bare(job, "cancelled").await;
    }
    let game: GameId = match m.game.parse() {
        Ok(g) => g,
        Err(e) => return Ok(Done::Fatal(e.to_string())),
    };
    let rows = matches::run_seats(&w.pool, match_id).await?;
    let seats = match seat_specs(w, &rows).await {
        Ok(seats) => seats,
        Err(reason) => return Ok(Done::Platform(reason)),
    };
    let empty = m.settings.as_object().is_some_and(|o| o.is_empty());
    let mut limits = w.cfg.matches.clone();
    limits.move_time = croupier_referee::default_move_time(game);
    let mut games = croupier_referee::default_games(game);
    if let Some(competition_id) = m.competition_id {
        // The organiser's time per move and games per match, when the competition sets them.
        let settings = croupier_store::competitions::settings(&w.pool, competition_id).await?;
        let number = |key: &str| settings.get(key).and_then(serde_json::Value::as_u64);
        if let Some(ms) = number("move_time_ms") {
            limits.move_time = std::time::Duration::from_millis(ms);
        }
        if let Some(n) = number("games_per_match").and_then(|n| u32::try_from(n).ok()) {
            games = n.max(1);
        }
    }
    let spec = MatchSpec {
        rules: m.rules.clone(),
        settings: if empty {
            serde_json::Value::Null
        } else {
            m.settings.clone()
        },
        limits,
        games,
        ..MatchSpec::new(game, m.seed_u64(), seats)
    };
    let result = match croupier_referee::play(&w.sandbox, spec).await {
        Ok(result) => result,
        Err(e) if e.is_retryable() => return Ok(Done::Platform(format!("referee: {e}"))),
        Err(e) => return Ok(Done::Fatal(format!("referee: {e}"))),
    };
    if let Some(fault) = setup_error(&result) {
        return Ok(Done::Platform(fault));
    }
    let seat_rows: Vec<_> = (result.seats.iter())
        .map(|s| seat_row(s, &result.games))
        .collect();
    let replay = match replay_json(&result) {
        Ok(bytes) => bytes,
        Err(e) => return Ok(Done::Platform(format!("serializing the replay: {e}"))),
    };
    let mut tx = w.pool.begin().await?;
    if !matches::record_result(&mut tx, match_id, &seat_rows, &replay).await? {
        tx.rollback().await?;
        tracing::info!("the match was cancelled while it ran: dropping its result");
        return w.complete_bare(job, "cancelled").await;
    }
    if !jobs::complete(&mut tx, job.job_id, job.attempt).await? {
        tx.rollback().await?;
        return Ok(Done::LeaseLost);
    }
    tx.commit().await?;
    Ok(Done::Completed("finished"))
}

/// The referee's seats: built-in bots by name, submissions from their cached artifacts, with
/// unique player names (`<team>-v<version>`). `Err` is a platform fault.
async fn seat_specs(w: &Worker, rows: &[RunSeat]) -> Result<Vec<SeatSpec>, String> {
    let mut taken: HashSet<String> = rows.iter().filter_map(|r| r.builtin.clone()).collect();
    let mut seats = Vec::with_capacity(rows.len());
    for r in rows {
        if let Some(name) = &r.builtin {
            seats.push(SeatSpec::builtin(name.clone()));
            continue;
        }
        let (Some(sha), Some(command)) = (&r.artifact_sha256, &r.run_command) else {
            return Err(format!(
                "seat {}: the submission has no build (it is not ready)",
                r.seat
            ));
        };
        let bot_dir = w.cache.dir(&w.pool, sha).await?;
        let base = format!(
            "{}-v{}",
            r.team_name.as_deref().unwrap_or("bot"),
            r.version.unwrap_or(0)
        );
        let mut name = base.clone();
        if taken.contains(&name) {
            name = format!("{base}-{}", r.seat);
        }
        taken.insert(name.clone());
        seats.push(SeatSpec::program(name, bot_dir, command.clone()));
    }
    Ok(seats)
}

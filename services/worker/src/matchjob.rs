//! The match job: load the match and its seats, unpack the artifacts (cached), play it with the
//! referee (people's turns through [`PgDesk`](crate::desk::PgDesk)), and write seat results, replay, `finished` and the leaderboard's update
//! (`croupier_board::record`) in one fenced transaction.
//!
//! A `cancelled` match is completed without being played. A seat's crash, timeout or illegal
//! move is a result; a sandbox that cannot start or a retryable referee error is a platform
//! fault and the match is retried (and failed, never counted, after the last attempt). A match
//! that cannot be played anywhere (an invalid spec: unknown built-in bot, bad settings; a game
//! without an adapter) is failed at once, without retries.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use croupier_games::GameId;
use croupier_league::CompetitionSettings;
use croupier_referee::{HumanDesk, MatchLimits, MatchProgress, MatchSpec, SeatSpec};
use croupier_store::jobs::{self, Claimed};
use croupier_store::matches::{self, RunSeat};
use croupier_store::{MatchStatus, PgPool, StoreError};

use crate::desk::PgDesk;
use crate::lease::AbortOnDrop;
use crate::outcome::{seat_row, setup_error};
use crate::worker::{Done, Outcome, Worker};

pub(crate) async fn run(w: &Worker, job: &Claimed) -> Result<Done, StoreError> {
    let Some(match_id) = job.match_id else {
        return Ok(Done::Fatal("match job without a match".into()));
    };
    let m = matches::get(&w.pool, match_id).await?;
    match m.status {
        MatchStatus::Cancelled => {
            tracing::info!("the match was cancelled: not playing it");
            return w.complete_bare(job, Outcome::Cancelled).await;
        }
        // The claim made it running (a queued one was re-queued by the reaper meanwhile).
        MatchStatus::Queued | MatchStatus::Running => {}
        // Nothing left to do (its result or its failure is already written).
        MatchStatus::Finished | MatchStatus::Failed => {
            tracing::warn!(status = %m.status, "the match is already over: not playing it");
            return w.complete_bare(job, Outcome::AlreadyOver).await;
        }
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
    let empty = m
        .settings
        .as_object()
        .is_some_and(serde_json::Map::is_empty);
    // A challenge plays under its competition's limits, as the competition's own matches do.
    let settings_of = croupier_store::challenges::settings_competition(&w.pool, match_id).await?;
    let settings = match settings_of {
        Some(competition_id) => {
            let stored = croupier_store::competitions::settings(&w.pool, competition_id).await?;
            match CompetitionSettings::from_stored(&stored) {
                Ok(settings) => Some(settings),
                Err(e) => return Ok(Done::Fatal(e.to_string())),
            }
        }
        None => None,
    };
    let (mut limits, games) = match_limits(&w.cfg.matches, game, settings.as_ref());
    // People at the table: their time per move, and the desk their turns go through.
    let person_secs = rows.iter().filter_map(|r| r.human_move_secs).max();
    let desk = person_secs.map(|secs| {
        limits.human_move_time = Duration::from_secs(u64::try_from(secs).unwrap_or(90));
        Arc::new(PgDesk::new(w.pool.clone(), match_id)) as Arc<dyn HumanDesk>
    });
    let progress = Arc::new(MatchProgress::default());
    let spec = MatchSpec {
        progress: Arc::clone(&progress),
        rules: m.rules.clone(),
        settings: if empty {
            serde_json::Value::Null
        } else {
            m.settings.clone()
        },
        limits,
        games,
        desk,
        ..MatchSpec::new(game, m.seed_u64(), seats)
    };
    let published = Arc::new(AtomicBool::new(false));
    let publisher = AbortOnDrop(tokio::spawn(publish_progress(
        w.pool.clone(),
        match_id,
        progress,
        Arc::clone(&published),
    )));
    let played = croupier_referee::play(&w.sandbox, spec).await;
    drop(publisher);
    // Most matches end before their first publication: nothing to forget, no query.
    if published.load(Ordering::Relaxed) {
        if let Err(e) = matches::progress::forget(&w.pool, match_id).await {
            tracing::debug!(error = %e, "forgetting the match's progress");
        }
    }
    let result = match played {
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
    let replay = match result.replay_document() {
        Ok(bytes) => bytes,
        Err(e) => return Ok(Done::Platform(format!("serializing the replay: {e}"))),
    };
    let mut tx = w.pool.begin().await?;
    if !matches::record_result(&mut tx, match_id, &seat_rows, &replay).await? {
        tx.rollback().await?;
        tracing::info!("the match was cancelled while it ran: dropping its result");
        return w.complete_bare(job, Outcome::Cancelled).await;
    }
    if !jobs::complete(&mut tx, job.job_id, job.attempt).await? {
        tx.rollback().await?;
        return Ok(Done::LeaseLost);
    }
    croupier_board::record(&mut tx, match_id).await?;
    tx.commit().await?;
    Ok(Done::Completed(Outcome::Finished))
}

/// How often a running match's progress is published for its page.
const PUBLISH_EVERY: Duration = Duration::from_secs(2);

/// Publishes how far the match has got every [`PUBLISH_EVERY`] while it changes, until
/// aborted (the match's page shows it; a failed write is only logged). `published` is set
/// before the first write, so that the row is forgotten once the match has been played.
async fn publish_progress(
    pool: PgPool,
    match_id: uuid::Uuid,
    progress: Arc<MatchProgress>,
    published: Arc<AtomicBool>,
) {
    let mut last = (0, 0);
    loop {
        tokio::time::sleep(PUBLISH_EVERY).await;
        let now = progress.read();
        if now == last {
            continue;
        }
        let (game, moves) = now;
        let as_i32 = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
        published.store(true, Ordering::Relaxed);
        match matches::progress::publish(&pool, match_id, as_i32(game), as_i32(moves)).await {
            Ok(()) => last = now,
            Err(e) => tracing::debug!(error = %e, "publishing the match's progress"),
        }
    }
}

/// A match's limits and number of games: the worker's match limits with the game's own time per
/// move and games per match, then what the competition's settings choose (time per move, games
/// per match, and each seat's memory, disk and CPU).
fn match_limits(
    base: &MatchLimits,
    game: GameId,
    settings: Option<&CompetitionSettings>,
) -> (MatchLimits, u32) {
    let mut limits = base.clone();
    limits.move_time = croupier_referee::default_move_time(game);
    let mut games = croupier_referee::default_games(game);
    let Some(s) = settings else {
        return (limits, games);
    };
    if let Some(ms) = s.move_time_ms {
        limits.move_time = Duration::from_millis(ms);
    }
    if let Some(n) = s.games_per_match {
        games = n.max(1);
    }
    if let Some(mib) = s.seat_memory_mib {
        limits.seat.memory_bytes = mib << 20;
    }
    if let Some(mib) = s.seat_disk_mib {
        limits.seat.disk_bytes = mib << 20;
    }
    if let Some(millicores) = s.seat_cpu_millicores {
        limits.seat.cpu_millicores = millicores;
    }
    (limits, games)
}

/// The referee's seats: built-in bots by name, people by user name, submissions from their
/// cached artifacts, with unique player names (`<team>-v<version>`). `Err` is a platform fault.
async fn seat_specs(w: &Worker, rows: &[RunSeat]) -> Result<Vec<SeatSpec>, String> {
    let mut taken: HashSet<String> = rows.iter().filter_map(|r| r.builtin.clone()).collect();
    let mut seats = Vec::with_capacity(rows.len());
    for r in rows {
        if let Some(name) = &r.builtin {
            seats.push(SeatSpec::builtin(name.clone()));
            continue;
        }
        if r.user_id.is_some() {
            let base = r.person.clone().unwrap_or_else(|| "person".into());
            let name = unique(&mut taken, base, r.seat);
            seats.push(SeatSpec::human(name));
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
        let name = unique(&mut taken, base, r.seat);
        seats.push(SeatSpec::program(name, bot_dir, command.clone()));
    }
    Ok(seats)
}

/// `base`, or `base-<seat>` when another seat has that name; noted as taken.
fn unique(taken: &mut HashSet<String>, base: String, seat: i32) -> String {
    let name = if taken.contains(&base) {
        format!("{base}-{seat}")
    } else {
        base
    };
    taken.insert(name.clone());
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_takes_the_games_defaults_without_a_competition() {
        let base = MatchLimits::default();

        let (limits, games) = match_limits(&base, GameId::BRIDGE, None);

        assert_eq!(
            limits.move_time,
            croupier_referee::default_move_time(GameId::BRIDGE)
        );
        assert_eq!(games, 4);
        assert_eq!(limits.seat, base.seat);
    }

    #[test]
    fn a_competition_sets_the_time_the_games_and_each_seats_memory_disk_and_cpu() {
        let base = MatchLimits::default();
        let settings = CompetitionSettings {
            move_time_ms: Some(1500),
            games_per_match: Some(3),
            seat_memory_mib: Some(64),
            seat_disk_mib: Some(8),
            seat_cpu_millicores: Some(500),
            ..CompetitionSettings::default()
        };

        let (limits, games) = match_limits(&base, GameId::GUANDAN, Some(&settings));

        assert_eq!((limits.move_time, games), (Duration::from_millis(1500), 3));
        assert_eq!(limits.seat.memory_bytes, 64 << 20);
        assert_eq!(limits.seat.disk_bytes, 8 << 20);
        assert_eq!(limits.seat.cpu_millicores, 500);
        assert_eq!(
            limits.seat.wall, base.seat.wall,
            "the rest stays the worker's"
        );
    }
}

//! Match jobs and lease fencing, end to end.

mod common;

use common::*;
use croupier_store::matches::{self, NewMatch, SeatRef};
use croupier_store::PgPool;
use uuid::Uuid;

/// Three ready python submissions of three teams, and a competition; returns `(competition, subs)`.
async fn three_ready_bots(pool: &PgPool, worker: &croupier_worker::Worker) -> (Uuid, Vec<Uuid>) {
    let mut subs = Vec::new();
    for name in ["alpha", "beta", "gamma"] {
        subs.push(
            upload(
                pool,
                team(pool, name).await,
                Language::Python3,
                "bot.py",
                &python_bot(0.0),
            )
            .await,
        );
    }
    assert_eq!(drain(worker).await, 3);
    for id in &subs {
        assert_eq!(submission(pool, *id).await.status, SubmissionStatus::Ready);
    }
    let owner: Uuid = sqlx::query_scalar("select user_id from app_user limit 1")
        .fetch_one(pool)
        .await
        .unwrap();
    let competition: Uuid = sqlx::query_scalar(
        "insert into competition (name, game, rules, created_by) values ('cup', 'nothanks', 'boardcoder', $1) returning competition_id",
    )
    .bind(owner)
    .fetch_one(pool)
    .await
    .unwrap();
    (competition, subs)
}

fn planned(subs: &[Uuid]) -> Vec<NewMatch> {
    vec![NewMatch {
        ordinal: 0,
        game: "nothanks".into(),
        rules: "boardcoder".into(),
        seed: 7,
        settings: serde_json::json!({}),
        seats: subs.iter().map(|s| SeatRef::Submission(*s)).collect(),
        duplicate_set: None,
    }]
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_match_of_three_ready_bots_is_played_and_its_results_stored(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let (competition, subs) = three_ready_bots(&pool, &worker).await;
    let ids = matches::create_many(
        &mut pool.acquire().await.unwrap(),
        competition,
        &planned(&subs),
    )
    .await
    .unwrap();

    assert_eq!(drain(&worker).await, 1);

    let m = matches::get(&pool, ids[0]).await.unwrap();
    assert_eq!(m.status, MatchStatus::Finished, "{:?}", m.failure_reason);
    assert!(m.finished_at.is_some());
    let seats = matches::seats_with_results(&pool, ids[0]).await.unwrap();
    assert_eq!(seats.len(), 3);
    for s in &seats {
        assert_eq!(s.end_state, Some(EndState::Ok), "{s:?}");
        assert!(s.moves.unwrap_or(0) > 0 && s.rank.is_some(), "{s:?}");
    }
    let stored = matches::replay(&pool, ids[0]).await.unwrap().unwrap();
    let replay: serde_json::Value = serde_json::from_slice(&stored).unwrap();
    assert_eq!(replay["players"].as_array().map(Vec::len), Some(3));
    assert_eq!(replay["games"].as_array().map(Vec::len), Some(1));
    // Stored as recorded, the moves without their events; handed out with them.
    let game = &replay["games"][0]["replay"];
    assert_eq!(game["events_left_out"], true);
    let moves = |doc: &serde_json::Value| -> Vec<usize> {
        let entries = doc["games"][0]["replay"]["entries"].as_array().unwrap();
        let moves = entries.iter().filter(|e| e["entry"] == "move");
        moves
            .map(|e| e["events"].as_array().unwrap().len())
            .collect()
    };
    assert!(moves(&replay).iter().all(|&n| n == 0));
    let handed_out = croupier_games::document::with_events(&stored).unwrap();
    let full: serde_json::Value = serde_json::from_slice(&handed_out).unwrap();
    assert!(full["games"][0]["replay"].get("events_left_out").is_none());
    assert!(
        moves(&full).iter().all(|&n| n > 0),
        "every move has its events"
    );
    assert_eq!(moves(&full).len(), moves(&replay).len());
    // (Here most of either is the protocol transcript, which is kept whole.)
    assert!(stored.len() < handed_out.len());
    assert_eq!(
        matches::of_competition(&pool, competition)
            .await
            .unwrap()
            .len(),
        1
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_cancelled_match_is_completed_without_being_played(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let (competition, subs) = three_ready_bots(&pool, &worker).await;
    let ids = matches::create_many(
        &mut pool.acquire().await.unwrap(),
        competition,
        &planned(&subs),
    )
    .await
    .unwrap();
    sqlx::query("update match set status = 'cancelled' where match_id = $1")
        .bind(ids[0])
        .execute(&pool)
        .await
        .unwrap();

    assert_eq!(drain(&worker).await, 1);

    assert_eq!(
        matches::get(&pool, ids[0]).await.unwrap().status,
        MatchStatus::Cancelled
    );
    let results: i64 = sqlx::query_scalar("select count(*) from seat_result")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(results, 0);
    let job: JobStatus = sqlx::query_scalar("select status from job where match_id = $1")
        .bind(ids[0])
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(job, JobStatus::Done);
}

/// Uploads a bot that dawdles 3 s before joining, runs one step, and takes the lease over (bumps
/// `attempt`) as soon as the validation game has started. Nothing may be written after that.
async fn lease_taken_over_mid_game(pool: &PgPool, heartbeat_ms: u64) {
    let (worker, _scratch) = worker(pool, |c| {
        c.heartbeat_every = std::time::Duration::from_millis(heartbeat_ms);
    })
    .await;
    let id = upload(
        pool,
        team(pool, "slowpokes").await,
        Language::Python3,
        "bot.py",
        &python_bot(3.0),
    )
    .await;

    let take_over = async {
        until(
            pool,
            "select status = 'validating' from submission where submission_id = $1",
            id,
        )
        .await;
        sqlx::query("update job set attempt = attempt + 1 where submission_id = $1")
            .bind(id)
            .execute(pool)
            .await
            .unwrap();
    };
    let (step, ()) = tokio::join!(worker.step(), take_over);

    assert!(matches!(step.unwrap(), croupier_worker::Step::Ran(_)));
    let s = submission(pool, id).await;
    assert_eq!(
        s.status,
        SubmissionStatus::Validating,
        "the old attempt wrote its verdict: {:?}",
        s.failure_reason
    );
    assert_eq!(s.failure_reason, None);
    assert!(
        !s.compile_log.contains("validation game"),
        "{}",
        s.compile_log
    );
    let (status, attempt): (JobStatus, i32) =
        sqlx::query_as("select status, attempt from job where submission_id = $1")
            .bind(id)
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!((status, attempt), (JobStatus::Running, 2));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_job_whose_lease_is_taken_over_is_dropped_at_the_next_heartbeat(pool: PgPool) {
    lease_taken_over_mid_game(&pool, 200).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_job_whose_lease_is_taken_over_between_heartbeats_writes_nothing_at_the_end(
    pool: PgPool,
) {
    lease_taken_over_mid_game(&pool, 600_000).await;
}

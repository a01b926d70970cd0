//! Platform faults inside a job: a panic is a retried platform fault whose lease renewal stops
//! with it; a match that cannot be played anywhere (an invalid spec) fails at once.

mod common;

use std::time::Duration;

use common::*;
use croupier_store::jobs;
use croupier_store::matches::{self, NewMatch, SeatRef};
use croupier_store::PgPool;
use croupier_worker::{Done, Outcome};
use uuid::Uuid;

async fn heartbeat_at(pool: &PgPool, job_id: Uuid) -> Option<String> {
    sqlx::query_scalar("select heartbeat_at::text from job where job_id = $1")
        .bind(job_id)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_panicking_job_is_retried_and_its_lease_is_no_longer_renewed(pool: PgPool) {
    // Arrange: a claimed compile job, a worker renewing leases every 50 ms
    let (worker, _scratch) = worker(&pool, |cfg| {
        cfg.heartbeat_every = Duration::from_millis(50);
        cfg.lease = Duration::from_secs(5);
    })
    .await;
    upload(
        &pool,
        team(&pool, "panicky").await,
        Language::Python3,
        "bot.py",
        &python_bot(0.0),
    )
    .await;
    let job = jobs::claim(&pool, &worker.config().id, worker.config().lease)
        .await
        .unwrap()
        .expect("a queued compile job");

    // Act: the job's body panics after a few renewals
    let outcome = worker
        .run_claimed(&job, async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if job.attempt > 0 {
                panic!("boom in the job body");
            }
            Ok::<_, croupier_store::StoreError>(Done::Completed(Outcome::Finished))
        })
        .await
        .expect("no database error");

    // Assert: retried as a platform fault, with the panic's message
    assert_eq!(outcome, Outcome::Retry);
    let (status, attempt, last_error): (JobStatus, i32, Option<String>) =
        sqlx::query_as("select status, attempt, last_error from job where job_id = $1")
            .bind(job.job_id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((status, attempt), (JobStatus::Queued, 1));
    assert!(
        last_error
            .as_deref()
            .is_some_and(|e| e.contains("panicked") && e.contains("boom in the job body")),
        "{last_error:?}"
    );

    // Assert: no renewal task survived the job. Were one still running, it would renew the
    // lease of this attempt as soon as the job looks running again.
    sqlx::query("update job set status = 'running' where job_id = $1")
        .bind(job.job_id)
        .execute(&pool)
        .await
        .unwrap();
    let before = heartbeat_at(&pool, job.job_id).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        heartbeat_at(&pool, job.job_id).await,
        before,
        "the lease of the panicked job was renewed after the panic"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_match_with_an_invalid_spec_fails_at_once_without_a_retry(pool: PgPool) {
    // Arrange: a competition match whose seat names a built-in bot that does not exist
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let (owner, _) = team(&pool, "organisers").await;
    let competition: Uuid = sqlx::query_scalar(
        "insert into competition (name, game, rules, created_by) values ('cup', 'nothanks', 'boardcoder', $1) returning competition_id",
    )
    .bind(owner)
    .fetch_one(&pool)
    .await
    .unwrap();
    let planned = NewMatch {
        ordinal: 0,
        game: "nothanks".into(),
        rules: "boardcoder".into(),
        seed: 1,
        settings: serde_json::json!({}),
        seats: ["random", "no-such-bot", "random"]
            .map(|b| SeatRef::Builtin(b.into()))
            .to_vec(),
        duplicate_set: None,
    };
    let ids = matches::create_many(&mut pool.acquire().await.unwrap(), competition, &[planned])
        .await
        .unwrap();

    // Act
    let ran = drain(&worker).await;

    // Assert: one attempt, failed for good, saying why; nothing waits for a retry
    assert_eq!(ran, 1);
    let (status, attempt, max_attempts): (JobStatus, i32, i32) =
        sqlx::query_as("select status, attempt, max_attempts from job where match_id = $1")
            .bind(ids[0])
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((status, attempt), (JobStatus::Failed, 1));
    assert!(max_attempts > 1, "the job had attempts left");
    let m = matches::get(&pool, ids[0]).await.unwrap();
    assert_eq!(m.status, MatchStatus::Failed);
    assert!(
        m.failure_reason
            .as_deref()
            .is_some_and(|r| r.contains("invalid match spec")),
        "{:?}",
        m.failure_reason
    );
}

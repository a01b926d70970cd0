//! The job queue against a real PostgreSQL: claiming, leases, fencing and the reaper.

mod common;

use std::time::Duration;

use croupier_store::jobs::{self, GaveUp, Retry};
use croupier_store::{JobKind, JobStatus, SubmissionStatus};
use sqlx::PgPool;
use uuid::Uuid;

/// A new user, team and Python submission (which queues one compile job); `n` keeps names apart.
async fn a_team_with_a_submission_numbered(pool: &PgPool, n: usize) -> Uuid {
    common::a_team_with_a_submission(pool, n).await.submission
}

async fn a_team_with_a_submission(pool: &PgPool) -> Uuid {
    a_team_with_a_submission_numbered(pool, 0).await
}

async fn status_of(pool: &PgPool, job_id: Uuid) -> (JobStatus, i32, Option<String>) {
    let r = sqlx::query!(
        r#"select status as "status: JobStatus", attempt, last_error from job where job_id = $1"#,
        job_id
    )
    .fetch_one(pool)
    .await
    .unwrap();
    (r.status, r.attempt, r.last_error)
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_upload_queues_one_compile_job_that_a_worker_claims_once(pool: PgPool) {
    let submission_id = a_team_with_a_submission(&pool).await;

    let first = jobs::claim(&pool, "w1", Duration::from_secs(30))
        .await
        .unwrap();
    let second = jobs::claim(&pool, "w2", Duration::from_secs(30))
        .await
        .unwrap();

    let job = first.expect("the compile job is claimable");
    assert_eq!(job.kind, JobKind::Compile);
    assert_eq!(job.submission_id, Some(submission_id));
    assert_eq!(job.attempt, 1);
    assert!(second.is_none(), "a running job is not handed out twice");
    let status = sqlx::query_scalar!(
        r#"select status as "status: SubmissionStatus" from submission where submission_id = $1"#,
        submission_id
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(status, SubmissionStatus::Compiling);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn concurrent_claims_never_hand_out_the_same_job(pool: PgPool) {
    for n in 0..5 {
        a_team_with_a_submission_numbered(&pool, n).await;
    }
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(8));
    let mut tasks = Vec::new();
    for i in 0..8 {
        let (pool, barrier) = (pool.clone(), barrier.clone());
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            jobs::claim(&pool, &format!("w{i}"), Duration::from_secs(30))
                .await
                .unwrap()
        }));
    }
    let mut ids = Vec::new();
    for t in tasks {
        if let Some(job) = t.await.unwrap() {
            ids.push(job.job_id);
        }
    }
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(ids.len(), 5, "every queued job is claimed once");
    assert_eq!(unique.len(), 5);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_stale_attempt_can_neither_heartbeat_nor_complete(pool: PgPool) {
    a_team_with_a_submission(&pool).await;
    let job = jobs::claim(&pool, "w1", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    // The lease runs out and the reaper gives the job to another worker.
    sqlx::query!(
        "update job set lease_until = now() - interval '1 second' where job_id = $1",
        job.job_id
    )
    .execute(&pool)
    .await
    .unwrap();
    jobs::reap_expired(&pool).await.unwrap();
    let again = jobs::claim(&pool, "w2", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(again.attempt, 2);

    let beat = jobs::heartbeat(&pool, job.job_id, job.attempt, Duration::from_secs(30))
        .await
        .unwrap();
    let mut tx = pool.begin().await.unwrap();
    let completed = jobs::complete(&mut tx, job.job_id, job.attempt)
        .await
        .unwrap();
    tx.rollback().await.unwrap();

    assert!(!beat, "the old worker learns it lost the lease");
    assert!(!completed, "the old worker's result is fenced out");
    assert!(
        jobs::heartbeat(&pool, again.job_id, again.attempt, Duration::from_secs(30))
            .await
            .unwrap()
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_reaper_fails_a_job_after_nine_expired_leases_and_says_why(pool: PgPool) {
    // max_attempts is 3; a dead worker is not the job's fault, so expiries get 3 × 3.
    let submission_id = a_team_with_a_submission(&pool).await;
    let mut job_id = Uuid::nil();
    for attempt in 1..=9 {
        let job = jobs::claim(&pool, &format!("w{attempt}"), Duration::from_secs(30))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(job.attempt, attempt);
        job_id = job.job_id;
        sqlx::query!(
            "update job set lease_until = now() - interval '1 second' where job_id = $1",
            job_id
        )
        .execute(&pool)
        .await
        .unwrap();
        let reaped = jobs::reap_expired(&pool).await.unwrap();
        assert_eq!(reaped.len(), 1);
        assert_eq!(reaped[0].failed, attempt == 9);
    }

    let (status, attempt, last_error) = status_of(&pool, job_id).await;
    assert_eq!((status, attempt), (JobStatus::Failed, 9));
    assert!(last_error.unwrap().contains("lease expired on worker w9"));
    let sub = sqlx::query!(
        r#"select status as "status: SubmissionStatus", failure_reason from submission where submission_id = $1"#,
        submission_id
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(sub.status, SubmissionStatus::Failed);
    assert!(sub.failure_reason.unwrap().contains("platform error"));
    assert!(jobs::claim(&pool, "w10", Duration::from_secs(30))
        .await
        .unwrap()
        .is_none());
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_platform_fault_requeues_with_backoff_until_the_attempts_run_out(pool: PgPool) {
    a_team_with_a_submission(&pool).await;
    let job = jobs::claim(&pool, "w1", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();

    let gave_up = jobs::give_up_attempt(
        &pool,
        job.job_id,
        job.attempt,
        "sandbox setup failed",
        Retry::WhileAttemptsLast,
    )
    .await
    .unwrap();

    assert_eq!(gave_up, GaveUp::Requeued);
    let (status, _, last_error) = status_of(&pool, job.job_id).await;
    assert_eq!(status, JobStatus::Queued);
    assert_eq!(last_error.as_deref(), Some("sandbox setup failed"));
    assert!(
        jobs::claim(&pool, "w2", Duration::from_secs(30))
            .await
            .unwrap()
            .is_none(),
        "a retried job waits for its back-off"
    );
    assert_eq!(
        jobs::give_up_attempt(
            &pool,
            job.job_id,
            job.attempt,
            "again",
            Retry::WhileAttemptsLast
        )
        .await
        .unwrap(),
        GaveUp::LeaseLost,
        "fenced"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_fault_that_a_retry_cannot_mend_fails_the_job_at_its_first_attempt(pool: PgPool) {
    let sub = a_team_with_a_submission(&pool).await;
    let job = jobs::claim(&pool, "w1", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    assert!(job.attempt < job.max_attempts);

    let gave_up =
        jobs::give_up_attempt(&pool, job.job_id, job.attempt, "invalid spec", Retry::Never)
            .await
            .unwrap();

    assert_eq!(gave_up, GaveUp::Failed);
    let (status, attempt, last_error) = status_of(&pool, job.job_id).await;
    assert_eq!((status, attempt), (JobStatus::Failed, 1));
    assert_eq!(last_error.as_deref(), Some("invalid spec"));
    let sub = croupier_store::submissions::get(&pool, sub).await.unwrap();
    assert_eq!(sub.status, SubmissionStatus::Failed);
}

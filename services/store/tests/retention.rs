//! Replay retention against a real PostgreSQL and a real object store (a directory): which
//! matches lose their replay and logs, that results stay, that shared blobs stay, and that the
//! object store lets go of the deleted objects.

mod common;

use croupier_store::{blobs, retention};
use sqlx::PgPool;
use uuid::Uuid;

/// How many matches of competition `c` have a replay, and how many are marked expired.
async fn kept(pool: &PgPool, c: Uuid) -> (i64, i64) {
    sqlx::query_as(
        "select count(r.match_id), count(m.replay_expired_at) from match m
         left join replay r using (match_id) where m.competition_id = $1",
    )
    .bind(c)
    .fetch_one(pool)
    .await
    .unwrap()
}

async fn count(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn old_replays_of_competitions_that_are_over_expire_and_the_rest_stay(pool: PgPool) {
    let dir = tempfile::tempdir().unwrap();
    let store = format!("file://{}/blobs", dir.path().display());
    blobs::configure(blobs::Location::parse(&store).unwrap()).unwrap();
    // 12 competitions: 0 the running ladder, 9 cancelled, 1 and 5 archived, the rest finished.
    common::seed::seed(&pool, 60, 12, 2400).await;
    let ladder = common::seed::competition(&pool, 0).await;
    let finished = common::seed::competition(&pool, 2).await;
    let cancelled = common::seed::competition(&pool, 9).await;
    let running = common::seed::competition(&pool, 3).await;
    sqlx::query("update competition set status = 'running' where competition_id = $1")
        .bind(running)
        .execute(&pool)
        .await
        .unwrap();
    // Half of every competition's matches finished 40 days ago, the rest today; the ladder's
    // old half too.
    sqlx::query(
        "update match set finished_at = now() - interval '40 days'
         where ordinal % 2 = 0 and status in ('finished', 'failed')",
    )
    .execute(&pool)
    .await
    .unwrap();
    // A blob shared by an old match and a recent one (the same bytes twice) must stay.
    let shared: (Uuid, Uuid) = sqlx::query_as(
        "select (select match_id from match where competition_id = $1 and ordinal % 2 = 0
                 and status = 'finished' order by ordinal limit 1),
                (select match_id from match where competition_id = $1 and ordinal % 2 = 1
                 and status = 'finished' order by ordinal limit 1)",
    )
    .bind(finished)
    .fetch_one(&pool)
    .await
    .unwrap();
    let own: Vec<u8> = sqlx::query_scalar("select sha256 from replay where match_id = $1")
        .bind(shared.0)
        .fetch_one(&pool)
        .await
        .unwrap();
    sqlx::query(
        "update replay set sha256 = (select sha256 from replay where match_id = $2) where match_id = $1",
    )
    .bind(shared.0)
    .bind(shared.1)
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query("delete from blob where sha256 = $1")
        .bind(own)
        .execute(&pool)
        .await
        .unwrap();
    // Some blobs in the object store: the first 300 by hash.
    assert_eq!(blobs::move_out(&pool, 300).await.unwrap(), 300);
    let objects = || walkdir(dir.path());
    assert_eq!(objects(), 300);

    let before_blobs = count(&pool, "select count(*) from blob").await;
    let before_finished = kept(&pool, finished).await;
    let dry = retention::expire(&pool, 30, true).await.unwrap();
    assert!(dry.matches > 0 && dry.blobs > 0, "{dry:?}");
    assert_eq!(
        count(&pool, "select count(*) from blob").await,
        before_blobs
    );
    assert_eq!(kept(&pool, finished).await, before_finished);
    assert_eq!(objects(), 300);

    let done = retention::expire(&pool, 30, false).await.unwrap();
    assert_eq!(done, dry, "the dry run says what the real one does");
    // Finished, cancelled and ladder competitions: the old half expired, the recent half kept.
    for c in [finished, cancelled, ladder] {
        let (replays, expired) = kept(&pool, c).await;
        let old: i64 = sqlx::query_scalar(
            "select count(*) from match where competition_id = $1 and ordinal % 2 = 0
             and status in ('finished', 'failed')",
        )
        .bind(c)
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(expired, old, "{c}");
        let left: i64 = sqlx::query_scalar(
            "select count(*) from match m join replay r using (match_id)
             where m.competition_id = $1 and m.ordinal % 2 = 0",
        )
        .bind(c)
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(left, 0, "{c}");
        assert!(replays > 0, "{c}: the recent replays stay");
    }
    // A running round-robin keeps everything.
    assert_eq!(kept(&pool, running).await.1, 0);
    // Results stay; their logs of the expired matches are gone.
    assert_eq!(
        count(
            &pool,
            "select count(*) from seat_result r join match m using (match_id)
                      where m.replay_expired_at is not null and r.move_log_sha256 is not null"
        )
        .await,
        0
    );
    assert!(
        count(
            &pool,
            "select count(*) from seat_result r join match m using (match_id)
                      where m.replay_expired_at is not null"
        )
        .await
            > 0
    );
    // The shared replay blob stays, readable, for the recent match.
    let replay = croupier_store::matches::replay(&pool, shared.1)
        .await
        .unwrap();
    assert!(replay.is_some());
    assert!(croupier_store::matches::replay(&pool, shared.0)
        .await
        .unwrap()
        .is_none());
    assert!(retention::replay_expired_at(&pool, shared.0)
        .await
        .unwrap()
        .is_some());
    assert!(retention::replay_expired_at(&pool, shared.1)
        .await
        .unwrap()
        .is_none());
    // Nothing references a missing blob, and every blob row left is referenced… and the
    // object store holds exactly the objects the rows say it does.
    assert_eq!(
        count(&pool, "select count(*) from blob b where not exists (select 1 from replay r where r.sha256 = b.sha256)
                      and not exists (select 1 from seat_result r where b.sha256 in (r.stderr_sha256, r.move_log_sha256))
                      and not exists (select 1 from submission s where b.sha256 in (s.source_sha256, s.artifact_sha256))").await,
        0
    );
    let in_objects = count(&pool, "select count(*) from blob where stored <> 'db'").await;
    assert_eq!(objects() as i64, in_objects);
    assert_eq!(300 - in_objects, done.objects as i64);
    assert_eq!(
        before_blobs - done.blobs as i64,
        count(&pool, "select count(*) from blob").await
    );
    // A second pass finds nothing left to do.
    assert_eq!(
        retention::expire(&pool, 30, false).await.unwrap().matches,
        0
    );
}

/// Files under `dir`, recursively.
fn walkdir(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                walkdir(&e.path())
            } else {
                1
            }
        })
        .sum()
}

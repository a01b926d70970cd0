//! A small database seeded by scripts/bench/seed-matches.sql (the 10M-match bench's own
//! functions), for the tests that read plans and expire replays.

use sqlx::PgPool;
use uuid::Uuid;

/// The seeding functions, as the bench script loads them.
const SEED_SQL: &str = include_str!("../../../../scripts/bench/seed-matches.sql");

/// Seeds `matches` matches between `teams` teams in `competitions` competitions (64-byte
/// replays and move logs), then fresh statistics.
pub async fn seed(pool: &PgPool, teams: i32, competitions: i32, matches: i64) {
    sqlx::raw_sql(SEED_SQL).execute(pool).await.unwrap();
    sqlx::query("select seed.setup($1, $2)")
        .bind(teams)
        .bind(competitions)
        .execute(pool)
        .await
        .unwrap();
    sqlx::query("select seed.chunk(0, $1, 64, 64, $1)")
        .bind(matches)
        .execute(pool)
        .await
        .unwrap();
    sqlx::query("select seed.finish()")
        .execute(pool)
        .await
        .unwrap();
    sqlx::raw_sql("analyze").execute(pool).await.unwrap();
}

/// The id of seeded competition `n` (0 is the ladder).
pub async fn competition(pool: &PgPool, n: i32) -> Uuid {
    sqlx::query_scalar("select competition_id from seed.competition where n = $1")
        .bind(n)
        .fetch_one(pool)
        .await
        .unwrap()
}

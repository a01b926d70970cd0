//! The typed states against a real PostgreSQL: every value goes into its `text` column and comes
//! back as itself, and a value the enum does not know is a decode error, not a silent string.

use croupier_store::{
    BundleKind, CompetitionKind, CompetitionStatus, EndState, JobKind, JobStatus, Language,
    MatchStatus, SubmissionStatus, TeamRole,
};
use sqlx::PgPool;

/// Binds `value`, reads it back through a `text` column, and returns what came back.
async fn round_trip<T>(pool: &PgPool, value: T) -> T
where
    T: for<'r> sqlx::Decode<'r, sqlx::Postgres>
        + sqlx::Encode<'static, sqlx::Postgres>
        + sqlx::Type<sqlx::Postgres>
        + Send
        + Unpin
        + 'static,
{
    sqlx::query_scalar::<_, T>("select v from (select $1::text as v) t")
        .bind(value)
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn stored_text<T>(pool: &PgPool, value: T) -> String
where
    T: sqlx::Encode<'static, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send + 'static,
{
    sqlx::query_scalar::<_, String>("select $1::text")
        .bind(value)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_state_is_stored_as_its_name_and_read_back_as_itself(pool: PgPool) {
    for &s in JobStatus::ALL {
        assert_eq!(round_trip(&pool, s).await, s);
        assert_eq!(stored_text(&pool, s).await, s.as_str());
    }
    for &s in JobKind::ALL {
        assert_eq!(round_trip(&pool, s).await, s);
    }
    for &s in SubmissionStatus::ALL {
        assert_eq!(round_trip(&pool, s).await, s);
    }
    for &s in MatchStatus::ALL {
        assert_eq!(round_trip(&pool, s).await, s);
    }
    for &s in CompetitionStatus::ALL {
        assert_eq!(round_trip(&pool, s).await, s);
    }
    for &s in CompetitionKind::ALL {
        assert_eq!(round_trip(&pool, s).await, s);
    }
    for &s in EndState::ALL {
        assert_eq!(round_trip(&pool, s).await, s);
        assert_eq!(stored_text(&pool, s).await, s.as_str());
    }
    for &s in TeamRole::ALL {
        assert_eq!(round_trip(&pool, s).await, s);
    }
    for l in Language::ALL {
        assert_eq!(round_trip(&pool, l).await, l);
        assert_eq!(stored_text(&pool, l).await, l.as_str());
    }
    for k in [BundleKind::File, BundleKind::Zip, BundleKind::TarGz] {
        assert_eq!(stored_text(&pool, k).await, k.as_str());
        assert_eq!(round_trip(&pool, k).await, k);
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_unknown_state_is_a_decode_error(pool: PgPool) {
    let read = sqlx::query_scalar::<_, JobStatus>("select 'finished'::text")
        .fetch_one(&pool)
        .await;

    let err = read.expect_err("a job is never `finished`");
    assert!(matches!(err, sqlx::Error::ColumnDecode { .. }), "{err:?}");
    let python = sqlx::query_scalar::<_, Language>("select 'python'::text")
        .fetch_one(&pool)
        .await;
    assert!(python.is_err(), "the kit folder's name is not a language");
}

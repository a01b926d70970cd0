//! Replay retention: hot storage does not grow without bound (docs/operations.md#data-growth).
//!
//! With a retention of N days (`--replay-retention-days`, off by default), the replay and the
//! seats' logs (stderr tail, move records) of a match that finished more than N days ago leave
//! storage when its competition is over (finished, cancelled or archived) or is a ladder (a
//! ladder runs for good: only its matches older than N days go, never its recent ones). A
//! running or paused round-robin keeps everything until it is over; matches outside a
//! competition (challenges, a submission's validation games) are kept.
//!
//! The match keeps its results, and the board its standings and ratings: only the blobs go. The
//! match says when its replay expired (`match.replay_expired_at`), so its page and the API say
//! so instead of offering a replay. A blob goes only once nothing references it any more: the
//! same bytes (content-addressed) shared with another match or a submission stay. Bytes in an
//! object store are deleted from it after the rows are gone.

use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::{blobs, StoreError};

/// What a pass expired (or, dry, would expire).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expired {
    /// Matches whose replay and logs went.
    pub matches: u64,
    /// Blobs deleted (those still referenced elsewhere stay).
    pub blobs: u64,
    /// Their bytes.
    pub bytes: i64,
    /// Of those blobs, how many were objects in the object store.
    pub objects: u64,
}

impl std::ops::AddAssign for Expired {
    fn add_assign(&mut self, o: Expired) {
        self.matches += o.matches;
        self.blobs += o.blobs;
        self.bytes += o.bytes;
        self.objects += o.objects;
    }
}

/// Matches per transaction.
pub const BATCH: i64 = 500;

/// Expires the replays and logs of the matches that finished more than `days` days ago in
/// the competitions retention applies to, `BATCH` matches per transaction. `dry_run`: counts
/// what would go (each batch is rolled back), changes nothing.
pub async fn expire(pool: &PgPool, days: u32, dry_run: bool) -> Result<Expired, StoreError> {
    let cutoff = OffsetDateTime::now_utc() - time::Duration::days(i64::from(days));
    let no_object_store = matches!(blobs::location(), blobs::Location::Database);
    let mut total = Expired::default();
    for competition_id in competitions(pool).await? {
        // A dry run rolls each batch back: remember where it got to instead.
        let mut after: Option<(OffsetDateTime, Uuid)> = None;
        loop {
            let mut tx = pool.begin().await?;
            let batch = due(&mut tx, competition_id, cutoff, after).await?;
            let Some(last) = batch.last().copied() else {
                break;
            };
            let ids: Vec<Uuid> = batch.iter().map(|(_, id)| *id).collect();
            let (expired, objects) = drop_blobs(&mut tx, &ids).await?;
            if no_object_store && !objects.is_empty() && !dry_run {
                // Their objects could not be deleted: change nothing (the batch rolls back).
                return Err(StoreError::Blobs(
                    "some blobs live in the object store, but this process has none configured \
                     (set CROUPIER_BLOB_STORE as on the other processes)"
                        .to_owned(),
                ));
            }
            total += expired;
            if dry_run {
                tx.rollback().await?;
                after = Some(last);
            } else {
                tx.commit().await?;
                blobs::delete_objects(&objects).await?;
            }
        }
    }
    Ok(total)
}

/// The competitions whose old matches may expire: over (finished, cancelled, archived), or a
/// ladder.
async fn competitions(pool: &PgPool) -> Result<Vec<Uuid>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"
        select competition_id from competition
        where status in ('finished', 'cancelled') or archived_at is not null or kind = 'ladder'
        order by created_at
        "#
    )
    .fetch_all(pool)
    .await?)
}

/// The next matches of `competition_id` to expire (finished before `cutoff`, replay still
/// kept), oldest first, after `after`, locked for this transaction (a concurrent pass skips
/// them).
async fn due(
    conn: &mut PgConnection,
    competition_id: Uuid,
    cutoff: OffsetDateTime,
    after: Option<(OffsetDateTime, Uuid)>,
) -> Result<Vec<(OffsetDateTime, Uuid)>, StoreError> {
    let (after_at, after_id) = after.unzip();
    // language=PostgreSQL
    let rows = sqlx::query!(
        r#"
        select m.finished_at as "finished_at!", m.match_id
        from match m
        where m.competition_id = $1
          and m.finished_at < $2
          and m.replay_expired_at is null
          and m.status in ('finished', 'failed')
          and ($3::timestamptz is null or (m.finished_at, m.match_id) > ($3, $4::uuid))
        order by m.finished_at, m.match_id
        limit $5
        for update of m skip locked
        "#,
        competition_id,
        cutoff,
        after_at,
        after_id,
        BATCH
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.finished_at, r.match_id))
        .collect())
}

/// Drops the replays and seat logs of `ids`, marks them expired, and deletes the blobs no
/// longer referenced; returns the counts and the hashes of the deleted objects.
async fn drop_blobs(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<(Expired, Vec<Vec<u8>>), StoreError> {
    // language=PostgreSQL
    let matches = sqlx::query!(
        r#"update match set replay_expired_at = now() where match_id = any($1) and replay_expired_at is null"#,
        ids
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    // language=PostgreSQL
    let deleted = sqlx::query!(
        r#"
        with replays as (
            delete from replay where match_id = any($1) returning sha256
        ),
        logs as (
            update seat_result r set stderr_sha256 = null, move_log_sha256 = null
            from seat_result old
            where r.match_id = any($1) and old.match_id = r.match_id and old.seat = r.seat
              and (old.stderr_sha256 is not null or old.move_log_sha256 is not null)
            returning old.stderr_sha256, old.move_log_sha256
        ),
        candidates as (
            select sha256 from replays
            union select stderr_sha256 from logs where stderr_sha256 is not null
            union select move_log_sha256 from logs where move_log_sha256 is not null
        )
        delete from blob b
        using candidates c
        where b.sha256 = c.sha256
          -- Still used elsewhere (the same bytes): kept. The rows this statement changed are
          -- seen as they were before it, so the matches being expired are left out by id.
          and not exists (select 1 from replay r where r.sha256 = b.sha256 and r.match_id <> all($1))
          and not exists (select 1 from seat_result r where r.stderr_sha256 = b.sha256 and r.match_id <> all($1))
          and not exists (select 1 from seat_result r where r.move_log_sha256 = b.sha256 and r.match_id <> all($1))
          and not exists (select 1 from submission s where s.source_sha256 = b.sha256)
          and not exists (select 1 from submission s where s.artifact_sha256 = b.sha256)
        returning b.sha256, b.size, b.stored
        "#,
        ids
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut expired = Expired {
        matches,
        ..Expired::default()
    };
    let mut objects = Vec::new();
    for row in deleted {
        expired.blobs += 1;
        expired.bytes += row.size;
        if row.stored != "db" {
            expired.objects += 1;
            objects.push(row.sha256);
        }
    }
    Ok((expired, objects))
}

/// When the replay of `match_id` expired (`None`: it did not, or there is no such match).
pub async fn replay_expired_at(
    db: impl sqlx::PgExecutor<'_>,
    match_id: Uuid,
) -> Result<Option<OffsetDateTime>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"select replay_expired_at from match where match_id = $1"#,
        match_id
    )
    .fetch_optional(db)
    .await?
    .flatten())
}

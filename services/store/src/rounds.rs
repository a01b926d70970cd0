//! Competitions played round by round (`competition.kind` `swiss` or `adaptive`). The worker's
//! rounds tick finds those between two rounds ([`due`]), holds one ([`take`]: the row, skipped
//! when another transaction holds it), reads its entries and results, inserts the next round's
//! matches with `matches::create_many`, and records where it stands ([`planned`]), all in one
//! transaction: two workers never plan the same round, and a crash between two steps plans
//! nothing.
//!
//! A competition is *between rounds* when it is scheduled or running (not paused, cancelled or
//! finished) and none of its matches is queued or running. Its first round is planned when it
//! is created; [`planned`] with `finished` marks it `finished` when the plan is done.

use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::StoreError;

/// A round-by-round competition held by a tick.
#[derive(Debug, Clone)]
pub struct Held {
    pub competition_id: Uuid,
    pub game: String,
    pub rules: String,
    pub settings: serde_json::Value,
    /// Rounds planned so far (the next round's number, from 0).
    pub rounds_started: i32,
}

/// The round-by-round competitions between rounds, oldest first.
pub async fn due(db: impl PgExecutor<'_>) -> Result<Vec<Uuid>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"
        select c.competition_id from competition c
        where c.kind in ('swiss', 'adaptive') and c.status in ('scheduled', 'running')
          and not exists (select 1 from competition_progress p
                          where p.competition_id = c.competition_id
                            and p.status in ('queued', 'running') and p.matches > 0)
        order by c.created_at
        "#
    )
    .fetch_all(db)
    .await?)
}

/// Holds `competition_id` for the transaction when it is still between rounds and no other
/// transaction holds it; else `None`.
pub async fn take(
    conn: &mut PgConnection,
    competition_id: Uuid,
) -> Result<Option<Held>, StoreError> {
    // language=PostgreSQL
    let held = sqlx::query_as!(
        Held,
        r#"
        select competition_id, game, rules, settings, rounds_started
        from competition
        where competition_id = $1 and kind in ('swiss', 'adaptive')
          and status in ('scheduled', 'running')
        for no key update skip locked
        "#,
        competition_id
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(held) = held else { return Ok(None) };
    match crate::competitions::has_matches_to_play(conn, competition_id).await? {
        true => Ok(None),
        false => Ok(Some(held)),
    }
}

/// The next free match ordinal and duplicate set of a competition.
pub async fn next_ids(
    conn: &mut PgConnection,
    competition_id: Uuid,
) -> Result<(i32, i32), StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        select coalesce((select max(ordinal) from match where competition_id = $1) + 1, 0) as "ordinal!",
               coalesce((select max(duplicate_set) from match where competition_id = $1) + 1, 0) as "set!"
        "#,
        competition_id
    )
    .fetch_one(conn)
    .await?;
    Ok((row.ordinal, row.set))
}

/// Records that a round was planned (its matches inserted by the caller), with where the
/// competition now stands (`state`, the league's JSON); or, with `finished`, that the plan is
/// done: then no round was planned and the competition is `finished`.
pub async fn planned(
    conn: &mut PgConnection,
    competition_id: Uuid,
    state: &serde_json::Value,
    finished: bool,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"
        update competition
        set round_progress = $2,
            rounds_started = rounds_started + case when $3 then 0 else 1 end,
            status = case when $3 then 'finished'
                          when status = 'scheduled' and rounds_started > 0 then 'running'
                          else status end
        where competition_id = $1
        "#,
        competition_id,
        state,
        finished
    )
    .execute(conn)
    .await?;
    Ok(())
}

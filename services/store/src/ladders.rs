//! Ladders: competitions that run continuously (`competition.kind = 'ladder'`). The worker's
//! ladder tick ([`take`] a ladder, [`sync_entries`], read its [`field`], then insert the next
//! matches with `matches::create_many`) runs in one transaction per ladder, holding the
//! competition row so that two workers never schedule the same ladder at once.

use sqlx::{PgConnection, PgExecutor};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::state::CompetitionStatus;
use crate::StoreError;

/// A ladder held by a tick.
#[derive(Debug, Clone)]
pub struct Ladder {
    pub competition_id: Uuid,
    pub game: String,
    pub rules: String,
    pub settings: serde_json::Value,
    pub entries_open: bool,
    pub created_at: OffsetDateTime,
}

/// One active entry as the matchmaker reads it.
#[derive(Debug, Clone)]
pub struct Contender {
    pub submission_id: Uuid,
    /// Its board record (`croupier_league::Record` as JSON), `None` before its first result.
    pub record: Option<serde_json::Value>,
    /// Its matches queued or running now.
    pub pending: i64,
}

/// The ladders that may need matches: running (or just created), newest first.
pub async fn due(db: impl PgExecutor<'_>) -> Result<Vec<Uuid>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"
        select competition_id from competition
        where kind = 'ladder' and status in ('scheduled', 'running')
        order by created_at desc
        "#
    )
    .fetch_all(db)
    .await?)
}

/// Holds ladder `competition_id` for the transaction, unless another transaction holds it (a
/// tick elsewhere, or a result being recorded): then `None`, and this tick skips it.
pub async fn take(
    conn: &mut PgConnection,
    competition_id: Uuid,
) -> Result<Option<Ladder>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Ladder,
        r#"
        select competition_id, game, rules, settings, entries_open, created_at
        from competition
        where competition_id = $1 and kind = 'ladder' and status in ('scheduled', 'running')
        for no key update skip locked
        "#,
        competition_id
    )
    .fetch_optional(conn)
    .await?)
}

/// Enters each team's newest ready submission of the ladder's game (but a person enters one
/// team per competition: a team sharing someone with a team already entered, or with an
/// earlier-made team that can enter, stays out) and makes it the team's only active entry (older entries stay, inactive, with their matches and history). Returns
/// how many entries were added.
pub async fn sync_entries(conn: &mut PgConnection, ladder: &Ladder) -> Result<u64, StoreError> {
    // language=PostgreSQL
    let added = sqlx::query!(
        r#"
        insert into competition_entry (competition_id, submission_id)
        select $1, newest.submission_id
        from (select distinct on (s.team_id) s.submission_id, s.team_id, t.created_at
              from submission s join team t using (team_id)
              where s.game = $2 and s.status = 'ready'
              order by s.team_id, s.version desc) newest
        -- A person enters one team per competition: not a team with someone in a team
        -- already entered, nor in a team made earlier that could enter now.
        where not exists (
            select 1
            from team_member m
            join team_member other on other.user_id = m.user_id and other.team_id <> m.team_id
            join team ot on ot.team_id = other.team_id
            where m.team_id = newest.team_id
              and (exists (select 1 from competition_entry e join submission es using (submission_id)
                           where e.competition_id = $1 and es.team_id = other.team_id)
                   or ((ot.created_at, ot.team_id) < (newest.created_at, newest.team_id)
                       and exists (select 1 from submission os
                                   where os.team_id = other.team_id and os.game = $2
                                     and os.status = 'ready')))
        )
        on conflict (competition_id, submission_id) do nothing
        "#,
        ladder.competition_id,
        ladder.game
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if added > 0 {
        // language=PostgreSQL
        sqlx::query!(
            r#"
            update competition_entry e
            set active = (s.version = (select max(o.version)
                                       from competition_entry oe join submission o using (submission_id)
                                       where oe.competition_id = e.competition_id and o.team_id = s.team_id))
            from submission s
            where e.competition_id = $1 and s.submission_id = e.submission_id
            "#,
            ladder.competition_id
        )
        .execute(&mut *conn)
        .await?;
    }
    Ok(added)
}

/// The active entries with their records and pending matches.
pub async fn field(
    conn: &mut PgConnection,
    competition_id: Uuid,
) -> Result<Vec<Contender>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Contender,
        r#"
        select e.submission_id, st.record as "record?",
               (select count(distinct m.match_id)
                from match m join match_seat ms using (match_id)
                where m.competition_id = e.competition_id and ms.submission_id = e.submission_id
                  and m.status in ('queued', 'running')) as "pending!"
        from competition_entry e
             left join standing st using (competition_id, submission_id)
        where e.competition_id = $1 and e.active
        order by e.submission_id
        "#,
        competition_id
    )
    .fetch_all(conn)
    .await?)
}

/// What the ladder's budget has used: matches created in the last hour, matches queued or
/// running now, and the next free ordinal and duplicate set.
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    pub last_hour: i64,
    pub pending: i64,
    pub next_ordinal: i32,
    pub next_set: i32,
}

/// Four reads, each through its own index (match_competition_created_idx, match_pending_idx,
/// match_competition_idx, match_duplicate_set_idx): a ladder with millions of matches is not
/// read whole at every tick (docs/operations.md#data-growth).
pub async fn usage(conn: &mut PgConnection, competition_id: Uuid) -> Result<Usage, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Usage,
        r#"
        select (select count(*) from match
                where competition_id = $1 and created_at > now() - interval '1 hour') as "last_hour!",
               (select count(*) from match
                where competition_id = $1 and status in ('queued', 'running')) as "pending!",
               coalesce((select max(ordinal) from match where competition_id = $1) + 1, 0) as "next_ordinal!",
               coalesce((select max(duplicate_set) from match where competition_id = $1) + 1, 0) as "next_set!"
        "#,
        competition_id
    )
    .fetch_one(conn)
    .await?)
}

/// Sets a ladder's status (an organiser's pause, resume or finish). Finishing also cancels its
/// queued matches (running ones finish and count). `false`: no such ladder.
pub async fn set_status(
    conn: &mut PgConnection,
    competition_id: Uuid,
    status: CompetitionStatus,
) -> Result<bool, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"
        update competition set status = $2
        where competition_id = $1 and kind = 'ladder' and status not in ('finished', 'cancelled')
        "#,
        competition_id,
        status as CompetitionStatus
    )
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 1
        && matches!(
            status,
            CompetitionStatus::Finished | CompetitionStatus::Cancelled
        )
    {
        crate::competitions::cancel_queued(conn, competition_id).await?;
    }
    Ok(done.rows_affected() == 1)
}

/// Opens or closes a ladder's entries (closed: no new submissions enter; the entered ones play
/// on). `false`: no such ladder.
pub async fn set_entries_open(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
    open: bool,
) -> Result<bool, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"update competition set entries_open = $2 where competition_id = $1 and kind = 'ladder'"#,
        competition_id,
        open
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

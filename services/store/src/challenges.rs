//! Challenges and A/B tests: unrated matches a team asks for in the setting of a competition
//! (`challenge` rows; their matches name the challenge and no competition, so no board counts
//! them). A challenge's matches are all queued when it is created; an A/B test's are queued a
//! few groups at a time by the workers' tick until its verdict. The same tick ends both
//! ([`running`], [`take`], [`finish`]): a challenge when its last match has ended, an A/B test
//! when it is decided; `status` is then `finished`.

use serde::Serialize;
use sqlx::{PgConnection, PgExecutor};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::state::{EndState, MatchStatus};
use crate::StoreError;

/// A challenge to create.
#[derive(Debug, Clone)]
pub struct NewChallenge {
    pub competition_id: Uuid,
    pub team_id: Uuid,
    pub created_by: Uuid,
    /// `challenge` or `ab_test`.
    pub kind: &'static str,
    pub seats: serde_json::Value,
    pub games: i32,
    pub base_seed: i64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Challenge {
    pub challenge_id: Uuid,
    pub competition_id: Uuid,
    pub team_id: Uuid,
    pub kind: String,
    pub seats: serde_json::Value,
    pub games: i32,
    /// Its matches' seeds are drawn from it (what the workers read); people see
    /// `shown_base_seed`.
    #[serde(skip)]
    pub base_seed: i64,
    /// The base seed once nothing more will be played on it (the `seeds_out` rule of the
    /// migrations), for everyone alike; `null` until then.
    #[serde(rename = "base_seed")]
    pub shown_base_seed: Option<i64>,
    pub status: String,
    pub report: Option<serde_json::Value>,
    /// The competition's game and rule set (its matches are played by them).
    pub game: String,
    pub rules: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// One seat of one of a challenge's matches, with its result once finished.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengeSeat {
    pub match_id: Uuid,
    pub ordinal: i32,
    /// The duplicate group (one seed) the match belongs to.
    pub duplicate_set: Option<i32>,
    pub status: MatchStatus,
    pub seat: i32,
    pub submission_id: Option<Uuid>,
    pub builtin: Option<String>,
    /// A person's seat: their user name.
    pub person: Option<String>,
    pub rank: Option<i32>,
    pub score: Option<f64>,
    pub end_state: Option<EndState>,
}

/// What a team's challenges use now: created in the last hour, and their matches queued or
/// running. Tables with a person (a challenge with a `human` seat) use none of it: they are
/// played, not computed.
#[derive(Debug, Clone, Copy)]
pub struct TeamUse {
    pub last_hour: i64,
    pub pending: i64,
    /// The oldest of the challenges counted in `last_hour`: one more may start an hour after it.
    pub oldest: Option<OffsetDateTime>,
}

pub async fn create(conn: &mut PgConnection, new: &NewChallenge) -> Result<Uuid, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"
        insert into challenge (competition_id, team_id, created_by, kind, seats, games, base_seed)
        values ($1, $2, $3, $4, $5, $6, $7)
        returning challenge_id
        "#,
        new.competition_id,
        new.team_id,
        new.created_by,
        new.kind,
        new.seats,
        new.games,
        new.base_seed
    )
    .fetch_one(conn)
    .await?)
}

pub async fn get(db: impl PgExecutor<'_>, challenge_id: Uuid) -> Result<Challenge, StoreError> {
    // language=PostgreSQL
    sqlx::query_as!(
        Challenge,
        r#"
        select ch.challenge_id, ch.competition_id, ch.team_id, ch.kind, ch.seats, ch.games,
               ch.base_seed,
               case when seeds_out(null, ch.challenge_id) then ch.base_seed end as shown_base_seed,
               ch.status, ch.report, c.game, c.rules, ch.created_at
        from challenge ch join competition c using (competition_id)
        where ch.challenge_id = $1
        "#,
        challenge_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

/// The team's challenges, newest first.
pub async fn of_team(db: impl PgExecutor<'_>, team_id: Uuid) -> Result<Vec<Challenge>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Challenge,
        r#"
        select ch.challenge_id, ch.competition_id, ch.team_id, ch.kind, ch.seats, ch.games,
               ch.base_seed,
               case when seeds_out(null, ch.challenge_id) then ch.base_seed end as shown_base_seed,
               ch.status, ch.report, c.game, c.rules, ch.created_at
        from challenge ch join competition c using (competition_id)
        where ch.team_id = $1
        order by ch.created_at desc
        limit 100
        "#,
        team_id
    )
    .fetch_all(db)
    .await?)
}

pub async fn team_use(db: impl PgExecutor<'_>, team_id: Uuid) -> Result<TeamUse, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        TeamUse,
        r#"
        with counted as (
            select ch.challenge_id, ch.created_at from challenge ch
            where ch.team_id = $1
              and not exists (select 1 from jsonb_array_elements(ch.seats) e
                              where jsonb_typeof(e) = 'object' and e ? 'human')
        )
        select (select count(*) from counted
                where created_at > now() - interval '1 hour') as "last_hour!",
               (select min(created_at) from counted
                where created_at > now() - interval '1 hour') as oldest,
               (select count(*) from match m join counted using (challenge_id)
                where m.status in ('queued', 'running')) as "pending!"
        "#,
        team_id
    )
    .fetch_one(db)
    .await?)
}

/// Every seat of every match of the challenge, in match then seat order.
pub async fn seats(
    db: impl PgExecutor<'_>,
    challenge_id: Uuid,
) -> Result<Vec<ChallengeSeat>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        ChallengeSeat,
        r#"
        select m.match_id, m.ordinal, m.duplicate_set, m.status as "status: MatchStatus",
               ms.seat, ms.submission_id, ms.builtin, u.username as "person?",
               r.rank as "rank?", r.score as "score?", r.end_state as "end_state?: EndState"
        from match m
             join match_seat ms using (match_id)
             left join app_user u on u.user_id = ms.user_id
             left join seat_result r using (match_id, seat)
        where m.challenge_id = $1
        order by m.ordinal, m.match_id, ms.seat
        "#,
        challenge_id
    )
    .fetch_all(db)
    .await?)
}

/// The running challenges and A/B tests, oldest first.
pub async fn running(db: impl PgExecutor<'_>) -> Result<Vec<Uuid>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"select challenge_id from challenge where status = 'running' order by created_at"#
    )
    .fetch_all(db)
    .await?)
}

/// Holds a running challenge or A/B test for the transaction (`None`: another worker holds it,
/// or it is over).
pub async fn take(conn: &mut PgConnection, challenge_id: Uuid) -> Result<Option<Uuid>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"
        select challenge_id from challenge
        where challenge_id = $1 and status = 'running'
        for no key update skip locked
        "#,
        challenge_id
    )
    .fetch_optional(conn)
    .await?)
}

/// The challenge's matches queued or running, and the next free ordinal and group.
pub async fn usage(
    conn: &mut PgConnection,
    challenge_id: Uuid,
) -> Result<(i64, i32, i32), StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        select count(*) filter (where status in ('queued', 'running')) as "pending!",
               coalesce(max(ordinal) + 1, 0) as "next_ordinal!",
               coalesce(max(duplicate_set) + 1, 0) as "next_set!"
        from match where challenge_id = $1
        "#,
        challenge_id
    )
    .fetch_one(conn)
    .await?;
    Ok((row.pending, row.next_ordinal, row.next_set))
}

/// Ends a challenge or A/B test with its report: its queued matches are cancelled (running ones
/// finish; a challenge ends with none left).
pub async fn finish(
    conn: &mut PgConnection,
    challenge_id: Uuid,
    report: Option<&serde_json::Value>,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"update challenge set status = 'finished', report = $2 where challenge_id = $1"#,
        challenge_id,
        report
    )
    .execute(&mut *conn)
    .await?;
    // language=PostgreSQL
    sqlx::query!(
        r#"
        with cancelled as (
            update job set status = 'cancelled', finished_at = now(), last_error = 'the A/B test was decided'
            where status = 'queued' and kind = 'match'
              and match_id in (select match_id from match where challenge_id = $1 and status = 'queued')
            returning match_id)
        update match set status = 'cancelled', finished_at = now(), failure_reason = 'the A/B test was decided'
        where match_id in (select match_id from cancelled)
        "#,
        challenge_id
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The competition whose settings a match plays under: its own, or its challenge's (a
/// challenge plays with the limits of the competition it was asked in).
pub async fn settings_competition(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
) -> Result<Option<Uuid>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"
        select coalesce(m.competition_id, c.competition_id) as "competition_id?"
        from match m left join challenge c using (challenge_id)
        where m.match_id = $1
        "#,
        match_id
    )
    .fetch_optional(db)
    .await?
    .flatten())
}

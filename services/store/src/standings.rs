//! The rows of a leaderboard kept as results land (`croupier-board` decides what goes in them):
//! one `standing` per entry holding its record and history outline as JSON, the full history
//! in `standing_point`, and `competition.standings_ready` saying the board has been built.
//!
//! Writers hold the competition row ([`lock`]) for the rest of their transaction, so the
//! results of one competition are added one at a time, in the order they commit.

use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::competitions::SeatScore;
use crate::state::EndState;
use crate::StoreError;

/// What a writer needs of the competition it holds.
#[derive(Debug, Clone)]
pub struct Held {
    pub game: String,
    pub settings: serde_json::Value,
    /// Whether the board has been built (else the writer builds it from every result).
    pub ready: bool,
}

/// One entry's stored state: `croupier_league::Record` and `croupier_league::Outline` as JSON.
#[derive(Debug, Clone)]
pub struct Standing {
    pub submission_id: Uuid,
    pub record: serde_json::Value,
    pub outline: serde_json::Value,
}

/// [`lock`] for the competition of match `match_id`, found in the same statement: its id and
/// what a writer needs (`None`: the match has no competition, as a challenge's).
pub async fn lock_for_match(
    conn: &mut PgConnection,
    match_id: Uuid,
) -> Result<Option<(Uuid, Held)>, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        select c.competition_id, c.game, c.settings, c.standings_ready as ready
        from match m join competition c using (competition_id)
        where m.match_id = $1
        for no key update of c
        "#,
        match_id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| {
        let held = Held {
            game: r.game,
            settings: r.settings,
            ready: r.ready,
        };
        (r.competition_id, held)
    }))
}

/// Holds competition `competition_id` until the transaction ends (`None`: no such
/// competition). Taken by every writer of its board; readers never wait for it.
pub async fn lock(
    conn: &mut PgConnection,
    competition_id: Uuid,
) -> Result<Option<Held>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Held,
        r#"
        select game, settings, standings_ready as ready
        from competition where competition_id = $1
        for no key update
        "#,
        competition_id
    )
    .fetch_optional(conn)
    .await?)
}

/// The seats of one finished match, and the other finished matches of its duplicate set, as
/// the board reads them: `(landed, mates)`. Empty when the match is not finished.
pub async fn landed(
    conn: &mut PgConnection,
    match_id: Uuid,
) -> Result<(Vec<SeatScore>, Vec<SeatScore>), StoreError> {
    // language=PostgreSQL
    let seats = sqlx::query_as!(
        SeatScore,
        r#"
        select m.match_id, m.ordinal, m.seed, m.duplicate_set, r.seat, ms.submission_id, r.rank,
               r.score, r.end_state as "end_state: EndState", r.game_scores
        from match m
             join seat_result r using (match_id)
             join match_seat ms using (match_id, seat)
        where m.match_id = $1 and m.status = 'finished'
        order by r.seat
        "#,
        match_id
    )
    .fetch_all(&mut *conn)
    .await?;
    let Some(set) = seats.first().and_then(|s| s.duplicate_set) else {
        return Ok((seats, Vec::new()));
    };
    // language=PostgreSQL
    let mates = sqlx::query_as!(
        SeatScore,
        r#"
        select m.match_id, m.ordinal, m.seed, m.duplicate_set, r.seat, ms.submission_id, r.rank,
               r.score, r.end_state as "end_state: EndState", r.game_scores
        from match m
             join match mine on mine.match_id = $1
             join seat_result r on r.match_id = m.match_id
             join match_seat ms on ms.match_id = m.match_id and ms.seat = r.seat
        where m.competition_id = mine.competition_id and m.duplicate_set = $2
          and m.match_id <> $1 and m.status = 'finished'
        order by m.ordinal, m.match_id, r.seat
        "#,
        match_id,
        set
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok((seats, mates))
}

/// The stored standings of `submissions` in the competition (those that have one).
pub async fn of_entries(
    conn: &mut PgConnection,
    competition_id: Uuid,
    submissions: &[Uuid],
) -> Result<Vec<Standing>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Standing,
        r#"
        select submission_id, record, outline from standing
        where competition_id = $1 and submission_id = any($2)
        "#,
        competition_id,
        submissions
    )
    .fetch_all(conn)
    .await?)
}

/// Every stored standing of the competition (the leaderboard's read).
pub async fn all(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<Vec<Standing>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Standing,
        r#"select submission_id, record, outline from standing where competition_id = $1"#,
        competition_id
    )
    .fetch_all(db)
    .await?)
}

/// Writes `rows` (insert or replace) and appends `points` (entry, history point) in order.
/// Callers with many points (a board built from every match) pass them in chunks.
pub async fn save(
    conn: &mut PgConnection,
    competition_id: Uuid,
    rows: &[Standing],
    points: &[(Uuid, serde_json::Value)],
) -> Result<(), StoreError> {
    if rows.is_empty() {
        return add_points(conn, competition_id, points).await;
    }
    let ids: Vec<Uuid> = rows.iter().map(|r| r.submission_id).collect();
    let records: Vec<serde_json::Value> = rows.iter().map(|r| r.record.clone()).collect();
    let outlines: Vec<serde_json::Value> = rows.iter().map(|r| r.outline.clone()).collect();
    let (who, what): (Vec<Uuid>, Vec<serde_json::Value>) = points.iter().cloned().unzip();
    // One statement for both (one round trip on the result's path).
    // language=PostgreSQL
    sqlx::query!(
        r#"
        with kept as (
            insert into standing (competition_id, submission_id, record, outline)
            select $1, * from unnest($2::uuid[], $3::jsonb[], $4::jsonb[])
            on conflict (competition_id, submission_id)
                do update set record = excluded.record, outline = excluded.outline, updated_at = now()
        )
        insert into standing_point (competition_id, submission_id, point)
        select $1, p.who, p.what from unnest($5::uuid[], $6::jsonb[]) with ordinality as p(who, what, n)
        order by p.n
        "#,
        competition_id,
        &ids,
        &records,
        &outlines,
        &who,
        &what
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Appends `points` (entry, history point) in order.
async fn add_points(
    conn: &mut PgConnection,
    competition_id: Uuid,
    points: &[(Uuid, serde_json::Value)],
) -> Result<(), StoreError> {
    if points.is_empty() {
        return Ok(());
    }
    let (who, what): (Vec<Uuid>, Vec<serde_json::Value>) = points.iter().cloned().unzip();
    // language=PostgreSQL
    sqlx::query!(
        r#"
        insert into standing_point (competition_id, submission_id, point)
        select $1, p.who, p.what from unnest($2::uuid[], $3::jsonb[]) with ordinality as p(who, what, n)
        order by p.n
        "#,
        competition_id,
        &who,
        &what
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Forgets the competition's board (before building it again) and marks it not built.
pub async fn clear(conn: &mut PgConnection, competition_id: Uuid) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"delete from standing where competition_id = $1"#,
        competition_id
    )
    .execute(&mut *conn)
    .await?;
    set_ready(conn, competition_id, false).await
}

/// Whether the competition's board is built (`None`: no such competition).
pub async fn is_ready(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<Option<bool>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"select standings_ready from competition where competition_id = $1"#,
        competition_id
    )
    .fetch_optional(db)
    .await?)
}

/// Records whether the competition's board is built.
pub async fn set_ready(
    conn: &mut PgConnection,
    competition_id: Uuid,
    ready: bool,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"update competition set standings_ready = $2 where competition_id = $1"#,
        competition_id,
        ready
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Sets how many finished matches the competition's board counts (`add`: added to the count,
/// as one more result lands; else the count after building the board from every match).
pub async fn count_matches(
    conn: &mut PgConnection,
    competition_id: Uuid,
    n: i32,
    add: bool,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"
        update competition
        set counted_matches = case when $3 then counted_matches + $2 else $2 end
        where competition_id = $1
        "#,
        competition_id,
        n,
        add
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// How many finished matches the competition's board counts (`None`: no such competition).
pub async fn counted_matches(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<Option<i32>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"select counted_matches from competition where competition_id = $1"#,
        competition_id
    )
    .fetch_optional(db)
    .await?)
}

/// One entry's whole history, oldest first.
pub async fn points(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
    submission_id: Uuid,
) -> Result<Vec<serde_json::Value>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"
        select point from standing_point
        where competition_id = $1 and submission_id = $2
        order by seq
        "#,
        competition_id,
        submission_id
    )
    .fetch_all(db)
    .await?)
}

/// Every entry's whole history, each oldest first: `(entry, point)` grouped by entry.
pub async fn all_points(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<Vec<(Uuid, serde_json::Value)>, StoreError> {
    // language=PostgreSQL
    let rows = sqlx::query!(
        r#"
        select submission_id, point from standing_point
        where competition_id = $1
        order by submission_id, seq
        "#,
        competition_id
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.submission_id, r.point))
        .collect())
}

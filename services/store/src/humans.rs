//! People at the table: the turn the worker playing a match asks a person's seat
//! ([`ask`]), read by the site's play page ([`seat_of`], [`current`]) and answered there
//! ([`answer`]); the worker waits for the answer ([`answer_of`]). One row per seat, replaced at
//! each turn; an answer counts only for the turn it names, once, before the deadline and
//! within the legal list — a stale tab, a double click or a forged index changes nothing.

use serde::Serialize;
use serde_json::Value;
use sqlx::PgExecutor;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::{MatchStatus, StoreError};

/// The turn a seat's person is asked.
#[derive(Debug, Clone, Serialize)]
pub struct Turn {
    pub seat: i32,
    /// 1 for the seat's first turn of the match, then 2, 3, …
    pub turn: i32,
    /// 0-based game of the match.
    pub game: i32,
    pub observation: Value,
    pub legal: Value,
    pub recent: Value,
    #[serde(with = "time::serde::rfc3339")]
    pub deadline: OffsetDateTime,
    /// Chosen already (the person waits for the others).
    pub answer: Option<i32>,
    /// The person resigned: every turn is answered with the first legal move.
    pub resigned: bool,
}

/// A person's seat in a match, and the match's state.
#[derive(Debug, Clone)]
pub struct PersonSeat {
    pub seat: i32,
    pub move_secs: i32,
    pub game: String,
    pub status: MatchStatus,
}

/// What the worker asks: turn `turn` of the person at `seat`.
#[derive(Debug, Clone)]
pub struct Ask<'a> {
    pub match_id: Uuid,
    pub seat: i32,
    pub turn: i32,
    pub game: i32,
    pub observation: &'a Value,
    pub legal: &'a Value,
    pub recent: &'a Value,
    /// Seconds the person has from now.
    pub secs: f64,
}

/// Replaces the seat's turn with `ask` (no answer yet; the first legal move at once when the
/// person resigned).
pub async fn ask(db: impl PgExecutor<'_>, ask: &Ask<'_>) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"
        insert into human_turn (match_id, seat, turn, game, observation, legal, recent, deadline)
        values ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))
        on conflict (match_id, seat) do update
            set turn = excluded.turn, game = excluded.game, observation = excluded.observation,
                legal = excluded.legal, recent = excluded.recent, asked_at = now(),
                deadline = excluded.deadline,
                answer = case when human_turn.resigned then 0 end,
                answered_at = case when human_turn.resigned then now() end
        "#,
        ask.match_id,
        ask.seat,
        ask.turn,
        ask.game,
        ask.observation,
        ask.legal,
        ask.recent,
        ask.secs
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The person's answer to turn `turn`, once given.
pub async fn answer_of(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    seat: i32,
    turn: i32,
) -> Result<Option<i32>, StoreError> {
    // language=PostgreSQL
    let answer = sqlx::query_scalar!(
        r#"select answer from human_turn where match_id = $1 and seat = $2 and turn = $3"#,
        match_id,
        seat,
        turn
    )
    .fetch_optional(db)
    .await?;
    Ok(answer.flatten())
}

/// The seat `user_id` has in the match, if they sit there.
pub async fn seat_of(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    user_id: Uuid,
) -> Result<Option<PersonSeat>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        PersonSeat,
        r#"
        select ms.seat, ms.human_move_secs as "move_secs!", m.game,
               m.status as "status: MatchStatus"
        from match_seat ms join match m using (match_id)
        where ms.match_id = $1 and ms.user_id = $2
        order by ms.seat
        limit 1
        "#,
        match_id,
        user_id
    )
    .fetch_optional(db)
    .await?)
}

/// The seat's current turn (`None` before its first).
pub async fn current(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    seat: i32,
) -> Result<Option<Turn>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Turn,
        r#"
        select seat, turn, game, observation, legal, recent, deadline, answer, resigned
        from human_turn where match_id = $1 and seat = $2
        "#,
        match_id,
        seat
    )
    .fetch_optional(db)
    .await?)
}

/// The person at `seat` resigns: the turn asked now (unless answered) and every later one are
/// answered with the first legal move. `false` when the seat has not been asked any turn yet.
pub async fn resign(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    seat: i32,
) -> Result<bool, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"
        update human_turn
        set resigned = true, answer = coalesce(answer, 0), answered_at = coalesce(answered_at, now())
        where match_id = $1 and seat = $2
        "#,
        match_id,
        seat
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Why an answer was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Not the turn being asked (a stale page), or answered already.
    NotAsked,
    /// Past the deadline: the referee plays (or played) for the seat.
    TooLate,
    /// Not an index of the legal list.
    NoSuchMove,
}

/// Records `index` as the answer to turn `turn` of the seat.
pub async fn answer(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    seat: i32,
    turn: i32,
    index: i32,
) -> Result<Result<(), Refused>, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        with t as (select turn, answer, deadline, jsonb_array_length(legal) as n_moves
                   from human_turn where match_id = $1 and seat = $2 for update),
             done as (update human_turn h set answer = $4, answered_at = now()
                      from t
                      where h.match_id = $1 and h.seat = $2 and t.turn = $3 and t.answer is null
                        and t.deadline > now() and $4 >= 0 and $4 < t.n_moves
                      returning 1)
        select t.turn as "turn!", t.answer, t.deadline < now() as "late!",
               exists (select 1 from done) as "taken!"
        from t
        "#,
        match_id,
        seat,
        turn,
        index
    )
    .fetch_optional(db)
    .await?;
    Ok(match row {
        Some(r) if r.taken => Ok(()),
        Some(r) if r.turn != turn || r.answer.is_some() => Err(Refused::NotAsked),
        Some(r) if r.late => Err(Refused::TooLate),
        Some(_) => Err(Refused::NoSuchMove),
        None => Err(Refused::NotAsked),
    })
}

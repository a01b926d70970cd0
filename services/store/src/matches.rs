//! Matches: their bulk creation with seats and jobs, the worker's reads and its result write,
//! and the reads the pages use.
//!
//! A match is created `queued` with one `match` job; the worker's claim makes it `running`;
//! [`record_result`] (inside the worker's result transaction, next to `jobs::complete`) writes
//! the seat results and the replay and makes it `finished`. Failures are written by the queue
//! (`jobs::give_up_attempt`, `jobs::reap_expired`).

use sqlx::{PgConnection, PgExecutor, Postgres, Transaction};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::state::{EndState, MatchStatus};
use crate::{blobs, StoreError};

pub mod listing;
pub mod progress;

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatRef {
    Submission(Uuid),
    /// A built-in bot by name (`croupier_games::bots::names`).
    Builtin(String),
    /// A signed-in person, playing in the browser with `move_secs` per move.
    Human {
        user_id: Uuid,
        move_secs: i32,
    },
}

/// A planned match. Seats are in turn order (seat 0 first).
#[derive(Debug, Clone, PartialEq)]
pub struct NewMatch {
    pub ordinal: i32,
    pub game: String,
    pub rules: String,
    /// Stored bit for bit as a `bigint` (see [`Match::seed_u64`]).
    pub seed: u64,
    pub settings: serde_json::Value,
    pub seats: Vec<SeatRef>,
    /// The league's duplicate set (a Bridge table scores with the other table of its set);
    /// `None` outside competitions.
    pub duplicate_set: Option<i32>,
}

/// A match. Serialized, it holds what anyone who may see the match may read: never its seed
/// (see [`Match::shown_seed`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Match {
    pub match_id: Uuid,
    pub competition_id: Option<Uuid>,
    /// The challenge (or A/B test, or table with a person) it was played for: then it is
    /// private to the challenge's team and admins (the `match_visible` rule of the migrations).
    pub challenge_id: Option<Uuid>,
    pub game: String,
    pub rules: String,
    /// The seed as stored; the engines take [`Match::seed_u64`], people see
    /// [`Match::shown_seed`].
    #[serde(skip)]
    pub seed: i64,
    /// Nothing more will be played on a seed drawn from the same base seed (its competition's
    /// or challenge's; the `seeds_out` rule of the migrations): the seed may be shown.
    #[serde(skip)]
    pub seed_out: bool,
    /// No match dealt from the same seed is queued or running (the `deal_out` rule): what was
    /// dealt — the replay, the protocol log, the seats' logs — may be shown.
    #[serde(skip)]
    pub deal_out: bool,
    pub settings: serde_json::Value,
    pub ordinal: i32,
    pub status: MatchStatus,
    pub failure_reason: Option<String>,
    #[serde(with = "time::serde::rfc3339::option")]
    pub started_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339::option")]
    pub finished_at: Option<OffsetDateTime>,
}

impl Match {
    /// The seed as the engines take it.
    pub fn seed_u64(&self) -> u64 {
        u64::from_ne_bytes(self.seed.to_ne_bytes())
    }

    /// The seed as people may see it: `None` until [`seed_out`](Self::seed_out), for everyone
    /// (administrators included: a person may be at one of its tables).
    pub fn shown_seed(&self) -> Option<u64> {
        self.seed_out.then(|| self.seed_u64())
    }
}

/// A seat as the worker needs it to start the bot.
#[derive(Debug, Clone)]
pub struct RunSeat {
    pub seat: i32,
    pub submission_id: Option<Uuid>,
    pub builtin: Option<String>,
    /// A person's seat: who, and their time per move.
    pub user_id: Option<Uuid>,
    pub person: Option<String>,
    pub human_move_secs: Option<i32>,
    pub team_name: Option<String>,
    pub version: Option<i32>,
    pub artifact_sha256: Option<Vec<u8>>,
    pub run_command: Option<Vec<String>>,
}

/// A seat with its result, once the match is finished (result fields are `None` before).
#[derive(Debug, Clone, serde::Serialize)]
pub struct SeatWithResult {
    pub seat: i32,
    pub submission_id: Option<Uuid>,
    pub builtin: Option<String>,
    /// A person's seat: their user name.
    pub person: Option<String>,
    pub team_id: Option<Uuid>,
    pub team_name: Option<String>,
    pub version: Option<i32>,
    pub rank: Option<i32>,
    pub score: Option<f64>,
    pub end_state: Option<EndState>,
    pub end_detail: Option<String>,
    pub moves: Option<i32>,
    pub cpu_ms: Option<i64>,
    pub max_rss_kb: Option<i64>,
    /// Per-move milliseconds; only for the owning team.
    pub timings: Option<serde_json::Value>,
    pub stderr_sha256: Option<Vec<u8>>,
    /// The seat's move records (JSON), only for the owning team.
    pub move_log_sha256: Option<Vec<u8>>,
}

/// One seat's result, as the worker writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSeatResult {
    pub seat: i32,
    pub rank: i32,
    pub score: f64,
    pub end_state: EndState,
    pub end_detail: Option<String>,
    pub moves: i32,
    pub cpu_ms: i64,
    pub max_rss_kb: i64,
    pub timings: serde_json::Value,
    /// The end of the seat's stderr (stored as a blob when not empty).
    pub stderr_tail: Vec<u8>,
    /// The seat's move records as JSON (stored as a blob when not empty).
    pub move_log: Vec<u8>,
    /// The seat's score in each game of the match (Bridge: each board), game order.
    pub game_scores: Vec<i64>,
}

/// Whose matches are inserted: a competition's (its board counts them) or a challenge's
/// (unrated: no competition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    Competition(Uuid),
    Challenge(Uuid),
}

/// Inserts the planned matches of a competition, their seats and one queued job each, and
/// returns their ids in `planned` order. Run it in a transaction to make the batch atomic.
pub async fn create_many(
    conn: &mut PgConnection,
    competition_id: Uuid,
    planned: &[NewMatch],
) -> Result<Vec<Uuid>, StoreError> {
    insert(conn, Owner::Competition(competition_id), planned).await
}

/// [`create_many`] for any [`Owner`].
pub async fn insert(
    conn: &mut PgConnection,
    owner: Owner,
    planned: &[NewMatch],
) -> Result<Vec<Uuid>, StoreError> {
    let (competition_id, challenge_id) = match owner {
        Owner::Competition(id) => (Some(id), None),
        Owner::Challenge(id) => (None, Some(id)),
    };
    let ids: Vec<Uuid> = planned.iter().map(|_| Uuid::now_v7()).collect();
    let ordinals: Vec<i32> = planned.iter().map(|m| m.ordinal).collect();
    let games: Vec<String> = planned.iter().map(|m| m.game.clone()).collect();
    let rules: Vec<String> = planned.iter().map(|m| m.rules.clone()).collect();
    let seeds: Vec<i64> = planned
        .iter()
        .map(|m| i64::from_ne_bytes(m.seed.to_ne_bytes()))
        .collect();
    let settings: Vec<serde_json::Value> = planned.iter().map(|m| m.settings.clone()).collect();
    let sets: Vec<Option<i32>> = planned.iter().map(|m| m.duplicate_set).collect();
    // language=PostgreSQL
    sqlx::query!(
        r#"
        insert into match (match_id, competition_id, challenge_id, game, rules, seed, settings, ordinal, duplicate_set)
        select m.id, $2, $9, m.game, m.rules, m.seed, m.settings, m.ordinal, m.duplicate_set
        from unnest($1::uuid[], $3::text[], $4::text[], $5::bigint[], $6::jsonb[], $7::int[], $8::int[])
             as m(id, game, rules, seed, settings, ordinal, duplicate_set)
        "#,
        &ids,
        competition_id as Option<Uuid>,
        &games,
        &rules,
        &seeds,
        &settings,
        &ordinals,
        &sets as &[Option<i32>],
        challenge_id as Option<Uuid>
    )
    .execute(&mut *conn)
    .await?;
    let (mut seat_match, mut seat_no, mut seat_sub, mut seat_builtin) =
        (vec![], vec![], vec![], vec![]);
    let (mut seat_user, mut seat_secs) = (vec![], vec![]);
    for (id, m) in ids.iter().zip(planned) {
        for (n, seat) in (0..).zip(&m.seats) {
            seat_match.push(*id);
            seat_no.push(n);
            let (mut sub, mut builtin, mut user, mut secs) = (None, None, None, None);
            match seat {
                SeatRef::Submission(s) => sub = Some(*s),
                SeatRef::Builtin(name) => builtin = Some(name.clone()),
                SeatRef::Human { user_id, move_secs } => {
                    (user, secs) = (Some(*user_id), Some(*move_secs));
                }
            }
            seat_sub.push(sub);
            seat_builtin.push(builtin);
            seat_user.push(user);
            seat_secs.push(secs);
        }
    }
    // language=PostgreSQL
    sqlx::query!(
        r#"
        insert into match_seat (match_id, seat, submission_id, builtin, user_id, human_move_secs)
        select * from unnest($1::uuid[], $2::int[], $3::uuid[], $4::text[], $5::uuid[], $6::int[])
        "#,
        &seat_match,
        &seat_no,
        &seat_sub as &[Option<Uuid>],
        &seat_builtin as &[Option<String>],
        &seat_user as &[Option<Uuid>],
        &seat_secs as &[Option<i32>]
    )
    .execute(&mut *conn)
    .await?;
    // language=PostgreSQL
    sqlx::query!(
        r#"insert into job (kind, match_id) select 'match', unnest($1::uuid[])"#,
        &ids
    )
    .execute(&mut *conn)
    .await?;
    Ok(ids)
}

/// A match, whoever asks (the worker, the board): not for what people are shown.
pub async fn get(db: impl PgExecutor<'_>, match_id: Uuid) -> Result<Match, StoreError> {
    fetch(db, match_id, None).await
}

/// A match that `viewer` (a user; `None` when signed out) may see — anyone a competition's,
/// only its team's members and administrators a challenge's — else [`StoreError::NotFound`],
/// as for a match that does not exist.
pub async fn get_visible(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<Match, StoreError> {
    fetch(db, match_id, Some(viewer)).await
}

/// `match_id`, if `viewer` is `None` (anyone may) or the match is visible to the viewer in it.
async fn fetch(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    viewer: Option<Option<Uuid>>,
) -> Result<Match, StoreError> {
    // language=PostgreSQL
    sqlx::query_as!(
        Match,
        r#"
        select match_id, competition_id, challenge_id, game, rules, seed,
               seeds_out(competition_id, challenge_id) as "seed_out!",
               deal_out(game, seed) as "deal_out!", settings, ordinal,
               status as "status: MatchStatus", failure_reason, started_at, finished_at
        from match
        where match_id = $1 and (not $2 or match_visible(challenge_id, $3))
        "#,
        match_id,
        viewer.is_some(),
        viewer.flatten()
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

/// A competition's matches in schedule order.
pub async fn of_competition(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<Vec<Match>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Match,
        r#"
        select match_id, competition_id, challenge_id, game, rules, seed,
               seeds_out(competition_id, challenge_id) as "seed_out!",
               deal_out(game, seed) as "deal_out!", settings, ordinal,
               status as "status: MatchStatus", failure_reason, started_at, finished_at
        from match where competition_id = $1
        order by ordinal, match_id
        "#,
        competition_id
    )
    .fetch_all(db)
    .await?)
}

/// The seats of a match with what the worker needs to start them, in seat order.
pub async fn run_seats(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
) -> Result<Vec<RunSeat>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        RunSeat,
        r#"
        select ms.seat, ms.submission_id, ms.builtin, ms.user_id, u.username as "person?",
               ms.human_move_secs, t.name as "team_name?", s.version as "version?",
               s.artifact_sha256, s.run_command
        from match_seat ms
             left join submission s using (submission_id)
             left join team t using (team_id)
             left join app_user u on u.user_id = ms.user_id
        where ms.match_id = $1
        order by ms.seat
        "#,
        match_id
    )
    .fetch_all(db)
    .await?)
}

/// The seats of a match with their results (when finished), in seat order.
pub async fn seats_with_results(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
) -> Result<Vec<SeatWithResult>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        SeatWithResult,
        r#"
        select ms.seat, ms.submission_id, ms.builtin, u.username as "person?", s.team_id as "team_id?", t.name as "team_name?",
               s.version as "version?", r.rank as "rank?", r.score as "score?", r.end_state as "end_state?: EndState",
               r.end_detail, r.moves as "moves?", r.cpu_ms as "cpu_ms?", r.max_rss_kb as "max_rss_kb?",
               r.timings as "timings?", r.stderr_sha256, r.move_log_sha256
        from match_seat ms
             left join submission s using (submission_id)
             left join team t using (team_id)
             left join app_user u on u.user_id = ms.user_id
             left join seat_result r using (match_id, seat)
        where ms.match_id = $1
        order by ms.seat
        "#,
        match_id
    )
    .fetch_all(db)
    .await?)
}

/// The replay blob of a finished match.
pub async fn replay(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
) -> Result<Option<Vec<u8>>, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"select b.sha256, b.data from replay r join blob b on b.sha256 = r.sha256 where r.match_id = $1"#,
        match_id
    )
    .fetch_optional(db)
    .await?;
    match row {
        Some(r) => Ok(Some(blobs::resolve(&r.sha256, r.data).await?)),
        None => Ok(None),
    }
}

/// Marks a running match `finished` and writes its seat results and replay, in the caller's
/// result transaction. `false`: the match is no longer running (it was cancelled meanwhile);
/// nothing was written.
/// Blobs to store with a statement: their hashes, sizes and bytes, as arrays.
#[derive(Default)]
struct NewBlobs<'a> {
    sha: Vec<Vec<u8>>,
    size: Vec<i64>,
    data: Vec<&'a [u8]>,
}

/// [`NewBlobs`] put where blobs go: the rows' bytes (none for a blob in the object store) and
/// where each is.
struct PlacedBlobs<'a> {
    data: Vec<Option<&'a [u8]>>,
    stored: Vec<String>,
}

impl<'a> NewBlobs<'a> {
    async fn place(&self) -> Result<PlacedBlobs<'a>, StoreError> {
        let mut placed = PlacedBlobs {
            data: Vec::with_capacity(self.data.len()),
            stored: Vec::with_capacity(self.data.len()),
        };
        for bytes in &self.data {
            let (data, stored) = blobs::place(bytes).await?;
            placed.data.push(data);
            placed.stored.push(stored.to_owned());
        }
        Ok(placed)
    }
}

impl<'a> NewBlobs<'a> {
    /// Adds `bytes` (nothing when empty, once when repeated); its hash.
    fn add(&mut self, bytes: &'a [u8]) -> Option<Vec<u8>> {
        if bytes.is_empty() {
            return None;
        }
        let sha = blobs::digest(bytes).to_vec();
        if !self.sha.contains(&sha) {
            self.sha.push(sha.clone());
            self.size
                .push(i64::try_from(bytes.len()).unwrap_or(i64::MAX));
            self.data.push(bytes);
        }
        Some(sha)
    }
}

pub async fn record_result(
    tx: &mut Transaction<'_, Postgres>,
    match_id: Uuid,
    seats: &[NewSeatResult],
    replay: &[u8],
) -> Result<bool, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"update match set status = 'finished', finished_at = now() where match_id = $1 and status = 'running'"#,
        match_id
    )
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    // Every seat's row and its blobs (stderr tail, move records) in one statement, one round
    // trip on the result's path; a game-scores list travels as its array literal.
    let mut blobs = NewBlobs::default();
    let stderr: Vec<Option<Vec<u8>>> = seats.iter().map(|s| blobs.add(&s.stderr_tail)).collect();
    let move_log: Vec<Option<Vec<u8>>> = seats.iter().map(|s| blobs.add(&s.move_log)).collect();
    let game_scores: Vec<String> = seats
        .iter()
        .map(|s| {
            let list: Vec<String> = s.game_scores.iter().map(i64::to_string).collect();
            format!("{{{}}}", list.join(","))
        })
        .collect();
    let placed = blobs.place().await?;
    // language=PostgreSQL
    sqlx::query!(
        r#"
        with stored as (
            insert into blob (sha256, size, data, stored)
            select * from unnest($14::bytea[], $15::bigint[], $16::bytea[], $17::text[])
            on conflict (sha256) do nothing
        )
        insert into seat_result (match_id, seat, rank, score, end_state, end_detail, moves, cpu_ms,
                                 max_rss_kb, timings, stderr_sha256, game_scores, move_log_sha256)
        select $1, s.seat, s.rank, s.score, s.end_state, s.end_detail, s.moves, s.cpu_ms,
               s.max_rss_kb, s.timings, s.stderr, s.game_scores::bigint[], s.move_log
        from unnest($2::int[], $3::int[], $4::float8[], $5::text[], $6::text[], $7::int[],
                    $8::bigint[], $9::bigint[], $10::jsonb[], $11::bytea[], $12::text[], $13::bytea[])
             as s(seat, rank, score, end_state, end_detail, moves, cpu_ms, max_rss_kb, timings,
                  stderr, game_scores, move_log)
        "#,
        match_id,
        &seats.iter().map(|s| s.seat).collect::<Vec<_>>(),
        &seats.iter().map(|s| s.rank).collect::<Vec<_>>(),
        &seats.iter().map(|s| s.score).collect::<Vec<_>>(),
        &seats.iter().map(|s| s.end_state.as_str().to_owned()).collect::<Vec<_>>(),
        &seats.iter().map(|s| s.end_detail.clone()).collect::<Vec<_>>() as &[Option<String>],
        &seats.iter().map(|s| s.moves).collect::<Vec<_>>(),
        &seats.iter().map(|s| s.cpu_ms).collect::<Vec<_>>(),
        &seats.iter().map(|s| s.max_rss_kb).collect::<Vec<_>>(),
        &seats.iter().map(|s| s.timings.clone()).collect::<Vec<_>>(),
        &stderr as &[Option<Vec<u8>>],
        &game_scores,
        &move_log as &[Option<Vec<u8>>],
        &blobs.sha,
        &blobs.size,
        &placed.data as &[Option<&[u8]>],
        &placed.stored
    )
    .execute(&mut **tx)
    .await?;
    // The blob and the replay row in one statement (one round trip on the result's path).
    let sha = blobs::digest(replay);
    let size = i64::try_from(replay.len()).unwrap_or(i64::MAX);
    let (data, stored) = blobs::place(replay).await?;
    // language=PostgreSQL
    sqlx::query!(
        r#"
        with stored as (
            insert into blob (sha256, size, data, stored) values ($2, $3, $4, $5)
            on conflict (sha256) do nothing
        )
        insert into replay (match_id, sha256) values ($1, $2)
        "#,
        match_id,
        &sha[..],
        size,
        data,
        stored
    )
    .execute(&mut **tx)
    .await?;
    Ok(true)
}

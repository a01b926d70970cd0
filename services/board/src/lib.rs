//! Leaderboards kept as results land.
//!
//! When a worker records a match result it calls [`record`] in the same transaction: the
//! match's entrants' records (standings tally and rating, `croupier_league::Record`) are read,
//! the league adds the match to them ([`croupier_league::absorb`]; a Bridge table when the other
//! table of its duplicate set has finished too), and they are written back with one history
//! point per entrant. A board read ([`read`]) is then one indexed query over the entries,
//! however many matches were played.
//!
//! **Exactly once.** The result and its board update commit together or not at all, and the
//! result is written only while the match is `running` (`matches::record_result`), so a retried
//! or duplicated job can never count twice. Writers of one competition take its row
//! ([`croupier_store::standings::lock`]) and so add results one at a time.
//!
//! **Built on first use.** A competition older than the board (or one whose stored records
//! cannot be read any more) is built from all its finished matches by the first writer or
//! reader that finds it not ready ([`ensure`]); [`rebuild`] does it on demand.

pub mod challenge;
mod plans;
mod results;
pub mod stages;

use std::collections::BTreeMap;

use croupier_games::GameId;
use croupier_league::{CompetitionSettings, HistoryPoint, MatchResult, Outline, Record};
use croupier_store::standings::{self, Held, Standing};
use croupier_store::{competitions, PgPool, StoreError};
use sqlx::PgConnection;
use uuid::Uuid;

pub use plans::new_matches;
pub use results::to_results;

#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The competition's stored game, settings or records cannot be read.
    #[error("the leaderboard of competition {competition_id} cannot be read: {reason}")]
    Corrupt {
        competition_id: Uuid,
        reason: String,
    },
}

impl From<sqlx::Error> for BoardError {
    fn from(e: sqlx::Error) -> Self {
        BoardError::Store(e.into())
    }
}

/// One entry's row of a board.
#[derive(Debug, Clone)]
pub struct Entry {
    pub submission_id: Uuid,
    pub record: Record,
    /// Its history in at most [`Outline::CAP`] points.
    pub outline: Outline,
}

/// Adds the just-finished match `match_id` to its competition's board, inside the transaction
/// that recorded its result. Matches outside competitions, and matches with a built-in bot in a
/// seat, change no board. A board whose stored records cannot be read is marked for a rebuild
/// (logged) instead of failing the result.
pub async fn record(conn: &mut PgConnection, match_id: Uuid) -> Result<(), StoreError> {
    let Some((competition_id, held)) = standings::lock_for_match(conn, match_id).await? else {
        return Ok(());
    };
    let done = match held.ready {
        true => add(conn, competition_id, &held, match_id).await,
        false => build(conn, competition_id, &held).await,
    };
    match done {
        Ok(()) => Ok(()),
        Err(BoardError::Store(e)) => Err(e),
        Err(BoardError::Corrupt { reason, .. }) => {
            tracing::warn!(%competition_id, %reason, "leaderboard unreadable: it will be rebuilt");
            standings::set_ready(conn, competition_id, false).await
        }
    }
}

/// Builds the board of `competition_id` if it is not built yet (a reader's first visit).
pub async fn ensure(pool: &PgPool, competition_id: Uuid) -> Result<(), BoardError> {
    if standings::is_ready(pool, competition_id).await? != Some(false) {
        return Ok(());
    }
    let mut tx = pool.begin().await?;
    if let Some(held) = standings::lock(&mut tx, competition_id).await? {
        if !held.ready {
            build(&mut tx, competition_id, &held).await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

/// Forgets the board of `competition_id` and builds it again from every finished match.
pub async fn rebuild(pool: &PgPool, competition_id: Uuid) -> Result<(), BoardError> {
    let mut tx = pool.begin().await?;
    if let Some(held) = standings::lock(&mut tx, competition_id).await? {
        build(&mut tx, competition_id, &held).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A board as stored: every entry's row, in no order, and how many finished matches it counts
/// (those with an uploaded bot in every seat).
#[derive(Debug, Clone)]
pub struct Stored {
    pub entries: Vec<Entry>,
    pub counted: usize,
}

/// The board of `competition_id` (built first if need be).
pub async fn read(pool: &PgPool, competition_id: Uuid) -> Result<Stored, BoardError> {
    ensure(pool, competition_id).await?;
    let rows = standings::all(pool, competition_id).await?;
    let entries = rows
        .into_iter()
        .map(|row| entry(competition_id, row))
        .collect::<Result<_, _>>()?;
    let counted = standings::counted_matches(pool, competition_id).await?;
    let counted = counted.map_or(0, |n| usize::try_from(n).unwrap_or(0));
    Ok(Stored { entries, counted })
}

/// One entry's whole history in the competition, oldest first.
pub async fn history(
    pool: &PgPool,
    competition_id: Uuid,
    submission_id: Uuid,
) -> Result<Vec<HistoryPoint>, BoardError> {
    ensure(pool, competition_id).await?;
    let points = standings::points(pool, competition_id, submission_id).await?;
    points
        .into_iter()
        .map(|p| parse(competition_id, p))
        .collect()
}

/// Every entry's whole history in the competition.
pub async fn histories(
    pool: &PgPool,
    competition_id: Uuid,
) -> Result<BTreeMap<Uuid, Vec<HistoryPoint>>, BoardError> {
    ensure(pool, competition_id).await?;
    let mut out: BTreeMap<Uuid, Vec<HistoryPoint>> = BTreeMap::new();
    for (who, p) in standings::all_points(pool, competition_id).await? {
        out.entry(who).or_default().push(parse(competition_id, p)?);
    }
    Ok(out)
}

/// For a finished match, its own result and the other finished tables of its duplicate set,
/// as the league reads them (`None`: not finished, or a built-in bot played).
pub async fn with_mates(
    pool: &PgPool,
    game: GameId,
    format: croupier_league::Format,
    match_id: Uuid,
) -> Result<Option<(MatchResult<Uuid>, Vec<MatchResult<Uuid>>)>, BoardError> {
    let mut conn = pool.acquire().await?;
    let (landed, mates) = standings::landed(&mut conn, match_id).await?;
    let Some(landed) = to_results(game, format, &landed).pop() else {
        return Ok(None);
    };
    Ok(Some((landed, to_results(game, format, &mates))))
}

async fn add(
    conn: &mut PgConnection,
    competition_id: Uuid,
    held: &Held,
    match_id: Uuid,
) -> Result<(), BoardError> {
    let (game, format) = game_of(competition_id, held)?;
    let (landed, mates) = standings::landed(conn, match_id).await?;
    let Some(landed) = to_results(game, format, &landed).pop() else {
        return Ok(());
    };
    let mates = to_results(game, format, &mates);
    let mut ids: Vec<Uuid> = landed.seats.iter().map(|s| s.entrant).collect();
    ids.sort();
    ids.dedup();
    let stored = standings::of_entries(conn, competition_id, &ids).await?;
    let mut records = BTreeMap::new();
    let mut outlines = BTreeMap::new();
    for row in stored {
        let e = entry(competition_id, row)?;
        records.insert(e.submission_id, e.record);
        outlines.insert(e.submission_id, e.outline);
    }
    let mates: Vec<&MatchResult<Uuid>> = mates.iter().collect();
    let points = croupier_league::absorb(game, &landed, &mates, &mut records);
    for (who, point) in &points {
        outlines.entry(*who).or_default().push(*point);
    }
    save(conn, competition_id, records, outlines, points).await?;
    standings::count_matches(conn, competition_id, 1, true).await?;
    Ok(())
}

/// History points written per statement when a board is built from every match.
const POINTS_PER_STATEMENT: usize = 10_000;

/// Builds the board of `competition_id` from every finished match and marks it ready.
async fn build(
    conn: &mut PgConnection,
    competition_id: Uuid,
    held: &Held,
) -> Result<(), BoardError> {
    let (game, format) = game_of(competition_id, held)?;
    standings::clear(conn, competition_id).await?;
    let seats = competitions::seat_scores(&mut *conn, competition_id).await?;
    let results = to_results(game, format, &seats);
    drop(seats);
    let counted = i32::try_from(results.len()).unwrap_or(i32::MAX);
    standings::count_matches(conn, competition_id, counted, false).await?;
    let (records, histories) = croupier_league::records(game, &results);
    drop(results);
    let mut outlines: BTreeMap<Uuid, Outline> = BTreeMap::new();
    for (who, history) in &histories {
        let outline = outlines.entry(*who).or_default();
        history.iter().for_each(|p| outline.push(*p));
    }
    save(conn, competition_id, records, outlines, Vec::new()).await?;
    // The whole history, a bounded number of points per statement.
    let mut chunk = Vec::with_capacity(POINTS_PER_STATEMENT);
    for (who, history) in histories {
        for point in history {
            chunk.push((who, point));
            if chunk.len() == POINTS_PER_STATEMENT {
                save(
                    conn,
                    competition_id,
                    BTreeMap::new(),
                    BTreeMap::new(),
                    std::mem::take(&mut chunk),
                )
                .await?;
            }
        }
    }
    save(
        conn,
        competition_id,
        BTreeMap::new(),
        BTreeMap::new(),
        chunk,
    )
    .await?;
    standings::set_ready(conn, competition_id, true).await?;
    Ok(())
}

async fn save(
    conn: &mut PgConnection,
    competition_id: Uuid,
    records: BTreeMap<Uuid, Record>,
    mut outlines: BTreeMap<Uuid, Outline>,
    points: Vec<(Uuid, HistoryPoint)>,
) -> Result<(), BoardError> {
    let json = |v: serde_json::Result<serde_json::Value>| {
        v.map_err(|e| BoardError::Corrupt {
            competition_id,
            reason: e.to_string(),
        })
    };
    let mut rows = Vec::with_capacity(records.len());
    for (submission_id, record) in records {
        let outline = outlines.remove(&submission_id).unwrap_or_default();
        rows.push(Standing {
            submission_id,
            record: json(serde_json::to_value(record))?,
            outline: json(serde_json::to_value(outline))?,
        });
    }
    let mut stored_points = Vec::with_capacity(points.len());
    for (who, point) in points {
        stored_points.push((who, json(serde_json::to_value(point))?));
    }
    standings::save(conn, competition_id, &rows, &stored_points).await?;
    Ok(())
}

fn game_of(
    competition_id: Uuid,
    held: &Held,
) -> Result<(GameId, croupier_league::Format), BoardError> {
    let corrupt = |reason: String| BoardError::Corrupt {
        competition_id,
        reason,
    };
    let game: GameId = held.game.parse().map_err(|e| corrupt(format!("{e}")))?;
    let settings =
        CompetitionSettings::from_stored(&held.settings).map_err(|e| corrupt(e.to_string()))?;
    Ok((game, settings.format_of(game)))
}

fn entry(competition_id: Uuid, row: Standing) -> Result<Entry, BoardError> {
    Ok(Entry {
        submission_id: row.submission_id,
        record: parse(competition_id, row.record)?,
        outline: parse(competition_id, row.outline)?,
    })
}

fn parse<T: serde::de::DeserializeOwned>(
    competition_id: Uuid,
    value: serde_json::Value,
) -> Result<T, BoardError> {
    serde_json::from_value(value).map_err(|e| BoardError::Corrupt {
        competition_id,
        reason: e.to_string(),
    })
}

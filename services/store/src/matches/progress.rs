//! How far a running match has got, as its worker last published it (`match_progress`): the
//! game being played (from 0) and the entries recorded in it. The worker forgets it once the
//! match has been played.

use sqlx::PgExecutor;
use uuid::Uuid;

use crate::StoreError;

/// Records that match `match_id` is at game `game` with `moves` entries in it.
pub async fn publish(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    game: i32,
    moves: i32,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"
        insert into match_progress (match_id, game, moves) values ($1, $2, $3)
        on conflict (match_id) do update
            set game = excluded.game, moves = excluded.moves, updated_at = now()
        "#,
        match_id,
        game,
        moves
    )
    .execute(db)
    .await?;
    Ok(())
}

/// `(game, moves)` as last published (`None`: nothing yet).
pub async fn read(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
) -> Result<Option<(i32, i32)>, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"select game, moves from match_progress where match_id = $1"#,
        match_id
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| (r.game, r.moves)))
}

/// Forgets what was published of match `match_id` (once it is no longer being played).
pub async fn forget(db: impl PgExecutor<'_>, match_id: Uuid) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"delete from match_progress where match_id = $1"#,
        match_id
    )
    .execute(db)
    .await?;
    Ok(())
}

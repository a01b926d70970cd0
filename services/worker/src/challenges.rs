//! The challenge tick, beside the ladder tick, ends challenges and A/B tests alike
//! (`challenges::finish`, status `finished`): a challenge (all its matches queued at creation)
//! once its last match has ended; an A/B test, kept fed with a few duplicate groups at a time, as
//! soon as its sequential test decides (or its games run out): the verdict is stored and its
//! queued matches are cancelled.

use croupier_board::challenge::{ab_seatings, plan, report};
use croupier_games::GameId;
use croupier_store::challenges;
use croupier_store::matches::{self, Owner};
use croupier_store::{PgPool, StoreError};
use uuid::Uuid;

/// Duplicate groups an A/B test keeps queued or running.
const PENDING_GROUPS: i64 = 2;

/// Runs one tick over every running challenge and A/B test; returns how many matches it queued.
pub async fn tick(pool: &PgPool) -> Result<usize, StoreError> {
    let mut queued = 0;
    for challenge_id in challenges::running(pool).await? {
        let mut tx = pool.begin().await?;
        if challenges::take(&mut tx, challenge_id).await?.is_none() {
            continue;
        }
        queued += step(&mut tx, challenge_id).await?;
        tx.commit().await?;
    }
    Ok(queued)
}

async fn step(conn: &mut sqlx::PgConnection, challenge_id: Uuid) -> Result<usize, StoreError> {
    let challenge = challenges::get(&mut *conn, challenge_id).await?;
    let seats = challenges::seats(&mut *conn, challenge_id).await?;
    if challenge.kind != "ab_test" {
        let now = report(challenge, &seats);
        if now.matches.queued + now.matches.running == 0 {
            tracing::info!(%challenge_id, matches = now.match_list.len(), "challenge finished");
            challenges::finish(conn, challenge_id, None).await?;
        }
        return Ok(0);
    }
    let Ok(game) = challenge.game.parse::<GameId>() else {
        challenges::finish(conn, challenge_id, None).await?;
        return Ok(0);
    };
    let arms: Vec<Uuid> = serde_json::from_value(challenge.seats.clone()).unwrap_or_default();
    let [a, b] = arms.as_slice() else {
        challenges::finish(conn, challenge_id, None).await?;
        return Ok(0);
    };
    let (a, b) = (*a, *b);
    let games = challenge.games;
    let (base_seed, rules) = (challenge.base_seed, challenge.rules.clone());
    let now = report(challenge, &seats);
    let Some(ab) = now.ab else { return Ok(0) };
    if ab.verdict != croupier_league::Verdict::Continue {
        tracing::info!(%challenge_id, verdict = ?ab.verdict, games = ab.games, "A/B test decided");
        let stored = serde_json::to_value(ab).ok();
        challenges::finish(conn, challenge_id, stored.as_ref()).await?;
        return Ok(0);
    }
    let seatings = ab_seatings(game, game.default_seats(), a, b);
    let per_group = i64::try_from(seatings.len()).unwrap_or(1).max(1);
    let (pending, next_ordinal, next_group) = challenges::usage(conn, challenge_id).await?;
    let room = PENDING_GROUPS - (pending + per_group - 1) / per_group;
    let left = i64::from(games) - i64::from(next_group);
    let want = u32::try_from(room.min(left).max(0)).unwrap_or(0);
    if want == 0 {
        return Ok(0);
    }
    let first = u32::try_from(next_group).unwrap_or(0);
    let planned = plan(
        game,
        &rules,
        u64::from_ne_bytes(base_seed.to_ne_bytes()),
        &seatings,
        first..first + want,
        next_ordinal,
    );
    matches::insert(conn, Owner::Challenge(challenge_id), &planned).await?;
    Ok(planned.len())
}

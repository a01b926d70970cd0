//! The fair-play rule in the hosted pipeline: a submission that crashes on every call ranks
//! last in the stored seat results and the stored replay names its seat idle
//! (docs/fair-play.md).

mod common;

use common::*;
use croupier_store::matches::{self, NewMatch, SeatRef};
use croupier_store::PgPool;
use uuid::Uuid;

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_submission_that_crashes_on_every_call_is_stored_last_and_idle(pool: PgPool) {
    // Arrange: two correct bots and one that exits 1 at once. The crashing one fails its
    // validation game; it is marked ready by hand, as if it had crashed only later.
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let mut subs = Vec::new();
    for (name, source) in [
        ("alpha", python_bot(0.0)),
        ("crash", "import sys\nsys.exit(1)\n".to_owned()),
        ("gamma", python_bot(0.0)),
    ] {
        let team = team(&pool, name).await;
        subs.push(upload(&pool, team, Language::Python3, "bot.py", &source).await);
    }
    assert_eq!(drain(&worker).await, 3);
    assert_eq!(
        submission(&pool, subs[1]).await.status,
        SubmissionStatus::Failed
    );
    sqlx::query("update submission set status = 'ready' where submission_id = $1")
        .bind(subs[1])
        .execute(&pool)
        .await
        .unwrap();
    let owner: Uuid = sqlx::query_scalar("select user_id from app_user limit 1")
        .fetch_one(&pool)
        .await
        .unwrap();
    let competition: Uuid = sqlx::query_scalar(
        "insert into competition (name, game, rules, created_by) values ('cup', 'nothanks', 'boardcoder', $1) returning competition_id",
    )
    .bind(owner)
    .fetch_one(&pool)
    .await
    .unwrap();
    let planned = vec![NewMatch {
        ordinal: 0,
        game: "nothanks".into(),
        rules: "boardcoder".into(),
        seed: 7,
        settings: serde_json::json!({}),
        seats: subs.iter().map(|s| SeatRef::Submission(*s)).collect(),
        duplicate_set: None,
    }];
    let ids = matches::create_many(&mut pool.acquire().await.unwrap(), competition, &planned)
        .await
        .unwrap();

    // Act
    assert_eq!(drain(&worker).await, 1);

    // Assert: the crashing seat (seat 1) is stored crashed and last, below both players.
    let m = matches::get(&pool, ids[0]).await.unwrap();
    assert_eq!(m.status, MatchStatus::Finished, "{:?}", m.failure_reason);
    let seats = matches::seats_with_results(&pool, ids[0]).await.unwrap();
    let rank = |i: usize| seats[i].rank.expect("a rank");
    assert_eq!(seats[1].end_state, Some(EndState::Crashed), "{seats:?}");
    assert_eq!(rank(1), 3, "{seats:?}");
    assert!(rank(0) < 3 && rank(2) < 3, "{seats:?}");
    let replay: serde_json::Value =
        serde_json::from_slice(&matches::replay(&pool, ids[0]).await.unwrap().unwrap()).unwrap();
    assert_eq!(
        replay["outcome"]["idle"],
        serde_json::json!([1]),
        "{}",
        replay["outcome"]
    );
    assert_eq!(
        replay["games"][0]["outcome"]["idle"],
        serde_json::json!([1])
    );
}

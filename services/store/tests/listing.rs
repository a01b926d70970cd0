//! Lists of matches against a real PostgreSQL: by competition, submission (and its result) and
//! team, newest first and paged, with their seats.

mod common;

use croupier_store::competitions::{self, NewCompetition};
use croupier_store::matches::listing::{self, MatchFilter, SeatOutcome};
use croupier_store::matches::{self, NewMatch, NewSeatResult, SeatRef};
use croupier_store::CompetitionKind;
use croupier_store::EndState;
use sqlx::PgPool;
use uuid::Uuid;

/// A team `n` with one ready No Thanks submission: (team, submission, user).
async fn entrant(pool: &PgPool, n: usize) -> (Uuid, Uuid, Uuid) {
    let e = common::a_team_with_a_submission(pool, n).await;
    sqlx::query("update submission set status = 'ready' where submission_id = $1")
        .bind(e.submission)
        .execute(pool)
        .await
        .unwrap();
    (e.team, e.submission, e.user)
}

/// Plays match `id` as the worker records it: `ranks[seat]` and `ends[seat]`.
async fn played(pool: &PgPool, id: Uuid, ranks: [i32; 3], ends: [EndState; 3]) {
    sqlx::query("update match set status = 'running', started_at = now() where match_id = $1")
        .bind(id)
        .execute(pool)
        .await
        .unwrap();
    let seats: Vec<NewSeatResult> = (0..3)
        .map(|seat| NewSeatResult {
            seat: i32::try_from(seat).unwrap(),
            rank: ranks[seat],
            score: f64::from(10 - ranks[seat]),
            end_state: ends[seat],
            end_detail: None,
            moves: 5,
            cpu_ms: 1,
            max_rss_kb: 1,
            timings: serde_json::json!([]),
            stderr_tail: Vec::new(),
            move_log: Vec::new(),
            game_scores: vec![i64::from(10 - ranks[seat])],
        })
        .collect();
    let mut tx = pool.begin().await.unwrap();
    assert!(matches::record_result(&mut tx, id, &seats, b"{}")
        .await
        .unwrap());
    tx.commit().await.unwrap();
}

fn ids(found: &[matches::Match]) -> Vec<Uuid> {
    found.iter().map(|m| m.match_id).collect()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn matches_are_listed_newest_first_by_competition_submission_result_and_team(pool: PgPool) {
    // Arrange: three entrants, three matches; A wins match 0, crashes last in match 1
    let (team_a, a, user) = entrant(&pool, 0).await;
    let (_, b, _) = entrant(&pool, 1).await;
    let (_, c, _) = entrant(&pool, 2).await;
    let planned: Vec<NewMatch> = (0..3)
        .map(|i| NewMatch {
            ordinal: i,
            game: "nothanks".into(),
            rules: "boardcoder".into(),
            seed: 7,
            settings: serde_json::json!({}),
            seats: vec![
                SeatRef::Submission(a),
                SeatRef::Submission(b),
                SeatRef::Submission(c),
            ],
            duplicate_set: None,
        })
        .collect();
    let new = NewCompetition {
        name: "Cup",
        game: "nothanks",
        rules: "boardcoder",
        settings: &serde_json::json!({}),
        created_by: user,
        entries: &[a, b, c],
        kind: CompetitionKind::RoundRobin,
        stage_of: None,
        round_progress: None,
    };
    let competition = competitions::create(&pool, &new, &planned).await.unwrap();
    let schedule = ids(&matches::of_competition(&pool, competition).await.unwrap());
    let ok = EndState::Ok;
    played(&pool, schedule[0], [1, 2, 3], [ok, ok, ok]).await;
    played(&pool, schedule[1], [3, 1, 2], [EndState::Crashed, ok, ok]).await;
    let of = |filter: MatchFilter, limit: i64, offset: i64| {
        let pool = pool.clone();
        async move { listing::page(&pool, filter, limit, offset).await.unwrap() }
    };
    let by_competition = MatchFilter {
        competition: Some(competition),
        ..MatchFilter::default()
    };
    let by_a = |result| MatchFilter {
        submission: Some(a),
        result,
        ..MatchFilter::default()
    };

    // Act
    let (first_page, total) = of(by_competition, 2, 0).await;
    let (second_page, _) = of(by_competition, 2, 2).await;
    let (wins, _) = of(by_a(Some(SeatOutcome::Wins)), 10, 0).await;
    let (losses, _) = of(by_a(Some(SeatOutcome::Losses)), 10, 0).await;
    let (faults, _) = of(by_a(Some(SeatOutcome::Faults)), 10, 0).await;
    let (of_team, team_total) = of(
        MatchFilter {
            team: Some(team_a),
            ..MatchFilter::default()
        },
        10,
        0,
    )
    .await;
    let (none, nothing) = of(
        MatchFilter {
            team: Some(Uuid::new_v4()),
            ..MatchFilter::default()
        },
        10,
        0,
    )
    .await;
    let seats = listing::seats_of(&pool, &[schedule[1]]).await.unwrap();

    // Assert
    assert_eq!(total, 3);
    assert_eq!(ids(&first_page), [schedule[2], schedule[1]]);
    assert_eq!(ids(&second_page), [schedule[0]]);
    assert_eq!(ids(&wins), [schedule[0]]);
    assert_eq!(ids(&losses), [schedule[1]]);
    assert_eq!(ids(&faults), [schedule[1]]);
    assert_eq!(
        (ids(&of_team), team_total),
        (vec![schedule[2], schedule[1], schedule[0]], 3)
    );
    assert!(none.is_empty() && nothing == 0);
    assert_eq!(seats.len(), 3);
    assert_eq!(seats[0].team_name.as_deref(), Some("Team 0"));
    assert_eq!(
        (seats[0].rank, seats[0].end_state),
        (Some(3), Some(EndState::Crashed))
    );
    assert_eq!(
        (seats[1].submission_id, seats[1].version),
        (Some(b), Some(1))
    );
}

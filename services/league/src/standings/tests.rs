use uuid::Uuid;

use super::*;
use crate::results::{EndState, SeatOutcome};

fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

/// A match with (entrant, score, rank) per seat, all ending `ok`.
fn game(ordinal: u32, group: u32, seats: &[(u128, f64, u32)]) -> MatchResult<Uuid> {
    MatchResult {
        ordinal,
        group,
        seats: seats
            .iter()
            .map(|&(e, score, rank)| SeatOutcome {
                entrant: id(e),
                score,
                rank,
                end_state: EndState::Ok,
            })
            .collect(),
        boards: Vec::new(),
    }
}

fn row(rows: &[Standing<Uuid>], entrant: u128) -> &Standing<Uuid> {
    rows.iter()
        .find(|r| r.entrant == id(entrant))
        .expect("a row")
}

fn summary(rows: &[Standing<Uuid>]) -> Vec<(u32, Uuid, f64)> {
    rows.iter()
        .map(|r| (r.position, r.entrant, r.metric))
        .collect()
}

#[test]
fn a_hand_made_no_thanks_field_gets_the_expected_points_order_and_shared_positions() {
    let mut failed = game(4, 1, &[(1, 0.0, 3), (2, 0.0, 2), (4, 0.0, 1)]);
    failed.seats[2].end_state = EndState::SetupError;
    let results = [
        game(0, 0, &[(1, 10.0, 1), (2, 20.0, 2), (3, 30.0, 3)]), // A 4, B 2, C 1
        game(1, 0, &[(2, 5.0, 1), (3, 5.0, 1), (1, 40.0, 3)]),   // B 4, C 4 (shared 1st), A 1
        game(2, 0, &[(3, 15.0, 3), (1, 10.0, 1), (2, 12.0, 2)]), // C 1, A 4, B 2
        game(3, 1, &[(4, 0.0, 1), (3, 50.0, 2), (2, 60.0, 3)]),  // D 4, C 2, B 1
        failed,                                                  // a platform fault: left out
    ];
    let rows = standings(GameId::NO_THANKS, &results);
    // A and B tie on 9 and share 1st; A is listed first on the lower (better) mean score.
    assert_eq!(
        summary(&rows),
        [
            (1, id(1), 9.0),
            (1, id(2), 9.0),
            (3, id(3), 8.0),
            (4, id(4), 4.0)
        ]
    );
    let a = row(&rows, 1);
    assert_eq!((a.games, a.rank_points, a.wins), (3, 9, 2));
    assert_eq!((a.total_score, a.mean_score), (60.0, 20.0));
    assert_eq!(a.interval, crate::stats::Interval::of(&[4.0, 1.0, 4.0]));
    assert_eq!((row(&rows, 2).wins, row(&rows, 3).wins), (1, 1));
    assert_eq!(row(&rows, 4).games, 1);
    assert!(rows.iter().all(|r| r.extra == Extra::None));
}

#[test]
fn equal_metrics_and_mean_scores_fall_back_to_the_entrant_id() {
    let results = [game(0, 0, &[(3, 1.0, 1), (2, 1.0, 1), (1, 1.0, 1)])];
    let rows = standings(GameId::SPLENDOR, &results);
    let order: Vec<_> = rows.iter().map(|r| (r.position, r.entrant)).collect();
    assert_eq!(order, [(1, id(1)), (1, id(2)), (1, id(3))]);
    let shared = Extra::Splendor { battle_score: 10 };
    assert!(
        rows.iter().all(|r| r.extra == shared),
        "a shared place shares its battle score"
    );
}

#[test]
fn splendor_battle_scores_map_places_1_to_7_to_10_down_to_4_and_the_rest_to_3() {
    let mapped: Vec<u32> = (1..=10).map(battle_score).collect();
    assert_eq!(mapped, [10, 9, 8, 7, 6, 5, 4, 3, 3, 3]);
    // Entrant k wins k games (4k points); the two fillers score nothing in any of them.
    let mut results = Vec::new();
    for k in 1..=9_u128 {
        for _ in 0..k {
            let ordinal = u32::try_from(results.len()).unwrap_or(0);
            results.push(game(
                ordinal,
                ordinal,
                &[(k, 0.0, 1), (100, 0.0, 9), (101, 0.0, 9)],
            ));
        }
    }
    let rows = standings(GameId::SPLENDOR, &results);
    let battle: Vec<(u32, u32)> = rows
        .iter()
        .map(|r| match r.extra {
            Extra::Splendor { battle_score } => (r.position, battle_score),
            _ => (r.position, 0),
        })
        .collect();
    let expected = [
        (1, 10),
        (2, 9),
        (3, 8),
        (4, 7),
        (5, 6),
        (6, 5),
        (7, 4),
        (8, 3),
        (9, 3),
    ];
    assert_eq!(battle[..9], expected);
    assert_eq!(
        battle[9..],
        [(10, 3), (10, 3)],
        "the fillers share 10th place"
    );
}

#[test]
fn guandan_counts_games_won_with_draws_as_half() {
    let results = [
        game(0, 0, &[(1, 3.0, 1), (2, 0.0, 3), (1, 3.0, 1), (2, 0.0, 3)]), // A wins
        game(1, 0, &[(2, 1.0, 1), (1, 1.0, 1), (2, 1.0, 1), (1, 1.0, 1)]), // a draw
        game(2, 1, &[(2, 0.0, 2), (1, 2.0, 1), (2, 0.0, 4), (1, 2.0, 3)]), // A wins
    ];
    let rows = standings(GameId::GUANDAN, &results);
    assert_eq!(summary(&rows), [(1, id(1), 2.5), (2, id(2), 0.5)]);
    let a = row(&rows, 1);
    assert_eq!((a.games, a.wins), (3, 2));
    assert_eq!(
        a.extra,
        Extra::Guandan {
            games_won: 2.5,
            draws: 1
        }
    );
    assert_eq!(a.interval.mean, 2.5 / 3.0);
}

#[test]
fn bridge_pairs_the_two_tables_of_a_set_and_scores_each_board_in_imps() {
    let mut one = game(
        0,
        0,
        &[(1, 570.0, 1), (2, -570.0, 2), (1, 570.0, 1), (2, -570.0, 2)],
    );
    one.boards = vec![620, -100, 0, 50];
    let mut two = game(
        1,
        0,
        &[(2, 180.0, 1), (1, -180.0, 2), (2, 180.0, 1), (1, -180.0, 2)],
    );
    two.boards = vec![170, -100, 0, 110];
    let unpaired = game(
        2,
        1,
        &[(1, 50.0, 1), (2, -50.0, 2), (1, 50.0, 1), (2, -50.0, 2)],
    );
    let rows = standings(GameId::BRIDGE, &[two, unpaired, one]);
    // Boards for A: +450 → 10, 0, 0, −60 → −2.
    assert_eq!(summary(&rows), [(1, id(1), 8.0), (2, id(2), -8.0)]);
    let a = row(&rows, 1);
    assert_eq!(
        a.extra,
        Extra::Bridge {
            imps: 8,
            boards: 4,
            imps_per_board: 2.0,
            points: 390
        }
    );
    assert_eq!((a.games, a.wins, a.total_score), (2, 1, 390.0));
    assert_eq!(row(&rows, 2).interval.mean, -2.0);
}

#[test]
fn hanabi_ranks_by_mean_score_with_a_confidence_interval() {
    let seats = |e: u128, score: f64| [(e, score, 1), (e, score, 1), (e, score, 1), (e, score, 1)];
    let results = [
        game(0, 0, &seats(1, 20.0)),
        game(1, 0, &seats(2, 25.0)),
        game(2, 1, &seats(1, 22.0)),
        game(3, 1, &seats(2, 25.0)),
        game(4, 2, &seats(1, 24.0)),
        game(5, 2, &seats(2, 25.0)),
    ];
    let rows = standings(GameId::HANABI, &results);
    assert_eq!(summary(&rows), [(1, id(2), 25.0), (2, id(1), 22.0)]);
    let a = row(&rows, 1);
    assert_eq!(a.games, 3);
    // s = 2, t(2) = 4.3027: 4.3027 × 2 / √3.
    let half = a.interval.half_width.unwrap_or(0.0);
    assert!((half - 4.3027 * 2.0 / 3.0_f64.sqrt()).abs() < 1e-9);
    assert_eq!(row(&rows, 2).interval.half_width, Some(0.0));
}

#[test]
fn faults_are_counted_once_per_game() {
    let mut result = game(0, 0, &[(1, 0.0, 1), (2, 0.0, 1), (1, 0.0, 1), (2, 0.0, 1)]);
    result.seats[0].end_state = EndState::TimeLimit;
    result.seats[2].end_state = EndState::Crashed;
    let rows = standings(GameId::HANABI, &[result]);
    assert_eq!((row(&rows, 1).faults, row(&rows, 2).faults), (1, 0));
}

#[test]
fn an_entrant_holding_two_seats_of_a_rank_point_game_counts_once_with_its_seats_averaged() {
    // Arrange: entrant 1 crashed in two seats (both ranked last, 2nd shared); 2 won.
    let results = [
        game(0, 0, &[(1, 0.0, 2), (2, 17.0, 1), (1, 0.0, 2)]),
        game(1, 0, &[(2, 15.0, 1), (1, 3.0, 2), (1, 0.0, 3)]),
    ];

    // Act
    let rows = standings(GameId::SPLENDOR, &results);

    // Assert: 2 points a game for entrant 1 in game 0, (2 + 1) / 2 in game 1; never a sum.
    let crashed = row(&rows, 1);
    assert_eq!((crashed.games, crashed.metric), (2, 3.5));
    assert_eq!((crashed.wins, crashed.mean_score), (0, 0.75));
    assert_eq!(row(&rows, 2).metric, 8.0);
    assert_eq!(summary(&rows)[0], (1, id(2), 8.0));
}

#[test]
fn a_hanabi_entrant_is_scored_over_all_its_seats_so_a_seat_that_never_acted_costs_it() {
    // Arrange: cross-play; entrant 1's seat 2 never acted (scored 0 by the fair-play rule)
    // while its seat 0 and entrant 2's seats kept the team's 12.
    let results = [game(
        0,
        0,
        &[(1, 12.0, 1), (2, 12.0, 1), (1, 0.0, 4), (2, 12.0, 1)],
    )];

    // Act
    let rows = standings(GameId::HANABI, &results);

    // Assert
    assert_eq!(summary(&rows), [(1, id(2), 12.0), (2, id(1), 6.0)]);
}

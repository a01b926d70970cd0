//! Every violation of the two-file protocol, each by a C bot on a real table: the Robot takes
//! the seat over for the rest of the deal, the fault and its penalty are recorded, the deal and
//! the match complete, and the program plays again on the next board.

use std::time::Duration;

use croupier_games::bridge::partners;
use croupier_games::{Game, Viewer};
use croupier_referee::{play, Direction, SeatSpec};
use croupier_sandbox::EndState;

use super::common::*;
use super::{deal, table, Bots, SEED};

/// The violation kinds of `testbot.c`.
const NO_LINE: u32 = 1;
const TWO_LINES: u32 = 2;
const MALFORMED: u32 = 3;
const ILLEGAL_CARD: u32 = 4;
const REWRITES_STEPLOG: u32 = 5;
const EDITS_BOARD: u32 = 6;
const TIMEOUT: u32 = 7;
const CRASH: u32 = 8;
const REVOKE: u32 = 9;

/// North and South (one strategy) commit violation `kind` on board 1 (in its play from trick 2
/// on, or in the auction); East is the kit, West the built-in robot. Everyone spies on the
/// StepLog for `Robot` lines. Checks everything a violation must cause and returns the result.
async fn violation(kind: u32, in_auction: bool, expect: EndState, reason: &str) {
    let (sb, uids) = sandbox().await;
    let mut bots = Bots::default();
    let define = format!("VIOLATION={kind}");
    let mut defines = vec!["SPY", define.as_str()];
    if in_auction {
        defines.push("VIOLATE_IN_AUCTION");
    }
    let seats = vec![
        bots.c("north", &defines),
        bots.c("east", &["SPY"]),
        bots.c("south", &defines),
        SeatSpec::builtin("robot"),
    ];
    let result = play(&sb, table(SEED, seats, Duration::from_secs(2)))
        .await
        .unwrap();
    let about = describe(&result);
    eprintln!("{about}");
    assert_consistent(&result);
    assert_eq!(result.games.len(), 4, "every board is played");

    let first = deal(&result, 0);
    let obs = first.observe(Viewer::Omniscient);
    let fault = *obs
        .faults
        .first()
        .unwrap_or_else(|| panic!("no fault: {about}"));
    let offender = &result.seats[fault.seat.index()];
    assert!(fault.seat.0 % 2 == 0, "{about}");
    assert_eq!(offender.end_state, expect, "{about}");
    assert!(offender.detail.contains("board 1,"), "{about}");
    assert!(offender.detail.contains(reason), "{about}");
    assert!(
        offender.detail.contains("the Robot plays the seat"),
        "{about}"
    );
    assert!(offender.forced_moves > 0, "the Robot moved for it: {about}");
    if in_auction {
        assert_eq!(fault.tricks_played, 0);
    } else if kind != REVOKE {
        assert!(fault.tricks_played >= 1, "{fault:?}");
    }

    // Penalty: the offending side concedes every trick still to play.
    let contract = first.contract().expect("board 1 is bid");
    let scored = first.result().unwrap().declarer_tricks;
    let conceded = if partners(fault.seat, contract.declarer) {
        fault.side_tricks
    } else {
        13 - fault.side_tricks
    };
    assert_eq!(scored, conceded, "{fault:?} {contract:?}");

    // The Robot's lines, in the transcript and in the StepLog the other programs were given.
    let verb = if in_auction {
        "Robot call "
    } else {
        "Robot play "
    };
    let robot_lines = result.transcript.iter().filter(|l| {
        l.seat == Some(fault.seat) && l.direction == Direction::FromBot && l.text.starts_with(verb)
    });
    assert!(robot_lines.count() > 0, "{about}");
    let seen = result
        .seats
        .iter()
        .any(|s| s.stderr_tail.contains(&format!("SEEN {verb}")));
    assert!(seen, "a later StepLog shows the Robot's lines: {about}");

    // Later boards: the program plays again, without faults.
    for board in 1..4 {
        let later = deal(&result, board).observe(Viewer::Omniscient);
        assert!(later.faults.is_empty(), "board {}: {about}", board + 1);
        let calls = &result.games[board].replay.entries;
        assert!(calls.iter().any(|e| matches!(e,
            croupier_games::Entry::Move { seat, .. } if *seat == fault.seat)));
    }
    assert_eq!(result.seats[1].end_state, EndState::Ok, "{about}");
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn no_line_hands_the_seat_to_the_robot() {
    let expect = EndState::InvalidOutput;
    violation(NO_LINE, false, expect, "appended no line to StepLog.txt").await;
}

#[tokio::test]
async fn two_lines_hand_the_seat_to_the_robot() {
    let expect = EndState::InvalidOutput;
    violation(TWO_LINES, false, expect, "appended 2 lines").await;
}

#[tokio::test]
async fn a_malformed_line_hands_the_seat_to_the_robot() {
    let expect = EndState::InvalidOutput;
    violation(MALFORMED, false, expect, "malformed line").await;
}

#[tokio::test]
async fn a_card_not_in_the_hand_hands_the_seat_to_the_robot() {
    let expect = EndState::IllegalAction;
    violation(ILLEGAL_CARD, false, expect, "is not in the hand").await;
}

#[tokio::test]
async fn rewriting_earlier_steplog_lines_hands_the_seat_to_the_robot() {
    let expect = EndState::InvalidOutput;
    violation(REWRITES_STEPLOG, false, expect, "changed earlier lines").await;
}

#[tokio::test]
async fn editing_board_hands_the_seat_to_the_robot() {
    let expect = EndState::InvalidOutput;
    violation(EDITS_BOARD, false, expect, "changed Board.txt").await;
}

#[tokio::test]
async fn a_timeout_hands_the_seat_to_the_robot() {
    let expect = EndState::TimeLimit;
    violation(TIMEOUT, false, expect, "time limit exceeded").await;
}

#[tokio::test]
async fn a_crash_hands_the_seat_to_the_robot_even_after_a_good_line() {
    let expect = EndState::Crashed {
        signal: Some(6),
        code: None,
    };
    violation(CRASH, false, expect, "killed by signal 6").await;
}

#[tokio::test]
async fn a_violation_in_the_auction_lets_the_robot_call_and_concedes_all_13_tricks() {
    let expect = EndState::InvalidOutput;
    violation(MALFORMED, true, expect, "malformed line").await;
}

#[tokio::test]
async fn not_following_suit_hands_the_seat_to_the_robot() {
    let expect = EndState::IllegalAction;
    violation(REVOKE, false, expect, "does not follow the suit led").await;
}

#[tokio::test]
async fn with_fault_penalty_none_the_deal_is_scored_as_the_robot_played_it() {
    let (sb, _) = sandbox().await;
    let mut bots = Bots::default();
    let violator = ["VIOLATION=1"];
    let seats = vec![
        bots.c("north", &violator),
        bots.c("east", &[]),
        bots.c("south", &violator),
        SeatSpec::builtin("heuristic"),
    ];
    let mut spec = table(SEED, seats, Duration::from_secs(2));
    spec.settings = serde_json::json!({ "fault_penalty": "none" });
    let result = play(&sb, spec).await.unwrap();
    let about = describe(&result);
    assert_consistent(&result);
    let first = deal(&result, 0);
    let obs = first.observe(Viewer::Omniscient);
    assert!(!obs.faults.is_empty(), "{about}");
    let offender = &result.seats[obs.faults[0].seat.index()];
    assert!(offender.detail.contains("no score penalty"), "{about}");
    let contract = first.contract().unwrap();
    let won: u8 = (0..4)
        .filter(|&s| partners(croupier_games::Seat(s), contract.declarer))
        .map(|s| obs.tricks_won[s])
        .sum();
    assert_eq!(first.result().unwrap().declarer_tricks, won, "{about}");
    for (k, record) in result.games.iter().enumerate() {
        assert_eq!(record.replay.settings["fault_penalty"], "none");
        assert_eq!(record.replay.settings["board"], k + 1);
    }
}

//! Class-based bots that fail: wherever the class raises (a listener or `turn()`), in both rule
//! sets, its seat ends `crashed` with the Python traceback in its log, and when several seats
//! fail at once each gets its own verdict, even after the first fault ended the game.

use std::time::Duration;

use super::faults::{assert_fault_end_reached_everyone, others_ok};
use super::*;

const RAISER: &str = include_str!("raiser.py");

/// Everywhere a class bot's code runs during a game, in the order the game reaches them.
const PLACES: [&str; 7] = [
    "onStart",
    "onTurnStart",
    "turn",
    "onPlayerAction",
    "onHintColor",
    "onHintNumber",
    "onGameEnd",
];

impl Dirs {
    /// The class of `raiser.py`, raising in `place` (never, with `None`), its message tagged
    /// `tag` (also the seat's name); with `linger`, it keeps a thread running.
    fn raiser(&mut self, tag: &str, place: Option<&str>, linger: bool) -> SeatSpec {
        let class = match place {
            Some(place) => format!("Raiser({place:?}, {tag:?}, {})", py_bool(linger)),
            None => "Raiser()".to_owned(),
        };
        let files = [("raiser.py", RAISER.to_owned())];
        self.entry(tag, &files, &format!("raiser.py:{class}"))
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// A match of `seats`, with time for a bot that fails as the game ends to exit by itself (the
/// end waits for its exit, not for the whole grace).
fn failing(rules: &str, seed: u64, seats: Vec<SeatSpec>) -> MatchSpec {
    let mut spec = hanabi(rules, seed, seats);
    spec.limits.end_grace = Duration::from_secs(10);
    spec
}

/// `seat` exited with status 1 (`crashed`), its log holding the traceback of `message`.
fn assert_crashed_with_traceback(result: &MatchResult, seat: usize, message: &str) {
    let outcome = &result.seats[seat];
    let crashed = EndState::Crashed {
        signal: None,
        code: Some(1),
    };
    assert_eq!(
        outcome.end_state,
        crashed,
        "seat {seat}: {}",
        describe(result)
    );
    let log = &outcome.stderr_tail;
    assert!(
        log.contains("Traceback (most recent call last)")
            && log.contains(&format!("RuntimeError: {message}")),
        "seat {seat}'s log: {log}"
    );
}

/// The raising bot keeps a thread running (see `raiser.py`): neither that nor its closed
/// connection may keep its crash and traceback from being recorded.
async fn wherever_a_class_bot_raises_it_is_crashed_with_its_traceback(rules: &str) {
    let (sb, uids) = sandbox().await;
    for (n, place) in PLACES.into_iter().enumerate() {
        let mut dirs = Dirs::default();
        let seats = vec![
            dirs.raiser("good-a", None, false),
            dirs.raiser("raiser", Some(place), true),
            dirs.raiser("good-b", None, false),
            dirs.raiser("good-c", None, false),
        ];

        let result = play(&sb, failing(rules, 40 + n as u64, seats))
            .await
            .unwrap();

        eprintln!("{rules}, raising in {place}: {}", describe(&result));
        assert_consistent(&result);
        assert_crashed_with_traceback(&result, 1, &format!("raiser raised in {place}"));
        others_ok(&result, 1);
        if place == "onGameEnd" {
            let end = sent_to(&result, 1).pop().unwrap();
            assert!((0..=2).contains(&end["reason"].as_i64().unwrap()), "{end}");
        } else {
            assert_fault_end_reached_everyone(&result, &[0, 2, 3]);
        }
    }
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn wherever_a_class_bot_raises_in_the_standard_game_it_is_crashed_with_its_traceback() {
    wherever_a_class_bot_raises_it_is_crashed_with_its_traceback("standard").await;
}

#[tokio::test]
async fn wherever_a_class_bot_raises_in_the_rainbow_game_it_is_crashed_with_its_traceback() {
    wherever_a_class_bot_raises_it_is_crashed_with_its_traceback("rainbow").await;
}

/// Every seat in `failing` raises in `onStart`, the others never.
async fn class_bots_failing_at_once_are_each_crashed(rules: &str, failing_seats: &[usize]) {
    let (sb, uids) = sandbox().await;
    let mut dirs = Dirs::default();
    let seats = (0..4)
        .map(|seat| match failing_seats.contains(&seat) {
            true => dirs.raiser(&format!("seat{seat}"), Some("onStart"), false),
            false => dirs.raiser(&format!("good{seat}"), None, false),
        })
        .collect();

    let result = play(&sb, failing(rules, 50, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    let rank_of_failing = result.seats[failing_seats[0]].rank;
    for seat in 0..4 {
        let outcome = &result.seats[seat];
        if failing_seats.contains(&seat) {
            let message = format!("seat{seat} raised in onStart");
            assert_crashed_with_traceback(&result, seat, &message);
            assert_eq!(outcome.rank, rank_of_failing, "all of them rank alike");
            assert_eq!(outcome.score, 0, "none of them moved");
        } else {
            assert_eq!(outcome.end_state, EndState::Ok, "{}", describe(&result));
            assert_eq!(outcome.rank, 1, "above every failing seat");
            assert_fault_end_reached_everyone(&result, &[seat]);
        }
    }
    if failing_seats.len() < 4 {
        assert!(rank_of_failing > 1, "{}", describe(&result));
    }
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn three_class_bots_failing_at_once_are_each_crashed_and_the_fourth_is_ok() {
    class_bots_failing_at_once_are_each_crashed("standard", &[0, 2, 3]).await;
}

#[tokio::test]
async fn four_class_bots_failing_at_once_in_the_rainbow_game_are_all_crashed() {
    class_bots_failing_at_once_are_each_crashed("rainbow", &[0, 1, 2, 3]).await;
}

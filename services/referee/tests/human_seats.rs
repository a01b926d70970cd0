//! People at the table (`SeatSpec::Human`): their turns reach a desk with the seat's
//! observation and the engine's legal moves, their answers are played, a turn left to run out
//! is played for them (`time_limit`) and they keep the seat — whatever protocol the bots at the
//! table speak.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use croupier_games::{FrameEntry, GameId, Seat};
use croupier_referee::{HumanDesk, HumanTurn, MatchSpec, RefereeError, SeatSpec};
use croupier_sandbox::EndState;
use futures_util::future::BoxFuture;

/// A scripted person: answers each turn with `choose(turn)` at once, or never (`None`), and
/// keeps every turn it was shown.
#[derive(Debug)]
struct Desk {
    turns: Mutex<Vec<HumanTurn>>,
    choose: fn(&HumanTurn) -> Option<usize>,
}

impl Desk {
    fn new(choose: fn(&HumanTurn) -> Option<usize>) -> Arc<Desk> {
        Arc::new(Desk {
            turns: Mutex::new(Vec::new()),
            choose,
        })
    }

    fn turns(&self) -> Vec<HumanTurn> {
        self.turns.lock().unwrap().clone()
    }
}

impl HumanDesk for Desk {
    fn ask(&self, turn: HumanTurn) -> BoxFuture<'_, Result<usize, RefereeError>> {
        let answer = (self.choose)(&turn);
        self.turns.lock().unwrap().push(turn);
        Box::pin(async move {
            match answer {
                Some(index) => Ok(index),
                None => std::future::pending().await,
            }
        })
    }
}

fn with_desk(mut spec: MatchSpec, desk: &Arc<Desk>) -> MatchSpec {
    spec.desk = Some(Arc::clone(desk) as Arc<dyn HumanDesk>);
    spec
}

fn last(turn: &HumanTurn) -> Option<usize> {
    turn.legal.len().checked_sub(1)
}

#[tokio::test]
async fn a_person_plays_no_thanks_against_two_kits_over_the_tcp_lobby() {
    let (sb, _) = sandbox().await;
    let mut bots = Bots::default();
    let desk = Desk::new(last);
    let seats = vec![
        bots.python_kit("py", None),
        SeatSpec::human("ada"),
        bots.c_kit("c", Some(1000)),
    ];

    let result = play(&sb, with_desk(nothanks(7, seats), &desk))
        .await
        .unwrap();

    assert_consistent(&result);
    let turns = desk.turns();
    let person = &result.seats[1];
    assert_eq!(person.name, "ada");
    assert_eq!(person.end_state, EndState::Ok, "{}", describe(&result));
    assert_eq!(
        person.moves as usize,
        turns.len(),
        "every answer was played"
    );
    assert_eq!(person.forced_moves, 0);
    assert!(turns.len() > 5, "{} turns", turns.len());
    for turn in &turns {
        assert_eq!(turn.seat, Seat(1));
        assert!(!turn.legal.is_empty());
        assert!(
            turn.observation.is_object(),
            "the seat's observation: {}",
            turn.observation
        );
    }
    assert!(
        turns.iter().skip(1).all(|t| !t.recent.is_empty()),
        "from the second turn on, the others' moves since the person's last one"
    );
    assert!(
        turns[1].recent.iter().all(|e| e.seat != Seat(1)),
        "only what came after the person's own move"
    );
    // The replay is recorded without its events; the person is shown them all the same (with
    // their machine form, for the page to word them), exactly as the finished replay derives
    // them.
    let mut replay = result.games[0].replay.clone();
    assert!(replay.events_left_out);
    replay.derive_events().unwrap();
    for shown in turns.iter().flat_map(|t| &t.recent) {
        assert_eq!(
            shown,
            &FrameEntry::with_event_data(shown.n, &replay.entries[shown.n - 1])
        );
        assert_eq!(shown.event_data.len(), shown.events.len(), "{shown:?}");
        assert!(
            shown.kind != "move" || !shown.events.is_empty(),
            "{shown:?}"
        );
    }
    for seat in [0, 2] {
        assert_eq!(result.seats[seat].end_state, EndState::Ok);
    }
}

#[tokio::test]
async fn a_person_who_lets_the_time_run_out_keeps_the_seat_and_the_referee_plays_for_them() {
    let (sb, _) = sandbox().await;
    let mut bots = Bots::default();
    let desk = Desk::new(|_| None);
    let mut spec = with_desk(
        nothanks(
            11,
            vec![
                SeatSpec::human("bob"),
                bots.python_kit("py", None),
                SeatSpec::builtin("heuristic"),
            ],
        ),
        &desk,
    );
    spec.limits.human_move_time = Duration::from_millis(50);

    let result = play(&sb, spec).await.unwrap();

    assert_consistent(&result);
    let person = &result.seats[0];
    assert_eq!(
        person.end_state,
        EndState::TimeLimit,
        "{}",
        describe(&result)
    );
    assert_eq!(person.moves, 0);
    assert_eq!(person.forced_moves as usize, desk.turns().len());
    assert!(
        person.detail.contains("no move chosen within"),
        "{}",
        person.detail
    );
    assert_eq!(
        result.seats[1].end_state,
        EndState::Ok,
        "the bot is unaffected"
    );
}

#[tokio::test]
async fn a_person_plays_a_whole_guandan_game_and_a_splendor_game_with_built_ins() {
    let (sb, _) = sandbox().await;
    let desk = Desk::new(|t| Some(t.legal.len() / 2));
    let guandan = MatchSpec::new(
        GameId::GUANDAN,
        3,
        vec![
            SeatSpec::human("ada"),
            SeatSpec::builtin("random"),
            SeatSpec::builtin("random"),
            SeatSpec::builtin("random"),
        ],
    );
    let result = play(&sb, with_desk(guandan, &desk)).await.unwrap();
    assert_consistent(&result);
    assert_eq!(result.seats[0].moves as usize, desk.turns().len());

    // Splendor's lost turn is its own (a pass): a person out of time gets it too.
    let idle = Desk::new(|_| None);
    let mut splendor = with_desk(
        MatchSpec::new(
            GameId::SPLENDOR,
            5,
            vec![
                SeatSpec::builtin("greedy"),
                SeatSpec::human("eve"),
                SeatSpec::builtin("random"),
            ],
        ),
        &idle,
    );
    splendor.limits.human_move_time = Duration::from_millis(20);
    let result = play(&sb, splendor).await.unwrap();
    assert_consistent(&result);
    let person = &result.seats[1];
    assert_eq!(person.end_state, EndState::TimeLimit);
    assert_eq!(person.forced_moves as usize, idle.turns().len());
    assert_eq!(person.rank, 3, "a seat that never moved ranks last");
}

#[tokio::test]
async fn a_person_plays_a_bridge_table_with_three_robots() {
    let (sb, _) = sandbox().await;
    let desk = Desk::new(last);
    let seats = vec![
        SeatSpec::builtin("robot"),
        SeatSpec::builtin("robot"),
        SeatSpec::human("ada"),
        SeatSpec::builtin("robot"),
    ];

    let result = play(
        &sb,
        with_desk(MatchSpec::new(GameId::BRIDGE, 9, seats), &desk),
    )
    .await
    .unwrap();

    assert_consistent(&result);
    let person = &result.seats[2];
    assert_eq!(person.end_state, EndState::Ok, "{}", describe(&result));
    assert_eq!(person.moves as usize, desk.turns().len());
    assert!(
        desk.turns().iter().any(|t| t.game == 3),
        "asked in every board of the table"
    );
}

#[tokio::test]
async fn a_person_seat_without_a_desk_is_refused_before_anything_starts() {
    let (sb, _) = sandbox().await;
    let spec = nothanks(
        1,
        vec![
            SeatSpec::human("ada"),
            SeatSpec::builtin("heuristic"),
            SeatSpec::builtin("random"),
        ],
    );

    let refused = play(&sb, spec).await;

    assert!(
        matches!(refused, Err(RefereeError::InvalidSpec(_))),
        "{refused:?}"
    );
}

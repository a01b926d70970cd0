//! The seeded seat shuffle: the protocol index a bot sees is not its spec seat, the bot with
//! index 0 starts and the turn goes 0, 1, 2, …, while results and replays stay per spec seat.

use croupier_games::{Entry, Seat};

use super::*;

/// The turn order the match played in (protocol index → spec seat), from the replay.
pub(crate) fn seat_order(result: &MatchResult) -> Vec<usize> {
    let order = &result.games[0].replay.settings["seat_order"];
    let order: Vec<usize> = serde_json::from_value(order.clone()).expect("a seat_order");
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..result.seats.len()).collect::<Vec<_>>());
    order
}

/// The protocol index of spec seat `seat`.
fn index_of(order: &[usize], seat: usize) -> usize {
    order.iter().position(|&s| s == seat).unwrap()
}

/// The applied moves of the match: (spec seat, engine action).
fn moves(result: &MatchResult) -> Vec<(Seat, Value)> {
    let entries = &result.games[0].replay.entries;
    let moved = entries.iter().filter_map(|entry| match entry {
        Entry::Move { seat, action, .. } => Some((*seat, action.value())),
        Entry::Refused { .. } | Entry::Fault { .. } => None,
    });
    moved.collect()
}

/// What program seat `seat` was told agrees with the replay through the seat order: its own
/// row in `onStart` is its index, `onTurnStart` counts 0, 1, 2, … from 0, and each
/// `onPlayerAction` names the mover and a hint's target by index. Returns the seat's index.
pub(crate) fn assert_indices_seen(result: &MatchResult, seat: usize) -> usize {
    let order = seat_order(result);
    let players = order.len();
    let me = index_of(&order, seat);
    let got = sent_to(result, seat);
    let start = &got[0];
    assert_eq!(start["event"], "onStart");
    let rows = start["handColor"].as_array().unwrap();
    assert_eq!(rows.len(), players);
    let own: Vec<usize> = (0..players)
        .filter(|&k| rows[k].as_array().unwrap().iter().all(|c| c == -1))
        .collect();
    assert_eq!(own, [me], "seat {seat}'s own row is its index");

    let turns: Vec<usize> = got
        .iter()
        .filter(|m| m["event"] == "onTurnStart")
        .map(|m| m["index"].as_u64().unwrap() as usize)
        .collect();
    let counted: Vec<usize> = (0..turns.len()).map(|t| t % players).collect();
    assert_eq!(turns, counted, "seat {seat}: turns go 0, 1, 2, … from 0");

    let moved = moves(result);
    let actions: Vec<&Value> = got
        .iter()
        .filter(|m| m["event"] == "onPlayerAction")
        .collect();
    assert_eq!(
        actions.len(),
        moved.len(),
        "seat {seat}: one report per move"
    );
    for (t, (report, (mover, action))) in actions.iter().zip(&moved).enumerate() {
        assert_eq!(report["index"], json!(index_of(&order, mover.index())));
        assert_eq!(report["index"], json!(t % players), "move {t}");
        if let Some(target) = action["target"].as_u64() {
            let target = index_of(&order, target as usize);
            assert_eq!(report["target"], json!(target), "move {t}: {report}");
        } else {
            assert_eq!(report["target"], action["card"], "a card slot is unchanged");
        }
    }
    me
}

#[tokio::test]
async fn the_index_of_spec_seat_0_is_a_seeded_shuffle_that_the_engine_plays_in() {
    let (sb, uids) = sandbox().await;
    let mut dirs = Dirs::default();
    let mut seen = Vec::new();
    for seed in 1..=6 {
        let seats = vec![
            dirs.raw("raw", &[]),
            SeatSpec::builtin("convention"),
            SeatSpec::builtin("convention"),
            SeatSpec::builtin("random"),
        ];
        let result = play(&sb, hanabi("standard", seed, seats)).await.unwrap();
        assert_consistent(&result);
        assert_eq!(
            result.seats[0].end_state,
            EndState::Ok,
            "{}",
            describe(&result)
        );
        assert!(result.seats[0].stderr_tail.contains("PROTOCOL OK"));
        let index = assert_indices_seen(&result, 0);
        let order = seat_order(&result);
        assert_eq!(moves(&result)[0].0, Seat(order[0]), "index 0 starts");
        assert_eq!(result.seats[0].name, "raw", "names stay per spec seat");
        seen.push((seed, index, order));
    }
    eprintln!("(seed, index of spec seat 0, order): {seen:?}");
    let indices: std::collections::BTreeSet<usize> = seen.iter().map(|s| s.1).collect();
    assert!(indices.len() > 1, "spec seat 0's index varies: {seen:?}");
    assert!(
        seen.iter().any(|s| s.2[0] != 0),
        "spec seat 0 does not always start: {seen:?}"
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn two_matches_on_one_seed_give_the_same_indices_and_the_same_replay() {
    let (sb, uids) = sandbox().await;
    let mut dirs = Dirs::default();
    let mut runs = Vec::new();
    for _ in 0..2 {
        let seats = vec![
            dirs.ws_kit("ws", &[]),
            dirs.raw("raw", &[]),
            dirs.class_kit("class"),
            SeatSpec::builtin("convention"),
        ];
        let result = play(&sb, hanabi("standard", 23, seats)).await.unwrap();
        eprintln!("{}", describe(&result));
        assert_consistent(&result);
        for seat in &result.seats {
            assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
        }
        let seen: Vec<usize> = (0..3).map(|s| assert_indices_seen(&result, s)).collect();
        eprintln!("order {:?}, indices seen {seen:?}", seat_order(&result));
        runs.push((seen, result.games[0].replay.clone()));
    }
    assert_eq!(runs[0].0, runs[1].0, "the same indices");
    assert_eq!(runs[0].1, runs[1].1, "the same replay");
    assert_no_slot_processes(uids);
}

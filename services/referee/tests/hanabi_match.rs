//! Whole Hanabi matches through the real sandbox, over the websocket on 127.0.0.1:9999: a raw
//! protocol client, the starter kits (a websocket bot and a class-based `player.py`), built-in
//! bots, and bots that break the protocol.

mod common;

use std::fs;
use std::path::Path;

use common::*;
use croupier_games::GameId;
use croupier_referee::{play, Direction, MatchResult, MatchSpec, SeatSpec};
use croupier_sandbox::EndState;
use serde_json::{json, Value};
use tempfile::TempDir;

#[path = "hanabi/class_faults.rs"]
mod class_faults;
#[path = "hanabi/faults.rs"]
mod faults;
#[path = "hanabi/indices.rs"]
mod indices;
#[path = "hanabi/origin.rs"]
mod origin;

const RAW_CLIENT: &str = include_str!("hanabi/raw_client.py");
const HOSTILE: &str = include_str!("hanabi/hostile.py");

fn kit(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kits/hanabi/python");
    fs::read_to_string(path.join(file)).unwrap()
}

/// Bot directories that live as long as the test.
#[derive(Default)]
struct Dirs(Vec<TempDir>);

impl Dirs {
    /// A bot directory holding `files`, started as `python3 /bot/<entry> <args>`.
    fn python(&mut self, name: &str, files: &[(&str, String)], args: &[&str]) -> SeatSpec {
        let dir = open_dir();
        for (file, text) in files {
            fs::write(dir.path().join(file), text).unwrap();
        }
        let mut command = vec![
            "/usr/bin/python3".to_owned(),
            format!("/bot/{}", files[0].0),
        ];
        command.extend(args.iter().map(|a| (*a).to_owned()));
        let seat = SeatSpec::program(name, dir.path(), command);
        self.0.push(dir);
        seat
    }

    /// The class-based starter kit, uploaded as `player.py` alone.
    fn class_kit(&mut self, name: &str) -> SeatSpec {
        self.python(name, &[("player.py", kit("player.py"))], &[])
    }

    fn ws_kit(&mut self, name: &str, args: &[&str]) -> SeatSpec {
        self.python(name, &[("ws_bot.py", kit("ws_bot.py"))], args)
    }

    fn raw(&mut self, name: &str, args: &[&str]) -> SeatSpec {
        self.python(name, &[("raw_client.py", RAW_CLIENT.to_owned())], args)
    }

    /// A hostile bot: the prelude, then `body` (which calls `run(on_turn)`).
    fn hostile(&mut self, name: &str, body: &str) -> SeatSpec {
        self.python(name, &[("bot.py", format!("{HOSTILE}\n{body}"))], &[])
    }
}

fn hanabi(rules: &str, seed: u64, seats: Vec<SeatSpec>) -> MatchSpec {
    MatchSpec {
        rules: rules.to_owned(),
        limits: quick_limits(),
        ..MatchSpec::new(GameId::HANABI, seed, seats)
    }
}

/// Messages the referee sent to `seat`, parsed.
fn sent_to(result: &MatchResult, seat: usize) -> Vec<Value> {
    let to = |l: &&croupier_referee::TranscriptLine| {
        l.direction == Direction::ToBot && l.seat.map(croupier_games::Seat::index) == Some(seat)
    };
    let lines = result.transcript.iter().filter(to);
    lines
        .map(|l| serde_json::from_str(&l.text).unwrap())
        .collect()
}

fn events(messages: &[Value]) -> Vec<&str> {
    messages
        .iter()
        .map(|m| m["event"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_raw_client_a_websocket_bot_a_class_based_bot_and_a_builtin_play_one_game() {
    let (sb, uids) = sandbox().await;
    let mut dirs = Dirs::default();
    let seats = vec![
        dirs.raw("raw", &[]),
        dirs.ws_kit("ws", &[]),
        dirs.class_kit("class"),
        SeatSpec::builtin("convention"),
    ];

    let result = play(&sb, hanabi("standard", 11, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    for seat in &result.seats {
        assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
        assert!(seat.moves > 0 && seat.forced_moves == 0);
    }
    assert!(
        result.seats[0].stderr_tail.contains("PROTOCOL OK"),
        "{}",
        describe(&result)
    );
    assert!(result.seats[1].stderr_tail.contains("game over"));
    let score = result.seats[0].score;
    assert!(result.seats.iter().all(|s| s.score == score && s.rank == 1));
    // Each bot's own row, the turns 0, 1, 2, … from index 0 and the hint targets agree with
    // the replay (spec seats) through the seeded seat order.
    let indices: Vec<usize> = (0..3)
        .map(|seat| indices::assert_indices_seen(&result, seat))
        .collect();
    let seat_order = indices::seat_order(&result);
    eprintln!("seat order {seat_order:?}");
    assert_eq!(
        indices,
        [0, 1, 2].map(|s| seat_order.iter().position(|&x| x == s).unwrap())
    );
    let to_class = sent_to(&result, 2);
    let order = events(&to_class);
    assert_eq!(order[0], "onStart");
    assert_eq!(to_class[1], json!({"index": 0, "event": "onTurnStart"}));
    let class_first = seat_order[0] == 2;
    assert_eq!(order[2] == "turn", class_first, "`turn` only when on turn");
    assert_eq!(*order.last().unwrap(), "onGameEnd");
    let turns = to_class.iter().filter(|m| m["event"] == "turn").count();
    assert_eq!(
        turns as u32, result.seats[2].moves,
        "`turn` goes to the player on turn only"
    );
    let end = to_class.last().unwrap();
    assert_eq!(end["score"], json!(score));
    assert!((0..=2).contains(&end["reason"].as_i64().unwrap()));
    assert!(
        sent_to(&result, 3).is_empty(),
        "a built-in seat gets no messages"
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn the_rainbow_rules_deal_sixty_cards_and_every_kind_of_bot_finishes_the_game() {
    let (sb, _) = sandbox().await;
    let mut dirs = Dirs::default();
    let seats = vec![
        dirs.class_kit("class"),
        dirs.raw("raw", &["--rainbow"]),
        dirs.ws_kit("ws", &["--rainbow"]),
        SeatSpec::builtin("convention"),
    ];

    let result = play(&sb, hanabi("rainbow", 5, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    for seat in &result.seats {
        assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
    }
    assert!(result.seats[1].stderr_tail.contains("PROTOCOL OK"));
    let seen_rainbow = sent_to(&result, 1).iter().any(|m| {
        m["handColor"].as_array().is_some_and(|rows| {
            rows.iter()
                .flat_map(|r| r.as_array().unwrap())
                .any(|c| c == 5)
        }) || m["draw"][0] == 5
            || m["play"][0] == 5
            || m["discard"][0] == 5
    });
    assert!(seen_rainbow, "rainbow cards (colour 5) are dealt");
}

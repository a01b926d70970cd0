//! Replays a real Splendor judge log move by move from its starting position.
//!
//! `data/splendor_judge_log_2p.txt` holds the first 14 rounds of a two-player game played on
//! the Girl Hackathon V judge (published by a contestant), in the judge's own log format:
//! `Starting table` with its JSON, then per turn the move and the judge's verdict. Every
//! verdict must be the engine's: the moves the judge refused are refused with the judge's own
//! line (and the turn is lost), the moves it carried out are carried out — among them the one- and two-colour gem
//! takes with all five colours on the table that the seed document says are not allowed.
//! The decks are rebuilt from the cards the log reveals (blind reserves show the deck's top).

use croupier_games::splendor::{
    all_cards, Action, Card, Color, Gems, LevelPosition, Noble, PlayerPosition, Position, Settings,
    Splendor,
};
use croupier_games::{Game, Seat, Turn};
use serde_json::Value;

const LOG: &str = include_str!("data/splendor_judge_log_2p.txt");

fn color(name: &str) -> Color {
    serde_json::from_value(Value::String(name.trim().to_owned())).expect("a colour name")
}

/// `[{"color": c, "count": n}, …]` as counts.
fn counts(list: Option<&Value>) -> Gems {
    let mut gems = Gems::default();
    for item in list.and_then(Value::as_array).into_iter().flatten() {
        let n = item.get("count").and_then(Value::as_u64).unwrap_or(0);
        *gems.slot(color(item["color"].as_str().unwrap())) += u8::try_from(n).unwrap();
    }
    gems
}

/// A card as the judge prints it (`score` and zero counts left out).
fn card(v: &Value) -> Card {
    Card {
        level: u8::try_from(v["level"].as_u64().unwrap()).unwrap(),
        color: color(v["color"].as_str().unwrap()),
        points: u8::try_from(v.get("score").and_then(Value::as_u64).unwrap_or(0)).unwrap(),
        cost: counts(v.get("costs")),
    }
}

fn noble(v: &Value) -> Noble {
    Noble {
        points: u8::try_from(v.get("score").and_then(Value::as_u64).unwrap_or(3)).unwrap(),
        requires: counts(v.get("requirements")),
    }
}

/// The log as lines, with each multi-line JSON value folded into one item.
#[derive(Debug)]
enum Item {
    Line(String),
    Json(Value),
}

fn items(log: &str) -> Vec<Item> {
    let (mut out, mut block, mut depth) = (Vec::new(), String::new(), 0_i32);
    for line in log.lines() {
        if depth == 0 && !line.trim_start().starts_with('{') {
            out.push(Item::Line(line.trim().to_owned()));
            continue;
        }
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        block.push_str(line);
        block.push('\n');
        if depth == 0 {
            out.push(Item::Json(
                serde_json::from_str(&block).expect("a JSON block"),
            ));
            block.clear();
        }
    }
    out
}

fn json_after(items: &[Item], i: usize) -> &Value {
    match items.get(i + 1) {
        Some(Item::Json(v)) => v,
        other => panic!("expected a JSON block after item {i}, found {other:?}"),
    }
}

/// The starting position: the log's table, decks beginning with the cards it reveals.
fn start(items: &[Item], players: usize) -> Position {
    let at = items
        .iter()
        .position(|it| matches!(it, Item::Line(l) if l == "Starting table"))
        .expect("a starting table");
    let table = json_after(items, at);
    let mut levels: [LevelPosition; 3] = Default::default();
    for c in table["cards"].as_array().unwrap().iter().map(card) {
        levels[usize::from(c.level) - 1].face_up.push(c);
    }
    for (i, it) in items.iter().enumerate() {
        if let Item::Line(l) = it {
            if l.contains(" is reserving a card from level ") {
                let c = card(json_after(items, i));
                levels[usize::from(c.level) - 1].deck.push(c);
            }
        }
    }
    for c in all_cards() {
        let level = &mut levels[usize::from(c.level) - 1];
        if !level.face_up.contains(c) && !level.deck.contains(c) {
            level.deck.push(*c);
        }
    }
    Position {
        round: 1,
        to_act: Seat(0),
        table: counts(table.get("gems")),
        levels,
        nobles: table["nobles"]
            .as_array()
            .unwrap()
            .iter()
            .map(noble)
            .collect(),
        players: vec![PlayerPosition::default(); players],
    }
}

/// What one turn of the log did: the move and the judge's verdict on it.
struct LoggedTurn {
    seat: Seat,
    action: Action,
    verdict: String,
}

impl LoggedTurn {
    fn accepted(&self) -> bool {
        self.verdict.starts_with("Successfully")
    }
}

fn turns(items: &[Item], names: &[&str]) -> Vec<(u32, u32, LoggedTurn)> {
    let (mut round, mut highest, mut out) = (0, 0, Vec::new());
    let mut i = 0;
    while i < items.len() {
        let Item::Line(line) = &items[i] else {
            i += 1;
            continue;
        };
        if let Some(n) = line.strip_prefix("Round ") {
            round = n.parse().unwrap();
        } else if let Some(h) = line.strip_prefix("Highest score: ") {
            highest = h.parse().unwrap();
        } else if let Some(name) = line
            .strip_prefix("Player ")
            .and_then(|r| r.strip_suffix("'s turn"))
        {
            let seat = Seat(names.iter().position(|n| *n == name).unwrap());
            let (action, next) = read_move(items, i + 1, name);
            let verdict = match items.get(next) {
                Some(Item::Line(v)) => v.clone(),
                other => panic!("expected a verdict, found {other:?}"),
            };
            let turn = LoggedTurn {
                seat,
                action,
                verdict,
            };
            assert!(
                turn.accepted() || turn.verdict.starts_with("Invalid"),
                "verdict {:?}",
                turn.verdict
            );
            out.push((round, highest, turn));
            i = next;
        }
        i += 1;
    }
    out
}

/// The move announced from item `i` on, and the index of the verdict line that follows it.
fn read_move(items: &[Item], i: usize, name: &str) -> (Action, usize) {
    let Item::Line(what) = &items[i] else {
        panic!("expected a move line at {i}")
    };
    let what = what.strip_prefix(name).unwrap().trim();
    match what {
        "is purchasing the card from table." => (
            Action::Buy {
                card: card(json_after(items, i)),
                noble: None,
            },
            i + 2,
        ),
        "is purchasing the reserved card." => (
            Action::BuyReserved {
                card: card(json_after(items, i)),
                noble: None,
            },
            i + 2,
        ),
        "is reserving the card." => {
            let Item::Line(from) = &items[i + 1] else {
                panic!("expected the reserve's source")
            };
            let level = from.rsplit(' ').next().unwrap().parse().unwrap();
            // The revealed card, then "Got one gold gem.", then the verdict.
            (Action::ReserveBlind { level, noble: None }, i + 4)
        }
        "is getting different color gems." => {
            let Item::Line(got) = &items[i + 1] else {
                panic!("expected the gems taken")
            };
            let list = got
                .strip_prefix("Successfully got ")
                .and_then(|r| r.strip_suffix(" gems."))
                .expect("the log names the colours of an accepted take only");
            let mut colors: Vec<Color> = list.split(", ").map(color).collect();
            colors.sort();
            (
                Action::TakeDifferent {
                    colors,
                    noble: None,
                },
                i + 1,
            )
        }
        other => panic!("a move this replay does not read: {other:?}"),
    }
}

#[test]
fn a_real_judge_log_replays_move_by_move_from_its_starting_position() {
    let items = items(LOG);
    let names: Vec<&str> = items
        .iter()
        .find_map(|it| match it {
            Item::Line(l) => l.strip_prefix("Players: "),
            Item::Json(_) => None,
        })
        .unwrap()
        .split(", ")
        .collect();
    assert_eq!(names, ["main", "player"]);
    let mut game = Splendor::from_position(Settings::hackathon(), start(&items, names.len()))
        .expect("the log's starting position");
    assert_eq!(game.seats(), 2);
    let turns = turns(&items, &names);
    assert_eq!(turns.len(), 28, "14 rounds of 2 players");
    let (mut accepted, mut few_colours, mut refused) = (0, 0, 0);
    for (round, highest, turn) in turns {
        assert_eq!(game.round(), round);
        assert_eq!(
            game.points().into_iter().max(),
            Some(highest),
            "round {round}"
        );
        assert_eq!(game.turn(), Turn::Seat(turn.seat), "round {round}");
        let result = game.apply(turn.seat, turn.action.clone());
        let said = match &result {
            Ok(_) => "accepted".to_owned(),
            Err(reason) => reason.to_string(),
        };
        let judge = if turn.accepted() {
            "accepted"
        } else {
            turn.verdict.as_str()
        };
        assert_eq!(
            said, judge,
            "round {round}, seat {}: the judge's verdict on {:?} and the engine's",
            turn.seat.0, turn.action
        );
        if turn.accepted() {
            accepted += 1;
            if matches!(&turn.action, Action::TakeDifferent { colors, .. } if colors.len() < 3) {
                few_colours += 1;
            }
        } else {
            refused += 1;
            game.apply(turn.seat, Action::Pass).unwrap(); // the judge: turn lost
        }
    }
    assert_eq!((accepted, few_colours, refused), (14, 5, 14));
    // After round 14: "player" bought four level-1 cards (one worth a point), "main" nothing.
    let position = game.position();
    assert_eq!(position.round, 15);
    assert_eq!(position.players[0], PlayerPosition::default());
    assert_eq!(position.players[1].purchased.len(), 4);
    assert_eq!(game.points(), vec![0, 1]);
    // Payments go back to the table: every token (4 gems a colour + 5 gold) is somewhere.
    let tokens: u32 = position.players.iter().map(|p| p.gems.total()).sum();
    assert_eq!(position.table.total() + tokens, 4 * 5 + 5);
}

#[test]
fn a_position_round_trips_and_impossible_positions_are_refused() {
    let game = <Splendor as Game>::new(Settings::hackathon(), 7).unwrap();
    let position = game.position();
    let again = Splendor::from_position(Settings::hackathon(), position.clone()).unwrap();
    assert_eq!(again, game);
    assert_eq!(again.position(), position);

    let mut twice = position.clone();
    let card = twice.levels[0].face_up[0];
    twice.players[0].purchased.push(card);
    let err = Splendor::from_position(Settings::hackathon(), twice).unwrap_err();
    assert!(err.to_string().contains("more than once"), "{err}");

    let mut lonely = position.clone();
    lonely.players.truncate(1);
    let err = Splendor::from_position(Settings::hackathon(), lonely).unwrap_err();
    assert!(err.to_string().contains("players"), "{err}");

    let mut wrong_level = position;
    let card = wrong_level.levels[2].deck.pop().unwrap();
    wrong_level.levels[0].deck.push(card);
    let err = Splendor::from_position(Settings::hackathon(), wrong_level).unwrap_err();
    assert!(err.to_string().contains("level"), "{err}");
}

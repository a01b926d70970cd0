//! The judge's input and output formats, without processes (the sandboxed round trips are in
//! `tests/splendor_match.rs`).

use croupier_games::splendor::{Action, Color, Settings, Splendor};
use croupier_games::{Game, Seat, Viewer};
use serde_json::{json, Value};

use super::input::{card, state};
use super::output::parse;

fn names() -> Vec<String> {
    ["alice", "bob", "carol"].map(String::from).to_vec()
}

fn game() -> Splendor {
    Splendor::new(Settings::hackathon(), 11).unwrap()
}

fn input(g: &Splendor, seat: usize) -> Value {
    state(&g.observe(Viewer::Seat(Seat(seat))), &names())
}

#[test]
fn the_input_has_camel_case_keys_and_leaves_zero_and_empty_fields_out() {
    let g = game();
    let v = input(&g, 0);
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["playerName", "players", "round", "table"]);
    assert_eq!(
        (v["round"].clone(), v["playerName"].clone()),
        (json!(1), json!("alice"))
    );
    assert_eq!(
        v["players"][1],
        json!({"name": "bob"}),
        "a player with nothing"
    );
    let gems = v["table"]["gems"].as_array().unwrap();
    let colors: Vec<&str> = gems.iter().map(|g| g["color"].as_str().unwrap()).collect();
    assert_eq!(colors, ["green", "white", "blue", "black", "red", "gold"]);
    assert!(gems.iter().all(|g| g["count"] == 5));
    assert_eq!(v["table"]["cards"].as_array().unwrap().len(), 12);
    assert_eq!(v["table"]["nobles"].as_array().unwrap().len(), 4);
    for c in v["table"]["cards"].as_array().unwrap() {
        assert!(
            c.get("score") != Some(&json!(0)),
            "score 0 is left out: {c}"
        );
        let costs = c["costs"].as_array().unwrap();
        assert!(
            costs.iter().all(|x| x["count"].as_u64().unwrap() > 0),
            "{c}"
        );
        assert!(c
            .as_object()
            .unwrap()
            .keys()
            .all(|k| ["level", "score", "color", "costs"].contains(&k.as_str())));
    }
    assert!(v["table"]["nobles"][0]["requirements"].is_array());
    assert_eq!(v["table"]["nobles"][0]["score"], 3);
}

#[test]
fn holdings_use_purchased_and_reserved_card_keys_and_an_empty_colour_has_no_count() {
    let mut g = game();
    // alice takes two red, then two blue; bob and carol reserve a face-up card each round.
    for (round, color) in [Color::Red, Color::Blue].into_iter().enumerate() {
        g.apply(Seat(0), Action::TakeTwo { color, noble: None })
            .unwrap();
        for seat in [1, 2] {
            let card = g.observe(Viewer::Spectator).table.cards[round * 2 + seat - 1];
            g.apply(Seat(seat), Action::Reserve { card, noble: None })
                .unwrap();
        }
    }
    let v = input(&g, 0);
    assert_eq!(
        v["players"][0],
        json!({"name": "alice", "gems": [{"color": "blue", "count": 2}, {"color": "red", "count": 2}]})
    );
    assert_eq!(
        v["players"][1]["reservedCards"].as_array().unwrap().len(),
        2
    );
    assert_eq!(
        v["players"][1]["gems"],
        json!([{"color": "gold", "count": 2}])
    );
    let table = v["table"]["gems"].as_array().unwrap();
    assert_eq!(table[2], json!({"color": "blue", "count": 3}));
    assert_eq!(table[4], json!({"color": "red", "count": 3}));
    assert_eq!(table[5], json!({"color": "gold", "count": 1}));
    // Gold runs out: the colour stays listed, without a count.
    g.apply(Seat(0), Action::Pass).unwrap();
    let card = g.observe(Viewer::Spectator).table.cards[0];
    g.apply(Seat(1), Action::Reserve { card, noble: None })
        .unwrap();
    let v = input(&g, 2);
    assert_eq!(v["table"]["gems"][5], json!({"color": "gold"}));
    assert_eq!(v["playerName"], "carol");
}

#[test]
fn purchased_cards_are_listed_with_the_score_and_bonus_they_give() {
    let mut g = game();
    let buyer = loop {
        let seat = g.turn().seat().unwrap();
        let legal = g.legal_actions(seat);
        let buy = legal.iter().find(|a| matches!(a, Action::Buy { .. }));
        let action = buy.unwrap_or(&legal[0]).clone();
        g.apply(seat, action).unwrap();
        let obs = g.observe(Viewer::Spectator);
        if let Some(i) = obs
            .players
            .iter()
            .position(|p| !p.purchased_cards.is_empty())
        {
            break i;
        }
    };
    let obs = g.observe(Viewer::Spectator);
    let bought = obs.players[buyer].purchased_cards[0];
    let v = state(&obs, &names());
    let player = &v["players"][buyer];
    assert_eq!(player["purchasedCards"], json!([card(&bought)]));
    assert_eq!(
        player.get("score"),
        (bought.points > 0).then(|| json!(bought.points)).as_ref()
    );
    assert_eq!(player["name"], names()[buyer]);
}

#[test]
fn a_blind_reserve_shows_in_the_next_calls_input() {
    let mut g = game();
    let before = input(&g, 0);
    assert!(before["players"][0].get("reservedCards").is_none());
    let deck_top = g.observe(Viewer::Omniscient).hidden.unwrap().decks[0][0];
    g.apply(
        Seat(0),
        Action::ReserveBlind {
            level: 1,
            noble: None,
        },
    )
    .unwrap();
    let next = input(&g, 1);
    assert_eq!(
        next["players"][0]["reservedCards"],
        json!([card(&deck_top)])
    );
    assert_eq!(
        next["players"][0]["gems"],
        json!([{"color": "gold", "count": 1}])
    );
}

fn read(text: &str) -> Action {
    parse(text.as_bytes()).unwrap().action.unwrap()
}

#[test]
fn answers_are_read_in_any_key_order_with_cards_matched_by_content() {
    let g = game();
    let c = g.observe(Viewer::Spectator).table.cards[0];
    let mut shuffled = card(&c);
    let costs = shuffled["costs"].as_array_mut().unwrap();
    costs.reverse();
    shuffled["score"] = json!(c.points);
    let pretty = serde_json::to_string_pretty(&json!({ "purchase_card": shuffled })).unwrap();
    assert_eq!(
        read(&pretty),
        Action::Buy {
            card: c,
            noble: None
        }
    );
    let reserve = json!({"reserve_card": {"card": shuffled}}).to_string();
    assert_eq!(
        read(&reserve),
        Action::Reserve {
            card: c,
            noble: None
        }
    );
    assert_eq!(
        read(r#"{"get_different_color_gems": ["red", "white", "green"]}"#),
        Action::TakeDifferent {
            colors: vec![Color::White, Color::Green, Color::Red],
            noble: None
        }
    );
    assert_eq!(
        read(r#"{"reserve_card": {"level": 2}}"#),
        Action::ReserveBlind {
            level: 2,
            noble: None
        }
    );
    let noble = g.observe(Viewer::Spectator).table.nobles[0];
    let named = json!({"noble": super::input::noble(&noble), "get_two_same_color_gems": "blue"});
    assert_eq!(
        read(&named.to_string()),
        Action::TakeTwo {
            color: Color::Blue,
            noble: Some(noble)
        }
    );
}

#[test]
fn several_actions_run_the_first_in_the_documented_order_and_empty_is_a_pass() {
    let answer = parse(br#"{"purchase_card": null, "reserve_card": {"level": 1}, "get_two_same_color_gems": "red"}"#).unwrap();
    assert_eq!(
        answer.action,
        Ok(Action::TakeTwo {
            color: Color::Red,
            noble: None
        })
    );
    assert_eq!(answer.ignored, ["reserve_card"]);
    assert_eq!(read("{}"), Action::Pass);
    assert_eq!(read(r#"{"hello": 1}"#), Action::Pass);
    let both =
        parse(br#"{"reserve_card": {"level": 1, "card": {"level": 1, "color": "red"}}}"#).unwrap();
    assert!(both.action.unwrap_err().contains("both"));
}

#[test]
fn garbage_is_invalid_output_with_a_reason() {
    let cases = [
        ("", "printed nothing"),
        ("  \n", "printed nothing"),
        ("get red", "invalid JSON"),
        (
            r#"{"get_two_same_color_gems":"red"} {"get_two_same_color_gems":"red"}"#,
            "invalid JSON",
        ),
        ("[1, 2]", "not a JSON object"),
        (r#"{"get_two_same_color_gems": "Red"}"#, "unknown colour"),
        (r#"{"get_different_color_gems": "red"}"#, "list of colours"),
        (r#"{"purchase_card": {"color": "red"}}"#, "no level"),
        (r#"{"reserve_card": {}}"#, "\"card\" or \"level\""),
    ];
    for (text, why) in cases {
        let err = parse(text.as_bytes()).unwrap_err();
        assert!(err.contains(why), "{text:?}: {err}");
    }
    assert!(parse(&[0xff, 0xfe]).unwrap_err().contains("UTF-8"));
}

//! Actions as the protocol's JSON text, written straight into a message: the same bytes as
//! serialising [`Value::from`](serde_json::Value) of each action (`["Pair","7",["S7","C7"]]`,
//! compact), without building a `Value` per action and per card. The referee's `act` message
//! writes its `actionList` with [`write_actions`].

use super::action::{rank_label, Action, Play, JOKER_BOMB};
use super::cards::Card;

/// `"S2"` … `"DR"` by suit and rank (ranks 0 and 1 unused: A is 14).
const CARD_TEXT: [[&str; 17]; 4] = [
    [
        "", "", "\"S2\"", "\"S3\"", "\"S4\"", "\"S5\"", "\"S6\"", "\"S7\"", "\"S8\"", "\"S9\"",
        "\"ST\"", "\"SJ\"", "\"SQ\"", "\"SK\"", "\"SA\"", "\"SB\"", "\"SR\"",
    ],
    [
        "", "", "\"H2\"", "\"H3\"", "\"H4\"", "\"H5\"", "\"H6\"", "\"H7\"", "\"H8\"", "\"H9\"",
        "\"HT\"", "\"HJ\"", "\"HQ\"", "\"HK\"", "\"HA\"", "\"HB\"", "\"HR\"",
    ],
    [
        "", "", "\"C2\"", "\"C3\"", "\"C4\"", "\"C5\"", "\"C6\"", "\"C7\"", "\"C8\"", "\"C9\"",
        "\"CT\"", "\"CJ\"", "\"CQ\"", "\"CK\"", "\"CA\"", "\"CB\"", "\"CR\"",
    ],
    [
        "", "", "\"D2\"", "\"D3\"", "\"D4\"", "\"D5\"", "\"D6\"", "\"D7\"", "\"D8\"", "\"D9\"",
        "\"DT\"", "\"DJ\"", "\"DQ\"", "\"DK\"", "\"DA\"", "\"DB\"", "\"DR\"",
    ],
];

/// A play's rank as written (`"A"` for 1 and 14, `"JOKER"` for the four-joker bomb).
const RANK_TEXT: [&str; 18] = [
    "\"?\"",
    "\"A\"",
    "\"2\"",
    "\"3\"",
    "\"4\"",
    "\"5\"",
    "\"6\"",
    "\"7\"",
    "\"8\"",
    "\"9\"",
    "\"T\"",
    "\"J\"",
    "\"Q\"",
    "\"K\"",
    "\"A\"",
    "\"B\"",
    "\"R\"",
    "\"JOKER\"",
];

fn write_card(out: &mut String, card: Card) {
    match CARD_TEXT
        .get(usize::from(card.suit))
        .and_then(|row| row.get(usize::from(card.rank)))
        .filter(|text| !text.is_empty())
    {
        Some(text) => out.push_str(text),
        None => {
            out.push('"');
            out.push_str(&card.to_string());
            out.push('"');
        }
    }
}

fn write_cards(out: &mut String, cards: &[Card]) {
    out.push('[');
    let mut first = true;
    for &card in cards {
        if !first {
            out.push(',');
        }
        first = false;
        write_card(out, card);
    }
    out.push(']');
}

fn write_play(out: &mut String, play: &Play) {
    out.push_str("[\"");
    out.push_str(play.kind.name());
    out.push_str("\",");
    match RANK_TEXT
        .get(usize::from(play.rank))
        .filter(|_| play.rank > 0)
    {
        Some(text) => out.push_str(text),
        None => {
            out.push('"');
            out.push_str(&rank_label(play.rank));
            out.push('"');
        }
    }
    out.push(',');
    write_cards(out, &play.cards);
    out.push(']');
}

/// Appends `action`'s JSON text.
pub fn write_action(out: &mut String, action: &Action) {
    match action {
        Action::Pass => out.push_str(r#"["PASS","PASS","PASS"]"#),
        Action::Play(play) => write_play(out, play),
        Action::Tribute(card) => {
            out.push_str(r#"["tribute","tribute","#);
            write_cards(out, &[*card]);
            out.push(']');
        }
        Action::Back(card) => {
            out.push_str(r#"["back","back","#);
            write_cards(out, &[*card]);
            out.push(']');
        }
    }
}

/// Appends the JSON array of `actions` (the `actionList`).
pub fn write_actions(out: &mut String, actions: &[Action]) {
    out.reserve(2 + actions.len() * 48);
    out.push('[');
    let mut first = true;
    for action in actions {
        if !first {
            out.push(',');
        }
        first = false;
        write_action(out, action);
    }
    out.push(']');
}

/// [`write_actions`] into a new string.
pub fn actions_text(actions: &[Action]) -> String {
    let mut out = String::new();
    write_actions(&mut out, actions);
    out
}

const _: () = assert!(JOKER_BOMB as usize + 1 == RANK_TEXT.len());

//! The judge's input: the game state as one JSON object (`docs/protocols.md#splendor`), written the
//! way the original judge's protobuf JSON printer writes it.
//!
//! * Keys are **camelCase**: `round`, `playerName`, `table {gems, cards, nobles}`, `players
//!   [{name, score, gems, purchasedCards, reservedCards, nobles}]`.
//! * **Zero and empty fields are left out**: a card worth 0 has no `score`, a player with nothing
//!   is `{"name":"x"}`, an exhausted colour on the table is `{"color":"red"}` (no `count`).
//! * `table.gems` always lists the six colours (green, white, blue, black, red, gold — the order
//!   of the protocol's colour list); a player's `gems`, a card's `costs` and a noble's
//!   `requirements` list only the colours with a non-zero count, in the same order.
//! * `table.cards`: the face-up cards, level 1 first, in slot order; `players`: every player in
//!   seat order (turn order), the player on turn among them by name.
//! * Reserved cards are public (hackathon rule): a card reserved blind appears in the reserver's
//!   `reservedCards` from the next call on, which is the next player's.
//!
//! Deck sizes and bonuses, which the engine's observation also carries, are not in the judge's
//! input and are not sent.

use croupier_games::splendor::{Card, Color, Gems, Noble, Observation};
use serde_json::{json, Map, Value};

/// The protocol's colour order.
pub(crate) const COLORS: [Color; 6] = [
    Color::Green,
    Color::White,
    Color::Blue,
    Color::Black,
    Color::Red,
    Color::Gold,
];

/// The input of the call for the player on turn; `names[i]` is seat `i`'s player name.
pub(crate) fn state(obs: &Observation, names: &[String]) -> Value {
    let mut root = Map::new();
    root.insert("round".into(), json!(obs.round));
    if let Some(name) = obs.to_act.and_then(|s| names.get(s.index())) {
        root.insert("playerName".into(), json!(name));
    }
    let mut table = Map::new();
    insert_list(&mut table, "gems", counts(&obs.table.gems, true));
    insert_list(
        &mut table,
        "cards",
        obs.table.cards.iter().map(card).collect(),
    );
    insert_list(
        &mut table,
        "nobles",
        obs.table.nobles.iter().map(noble).collect(),
    );
    root.insert("table".into(), Value::Object(table));
    let players = obs.players.iter().enumerate().map(|(i, p)| {
        let mut m = Map::new();
        m.insert(
            "name".into(),
            json!(names.get(i).cloned().unwrap_or_default()),
        );
        insert_number(&mut m, "score", u64::from(p.score));
        insert_list(&mut m, "gems", counts(&p.gems, false));
        insert_list(
            &mut m,
            "purchasedCards",
            p.purchased_cards.iter().map(card).collect(),
        );
        insert_list(
            &mut m,
            "reservedCards",
            p.reserved_cards.iter().map(card).collect(),
        );
        insert_list(&mut m, "nobles", p.nobles.iter().map(noble).collect());
        Value::Object(m)
    });
    root.insert("players".into(), Value::Array(players.collect()));
    Value::Object(root)
}

/// `{level, score, color, costs}`, `score` left out when 0.
pub(crate) fn card(card: &Card) -> Value {
    let mut m = Map::new();
    insert_number(&mut m, "level", u64::from(card.level));
    insert_number(&mut m, "score", u64::from(card.points));
    m.insert("color".into(), json!(card.color.name()));
    insert_list(&mut m, "costs", counts(&card.cost, false));
    Value::Object(m)
}

/// `{score, requirements}`.
pub(crate) fn noble(noble: &Noble) -> Value {
    let mut m = Map::new();
    insert_number(&mut m, "score", u64::from(noble.points));
    insert_list(&mut m, "requirements", counts(&noble.requires, false));
    Value::Object(m)
}

/// `[{color, count}]`: every colour when `all` (zero counts without `count`), else the
/// non-zero ones.
fn counts(gems: &Gems, all: bool) -> Vec<Value> {
    COLORS
        .into_iter()
        .filter(|&c| all || gems.get(c) > 0)
        .map(|c| {
            let mut m = Map::new();
            m.insert("color".into(), json!(c.name()));
            insert_number(&mut m, "count", u64::from(gems.get(c)));
            Value::Object(m)
        })
        .collect()
}

fn insert_number(m: &mut Map<String, Value>, key: &str, n: u64) {
    if n != 0 {
        m.insert(key.into(), json!(n));
    }
}

fn insert_list(m: &mut Map<String, Value>, key: &str, list: Vec<Value>) {
    if !list.is_empty() {
        m.insert(key.into(), Value::Array(list));
    }
}

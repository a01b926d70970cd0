//! The v1006 messages (`docs/protocols.md#guandan`), rendered from the engine's [`Observation`] and
//! [`Event`]s, and the bot's one reply, `{"actIndex": i}`.
//!
//! Exactly the 11 (type, stage) pairs are ever produced: notify {beginning, play, tribute,
//! anti-tribute, back, episodeOver, gameOver, gameResult} and act {play, tribute, back}.
//! Every value is standard JSON (`null`, double quotes); the manual's Python reprs are not
//! reproduced. When the seat on turn leads (or pays or returns tribute) `curPos` and
//! `greaterPos` are `-1` and `curAction` / `greaterAction` are `[null,null,null]`, as the real
//! server sends (the manual prints `None`).

use croupier_games::guandan::{json, Action, Area, Level, Observation, Play, StageName};
use croupier_games::Seat;
use serde_json::{json, Value};

/// `[null,null,null]` as text.
const NONE: &str = "[null,null,null]";

/// `[null,null,null]`: no action (a lead, or a cleared table).
fn none() -> Value {
    json!([null, null, null])
}

fn action(a: &Action) -> Value {
    Value::from(a.clone())
}

fn pos(seat: Option<Seat>) -> Value {
    seat.map_or(json!(-1), |s| json!(s.index()))
}

/// A seat's `playArea`: `null` before anything this deal, `[null,null,null]` after a trick.
fn write_area(out: &mut String, area: &Area) {
    match area {
        Area::Empty => out.push_str("null"),
        Area::Cleared => out.push_str(NONE),
        Area::Passed => json::write_action(out, &Action::Pass),
        Area::Played(a) => json::write_action(out, a),
    }
}

fn cards<'a>(cards: impl IntoIterator<Item = &'a croupier_games::guandan::Card>) -> Value {
    cards
        .into_iter()
        .map(std::string::ToString::to_string)
        .collect()
}

/// notify `beginning`: the seat's 27 cards (before any tribute) and the levels.
pub(super) fn beginning(obs: &Observation) -> Value {
    json!({
        "type": "notify",
        "stage": "beginning",
        "handCards": cards(&obs.hand_cards),
        "myPos": pos(obs.my_pos),
        "selfRank": obs.self_rank,
        "oppoRank": obs.oppo_rank,
        "curRank": obs.cur_rank,
    })
}

/// act `play` / `tribute` / `back` for the seat on turn, with its legal actions: the frame's
/// text, written straight into one string (the list can be 1,000s of actions), byte for byte
/// what serialising the message as a `serde_json` object writes (keys sorted, compact).
pub(super) fn act(obs: &Observation) -> String {
    let stage = match obs.stage {
        StageName::Tribute => "tribute",
        StageName::Back => "back",
        StageName::Play | StageName::Over => "play",
    };
    let write_or_none = |out: &mut String, a: &Option<Action>| match a {
        Some(a) => json::write_action(out, a),
        None => out.push_str(NONE),
    };
    let level = |level: Level| format!("\"{}\"", String::from(level));
    let list = &obs.action_list;
    let mut out = String::with_capacity(1024 + list.len() * 48);
    out.push_str(r#"{"actionList":"#);
    json::write_actions(&mut out, list);
    out.push_str(r#","curAction":"#);
    write_or_none(&mut out, &obs.cur_action);
    out.push_str(r#","curPos":"#);
    out.push_str(&pos(obs.cur_pos).to_string());
    out.push_str(r#","curRank":"#);
    out.push_str(&level(obs.cur_rank));
    out.push_str(r#","greaterAction":"#);
    write_or_none(&mut out, &obs.greater_action);
    out.push_str(r#","greaterPos":"#);
    out.push_str(&pos(obs.greater_pos).to_string());
    out.push_str(r#","handCards":"#);
    out.push_str(&cards(&obs.hand_cards).to_string());
    out.push_str(r#","indexRange":"#);
    out.push_str(&list.len().saturating_sub(1).to_string());
    out.push_str(r#","oppoRank":"#);
    out.push_str(&level(obs.oppo_rank));
    out.push_str(r#","publicInfo":["#);
    for (i, p) in obs.public_info.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(r#"{"playArea":"#);
        write_area(&mut out, &p.play_area);
        out.push_str(r#","rest":"#);
        out.push_str(&p.rest.to_string());
        out.push('}');
    }
    out.push_str(r#"],"selfRank":"#);
    out.push_str(&level(obs.self_rank));
    out.push_str(r#","stage":""#);
    out.push_str(stage);
    out.push_str(r#"","type":"act"}"#);
    out
}

/// notify `play`: `seat` did `done`; `greater` is the trick's best play after it.
pub(super) fn play(seat: Seat, done: &Action, greater: Option<&(Seat, Play)>) -> Value {
    let (greater_pos, greater_action) = match greater {
        Some((s, p)) => (json!(s.index()), action(&Action::Play(p.clone()))),
        None => (json!(-1), none()),
    };
    json!({
        "type": "notify",
        "stage": "play",
        "curPos": seat.index(),
        "curAction": action(done),
        "greaterPos": greater_pos,
        "greaterAction": greater_action,
    })
}

/// notify `tribute` or `back`: `[[from, to, card], ...]`.
pub(super) fn exchange(
    stage: &str,
    result: &[(Seat, Seat, croupier_games::guandan::Card)],
) -> Value {
    let result: Vec<Value> = result
        .iter()
        .map(|(from, to, card)| json!([from.index(), to.index(), card.to_string()]))
        .collect();
    json!({"type": "notify", "stage": stage, "result": result})
}

/// notify `anti-tribute`.
pub(super) fn anti_tribute(anti_pos: &[Seat]) -> Value {
    let seats: Vec<usize> = anti_pos.iter().map(|s| s.index()).collect();
    json!({
        "type": "notify",
        "stage": "anti-tribute",
        "antiNums": seats.len(),
        "antiPos": seats,
    })
}

/// notify `episodeOver`: finishing order, the deal's level, the cards left.
pub(super) fn episode_over(
    order: &[Seat],
    played_rank: croupier_games::guandan::Level,
    rest: &[(Seat, Vec<croupier_games::guandan::Card>)],
) -> Value {
    let order: Vec<usize> = order.iter().map(|s| s.index()).collect();
    let rest: Vec<Value> = rest
        .iter()
        .map(|(s, hand)| json!([s.index(), cards(hand)]))
        .collect();
    json!({
        "type": "notify",
        "stage": "episodeOver",
        "order": order,
        "curRank": played_rank,
        "restCards": rest,
    })
}

/// notify `gameOver` after game `cur_times` (1-based) of `setting_times`.
pub(super) fn game_over(cur_times: usize, setting_times: usize) -> Value {
    json!({
        "type": "notify",
        "stage": "gameOver",
        "curTimes": cur_times,
        "settingTimes": setting_times,
    })
}

/// notify `gameResult` after the last game: wins and draws per seat.
pub(super) fn game_result(victories: &[u32; 4], draws: &[u32; 4]) -> Value {
    json!({
        "type": "notify",
        "stage": "gameResult",
        "victoryNum": victories,
        "draws": draws,
    })
}

/// What a bot's text frame says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reply {
    /// `{"actIndex": i}` with an integer `i` (possibly out of range).
    Index(i64),
    /// Not that: the reason.
    Garbage(String),
}

/// Reads `{"actIndex": i}`. Other keys are ignored; `i` must be a JSON integer.
pub(crate) fn reply(text: &str) -> Reply {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Reply::Garbage(format!("not JSON ({e}): {}", clip(text))),
    };
    match value.get("actIndex").and_then(Value::as_i64) {
        Some(i) => Reply::Index(i),
        None => Reply::Garbage(format!("no integer actIndex: {}", clip(text))),
    }
}

fn clip(text: &str) -> String {
    let mut end = text.len().min(120);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_integer_indices_and_everything_else_is_garbage() {
        assert_eq!(reply(r#"{"actIndex": 3}"#), Reply::Index(3));
        assert_eq!(reply(r#"{"actIndex": -1, "x": 1}"#), Reply::Index(-1));
        assert!(matches!(reply(r#"{"actIndex": "3"}"#), Reply::Garbage(_)));
        assert!(matches!(reply(r#"{"actIndex": 1.5}"#), Reply::Garbage(_)));
        assert!(matches!(reply("[1]"), Reply::Garbage(_)));
        assert!(matches!(reply("hello"), Reply::Garbage(_)));
    }

    #[test]
    fn a_lead_has_minus_one_and_three_nulls_and_areas_follow_the_table() {
        let area = |a: &Area| {
            let mut text = String::new();
            write_area(&mut text, a);
            serde_json::from_str::<Value>(&text).unwrap()
        };
        assert_eq!(area(&Area::Empty), Value::Null);
        assert_eq!(area(&Area::Cleared), json!([null, null, null]));
        assert_eq!(area(&Area::Passed), json!(["PASS", "PASS", "PASS"]));
        let lead = play(Seat(2), &Action::Pass, None);
        assert_eq!(lead["greaterPos"], json!(-1));
        assert_eq!(lead["greaterAction"], json!([null, null, null]));
        assert_eq!(lead["curAction"], json!(["PASS", "PASS", "PASS"]));
    }
}

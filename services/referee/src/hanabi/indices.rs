//! Protocol indices: the seeded seat shuffle of `docs/protocols.md#hanabi`.
//!
//! The original server shuffles its seats; a bot learns its index from `onStart` (its own row
//! is all -1), the player with index 0 starts and the turn goes 0, 1, 2, …. Croupier keeps the
//! engine's seat equal to the spec's seat (results, replays, move statistics and names are all
//! per spec seat) and shuffles the **index** instead:
//!
//! * `order[k]` is the engine seat that has protocol index `k`, drawn from the match seed's
//!   `Stream::Referee` (its first draws: independent of the engine's deal). A spec that sets
//!   the engine setting `seat_order` itself (a schedule rotating who starts, say) is kept.
//! * The engine plays in that order: the adapter writes it as the game's `seat_order` setting
//!   before the first move, so the seat with index 0 starts and the turn follows the indices,
//!   the final round included. The replay's settings record it.
//! * Every index in a message is translated: `onStart`'s rows (ordered by index),
//!   `onTurnStart.index`, `onPlayerAction.index` and a hint's `target`, and the `target` of a
//!   hint the bot sends. Card slots (play and discard targets) are not seat numbers and pass
//!   unchanged. Built-in seats play through the engine and need no translation.

use croupier_games::hanabi::{ActionReport, Observation};
use croupier_games::{GameRng, Seat};
use serde_json::Value;

/// The setting the order is written to.
const KEY: &str = "seat_order";

/// The match's mapping between engine seats and protocol indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Indices {
    /// Protocol index → engine seat: the turn order.
    order: Vec<usize>,
    /// Engine seat → protocol index.
    index: Vec<usize>,
}

impl Indices {
    /// The order the spec's `settings` give, else a shuffle of `seats` seats drawn from `rng`.
    pub fn choose(settings: &Value, seats: usize, rng: &mut GameRng) -> Indices {
        let given = settings.get(KEY).and_then(Value::as_array).map(|order| {
            let seat = |v: &Value| v.as_u64().and_then(|s| usize::try_from(s).ok());
            order.iter().filter_map(seat).collect::<Vec<usize>>()
        });
        match given {
            Some(order) if is_permutation(&order, seats) => Indices::from_order(order),
            _ => {
                let mut order: Vec<usize> = (0..seats).collect();
                rng.shuffle(&mut order);
                Indices::from_order(order)
            }
        }
    }

    /// `order` (a permutation of the seats) read as protocol index → engine seat.
    pub fn from_order(order: Vec<usize>) -> Indices {
        let mut index = vec![0; order.len()];
        for (k, &seat) in order.iter().enumerate() {
            if let Some(slot) = index.get_mut(seat) {
                *slot = k;
            }
        }
        Indices { order, index }
    }

    /// The spec's settings object with the order added as `seat_order`.
    pub fn settings(&self, spec_settings: &Value) -> Value {
        let mut object = match spec_settings {
            Value::Object(map) => map.clone(),
            _ => serde_json::Map::new(),
        };
        object.insert(KEY.to_owned(), Value::from(self.order.clone()));
        Value::Object(object)
    }

    /// The protocol index of engine seat `seat`.
    pub fn index(&self, seat: Seat) -> usize {
        self.index
            .get(seat.index())
            .copied()
            .unwrap_or(seat.index())
    }

    /// The engine seat with protocol index `index`, if there is one.
    pub fn seat(&self, index: usize) -> Option<Seat> {
        self.order.get(index).copied().map(Seat)
    }

    /// `rows[seat]` reordered as `rows[index]`.
    pub fn rows<T: Clone>(&self, rows: &[T]) -> Vec<T> {
        self.order
            .iter()
            .filter_map(|&seat| rows.get(seat).cloned())
            .collect()
    }

    /// `view` with its hands in protocol index order.
    pub fn view(&self, view: &Observation) -> (Vec<Vec<i8>>, Vec<Vec<i8>>) {
        (self.rows(&view.hand_color), self.rows(&view.hand_number))
    }

    /// The report with its actor, and a hint's target, as protocol indices.
    pub fn report(&self, report: &ActionReport) -> ActionReport {
        let mut report = report.clone();
        report.index = Seat(self.index(report.index));
        if matches!(report.action_type, 0 | 1) {
            report.target = self.index(Seat(report.target));
        }
        report
    }

    /// A bot's hint answer with its `target` as an engine seat (the engine's action JSON);
    /// an index that is no player is left for the engine to refuse.
    pub fn action(&self, mut action: Value) -> Value {
        let hint = matches!(
            action.get("action").and_then(Value::as_str),
            Some("hint_color" | "hint_number")
        );
        let target = action.get("target").and_then(Value::as_u64);
        let seat = target.and_then(|t| self.seat(usize::try_from(t).ok()?));
        if let (true, Some(seat), Some(object)) = (hint, seat, action.as_object_mut()) {
            object.insert("target".to_owned(), Value::from(seat.index()));
        }
        action
    }

    /// For a refused hint (the engine names seats, the bot knows indices): which index is
    /// which seat, appended to the fault detail; empty for anything else.
    pub fn note(&self, me: Seat, answer: &Value) -> String {
        let kind = answer.get("actionType").and_then(Value::as_i64);
        if !matches!(kind, Some(0 | 1)) {
            return String::new();
        }
        let pairs: Vec<String> = (self.order.iter().enumerate())
            .map(|(k, seat)| format!("{k}→{seat}"))
            .collect();
        format!(
            " (you are player index {}; index→seat: {})",
            self.index(me),
            pairs.join(", ")
        )
    }
}

fn is_permutation(order: &[usize], seats: usize) -> bool {
    let mut sorted = order.to_vec();
    sorted.sort_unstable();
    sorted.iter().copied().eq(0..seats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use croupier_games::hanabi::{Action, Hanabi, Settings};
    use croupier_games::{Game, Stream, Viewer};
    use serde_json::json;

    fn fixed(order: &[usize]) -> Indices {
        Indices::from_order(order.to_vec())
    }

    #[test]
    fn the_order_is_seeded_and_a_permutation_and_a_given_one_is_kept() {
        let draw = |seed| {
            let mut rng = GameRng::derive(seed, Stream::Referee);
            Indices::choose(&json!(null), 4, &mut rng)
        };
        assert_eq!(draw(5), draw(5));
        let orders: Vec<Vec<usize>> = (0..12).map(|s| draw(s).order).collect();
        assert!(orders.iter().all(|o| is_permutation(o, 4)));
        assert!(orders.iter().any(|o| o[0] != 0), "{orders:?}");
        let mut rng = GameRng::derive(5, Stream::Referee);
        let given = Indices::choose(&json!({"seat_order": [1, 0, 3, 2]}), 4, &mut rng);
        assert_eq!(given, fixed(&[1, 0, 3, 2]));
        let merged = given.settings(&json!({"on_illegal": "ask_again"}));
        assert_eq!(
            merged,
            json!({"on_illegal": "ask_again", "seat_order": [1, 0, 3, 2]})
        );
        assert_eq!(
            given.settings(&json!(null)),
            json!({"seat_order": [1, 0, 3, 2]})
        );
    }

    #[test]
    fn indices_and_seats_are_inverse_and_rows_are_reordered() {
        let ix = fixed(&[2, 0, 3, 1]);
        for seat in 0..4 {
            assert_eq!(ix.seat(ix.index(Seat(seat))), Some(Seat(seat)));
        }
        assert_eq!(ix.index(Seat(2)), 0);
        assert_eq!(ix.seat(4), None);
        let hint = json!({"actionType": 1, "target": 1, "number": 2});
        assert_eq!(
            ix.note(Seat(0), &hint),
            " (you are player index 1; index→seat: 0→2, 1→0, 2→3, 3→1)"
        );
        assert_eq!(ix.note(Seat(0), &json!({"actionType": 2, "target": 1})), "");
        assert_eq!(ix.rows(&["s0", "s1", "s2", "s3"]), ["s2", "s0", "s3", "s1"]);
    }

    #[test]
    fn hint_targets_are_translated_both_ways_and_card_slots_are_not() {
        let ix = fixed(&[2, 0, 3, 1]);
        let hint = json!({"action": "hint_color", "target": 3, "color": 1});
        assert_eq!(ix.action(hint)["target"], 1);
        let play = json!({"action": "play", "card": 3});
        assert_eq!(ix.action(play.clone()), play);
        let nobody = json!({"action": "hint_number", "target": 7, "number": 1});
        assert_eq!(ix.action(nobody.clone()), nobody);

        let settings = Settings {
            seat_order: Some(vec![2, 0, 3, 1]),
            ..Settings::standard(4)
        };
        let mut game = Hanabi::new(settings, 3).unwrap();
        let target = Seat(1);
        let color = game.hand(target)[0].color;
        let action = Action::HintColor { target, color };
        game.apply(Seat(2), action).unwrap();
        let view = game.observe(Viewer::Seat(Seat(0)));
        let report = ix.report(view.last_action.as_ref().unwrap());
        assert_eq!((report.index, report.target), (Seat(0), 3));
        let (colors, _) = ix.view(&view);
        assert_eq!(colors[1], [-1; 4], "seat 0 has index 1: its own row");
    }
}

//! Which moves the rules allow: the legal-move list and the refusals with their reasons.

use super::action::Action;
use super::cards::{Card, Color};
use super::state::{Hanabi, MAX_HINT_TOKENS};
use crate::api::Seat;
use crate::error::IllegalAction;
use crate::plural::count;

impl Hanabi {
    /// The slots of `target`'s hand that `action` (a hint) touches; empty for plays, discards
    /// and unknown seats.
    pub fn touched(&self, action: Action) -> Vec<usize> {
        let target = match action {
            Action::HintColor { target, .. } | Action::HintNumber { target, .. } => target,
            Action::Play { .. } | Action::Discard { .. } => return Vec::new(),
        };
        self.hand(target)
            .iter()
            .enumerate()
            .filter(|&(_, &card)| touches(action, card))
            .map(|(slot, _)| slot)
            .collect()
    }

    /// `Ok` if `seat` (on turn) may make `action`, else why not.
    pub(super) fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        let refuse = |reason: String| Err(IllegalAction::against_rules(reason));
        let hand = self.hand(seat).len();
        match action {
            Action::Play { card } | Action::Discard { card } if card >= hand => {
                return refuse(format!(
                    "you have no card {card}: your hand has {}",
                    count(hand, "card")
                ));
            }
            // Exactly 8: in the rainbow variant a completed stack may lift the tokens above it,
            // and the origin (`self.hints == 8`) lets a player discard there.
            Action::Discard { .. } if self.hint_tokens() == MAX_HINT_TOKENS => {
                return refuse("you may not discard with all 8 hint tokens".to_owned());
            }
            Action::Play { .. } | Action::Discard { .. } => return Ok(()),
            Action::HintColor { target, .. } | Action::HintNumber { target, .. } => {
                if self.hint_tokens() == 0 {
                    return refuse("no hint token left to give a hint".to_owned());
                }
                if target.index() >= self.settings.players {
                    return refuse(format!("there is no player {target}"));
                }
                if target == seat && !self.settings.self_hints {
                    return refuse(format!("seat {target} is not another player"));
                }
            }
        }
        match action {
            Action::HintColor { color, .. }
                if color == Color::Rainbow || color.index() >= self.settings.colors() =>
            {
                refuse(format!("{color} cannot be named in a hint"))
            }
            Action::HintNumber { number, .. } if !(1..=5).contains(&number) => {
                refuse(format!("no card has the number {number}"))
            }
            _ if self.touched(action).is_empty() => {
                refuse("a hint must touch at least one card".to_owned())
            }
            _ => Ok(()),
        }
    }

    /// Every legal move of the seat on turn, in a stable order: plays by slot, discards by slot,
    /// then hints by target seat (the mover too, with `self_hints`), colours before numbers.
    pub(super) fn legal(&self, seat: Seat) -> Vec<Action> {
        let slots = 0..self.hand(seat).len();
        let colors = self.settings.colors().min(5);
        // Room for every play, discard and hint at once: the list is built on every turn, and
        // growing it cost more than the rules' own work (callgrind, the referee's random play).
        let most = 2 * slots.len() + self.settings.players * (colors + 5);
        let mut legal: Vec<Action> = Vec::with_capacity(most);
        legal.extend(slots.clone().map(|card| Action::Play { card }));
        if self.hint_tokens() != MAX_HINT_TOKENS {
            legal.extend(slots.map(|card| Action::Discard { card }));
        }
        if self.hint_tokens() == 0 {
            return legal;
        }
        let named = Color::ALL.into_iter().take(colors);
        let self_hints = self.settings.self_hints;
        for target in Seat::all(self.settings.players).filter(|&t| t != seat || self_hints) {
            let hand = self.hand(target);
            for color in named.clone() {
                if hand.iter().any(|c| color.touches(c.color)) {
                    legal.push(Action::HintColor { target, color });
                }
            }
            for number in 1..=5 {
                if hand.iter().any(|c| c.number == number) {
                    legal.push(Action::HintNumber { target, number });
                }
            }
        }
        legal
    }
}

/// Whether `action` is a hint to the player who makes it.
pub(super) fn hints_oneself(seat: Seat, action: Action) -> bool {
    matches!(action, Action::HintColor { target, .. } | Action::HintNumber { target, .. } if target == seat)
}

/// Whether the hint `action` touches `card`; false for plays and discards.
pub(super) fn touches(action: Action, card: Card) -> bool {
    match action {
        Action::HintColor { color, .. } => color.touches(card.color),
        Action::HintNumber { number, .. } => card.number == number,
        Action::Play { .. } | Action::Discard { .. } => false,
    }
}

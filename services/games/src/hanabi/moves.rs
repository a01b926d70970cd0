//! What each move does to the state: hints, plays and discards with their draw.

use super::action::{Action, Event, Hint};
use super::cards::Card;
use super::rules::touches;
use super::settings::{DrawInto, FiveReturnsToken};
use super::state::{Hanabi, MAX_HINT_TOKENS};
use crate::api::Seat;
use crate::error::IllegalAction;

impl Hanabi {
    /// Takes the card in slot `slot` of `seat`'s hand and draws a replacement, if any is left,
    /// where the `draw_into` setting puts it; a slot with nothing to draw is removed.
    pub(super) fn take_and_draw(
        &mut self,
        seat: Seat,
        slot: usize,
    ) -> Result<(Card, Option<Card>), IllegalAction> {
        let fresh = self.next_knowledge();
        let Hanabi {
            deck,
            hands,
            knowledge,
            settings,
            ..
        } = self;
        let (Some(hand), Some(knowledge)) =
            (hands.get_mut(seat.index()), knowledge.get_mut(seat.index()))
        else {
            return Err(IllegalAction::against_rules(format!("no seat {seat}")));
        };
        let (Some(held), Some(known)) = (hand.get_mut(slot), knowledge.get_mut(slot)) else {
            return Err(IllegalAction::against_rules(format!(
                "you have no card {slot}"
            )));
        };
        let drew = deck.pop();
        let card = match (drew, settings.draw_into) {
            (Some(new), DrawInto::PlayedSlot) => {
                *known = fresh;
                std::mem::replace(held, new)
            }
            (Some(new), DrawInto::EndOfHand) => {
                knowledge.remove(slot);
                knowledge.push(fresh);
                hand.push(new);
                hand.remove(slot)
            }
            (None, _) => {
                knowledge.remove(slot);
                hand.remove(slot)
            }
        };
        Ok((card, drew))
    }

    pub(super) fn hint(&mut self, seat: Seat, action: Action) -> Event {
        let touched = self.touched(action);
        let (target, hint) = match action {
            Action::HintColor { target, color } => (target, Hint::Color(color)),
            Action::HintNumber { target, number } => (target, Hint::Number(number)),
            Action::Play { .. } | Action::Discard { .. } => (seat, Hint::Number(0)),
        };
        let hand = self
            .hands
            .get(target.index())
            .map_or(&[][..], Vec::as_slice);
        if let Some(knowledge) = self.knowledge.get_mut(target.index()) {
            for (k, &card) in knowledge.iter_mut().zip(hand) {
                let hit = touches(action, card);
                match hint {
                    Hint::Color(color) => k.hint_color(color, hit),
                    Hint::Number(number) => k.hint_number(number, hit),
                }
            }
        }
        self.hint_tokens = self.hint_tokens.saturating_sub(1);
        Event::Hinted {
            seat,
            target,
            hint,
            touched,
            hint_tokens: self.hint_tokens,
        }
    }

    pub(super) fn play(&mut self, seat: Seat, slot: usize, card: Card) -> Event {
        let stack = self.stacks.get_mut(card.color.index());
        let success = match stack {
            Some(height) if *height + 1 == card.number => {
                *height = card.number;
                true
            }
            _ => false,
        };
        let token_returned = success
            && card.number == 5
            && (self.hint_tokens < MAX_HINT_TOKENS
                || self.settings.five_returns_token == FiveReturnsToken::Always);
        if token_returned {
            self.hint_tokens = self.hint_tokens.saturating_add(1);
        }
        if !success {
            self.error_tokens += 1;
            self.discards.push(card);
        }
        Event::Played {
            seat,
            slot,
            card,
            success,
            token_returned,
            error_tokens: self.error_tokens,
        }
    }
}

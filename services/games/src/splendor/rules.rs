//! The move rules: which moves are legal (with the reason when not) and what they do.

use super::action::{Action, Event};
use super::data::{Card, Color, Gems, Noble};
use super::state::{Player, Splendor};
use crate::api::Seat;
use crate::error::IllegalAction;

/// What a player holding `gems` with `bonuses` pays for a card costing `cost`: per colour, the
/// bonus first, then own gems, then gold for the rest. `None` if that is not enough.
pub fn payment(cost: &Gems, gems: &Gems, bonuses: &Gems) -> Option<Gems> {
    let mut paid = Gems::default();
    let mut gold = 0_u8;
    for color in Color::GEMS {
        let due = cost.get(color).saturating_sub(bonuses.get(color));
        let own = due.min(gems.get(color));
        *paid.slot(color) = own;
        gold = gold.saturating_add(due - own);
    }
    (gold <= gems.gold).then_some(Gems { gold, ..paid })
}

fn refuse(reason: impl Into<String>) -> Result<(), IllegalAction> {
    Err(IllegalAction::against_rules(reason))
}

impl Splendor {
    /// Every move `seat` (on turn, holding `player`) could consider; filtered by `check`.
    pub(super) fn candidates(&self) -> Vec<Action> {
        let mut out = Vec::new();
        for mask in 1_u32..32 {
            let colors: Vec<Color> = Color::GEMS
                .into_iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, c)| c)
                .collect();
            if colors.len() <= 3 {
                out.push(Action::TakeDifferent {
                    colors,
                    noble: None,
                });
            }
        }
        for color in Color::GEMS {
            out.push(Action::TakeTwo { color, noble: None });
        }
        for card in self.face_up() {
            out.push(Action::Reserve { card, noble: None });
        }
        for level in 1..=3 {
            out.push(Action::ReserveBlind { level, noble: None });
        }
        for card in self.face_up() {
            out.push(Action::Buy { card, noble: None });
        }
        if let Some(player) = self.players.get(self.to_act.index()) {
            for &card in &player.reserved {
                out.push(Action::BuyReserved { card, noble: None });
            }
        }
        out
    }

    /// `Ok` when `player` may make `action` now (the turn is checked by the caller).
    pub(super) fn check(&self, player: &Player, action: &Action) -> Result<(), IllegalAction> {
        let limit = self.settings.token_limit;
        let tokens = player.gems.total();
        // The judge's own words where its logs show them, its capitals included.
        let too_many = "Invalid action. Can't hold more than 10 gems.";
        let too_poor = "Invalid Action. Doesn't have enough gems to purchase.";
        let over = |gain: u32| tokens + gain > limit;
        let takes_gold = match action {
            Action::TakeDifferent { colors, .. } => colors.contains(&Color::Gold),
            Action::TakeTwo { color, .. } => *color == Color::Gold,
            _ => false,
        };
        if takes_gold {
            return refuse("gold cannot be taken: it comes only with a reservation");
        }
        match action {
            Action::Pass => return Ok(()),
            Action::TakeDifferent { colors, .. } => {
                if !colors.windows(2).all(|w| matches!(w, [a, b] if a < b)) {
                    return refuse(
                        "take each colour at most once, in the order white, blue, green, red, black",
                    );
                }
                if colors.iter().any(|&c| self.table.get(c) == 0) {
                    return refuse("a colour asked for is not on the table");
                }
                // The real judge takes one or two colours even when three or more are on
                // the table (its own logs show it); the document's "3 unless fewer" is not
                // what it enforces.
                if colors.is_empty() || colors.len() > 3 {
                    return refuse("take 1 to 3 gems of different colours");
                }
                if over(colors.len() as u32) {
                    return refuse(too_many);
                }
            }
            Action::TakeTwo { color, .. } => {
                if self.table.get(*color) < 4 {
                    return refuse("two of a colour need at least 4 of it on the table");
                }
                if over(2) {
                    return refuse(too_many);
                }
            }
            Action::Reserve { .. } | Action::ReserveBlind { .. } => {
                let missing = match action {
                    Action::Reserve { card, .. } => !self.face_up().any(|c| c == *card),
                    Action::ReserveBlind { level, .. } => {
                        let deck = self.level(*level).map(|l| l.deck.is_empty());
                        if deck == Some(true) {
                            let empty = format!("Invalid action. No more card for level {level}.");
                            return refuse(empty);
                        }
                        deck.is_none()
                    }
                    _ => true,
                };
                if missing {
                    return refuse("no such card to reserve");
                }
                if player.reserved.len() >= self.settings.max_reserved {
                    return refuse("you already hold the maximum of reserved cards");
                }
                if over(u32::from(self.table.gold > 0)) {
                    return refuse(too_many);
                }
            }
            Action::Buy { card, .. } | Action::BuyReserved { card, .. } => {
                let present = match action {
                    Action::Buy { .. } => self.face_up().any(|c| c == *card),
                    _ => player.reserved.contains(card),
                };
                if !present {
                    return refuse("no such card to buy");
                }
                if payment(&card.cost, &player.gems, &player.bonuses()).is_none() {
                    return refuse(too_poor);
                }
            }
        }
        match action.noble() {
            Some(noble) if !self.nobles.contains(&noble) => refuse("no such noble on the table"),
            Some(noble) if !self.bonuses_after(player, action).covers(&noble.requires) => {
                refuse("you do not qualify for this noble")
            }
            _ => Ok(()),
        }
    }

    /// The nobles `player` would qualify for after `action`.
    pub(super) fn qualifying_nobles(&self, player: &Player, action: &Action) -> Vec<Noble> {
        let bonuses = self.bonuses_after(player, action);
        self.nobles
            .iter()
            .filter(|n| bonuses.covers(&n.requires))
            .copied()
            .collect()
    }

    fn bonuses_after(&self, player: &Player, action: &Action) -> Gems {
        let mut bonuses = player.bonuses();
        if let Action::Buy { card, .. } | Action::BuyReserved { card, .. } = action {
            *bonuses.slot(card.color) += 1;
        }
        bonuses
    }

    /// Carries out a checked `action` for `seat`.
    pub(super) fn execute(&mut self, seat: Seat, action: &Action) -> Vec<Event> {
        let mut events = Vec::with_capacity(2);
        let Some(player) = self.players.get_mut(seat.index()) else {
            return events;
        };
        match action {
            Action::Pass => events.push(Event::Passed { seat }),
            Action::TakeDifferent { colors, .. } => {
                for &c in colors {
                    move_token(&mut self.table, &mut player.gems, c, 1);
                }
                let colors = colors.clone();
                events.push(Event::TookGems { seat, colors });
            }
            Action::TakeTwo { color, .. } => {
                move_token(&mut self.table, &mut player.gems, *color, 2);
                let colors = vec![*color, *color];
                events.push(Event::TookGems { seat, colors });
            }
            Action::Reserve { .. } | Action::ReserveBlind { .. } => {
                let (card, blind) = match action {
                    Action::Reserve { card, .. } => (take_face_up(&mut self.levels, card), false),
                    Action::ReserveBlind { level, .. } => {
                        let deck = self.levels.get_mut(usize::from(*level).wrapping_sub(1));
                        (deck.and_then(|l| l.deck.pop()), true)
                    }
                    _ => (None, false),
                };
                let gold = self.table.gold > 0;
                move_token(
                    &mut self.table,
                    &mut player.gems,
                    Color::Gold,
                    u8::from(gold),
                );
                if let Some(card) = card {
                    player.reserved.push(card);
                    events.push(Event::Reserved {
                        seat,
                        card,
                        blind,
                        gold,
                    });
                }
            }
            Action::Buy { card, .. } | Action::BuyReserved { card, .. } => {
                let from_reserve = matches!(action, Action::BuyReserved { .. });
                let paid = payment(&card.cost, &player.gems, &player.bonuses()).unwrap_or_default();
                for c in [Color::Gold].into_iter().chain(Color::GEMS) {
                    move_token(&mut player.gems, &mut self.table, c, paid.get(c));
                }
                if from_reserve {
                    player.reserved.retain(|c| c != card);
                } else {
                    take_face_up(&mut self.levels, card);
                }
                player.bought.push(*card);
                events.push(Event::Bought {
                    seat,
                    card: *card,
                    paid,
                    from_reserve,
                });
            }
        }
        if let Some(noble) = action.noble() {
            self.nobles.retain(|n| *n != noble);
            player.nobles.push(noble);
            events.push(Event::NobleVisited { seat, noble });
        }
        events
    }
}

fn move_token(from: &mut Gems, to: &mut Gems, color: Color, n: u8) {
    let n = n.min(from.get(color));
    *from.slot(color) -= n;
    *to.slot(color) += n;
}

/// Removes a face-up card, refilling its slot from its level's deck (or leaving a gap).
fn take_face_up(levels: &mut [super::state::Level], card: &Card) -> Option<Card> {
    let level = levels.get_mut(usize::from(card.level).wrapping_sub(1))?;
    let at = level.face_up.iter().position(|c| c == card)?;
    match level.deck.pop() {
        Some(next) => level
            .face_up
            .get_mut(at)
            .map(|slot| std::mem::replace(slot, next)),
        None => Some(level.face_up.remove(at)),
    }
}

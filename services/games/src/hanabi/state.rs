//! The Hanabi state machine.

use super::action::{Action, EndReason, Event};
use super::cards::{full_deck, Card, Knowledge};
use super::observation::{GameEnd, Observation};
use super::rules::hints_oneself;
use super::settings::{FinalRound, OnIllegal, Settings, StrikeoutScore};
use crate::api::{Game, Seat, Turn, Viewer};
use crate::error::{IllegalAction, SettingsError};
use crate::game_def::GameId;
use crate::outcome::{Outcome, ScoreOrder};
use crate::rng::GameRng;
use crate::settings::GameSettings;

pub const MAX_HINT_TOKENS: u8 = 8;
pub const MAX_ERRORS: u8 = 3;

/// The last move with everything any viewer may learn of it (filtered by the observation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct LastMove {
    pub seat: Seat,
    pub action: Action,
    /// The card played or discarded.
    pub card: Option<Card>,
    /// The card drawn after a play or discard; `None` when the deck was empty (or a hint).
    pub drew: Option<Card>,
}

/// A game of Hanabi in progress. The first seat of the settings' turn order starts (seat 0 by
/// default) and the turn passes along that order. A drawn card takes the slot of the card
/// played or discarded (the `draw_into` setting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hanabi {
    pub(super) settings: Settings,
    /// Face down; the next card is the last.
    pub(super) deck: Vec<Card>,
    pub(super) hands: Vec<Vec<Card>>,
    pub(super) knowledge: Vec<Vec<Knowledge>>,
    /// Height of each colour's stack, colour order.
    pub(super) stacks: Vec<u8>,
    /// Discarded and misplayed cards, oldest first.
    pub(super) discards: Vec<Card>,
    pub(super) hint_tokens: u8,
    pub(super) error_tokens: u8,
    pub(super) to_act: Seat,
    pub(super) moves: u32,
    /// Once the deck is empty: turns left before the game ends.
    pub(super) turns_left: Option<usize>,
    pub(super) end: Option<EndReason>,
    pub(super) last: Option<LastMove>,
}

impl Hanabi {
    /// `seat`'s hand by slot (empty for an unknown seat).
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands.get(seat.index()).map_or(&[], Vec::as_slice)
    }

    pub fn hint_tokens(&self) -> u8 {
        self.hint_tokens
    }

    pub fn error_tokens(&self) -> u8 {
        self.error_tokens
    }

    /// Stack heights by colour.
    pub fn stacks(&self) -> &[u8] {
        &self.stacks
    }

    /// How the game ended (`None` while it goes on): what every observation's `end` says.
    pub fn game_end(&self) -> Option<GameEnd> {
        self.end.map(|reason| GameEnd {
            reason,
            code: reason.protocol_code(),
            score: self.score(),
        })
    }

    /// Cards left in the deck.
    pub fn deck_len(&self) -> usize {
        self.deck.len()
    }

    /// Why the game ended, once it has.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }

    /// The sum of the stack heights.
    pub fn stack_total(&self) -> i64 {
        self.stacks.iter().map(|&h| i64::from(h)).sum()
    }

    /// The team's score: the stacks, or 0 after a strikeout with `score_on_strikeout = zero`.
    pub fn score(&self) -> i64 {
        match (self.end, self.settings.score_on_strikeout) {
            (Some(EndReason::Strikeout), StrikeoutScore::Zero) => 0,
            _ => self.stack_total(),
        }
    }

    /// What is known of the next card to leave the deck: nothing, but its place in the order.
    pub(super) fn next_knowledge(&self) -> Knowledge {
        let colors = self.settings.colors();
        Knowledge::fresh_drawn(colors, 10 * colors - self.deck.len())
    }

    /// Ends the turn: the final-round count, the end conditions, the next seat.
    ///
    /// As the origin's `checkEndgame`: a third error ends the game; otherwise, once the deck
    /// is empty, every player (the one who drew the last card last) takes one more turn and
    /// the game ends with the deck-out reason, nothing checked in between (`final_round =
    /// unchecked`); otherwise completing every stack ends it.
    fn finish_turn(&mut self, seat: Seat, drew_last: bool, events: &mut Vec<Event>) {
        self.moves += 1;
        let in_final_round = self.turns_left.is_some();
        self.turns_left = self.turns_left.map(|t| t.saturating_sub(1));
        if drew_last {
            self.turns_left = Some(self.settings.players);
        }
        let checked = !in_final_round || self.settings.final_round == FinalRound::Checked;
        // With `unchecked`, the stacks count only while cards are left (the origin looks at
        // the deck first); then the final round has begun, or the game is over.
        let complete = self.stacks.iter().all(|&h| h >= 5)
            && (self.settings.final_round == FinalRound::Checked || self.turns_left.is_none());
        self.end = if checked && self.error_tokens >= MAX_ERRORS {
            Some(EndReason::Strikeout)
        } else if complete {
            Some(EndReason::Complete)
        } else if self.turns_left == Some(0) {
            Some(EndReason::DeckOut)
        } else {
            None
        };
        if let Some(reason) = self.end {
            events.push(Event::Ended {
                reason,
                score: self.score(),
            });
        }
        self.to_act = self.after(seat);
    }

    /// The seat that moves after `seat` in the turn order.
    pub fn after(&self, seat: Seat) -> Seat {
        match &self.settings.seat_order {
            Some(order) => {
                let at = order.iter().position(|&s| s == seat.index()).unwrap_or(0);
                order.get((at + 1) % order.len()).map_or(seat, |&s| Seat(s))
            }
            None => seat.next(self.settings.players),
        }
    }
}

impl Game for Hanabi {
    const ID: GameId = GameId::of(&super::GAME);
    type Settings = Settings;
    type Action = Action;
    type Observation = Observation;
    type Event = Event;

    fn new(settings: Settings, seed: u64) -> Result<Self, SettingsError> {
        settings.check()?;
        let colors = settings.colors();
        let mut deck = full_deck(colors);
        GameRng::new(seed).shuffle(&mut deck);
        let size = settings.hand_size();
        let hands: Vec<Vec<Card>> = (0..settings.players)
            .map(|_| (0..size).filter_map(|_| deck.pop()).collect())
            .collect();
        let knowledge = (0..settings.players)
            .map(|p| {
                (0..size)
                    .map(|k| Knowledge::fresh_drawn(colors, p * size + k))
                    .collect()
            })
            .collect();
        Ok(Hanabi {
            knowledge,
            hands,
            deck,
            stacks: vec![0; colors],
            discards: Vec::new(),
            hint_tokens: MAX_HINT_TOKENS,
            error_tokens: 0,
            to_act: Seat(settings.turn_order().first().copied().unwrap_or(0)),
            moves: 0,
            turns_left: None,
            end: None,
            last: None,
            settings,
        })
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn seats(&self) -> usize {
        self.settings.players
    }

    fn turn(&self) -> Turn {
        match self.end {
            None => Turn::Seat(self.to_act),
            Some(_) => Turn::Over,
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.turn() == Turn::Seat(seat) {
            self.legal(seat)
        } else {
            Vec::new()
        }
    }

    fn offered_actions(&self, seat: Seat) -> Vec<Action> {
        let mut legal = self.legal_actions(seat);
        legal.retain(|&action| !hints_oneself(seat, action));
        legal
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        self.check_turn(seat)?;
        self.check(seat, action)?;
        let mut events = Vec::with_capacity(3);
        let mut last = LastMove {
            seat,
            action,
            card: None,
            drew: None,
        };
        match action {
            Action::HintColor { .. } | Action::HintNumber { .. } => {
                events.push(self.hint(seat, action));
            }
            Action::Play { card: slot } | Action::Discard { card: slot } => {
                let (card, drew) = self.take_and_draw(seat, slot)?;
                (last.card, last.drew) = (Some(card), drew);
                events.push(if matches!(action, Action::Play { .. }) {
                    self.play(seat, slot, card)
                } else {
                    self.discards.push(card);
                    self.hint_tokens = self.hint_tokens.saturating_add(1);
                    Event::Discarded {
                        seat,
                        slot,
                        card,
                        hint_tokens: self.hint_tokens,
                    }
                });
                if drew.is_some() {
                    events.push(Event::Drew {
                        seat,
                        deck_left: self.deck.len(),
                    });
                }
            }
        }
        let drew_last = last.drew.is_some() && self.deck.is_empty();
        self.last = Some(last);
        self.finish_turn(seat, drew_last, &mut events);
        Ok(events)
    }

    fn observe(&self, viewer: Viewer) -> Observation {
        Observation::of(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.map(|_| {
            let scores = vec![self.score(); self.settings.players];
            Outcome::from_scores(ScoreOrder::HigherIsBetter, &scores)
        })
    }

    fn record_fault(&mut self, seat: Seat) {
        if self.end.is_none() && self.settings.on_illegal == OnIllegal::EndGame {
            self.end = Some(EndReason::Fault { seat });
        }
    }
}

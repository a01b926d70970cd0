//! Hanabi moves, the public log events and the ways a game ends.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{Card, Color};
use crate::api::Seat;

/// A move, serialized with an `action` tag: `{"action":"hint_color","target":2,"color":0}`,
/// `{"action":"hint_number","target":2,"number":5}`, `{"action":"play","card":0}`,
/// `{"action":"discard","card":3}`. `card` is a slot of the mover's own hand (0 = oldest).
/// The protocol's `actionType` is [`Action::action_type`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// actionType 0: touch every card of `color` (and every rainbow card) in `target`'s hand.
    HintColor { target: Seat, color: Color },
    /// actionType 1: touch every card numbered `number` in `target`'s hand.
    HintNumber { target: Seat, number: u8 },
    /// actionType 2.
    Play { card: usize },
    /// actionType 3.
    Discard { card: usize },
}

impl Action {
    /// The protocol's `actionType`: 0 hint colour, 1 hint number, 2 play, 3 discard.
    pub const fn action_type(self) -> u8 {
        match self {
            Action::HintColor { .. } => 0,
            Action::HintNumber { .. } => 1,
            Action::Play { .. } => 2,
            Action::Discard { .. } => 3,
        }
    }

    /// The protocol's `target`: a player for hints, a slot of one's own hand otherwise.
    pub const fn target(self) -> usize {
        match self {
            Action::HintColor { target, .. } | Action::HintNumber { target, .. } => target.0,
            Action::Play { card } | Action::Discard { card } => card,
        }
    }
}

/// Why a game ended; [`EndReason::protocol_code`] gives the protocol's `reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EndReason {
    /// The third error token (reason 0).
    Strikeout,
    /// The deck ran out and every player took one more turn (reason 1).
    DeckOut,
    /// Every stack is complete (reason 2).
    Complete,
    /// `seat` broke the protocol and `on_illegal` is `end_game`: the game ends with the score
    /// so far. The original protocol has no code for it.
    Fault { seat: Seat },
}

impl EndReason {
    /// `onGameEnd`'s `reason`: 0 three errors, 1 deck ran out, 2 all stacks complete; `None`
    /// for a fault (the adapter reports it as an `illegal_action` end state).
    pub const fn protocol_code(self) -> Option<u8> {
        match self {
            EndReason::Strikeout => Some(0),
            EndReason::DeckOut => Some(1),
            EndReason::Complete => Some(2),
            EndReason::Fault { .. } => None,
        }
    }
}

/// One public happening. The drawn card is not in the log: every player but the drawer sees
/// it, so it is read from [`observe`](crate::Game::observe).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A hint; `touched` are the slots of `target`'s hand it points at.
    Hinted {
        seat: Seat,
        target: Seat,
        hint: Hint,
        touched: Vec<usize>,
        hint_tokens: u8,
    },
    /// A play from slot `slot`: onto its stack if `success`, else discarded with an error.
    Played {
        seat: Seat,
        slot: usize,
        card: Card,
        success: bool,
        /// A completed stack gave a hint token back (only below 8).
        token_returned: bool,
        error_tokens: u8,
    },
    Discarded {
        seat: Seat,
        slot: usize,
        card: Card,
        hint_tokens: u8,
    },
    /// `seat` drew a card (which one, the observations say); `deck_left == 0` starts the final
    /// round, in which every player, `seat` included, takes one more turn.
    Drew {
        seat: Seat,
        deck_left: usize,
    },
    Ended {
        reason: EndReason,
        score: i64,
    },
}

/// What a hint names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hint {
    Color(Color),
    Number(u8),
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::Color(color) => write!(f, "{color}"),
            Hint::Number(number) => write!(f, "{number}"),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Hinted {
                seat,
                target,
                hint,
                touched,
                hint_tokens,
            } => write!(
                f,
                "seat {seat} tells seat {target} about their {hint}s: slots {touched:?} \
                 ({hint_tokens} hint tokens left)"
            ),
            Event::Played {
                seat,
                slot,
                card,
                success: true,
                token_returned,
                ..
            } => {
                write!(f, "seat {seat} plays {card} from slot {slot}")?;
                if *token_returned {
                    write!(f, " and regains a hint token")?;
                }
                Ok(())
            }
            Event::Played {
                seat,
                slot,
                card,
                error_tokens,
                ..
            } => write!(
                f,
                "seat {seat} misplays {card} from slot {slot} (error {error_tokens} of 3)"
            ),
            Event::Discarded {
                seat,
                slot,
                card,
                hint_tokens,
            } => write!(
                f,
                "seat {seat} discards {card} from slot {slot} ({hint_tokens} hint tokens)"
            ),
            Event::Drew { seat, deck_left: 0 } => write!(
                f,
                "seat {seat} draws the last card: every player takes one more turn"
            ),
            Event::Drew { seat, deck_left } => {
                write!(f, "seat {seat} draws a card ({deck_left} left)")
            }
            Event::Ended { reason, score } => {
                let why = match reason {
                    EndReason::Strikeout => "the third error".to_owned(),
                    EndReason::DeckOut => "the final round is over".to_owned(),
                    EndReason::Complete => "every stack is complete".to_owned(),
                    EndReason::Fault { seat } => format!("seat {seat} broke the protocol"),
                };
                write!(f, "game over ({why}); score {score}")
            }
        }
    }
}

//! What a Hanabi player sees: everything `docs/protocols.md#hanabi`'s websocket messages carry.

use serde::{Deserialize, Serialize};

use super::action::{Action, EndReason};
use super::cards::{Card, Color, Knowledge, HIDDEN, NOTHING_DRAWN};
use super::state::Hanabi;
use crate::api::{Game, Seat, Turn, Viewer};

/// One viewer's view. The adapter maps it to the protocol: `onStart` ← `hand_color` /
/// `hand_number`; `onTurnStart` / `turn` ← `to_act`; `onPlayerAction` ← `last_action`;
/// `onHintColor` / `onHintNumber` ← `hint_received`; `onGameEnd` ← `end`.
///
/// A seat sees every hand but its own (all -1). A spectator sees no hand until the game is over
/// (a live viewer could relay cards to a bot); the omniscient view sees everything, the deck too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    pub viewer: Viewer,
    pub players: usize,
    /// 5 colours, or 6 with rainbow.
    pub rainbow: bool,
    /// The seat on turn; `None` once the game is over.
    pub to_act: Option<Seat>,
    /// Every seat in turn order, the starting seat first (the `seat_order` setting).
    #[serde(default)]
    pub turn_order: Vec<Seat>,
    /// Moves made so far.
    pub moves: u32,
    /// `handColor[player][card]`: colour codes (red 0 … rainbow 5), -1 where hidden.
    pub hand_color: Vec<Vec<i8>>,
    /// `handNumber[player][card]`: 1..=5, -1 where hidden.
    pub hand_number: Vec<Vec<i8>>,
    /// `[player][card]`: what the hints so far tell about each card (public).
    pub knowledge: Vec<Vec<Knowledge>>,
    /// Stack heights by colour.
    pub stacks: Vec<u8>,
    /// Discarded and misplayed cards, oldest first.
    pub discards: Vec<Card>,
    pub hint_tokens: u8,
    pub error_tokens: u8,
    pub deck_count: usize,
    /// Once the deck is empty: turns left, this one included.
    pub turns_left: Option<usize>,
    /// The sum of the stacks now.
    pub score: i64,
    /// The move just made, as `onPlayerAction` reports it to this viewer.
    pub last_action: Option<ActionReport>,
    /// When the move just made was a hint to this viewer: `onHintColor` / `onHintNumber`.
    pub hint_received: Option<HintReceived>,
    pub end: Option<GameEnd>,
    /// The deck, next card first: only for [`Viewer::Omniscient`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<Card>>,
}

/// `onPlayerAction` without the `event` key; serialized with the protocol's key names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionReport {
    /// The seat that moved.
    pub index: Seat,
    /// 0 hint colour, 1 hint number, 2 play, 3 discard.
    pub action_type: u8,
    /// The hinted player, or the slot played or discarded.
    pub target: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<[i8; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<[i8; 2]>,
    /// The card drawn: `[-1,-1]` for the drawer (and whoever may not see it), `[-1,0]` for the
    /// others when the deck was empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<[i8; 2]>,
}

/// `onHintColor` / `onHintNumber`: per slot of the target's hand, the hinted colour (or
/// number) where touched, else -1; the other array is all -1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HintReceived {
    pub hint_color: Vec<i8>,
    pub hint_number: Vec<i8>,
}

/// `onGameEnd`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEnd {
    pub reason: EndReason,
    /// The protocol's `reason` (0, 1, 2); `None` for a fault.
    pub code: Option<u8>,
    pub score: i64,
}

impl Observation {
    /// The card in `slot` of `seat`'s hand, if this viewer sees it.
    pub fn card(&self, seat: Seat, slot: usize) -> Option<Card> {
        let color = *self.hand_color.get(seat.index())?.get(slot)?;
        let number = *self.hand_number.get(seat.index())?.get(slot)?;
        let color = Color::try_from(u8::try_from(color).ok()?).ok()?;
        Some(Card::new(color, u8::try_from(number).ok()?))
    }

    /// How many cards `seat` holds.
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.hand_color.get(seat.index()).map_or(0, Vec::len)
    }

    /// The knowledge about `seat`'s cards.
    pub fn knowledge_of(&self, seat: Seat) -> &[Knowledge] {
        self.knowledge.get(seat.index()).map_or(&[], Vec::as_slice)
    }

    /// The other seats in the order they move after `seat` (the next player first).
    pub fn others_after(&self, seat: Seat) -> Vec<Seat> {
        let at = self.turn_order.iter().position(|&s| s == seat);
        let n = self.turn_order.len();
        match at {
            Some(at) => (1..n)
                .filter_map(|d| self.turn_order.get((at + d) % n).copied())
                .collect(),
            None => Vec::new(),
        }
    }

    /// The height of `color`'s stack.
    pub fn stack(&self, color: Color) -> u8 {
        self.stacks.get(color.index()).copied().unwrap_or(5)
    }

    pub(super) fn of(game: &Hanabi, viewer: Viewer) -> Self {
        let over = game.end.is_some();
        let sees = |seat: Seat| match viewer {
            Viewer::Seat(me) => me != seat,
            Viewer::Spectator => over,
            Viewer::Omniscient => true,
        };
        let rows = |code: fn(Card) -> i8| -> Vec<Vec<i8>> {
            Seat::all(game.seats())
                .map(|seat| {
                    let shown = sees(seat);
                    game.hand(seat)
                        .iter()
                        .map(|&c| if shown { code(c) } else { -1 })
                        .collect()
                })
                .collect()
        };
        let report = game.last.as_ref().map(|last| {
            let action = last.action;
            let mut report = ActionReport {
                index: last.seat,
                action_type: action.action_type(),
                target: action.target(),
                color: None,
                number: None,
                play: None,
                discard: None,
                draw: None,
            };
            match action {
                Action::HintColor { color, .. } => report.color = Some(color),
                Action::HintNumber { number, .. } => report.number = Some(number),
                Action::Play { .. } => report.play = last.card.map(Card::protocol),
                Action::Discard { .. } => report.discard = last.card.map(Card::protocol),
            }
            if matches!(action, Action::Play { .. } | Action::Discard { .. }) {
                report.draw = Some(match last.drew {
                    _ if !sees(last.seat) => HIDDEN,
                    Some(card) => card.protocol(),
                    None => NOTHING_DRAWN,
                });
            }
            report
        });
        let hint_received = game.last.as_ref().and_then(|last| {
            let target = match last.action {
                Action::HintColor { target, .. } | Action::HintNumber { target, .. } => target,
                Action::Play { .. } | Action::Discard { .. } => return None,
            };
            if viewer != Viewer::Seat(target) {
                return None;
            }
            let touched = game.touched(last.action);
            let mark = |value: i8| -> Vec<i8> {
                (0..game.hand(target).len())
                    .map(|slot| if touched.contains(&slot) { value } else { -1 })
                    .collect()
            };
            let none = vec![-1; game.hand(target).len()];
            Some(match last.action {
                Action::HintColor { color, .. } => HintReceived {
                    hint_color: mark(color as i8),
                    hint_number: none,
                },
                Action::HintNumber { number, .. } => HintReceived {
                    hint_color: none,
                    hint_number: mark(number as i8),
                },
                Action::Play { .. } | Action::Discard { .. } => return None,
            })
        });
        Observation {
            viewer,
            players: game.seats(),
            rainbow: game.settings.rainbow,
            to_act: game.turn().seat(),
            turn_order: game.settings.turn_order().into_iter().map(Seat).collect(),
            moves: game.moves,
            hand_color: rows(|c| c.color as i8),
            hand_number: rows(|c| c.number as i8),
            knowledge: game.knowledge.clone(),
            stacks: game.stacks.clone(),
            discards: game.discards.clone(),
            hint_tokens: game.hint_tokens,
            error_tokens: game.error_tokens,
            deck_count: game.deck.len(),
            turns_left: game.turns_left.filter(|_| game.turn() != Turn::Over),
            score: game.score(),
            last_action: report,
            hint_received,
            end: game.game_end(),
            deck: (viewer == Viewer::Omniscient).then(|| game.deck.iter().rev().copied().collect()),
        }
    }
}

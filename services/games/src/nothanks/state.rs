//! The No Thanks state machine.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::observation::{Hidden, Observation, PlayerView};
use super::score::points;
use super::settings::{AfterPick, Settings};
use crate::api::{Game, Seat, Turn, Viewer};
use crate::error::{IllegalAction, SettingsError};
use crate::game_def::GameId;
use crate::outcome::{Outcome, ScoreOrder};
use crate::plural::count;
use crate::rng::GameRng;
use crate::settings::GameSettings;

/// A move: the protocol's `action_type`, serialized as `"pick"` / `"pass"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Take the face-up card and the coins on it.
    Pick,
    /// Put one coin on the face-up card.
    Pass,
}

/// What happened, for the match log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Passed {
        seat: Seat,
        card: u8,
        /// Coins on the card after this pass.
        coins_on_card: u32,
    },
    Picked {
        seat: Seat,
        card: u8,
        coins: u32,
    },
    /// The next card is turned up.
    Revealed {
        card: u8,
        deck_left: usize,
    },
    /// A pick found the deck empty. `points[i]` is seat `i`'s final score.
    Ended {
        points: Vec<i64>,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Passed {
                seat,
                card,
                coins_on_card,
            } => write!(
                f,
                "seat {seat} passes on {card} ({} on it)",
                count(coins_on_card, "coin")
            ),
            Event::Picked { seat, card, coins } => {
                write!(f, "seat {seat} picks {card} with {}", count(coins, "coin"))
            }
            Event::Revealed { card, deck_left } => {
                write!(
                    f,
                    "{card} is turned up ({} left in the deck)",
                    count(deck_left, "card")
                )
            }
            Event::Ended { points } => {
                let points: Vec<String> = points.iter().map(i64::to_string).collect();
                write!(f, "game over; points by seat: {}", points.join(", "))
            }
        }
    }
}

/// One player's holdings.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Hand {
    coins: u32,
    /// Ascending.
    cards: Vec<u8>,
}

/// A game of No Thanks in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoThanks {
    settings: Settings,
    hands: Vec<Hand>,
    /// Face down; the next card to turn up is the last.
    deck: Vec<u8>,
    /// Set aside unseen at the start.
    removed: Vec<u8>,
    /// The face-up card; `None` once the game is over.
    field: Option<u8>,
    field_coins: u32,
    to_act: Seat,
    /// Moves made so far (the protocol's `turnnum`).
    turnnum: u32,
}

impl NoThanks {
    /// Points of every seat now.
    pub fn points(&self) -> Vec<i64> {
        self.hands
            .iter()
            .map(|h| points(&h.cards, h.coins))
            .collect()
    }

    fn hand(&self, seat: Seat) -> Option<&Hand> {
        self.hands.get(seat.index())
    }
}

impl Game for NoThanks {
    const ID: GameId = GameId::of(&super::GAME);
    type Settings = Settings;
    type Action = Action;
    type Observation = Observation;
    type Event = Event;

    fn new(settings: Settings, seed: u64) -> Result<Self, SettingsError> {
        settings.check()?;
        let mut cards: Vec<u8> = (settings.lowest_card..=settings.highest_card).collect();
        GameRng::new(seed).shuffle(&mut cards);
        let mut deck = cards.split_off(settings.removed.min(cards.len()));
        let mut removed = cards;
        removed.sort_unstable();
        let field = deck.pop();
        let hand = Hand {
            coins: settings.coins_per_player(),
            cards: Vec::new(),
        };
        Ok(NoThanks {
            hands: vec![hand; settings.players],
            settings,
            deck,
            removed,
            field,
            field_coins: 0,
            to_act: Seat(0),
            turnnum: 0,
        })
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn seats(&self) -> usize {
        self.hands.len()
    }

    fn turn(&self) -> Turn {
        match self.field {
            Some(_) => Turn::Seat(self.to_act),
            None => Turn::Over,
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        match (self.turn(), self.hand(seat)) {
            (Turn::Seat(on_turn), Some(hand)) if on_turn == seat => {
                if hand.coins > 0 {
                    vec![Action::Pick, Action::Pass]
                } else {
                    vec![Action::Pick]
                }
            }
            _ => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        self.check_turn(seat)?;
        let (Some(card), Some(hand)) = (self.field, self.hands.get_mut(seat.index())) else {
            return Err(IllegalAction::GameOver);
        };
        let seats = self.settings.players;
        let mut events = Vec::with_capacity(3);
        match action {
            Action::Pass => {
                if hand.coins == 0 {
                    return Err(IllegalAction::against_rules(
                        "you have no coins to pass with: you must pick the card",
                    ));
                }
                hand.coins -= 1;
                self.field_coins += 1;
                self.to_act = seat.next(seats);
                events.push(Event::Passed {
                    seat,
                    card,
                    coins_on_card: self.field_coins,
                });
            }
            Action::Pick => {
                let at = hand.cards.partition_point(|&c| c < card);
                hand.cards.insert(at, card);
                hand.coins += self.field_coins;
                events.push(Event::Picked {
                    seat,
                    card,
                    coins: self.field_coins,
                });
                self.field_coins = 0;
                self.to_act = match self.settings.after_pick {
                    AfterPick::NextPlayer => seat.next(seats),
                    AfterPick::SamePlayer => seat,
                };
                self.field = self.deck.pop();
                events.push(match self.field {
                    Some(card) => Event::Revealed {
                        card,
                        deck_left: self.deck.len(),
                    },
                    None => Event::Ended {
                        points: self.points(),
                    },
                });
            }
        }
        self.turnnum += 1;
        Ok(events)
    }

    fn observe(&self, viewer: Viewer) -> Observation {
        let seats = self.seats();
        let players: Vec<PlayerView> = self
            .hands
            .iter()
            .map(|h| PlayerView {
                coins: h.coins,
                cards: h.cards.clone(),
                points: points(&h.cards, h.coins),
            })
            .collect();
        let mut ranking_order: Vec<Seat> = Seat::all(seats).collect();
        // Stable: equal points keep seat order, as Python's `sorted` does in the original.
        ranking_order.sort_by_key(|s| players.get(s.index()).map_or(0, |p| p.points));
        Observation {
            viewer,
            turnnum: self.turnnum,
            to_act: self.turn().seat(),
            turn_order: (0..seats)
                .map(|k| Seat((self.to_act.index() + k) % seats))
                .collect(),
            ranking_order,
            players,
            deck_count: self.deck.len(),
            field_card: self.field,
            field_coins: self.field_coins,
            end: self.field.is_none(),
            hidden: (viewer == Viewer::Omniscient).then(|| Hidden {
                deck: self.deck.iter().rev().copied().collect(),
                removed: self.removed.clone(),
            }),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.field {
            Some(_) => None,
            None => Some(Outcome::from_scores(
                ScoreOrder::LowerIsBetter,
                &self.points(),
            )),
        }
    }
}

//! The Splendor state machine.

use super::action::{Action, Event};
use super::data::{all_cards, all_nobles, Card, Gems, Noble};
use super::observation::{Hidden, Observation, PlayerView, TableView};
use super::settings::Settings;
use crate::api::{Game, Seat, Turn, Viewer};
use crate::error::{IllegalAction, SettingsError};
use crate::game_def::GameId;
use crate::outcome::{Outcome, ScoreOrder};
use crate::rng::GameRng;
use crate::settings::GameSettings;

/// The hackathon deals to 3 players (a position given with [`Splendor::from_position`] may
/// have 2 to 4, as the judge's own games do).
pub const PLAYERS: usize = 3;
/// Face-up cards per level, nobles face up, gems per colour, gold.
const FACE_UP: usize = 4;
const NOBLES: usize = 4;
const GEMS_PER_COLOR: u8 = 5;
const GOLD: u8 = 5;

/// One player's holdings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Player {
    pub gems: Gems,
    pub bought: Vec<Card>,
    pub reserved: Vec<Card>,
    pub nobles: Vec<Noble>,
}

impl Player {
    /// One per purchased card of each colour.
    pub fn bonuses(&self) -> Gems {
        let mut bonuses = Gems::default();
        for card in &self.bought {
            *bonuses.slot(card.color) += 1;
        }
        bonuses
    }

    /// Prestige points: purchased cards plus nobles.
    pub fn points(&self) -> u32 {
        let cards: u32 = self.bought.iter().map(|c| u32::from(c.points)).sum();
        cards + self.nobles.iter().map(|n| u32::from(n.points)).sum::<u32>()
    }
}

/// One development level: face-up cards and the face-down deck (drawn from the end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Level {
    pub face_up: Vec<Card>,
    pub deck: Vec<Card>,
}

/// A game of Splendor (hackathon variant) in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splendor {
    pub(super) settings: Settings,
    pub(super) table: Gems,
    /// Levels 1, 2, 3.
    pub(super) levels: Vec<Level>,
    pub(super) nobles: Vec<Noble>,
    pub(super) players: Vec<Player>,
    pub(super) to_act: Seat,
    /// 1-based, the protocol's `round`.
    pub(super) round: u32,
    pub(super) over: bool,
}

impl Splendor {
    /// Points of every seat now.
    pub fn points(&self) -> Vec<u32> {
        self.players.iter().map(Player::points).collect()
    }

    /// Purchased cards per seat (the tie-break: fewer is better).
    pub fn purchased(&self) -> Vec<usize> {
        self.players.iter().map(|p| p.bought.len()).collect()
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub(super) fn level(&self, level: u8) -> Option<&Level> {
        self.levels.get(usize::from(level).wrapping_sub(1))
    }

    /// The face-up cards, level 1 first.
    pub(super) fn face_up(&self) -> impl Iterator<Item = Card> + '_ {
        self.levels.iter().flat_map(|l| l.face_up.iter().copied())
    }

    /// After `seat` moved: next seat, and at the end of a round the end check.
    fn advance(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.to_act = seat.next(self.players.len());
        if self.to_act != Seat(0) {
            return;
        }
        let winner = self
            .players
            .iter()
            .any(|p| p.points() >= self.settings.winning_points);
        if winner || self.round >= self.settings.max_rounds {
            self.over = true;
            events.push(Event::Ended {
                rounds: self.round,
                points: self.points(),
                cards: self.purchased(),
            });
        } else {
            self.round += 1;
            events.push(Event::RoundStarted { round: self.round });
        }
    }
}

impl Game for Splendor {
    const ID: GameId = GameId::of(&super::GAME);
    type Settings = Settings;
    type Action = Action;
    type Observation = Observation;
    type Event = Event;

    fn new(settings: Settings, seed: u64) -> Result<Self, SettingsError> {
        settings.check()?;
        let mut rng = GameRng::new(seed);
        let levels = (1..=3)
            .map(|level| {
                let mut deck: Vec<Card> = all_cards()
                    .iter()
                    .filter(|c| c.level == level)
                    .copied()
                    .collect();
                rng.shuffle(&mut deck);
                let face_up = deck.split_off(deck.len().saturating_sub(FACE_UP));
                Level { face_up, deck }
            })
            .collect();
        let mut nobles = all_nobles().to_vec();
        rng.shuffle(&mut nobles);
        nobles.truncate(NOBLES);
        Ok(Splendor {
            settings,
            table: Gems::uniform(GEMS_PER_COLOR, GOLD),
            levels,
            nobles,
            players: vec![Player::default(); PLAYERS],
            to_act: Seat(0),
            round: 1,
            over: false,
        })
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn seats(&self) -> usize {
        self.players.len()
    }

    fn turn(&self) -> Turn {
        if self.over {
            Turn::Over
        } else {
            Turn::Seat(self.to_act)
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let Some(player) = self.players.get(seat.index()) else {
            return Vec::new();
        };
        if self.turn() != Turn::Seat(seat) {
            return Vec::new();
        }
        let mut legal = Vec::new();
        for action in self.candidates() {
            if self.check(player, &action).is_ok() {
                for noble in self.qualifying_nobles(player, &action) {
                    legal.push(action.clone().with_noble(Some(noble)));
                }
                legal.push(action);
            }
        }
        legal.push(Action::Pass);
        legal
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        self.check_turn(seat)?;
        let player = self
            .players
            .get(seat.index())
            .ok_or(IllegalAction::GameOver)?;
        self.check(player, &action)?;
        let mut events = self.execute(seat, &action);
        self.advance(seat, &mut events);
        Ok(events)
    }

    fn observe(&self, viewer: Viewer) -> Observation {
        let players = self
            .players
            .iter()
            .map(|p| PlayerView {
                score: p.points(),
                gems: p.gems,
                bonuses: p.bonuses(),
                purchased_cards: p.bought.clone(),
                reserved_cards: p.reserved.clone(),
                nobles: p.nobles.clone(),
            })
            .collect();
        Observation {
            viewer,
            round: self.round,
            to_act: self.turn().seat(),
            table: TableView {
                gems: self.table,
                cards: self.face_up().collect(),
                deck_counts: self.levels.iter().map(|l| l.deck.len()).collect(),
                nobles: self.nobles.clone(),
            },
            players,
            end: self.over,
            hidden: (viewer == Viewer::Omniscient).then(|| Hidden {
                decks: self
                    .levels
                    .iter()
                    .map(|l| l.deck.iter().rev().copied().collect())
                    .collect(),
            }),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over.then(|| {
            let scores: Vec<i64> = self.points().into_iter().map(i64::from).collect();
            Outcome::from_scores_then(ScoreOrder::HigherIsBetter, &scores, &self.purchased())
        })
    }
}

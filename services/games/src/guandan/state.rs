//! The Guandan state machine: one game (次) from level 2 until a team wins, many deals inside.

use serde::{Deserialize, Serialize};

use super::action::Kind;
use super::action::{Action, Play};
use super::cards::{deal, Card};
use super::combos::each_play;
use super::events::Event;
use super::settings::Settings;
use crate::api::{Game, Seat, Turn, Viewer};
use crate::error::{IllegalAction, SettingsError};
use crate::game_def::GameId;
use crate::outcome::{Outcome, ScoreOrder};
use crate::rng::GameRng;
use crate::settings::GameSettings;

/// What the table shows in front of a seat (the protocol's `playArea`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    /// Nothing yet this deal (`null`).
    Empty,
    /// The table was cleared after a trick (`[null,null,null]`).
    Cleared,
    Passed,
    Played(Action),
}

/// The stage of the current deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// `payers` still owe a card (first is on turn); `paid` holds (payer, card) made so far.
    Tribute {
        payers: Vec<Seat>,
        paid: Vec<(Seat, Card)>,
    },
    /// `returns` are (receiver, payer) pairs still to return (first is on turn).
    Back {
        returns: Vec<(Seat, Seat)>,
        done: Vec<(Seat, Seat, Card)>,
        leader: Seat,
    },
    Play,
    Over,
}

/// A game of Guandan in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Guandan {
    pub(super) settings: Settings,
    pub(super) rng: GameRng,
    /// Level of team 0 (seats 0, 2) and team 1 (seats 1, 3), 2..=14.
    pub(super) levels: [u8; 2],
    /// Deals each team has failed while at A.
    pub(super) a_fails: [u32; 2],
    pub(super) drops: u32,
    /// The level of this deal (`curRank`).
    pub(super) level: u8,
    pub(super) deal_number: u32,
    pub(super) hands: Vec<Vec<Card>>,
    pub(super) stage: Stage,
    /// Seats out this deal, in finishing order.
    pub(super) finished: Vec<Seat>,
    pub(super) to_act: Seat,
    pub(super) greater: Option<(Seat, Play)>,
    pub(super) last: Option<(Seat, Action)>,
    pub(super) passes: usize,
    pub(super) areas: Vec<Area>,
    /// The finishing order tribute is being paid for (receivers first).
    pub(super) last_order: Vec<Seat>,
    /// `Some(Some(team))` when a team has won, `Some(None)` for a draw.
    pub(super) result: Option<Option<usize>>,
}

pub(super) const fn team(seat: Seat) -> usize {
    seat.0 % 2
}

pub(super) const fn partner(seat: Seat) -> Seat {
    Seat((seat.0 + 2) % 4)
}

impl Guandan {
    /// The hand of `seat`, in platform order.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands.get(seat.index()).map_or(&[], Vec::as_slice)
    }

    /// This deal's level (`curRank`).
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Each team's level: team 0 is seats 0 and 2.
    pub fn levels(&self) -> [u8; 2] {
        self.levels
    }

    pub fn deal_number(&self) -> u32 {
        self.deal_number
    }

    /// A game set up at a chosen position (for tests and tools): `hands` in any order,
    /// `level` for both teams, `leader` to lead.
    pub fn from_hands(settings: Settings, hands: Vec<Vec<Card>>, level: u8, leader: Seat) -> Self {
        let mut game = Guandan::start(settings, 0);
        game.levels = [level; 2];
        game.level = level;
        game.hands = hands;
        for hand in &mut game.hands {
            super::cards::sort_hand(hand, level);
        }
        game.to_act = leader;
        game
    }

    fn start(settings: Settings, seed: u64) -> Self {
        let mut rng = GameRng::new(seed);
        let hands = deal(&mut rng, 2);
        let leader = Seat(rng.below(4));
        Guandan {
            settings,
            rng,
            levels: [2, 2],
            a_fails: [0, 0],
            drops: 0,
            level: 2,
            deal_number: 1,
            hands,
            stage: Stage::Play,
            finished: Vec::new(),
            to_act: leader,
            greater: None,
            last: None,
            passes: 0,
            areas: vec![Area::Empty; 4],
            last_order: Vec::new(),
            result: None,
        }
    }

    /// The plays `seat` may make now (PASS first when following), generated straight into
    /// the list.
    fn play_actions(&self, seat: Seat) -> Vec<Action> {
        let (hand, level, generation) = (self.hand(seat), self.level, self.generation());
        let mut out = Vec::new();
        match &self.greater {
            None => each_play(hand, level, generation, &Kind::ALL, None, &mut |p| {
                out.push(Action::Play(p));
            }),
            Some((_, best)) => {
                out.push(Action::Pass);
                let kinds = [best.kind, Kind::StraightFlush, Kind::Bomb];
                each_play(hand, level, generation, &kinds, None, &mut |p| {
                    if p.beats(best, level) {
                        out.push(Action::Play(p));
                    }
                });
            }
        }
        out
    }

    /// The best play of the trick in progress and its seat (the observation's
    /// `greaterPos` / `greaterAction`); `None` when the seat on turn leads or outside play.
    pub fn trick_best(&self) -> Option<&(Seat, Play)> {
        self.greater
            .as_ref()
            .filter(|_| matches!(self.stage, Stage::Play))
    }

    /// The settings that shape play generation: (`max_bomb`, `wild_straight_flush`).
    fn generation(&self) -> (u8, bool) {
        (self.settings.max_bomb, self.settings.wild_straight_flush)
    }

    /// Whether `play` is legal for `seat` now, without listing every play.
    fn play_is_legal(&self, seat: Seat, play: &Play) -> bool {
        let beats = self
            .greater
            .as_ref()
            .is_none_or(|(_, best)| play.beats(best, self.level));
        let mut listed = false;
        if beats {
            let (kinds, rank) = ([play.kind], Some(play.rank));
            let generation = self.generation();
            each_play(
                self.hand(seat),
                self.level,
                generation,
                &kinds,
                rank,
                &mut |p| {
                    listed |= p == *play;
                },
            );
        }
        listed
    }
}

impl Game for Guandan {
    const ID: GameId = GameId::of(&super::GAME);
    type Settings = Settings;
    type Action = Action;
    type Observation = super::observation::Observation;
    type Event = Event;

    fn new(settings: Settings, seed: u64) -> Result<Self, SettingsError> {
        settings.check()?;
        Ok(Guandan::start(settings, seed))
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn seats(&self) -> usize {
        4
    }

    fn turn(&self) -> Turn {
        match &self.stage {
            Stage::Over => Turn::Over,
            Stage::Tribute { payers, .. } => payers.first().map_or(Turn::Over, |&s| Turn::Seat(s)),
            Stage::Back { returns, .. } => {
                returns.first().map_or(Turn::Over, |&(s, _)| Turn::Seat(s))
            }
            Stage::Play => Turn::Seat(self.to_act),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.turn() != Turn::Seat(seat) {
            return Vec::new();
        }
        match &self.stage {
            Stage::Play => self.play_actions(seat),
            Stage::Tribute { .. } => super::tribute::tribute_cards(self.hand(seat), self.level)
                .into_iter()
                .map(Action::Tribute)
                .collect(),
            Stage::Back { .. } => super::tribute::back_cards(self.hand(seat), self.level)
                .into_iter()
                .map(Action::Back)
                .collect(),
            Stage::Over => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        self.check_turn(seat)?;
        let legal = match (&self.stage, &action) {
            (Stage::Play, Action::Pass) => self.greater.is_some(),
            (Stage::Play, Action::Play(play)) => self.play_is_legal(seat, play),
            (Stage::Tribute { .. }, Action::Tribute(card)) => {
                super::tribute::tribute_cards(self.hand(seat), self.level).contains(card)
            }
            (Stage::Back { .. }, Action::Back(card)) => {
                super::tribute::back_cards(self.hand(seat), self.level).contains(card)
            }
            _ => false,
        };
        if !legal {
            return Err(IllegalAction::against_rules(format!(
                "{action} is not among your legal actions now"
            )));
        }
        let mut events = Vec::new();
        match action {
            Action::Pass => self.pass(seat, &mut events),
            Action::Play(play) => self.play(seat, play, &mut events),
            Action::Tribute(card) => self.pay_tribute(seat, card, &mut events),
            Action::Back(card) => self.give_back(seat, card, &mut events),
        }
        Ok(events)
    }

    fn observe(&self, viewer: Viewer) -> Self::Observation {
        super::observation::observe(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        let result = self.result?;
        let scores: Vec<i64> = Seat::all(4)
            .map(|s| i64::from(result == Some(team(s))))
            .collect();
        Some(Outcome::from_scores(ScoreOrder::HigherIsBetter, &scores))
    }
}

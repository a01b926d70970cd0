//! The Bridge state machine: the deal, whose turn, and the [`Game`] implementation. The rules
//! of the auction and the play are in `rules.rs`.

use serde::{Deserialize, Serialize};

use super::cards::{Call, Card};
use super::event::Event;
use super::observation::{
    CallRecord, Contract, DealResult, Fault, Observation, Progress, Stage, Trick,
};
use super::settings::{Settings, Vulnerability};
use crate::api::{Game, Seat, Turn, Viewer};
use crate::error::{IllegalAction, SettingsError};
use crate::game_def::GameId;
use crate::outcome::{Outcome, ScoreOrder};
use crate::rng::GameRng;
use crate::settings::GameSettings;

/// A move: `{"call": "H-2"}`, `{"call": "pass"}` or `{"play": "S-1"}` (the ace of spades).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Call(Call),
    /// A card of the hand due to play (dummy's when declarer plays for dummy).
    Play(Card),
}

/// One deal of Contract Bridge in progress. Seats N E S W are 0..=3 (Player1..Player4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bridge {
    pub(super) settings: Settings,
    pub(super) dealer: Seat,
    pub(super) vulnerability: Vulnerability,
    /// Cards still held per seat, ascending.
    pub(super) hands: Vec<Vec<Card>>,
    /// The deal as dealt, for the omniscient view's record.
    pub(super) deal: Vec<Vec<Card>>,
    pub(super) calls: Vec<CallRecord>,
    pub(super) contract: Option<Contract>,
    /// Every trick so far, the one in progress last.
    pub(super) tricks: Vec<Trick>,
    pub(super) tricks_won: Vec<u8>,
    /// The caller in the auction; the hand due to play in the play.
    pub(super) next: Seat,
    pub(super) robot: Vec<bool>,
    pub(super) faults: Vec<Fault>,
    pub(super) result: Option<DealResult>,
}

impl Bridge {
    /// The stage of the deal.
    pub fn stage(&self) -> Stage {
        match (self.result, self.contract) {
            (Some(_), _) => Stage::Over,
            (None, Some(_)) => Stage::Play,
            (None, None) => Stage::Call,
        }
    }

    /// The deal's public record so far, borrowed (what [`observe`](Game::observe) would copy
    /// into every observation).
    pub fn progress(&self) -> Progress<'_> {
        Progress {
            calls: &self.calls,
            contract: self.contract,
            tricks: &self.tricks,
        }
    }

    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }

    pub fn result(&self) -> Option<DealResult> {
        self.result
    }

    /// The hand due to act: the caller, or the hand whose card is due (dummy's included).
    pub fn playing_hand(&self) -> Option<Seat> {
        (self.result.is_none()).then_some(self.next)
    }

    pub(super) fn hand(&self, seat: Seat) -> &[Card] {
        self.hands.get(seat.index()).map_or(&[], Vec::as_slice)
    }

    /// Whether `viewer` may see `seat`'s cards.
    fn visible(&self, viewer: Viewer, seat: Seat) -> bool {
        let exposed = self
            .contract
            .filter(|_| self.tricks.iter().any(|t| !t.cards.is_empty()));
        let dummy_sees = |v: Seat| exposed.is_some_and(|c| v == c.dummy() && seat == c.declarer);
        let is_dummy = exposed.is_some_and(|c| seat == c.dummy());
        match viewer {
            Viewer::Omniscient => true,
            Viewer::Spectator => is_dummy,
            Viewer::Seat(v) => v == seat || is_dummy || dummy_sees(v),
        }
    }
}

impl Game for Bridge {
    const ID: GameId = GameId::of(&super::GAME);
    type Settings = Settings;
    type Action = Action;
    type Observation = Observation;
    type Event = Event;

    fn new(settings: Settings, seed: u64) -> Result<Self, SettingsError> {
        settings.check()?;
        let mut deck = Card::deck();
        GameRng::new(seed).shuffle(&mut deck);
        let deal: Vec<Vec<Card>> = deck
            .chunks(13)
            .map(|chunk| {
                let mut hand = chunk.to_vec();
                hand.sort_unstable();
                hand
            })
            .collect();
        let (dealer, vulnerability) = settings.dealer_and_vulnerability();
        Ok(Bridge {
            settings,
            dealer,
            vulnerability,
            hands: deal.clone(),
            deal,
            calls: Vec::new(),
            contract: None,
            tricks: Vec::new(),
            tricks_won: vec![0; 4],
            next: dealer,
            robot: vec![false; 4],
            faults: Vec::new(),
            result: None,
        })
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn seats(&self) -> usize {
        4
    }

    /// The caller in the auction; in the play the hand due, except that declarer answers for
    /// dummy.
    fn turn(&self) -> Turn {
        match (self.result, self.contract) {
            (Some(_), _) => Turn::Over,
            (None, Some(c)) if self.next == c.dummy() => Turn::Seat(c.declarer),
            (None, _) => Turn::Seat(self.next),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.turn() != Turn::Seat(seat) {
            return Vec::new();
        }
        match self.contract {
            None => {
                let mut actions = Vec::with_capacity(Self::MOST_CALLS);
                self.each_legal_call(|call| actions.push(Action::Call(call)));
                actions
            }
            Some(_) => {
                let mut actions = Vec::with_capacity(self.hand(self.next).len());
                self.each_legal_card(|card| actions.push(Action::Play(card)));
                actions
            }
        }
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        self.check_turn(seat)?;
        match (action, self.contract) {
            (Action::Call(call), None) => self.call(seat, call),
            (Action::Play(card), Some(contract)) => self.play(seat, card, contract),
            (Action::Call(_), Some(_)) => Err(IllegalAction::against_rules(
                "the auction is over: play a card",
            )),
            (Action::Play(_), None) => Err(IllegalAction::against_rules(
                "the auction is still on: make a call",
            )),
        }
    }

    fn observe(&self, viewer: Viewer) -> Observation {
        let hands = Seat::all(4)
            .map(|s| self.visible(viewer, s).then(|| self.hand(s).to_vec()))
            .collect();
        Observation {
            viewer,
            board: self.settings.board,
            running_score: self.settings.running_score.clone(),
            dealer: self.dealer,
            vulnerability: self.vulnerability,
            stage: self.stage(),
            to_act: self.turn().seat(),
            playing_hand: self.playing_hand(),
            hands,
            calls: self.calls.clone(),
            contract: self.contract,
            tricks: self.tricks.clone(),
            tricks_won: self.tricks_won.clone(),
            robot: self.robot.clone(),
            faults: self.faults.clone(),
            result: self.result,
        }
    }

    /// N-S seats score the deal's N-S points, E-W seats their negation; higher is better.
    fn outcome(&self) -> Option<Outcome> {
        let ns = self.result?.ns_score;
        let scores = [ns, -ns, ns, -ns];
        Some(Outcome::from_scores(ScoreOrder::HigherIsBetter, &scores))
    }

    /// Records a protocol violation: the seat is marked as played by the robot (the referee
    /// substitutes the `robot` bot) and, with [`FaultPenalty::ConcedeRemainingTricks`]
    /// (super::FaultPenalty), the deal will be scored as if that side conceded every trick
    /// still to play. Ignored once the deal is over.
    fn record_fault(&mut self, seat: Seat) {
        if self.result.is_some() || seat.index() >= 4 {
            return;
        }
        if let Some(flag) = self.robot.get_mut(seat.index()) {
            *flag = true;
        }
        let done = self.tricks.iter().filter(|t| t.winner.is_some()).count();
        self.faults.push(Fault {
            seat,
            tricks_played: u8::try_from(done).unwrap_or(13),
            side_tricks: self.side_tricks(seat),
        });
    }
}

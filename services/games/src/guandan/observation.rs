//! What a Guandan seat sees: everything the platform's `act` and `notify` messages carry.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::cards::{Card, Level};
use super::state::{team, Area, Guandan, Stage};
use crate::api::{Game, Seat, Viewer};

/// One seat's public information (`publicInfo[i]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicInfo {
    /// Cards left in hand (`rest`).
    pub rest: usize,
    pub play_area: Area,
}

/// The protocol's `stage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StageName {
    Tribute,
    Back,
    Play,
    Over,
}

/// Everything `docs/protocols.md#guandan`'s messages need. `cur_*`/`greater_*` are `None` when the
/// seat on turn leads (the adapter writes `-1` and `[null,null,null]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub viewer: Viewer,
    /// `myPos` (a seat viewer only).
    pub my_pos: Option<Seat>,
    /// `handCards` in platform order (empty for spectators).
    pub hand_cards: Vec<Card>,
    /// `selfRank` / `oppoRank` for a seat; for others team 0's and team 1's levels.
    pub self_rank: Level,
    pub oppo_rank: Level,
    pub cur_rank: Level,
    pub stage: StageName,
    pub deal: u32,
    pub public_info: Vec<PublicInfo>,
    pub cur_pos: Option<Seat>,
    pub cur_action: Option<Action>,
    pub greater_pos: Option<Seat>,
    pub greater_action: Option<Action>,
    /// The seat on turn, `None` once the game is over.
    pub to_act: Option<Seat>,
    /// `actionList`: the viewer's legal actions (empty unless on turn).
    pub action_list: Vec<Action>,
    /// Seats out this deal, in order.
    pub finished: Vec<Seat>,
    /// Every hand, for [`Viewer::Omniscient`] only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<Vec<Card>>>,
}

pub(super) fn observe(game: &Guandan, viewer: Viewer) -> Observation {
    let me = match viewer {
        Viewer::Seat(seat) => Some(seat),
        _ => None,
    };
    let mine = me.map_or(0, team);
    let level = |t: usize| Level(game.levels.get(t).copied().unwrap_or(2));
    let playing = matches!(game.stage, Stage::Play);
    Observation {
        viewer,
        my_pos: me,
        hand_cards: me.map(|s| game.hand(s).to_vec()).unwrap_or_default(),
        self_rank: level(mine),
        oppo_rank: level(1 - mine),
        cur_rank: Level(game.level),
        stage: match game.stage {
            Stage::Tribute { .. } => StageName::Tribute,
            Stage::Back { .. } => StageName::Back,
            Stage::Play => StageName::Play,
            Stage::Over => StageName::Over,
        },
        deal: game.deal_number,
        public_info: Seat::all(4)
            .map(|s| PublicInfo {
                rest: game.hand(s).len(),
                play_area: game.areas.get(s.index()).cloned().unwrap_or(Area::Empty),
            })
            .collect(),
        cur_pos: game.last.as_ref().filter(|_| playing).map(|(s, _)| *s),
        cur_action: game
            .last
            .as_ref()
            .filter(|_| playing)
            .map(|(_, a)| a.clone()),
        greater_pos: game.greater.as_ref().filter(|_| playing).map(|(s, _)| *s),
        greater_action: game
            .greater
            .as_ref()
            .filter(|_| playing)
            .map(|(_, p)| Action::Play(p.clone())),
        to_act: game.turn().seat(),
        action_list: me.map(|s| game.legal_actions(s)).unwrap_or_default(),
        finished: game.finished.clone(),
        hands: (viewer == Viewer::Omniscient).then(|| game.hands.clone()),
    }
}

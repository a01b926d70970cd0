//! What a No Thanks player sees: the original server's `game_status`, by seat index.

use serde::{Deserialize, Serialize};

use crate::api::{Seat, Viewer};

/// Everything `docs/protocols.md#no-thanks`'s `game_status` carries, keyed by seat instead of
/// player name. The adapter maps it field by field: `turnnum`, `turnorder` ← `turn_order`,
/// `rankingorder` ← `ranking_order`, `playerinfo` ← `players` (`point` ← `points`),
/// `deckinfo.decknum` ← `deck_count`, `fieldinfo` ← `field_card` / `field_coins`, `end_flg` ← `end`
/// as `"True"`/`"False"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    pub viewer: Viewer,
    /// Moves made so far; 0 at the start.
    pub turnnum: u32,
    /// The seat on turn; `None` once the game is over.
    pub to_act: Option<Seat>,
    /// Every seat, starting with the one on turn (after the end: the one who would be next).
    pub turn_order: Vec<Seat>,
    /// Every seat by points ascending (best first); equal points keep seat order.
    pub ranking_order: Vec<Seat>,
    /// Indexed by seat. Every player's holdings are public, as in the original.
    pub players: Vec<PlayerView>,
    /// Cards still face down (the face-up card not included).
    pub deck_count: usize,
    /// The face-up card; `None` once the game is over.
    pub field_card: Option<u8>,
    pub field_coins: u32,
    pub end: bool,
    /// Only for [`Viewer::Omniscient`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<Hidden>,
}

/// One player's public holdings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub coins: u32,
    /// Ascending.
    pub cards: Vec<u8>,
    /// Card points minus coins; lower is better.
    pub points: i64,
}

/// What nobody sees during play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hidden {
    /// The face-down deck, next card first.
    pub deck: Vec<u8>,
    /// The cards set aside unseen, ascending.
    pub removed: Vec<u8>,
}

impl Observation {
    /// The holdings of `seat`.
    pub fn player(&self, seat: Seat) -> Option<&PlayerView> {
        self.players.get(seat.index())
    }
}

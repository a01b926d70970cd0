//! What a Splendor player sees: the judge's per-move input, by seat index.

use serde::{Deserialize, Serialize};

use super::data::{Card, Gems, Noble};
use crate::api::{Seat, Viewer};

/// Everything `docs/protocols.md#splendor`'s input carries, keyed by seat instead of player name.
/// The adapter maps it: `round` ← `round`, `playerName` ← the name of `to_act`, `table.gems` ←
/// `table.gems` (with gold), `table.cards` ← `table.cards`, `table.nobles` ← `table.nobles`,
/// `players[i]` ← `players[i]` (`score`, `gems`, `purchasedCards`, `reservedCards`, `nobles`),
/// leaving out zero and empty fields. `deck_counts` and `bonuses` are conveniences the judge does
/// not send.
///
/// **Information.** The hackathon makes reserved cards public, blind reserves included: the
/// judge shows a blind-reserved card in the next call's input, which is the next player's, so
/// every seat and spectators see it from the next observation on (the reserver, whose process
/// already exited, sees it on its next turn). Only the deck order is hidden: it is in
/// [`Hidden`], for [`Viewer::Omniscient`] alone. Seats and spectators see the same thing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    pub viewer: Viewer,
    /// 1-based; a round is one move of each seat, seat 0 first.
    pub round: u32,
    /// The seat on turn (`playerName`); `None` once the game is over.
    pub to_act: Option<Seat>,
    pub table: TableView,
    /// Indexed by seat.
    pub players: Vec<PlayerView>,
    pub end: bool,
    /// Only for [`Viewer::Omniscient`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<Hidden>,
}

/// The table: tokens, face-up cards, nobles still available.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    /// Gems and gold on the table.
    pub gems: Gems,
    /// The face-up cards, level 1 first (up to 4 per level; fewer when a deck ran out).
    pub cards: Vec<Card>,
    /// Face-down cards left per level (levels 1, 2, 3).
    pub deck_counts: Vec<usize>,
    pub nobles: Vec<Noble>,
}

/// One player's holdings, all public.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Prestige points of purchased cards and nobles.
    pub score: u32,
    /// Tokens held, gold included.
    pub gems: Gems,
    /// One per purchased card of each colour.
    pub bonuses: Gems,
    pub purchased_cards: Vec<Card>,
    pub reserved_cards: Vec<Card>,
    pub nobles: Vec<Noble>,
}

/// What nobody sees during play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hidden {
    /// The face-down decks of levels 1, 2, 3, next card first.
    pub decks: Vec<Vec<Card>>,
}

impl Observation {
    /// The holdings of `seat`.
    pub fn player(&self, seat: Seat) -> Option<&PlayerView> {
        self.players.get(seat.index())
    }
}

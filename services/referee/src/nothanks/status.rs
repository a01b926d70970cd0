//! `docs/protocols.md#no-thanks`'s `game_status`, rendered from the engine's observation.

use croupier_games::nothanks::{NoThanks, Observation};
use croupier_games::{DynGame, Game, Viewer};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// `docs/protocols.md#no-thanks`'s `game_status`, in the original's key order.
#[derive(Debug, Serialize)]
pub(crate) struct GameStatus {
    turnnum: u32,
    turnorder: Vec<String>,
    rankingorder: Vec<String>,
    playerinfo: PlayerInfo,
    deckinfo: DeckInfo,
    fieldinfo: FieldInfo,
    /// The string `"True"` / `"False"`.
    end_flg: &'static str,
}

#[derive(Debug, Serialize)]
struct DeckInfo {
    decknum: usize,
}

#[derive(Debug, Serialize)]
struct FieldInfo {
    fieldcard: Option<u8>,
    fieldcoins: u32,
}

#[derive(Debug, Serialize)]
struct Player {
    coins: u32,
    cards: Vec<u8>,
    point: i64,
}

/// `{name: {coins, cards, point}}` in seat order (the original's insertion order).
#[derive(Debug)]
struct PlayerInfo(Vec<(String, Player)>);

impl Serialize for PlayerInfo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, player) in &self.0 {
            map.serialize_entry(name, player)?;
        }
        map.end()
    }
}

impl GameStatus {
    /// The status of `game` (a No Thanks game) with seats named by `names`.
    pub fn of(game: &dyn DynGame, names: &[String]) -> Option<Self> {
        let game = game.as_any().downcast_ref::<NoThanks>()?;
        Some(Self::from_observation(
            &game.observe(Viewer::Spectator),
            names,
        ))
    }

    /// Moves made so far in this game.
    pub fn turnnum(&self) -> u32 {
        self.turnnum
    }

    fn from_observation(o: &Observation, names: &[String]) -> Self {
        let name =
            |seat: &croupier_games::Seat| names.get(seat.index()).cloned().unwrap_or_default();
        GameStatus {
            turnnum: o.turnnum,
            turnorder: o.turn_order.iter().map(name).collect(),
            rankingorder: o.ranking_order.iter().map(name).collect(),
            playerinfo: PlayerInfo(
                o.players
                    .iter()
                    .zip(names)
                    .map(|(p, n)| {
                        (
                            n.clone(),
                            Player {
                                coins: p.coins,
                                cards: p.cards.clone(),
                                point: p.points,
                            },
                        )
                    })
                    .collect(),
            ),
            deckinfo: DeckInfo {
                decknum: o.deck_count,
            },
            fieldinfo: FieldInfo {
                fieldcard: o.field_card,
                fieldcoins: o.field_coins,
            },
            end_flg: if o.end { "True" } else { "False" },
        }
    }
}

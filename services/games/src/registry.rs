//! The game registry: everything every layer needs to know about a game, in one [`GameDef`] per
//! game, in the spirit of OpenSpiel's `REGISTER_SPIEL_GAME`.
//!
//! A game's module declares its definition (`pub static GAME: GameDef = GameDef::new(…)…;`, with
//! the types of [`crate::game_def`]) and the registry lists it in [`BUILT_IN`] — one line. Every layer reads the definition through a
//! [`GameId`] and never matches on games itself:
//!
//! | layer | reads |
//! |---|---|
//! | engine (`new_game`, conformance) | [`GameDef::new_game`], [`GameDef::rule_sets`], [`GameDef::shared_score`] |
//! | built-in bots | [`GameDef::bots`] |
//! | referee | [`GameDef::protocol`], [`GameDef::move_time`], [`GameDef::games_per_match`] |
//! | league | [`GameDef::leaderboard`] |
//! | server, CLI, worker | [`GameDef::name`], [`GameDef::protocol_summary`], [`GameDef::default_seats`], [`GameDef::max_games_per_match`], [`GameDef::class_bots`] |
//!
//! The database stores a game by its id (`text`), checked against the registry where it enters
//! (the upload form, the API, the CLI), not by a SQL constraint. A program that hosts a game
//! defined elsewhere (a test, a fork) calls [`register`] once before using it; see
//! `docs/adding-a-game.md`.

use std::str::FromStr;
use std::sync::RwLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::game_def::{
    BuiltinBot, GameDef, GameId, NewGame, Protocol, DEFAULT_HUMAN_MOVE_SECS, MAX_PLAYERS,
};

/// The games Croupier hosts out of the box, in the order the site lists them. A new game adds
/// its line here.
pub const BUILT_IN: [&GameDef; 5] = [
    &crate::nothanks::GAME,
    &crate::splendor::GAME,
    &crate::hanabi::GAME,
    &crate::guandan::GAME,
    &crate::bridge::GAME,
];

/// Games registered at run time with [`register`], after the built-in ones.
static EXTRA: RwLock<Vec<&'static GameDef>> = RwLock::new(Vec::new());

/// Why [`register`] refused a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    #[error("a game with the id {0:?} is already registered")]
    Duplicate(&'static str),
    #[error("invalid game id {0:?}: use 2 to 32 lowercase letters, digits or '-'")]
    BadId(&'static str),
}

/// Adds a game defined outside this crate. Registering the same definition again is a no-op;
/// another definition with a taken id is refused.
pub fn register(def: &'static GameDef) -> Result<GameId, RegisterError> {
    let id_ok = (2..=32).contains(&def.id.len())
        && def
            .id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !id_ok {
        return Err(RegisterError::BadId(def.id));
    }
    let mut extra = EXTRA
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(known) = BUILT_IN.iter().chain(extra.iter()).find(|d| d.id == def.id) {
        return if std::ptr::eq(*known, def) {
            Ok(GameId(def))
        } else {
            Err(RegisterError::Duplicate(def.id))
        };
    }
    extra.push(def);
    Ok(GameId(def))
}

/// Every hosted game: the built-in ones, then those [`register`]ed.
pub fn all() -> Vec<GameId> {
    let extra = EXTRA
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    BUILT_IN
        .iter()
        .chain(extra.iter())
        .map(|d| GameId::of(d))
        .collect()
}

impl GameId {
    pub const NO_THANKS: GameId = GameId::of(&crate::nothanks::GAME);
    pub const SPLENDOR: GameId = GameId::of(&crate::splendor::GAME);
    pub const HANABI: GameId = GameId::of(&crate::hanabi::GAME);
    pub const GUANDAN: GameId = GameId::of(&crate::guandan::GAME);
    pub const BRIDGE: GameId = GameId::of(&crate::bridge::GAME);

    /// Every hosted game ([`all`]).
    pub fn all() -> Vec<GameId> {
        all()
    }
}

/// The error for a string that names no hosted game; it lists the games.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?}: expected one of {known}")]
pub struct UnknownGame {
    pub name: String,
    pub known: String,
}

impl FromStr for GameId {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let games = all();
        games
            .iter()
            .copied()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| UnknownGame {
                name: s.to_owned(),
                known: games
                    .iter()
                    .map(|g| g.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

impl Serialize for GameId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn every_id_round_trips_through_its_string_form() {
        for g in all() {
            assert_eq!(g.as_str().parse::<GameId>(), Ok(g));
            let json = serde_json::to_string(&g).ok();
            assert_eq!(json, Some(format!("\"{}\"", g.as_str())));
            assert_eq!(
                serde_json::from_str::<GameId>(&json.unwrap_or_default()).ok(),
                Some(g)
            );
        }
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_list_of_games() {
        let err = "chess".parse::<GameId>().unwrap_err();
        assert!(err.to_string().contains("nothanks, splendor"), "{err}");
    }

    #[test]
    fn every_built_in_game_is_complete() {
        for g in BUILT_IN.map(GameId::of) {
            let def = g.def();
            let game = (def.new_game)(g.default_rules(), &Value::Null, 7)
                .unwrap_or_else(|e| panic!("{g}: {e}"));
            assert_eq!(game.game_id(), g);
            assert_eq!(game.seats(), def.default_seats, "{g}");
            assert!(
                def.leaderboard.offers(def.leaderboard.default_format()),
                "{g}"
            );
            let names = def.bot_names();
            assert_eq!(names.last(), Some(&"random"), "{g}");
            for name in names {
                let bot = def
                    .bot(name)
                    .unwrap_or_else(|| panic!("{g}: no bot {name}"));
                assert_eq!(bot.name(), name, "{g}");
            }
            assert!(def.bot("nope").is_none());
            assert!(def
                .max_games_per_match
                .is_none_or(|m| m >= def.games_per_match));
        }
    }

    /// The tables an upload may choose come from the rule sets alone: a `players` range where
    /// the rule set takes one, nothing where the count is fixed.
    #[test]
    fn player_choices_are_read_from_the_rule_sets() {
        let range = |g: GameId, rules| g.player_choices(rules);
        assert_eq!(range(GameId::HANABI, "rainbow"), [2, 3, 4, 5]);
        assert_eq!(range(GameId::HANABI, "standard"), [2, 3, 4, 5]);
        assert_eq!(range(GameId::NO_THANKS, "standard"), [3, 4, 5, 6, 7]);
        for fixed in [GameId::SPLENDOR, GameId::GUANDAN, GameId::BRIDGE] {
            assert_eq!(range(fixed, fixed.default_rules()), [0_usize; 0], "{fixed}");
        }
        assert_eq!(GameId::HANABI.seats_for("rainbow", Some(3)), Some(3));
        assert_eq!(GameId::HANABI.seats_for("rainbow", None), Some(4));
        assert_eq!(GameId::HANABI.seats_for("rainbow", Some(6)), None);
        assert_eq!(GameId::HANABI.seats_for("nope", None), None);
        assert_eq!(GameId::SPLENDOR.seats_for("hackathon", Some(3)), None);
    }

    static EXTRA_GAME: GameDef = GameDef::new::<crate::nothanks::NoThanks>("extra-test", "Extra");
    static IMPOSTOR: GameDef = GameDef::new::<crate::nothanks::NoThanks>("nothanks", "Impostor");
    static BAD: GameDef = GameDef::new::<crate::nothanks::NoThanks>("Bad Id", "Bad");

    #[test]
    fn a_registered_game_parses_and_lists_and_a_taken_id_is_refused() {
        let id = register(&EXTRA_GAME).expect("a new id registers");
        assert_eq!(
            register(&EXTRA_GAME),
            Ok(id),
            "registering twice is a no-op"
        );
        assert_eq!("extra-test".parse::<GameId>(), Ok(id));
        assert_eq!(all().last(), Some(&id));
        assert_eq!(
            register(&IMPOSTOR),
            Err(RegisterError::Duplicate("nothanks"))
        );
        assert_eq!(register(&BAD), Err(RegisterError::BadId("Bad Id")));
    }
}

//! What a game declares about itself: its [`GameDef`] (name, rule sets, seats, built-in bots,
//! protocol, clocks, leaderboard scheme), built with `GameDef::new(…)` and its `const`
//! setters. Each game's module reads these types; the list of games is in
//! [`crate::registry`], which every other layer reads. So the arrows point one way: games →
//! `game_def` ← `registry` → games.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::bots::DynBot;
use crate::dynamic::{new_typed, stored_typed, DynGame};
use crate::error::SettingsError;
use crate::leaderboard::{Leaderboard, RatingForm, Scoring};
use crate::Game;

/// How bots talk to the referee: which protocol adapter plays a game's program seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// No Thanks' TCP lobby (boardcoder), one JSON object per line, one process per seat.
    NoThanksLobby,
    /// Splendor's judge: one process per move, the state in `argv[1]` and on stdin.
    SplendorJudge,
    /// Hanabi's websocket server (or a Python `player` class), one process per seat.
    HanabiWebsocket,
    /// Guandan's websocket platform (v1006), one process per seat.
    GuandanWebsocket,
    /// The Bridge course platform: one process per move, `Board.txt` and `StepLog.txt`.
    BridgeFiles,
    /// Croupier's own protocol for games without an original platform: one process per move,
    /// `{"seat", "observation", "legal_actions"}` on stdin, one JSON action on stdout
    /// (`docs/protocols.md#json-per-move`).
    JsonPerMove,
}

/// Builds a game from a rule set name, JSON overrides and a seed.
pub type NewGame = fn(&str, &Value, u64) -> Result<Box<dyn DynGame>, SettingsError>;

/// A built-in bot: its name and how to make one.
#[derive(Clone, Copy)]
pub struct BuiltinBot {
    pub name: &'static str,
    pub make: fn() -> Box<dyn DynBot>,
}

impl fmt::Debug for BuiltinBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Everything Croupier knows about one game. Build one in a `static` with [`GameDef::new`] and
/// the `const` setters; unset fields keep the defaults `new` documents.
#[derive(Debug)]
pub struct GameDef {
    /// The stable id: stored in the database, used in URLs and on the command line.
    pub id: &'static str,
    /// The name people read.
    pub name: &'static str,
    /// Named rule sets; the first is the default.
    pub rule_sets: &'static [&'static str],
    /// Seats of the default rule set.
    pub default_seats: usize,
    /// Builds a game from a rule set, JSON overrides and a seed.
    pub new_game: NewGame,
    /// Builds a game from a stored replay's header: its complete settings, filled in where the
    /// replay predates a setting ([`GameSettings::upgrade_stored`](crate::GameSettings::upgrade_stored)).
    pub replay_game: NewGame,
    /// The built-in bots; the first is the default opponent and validation partner.
    /// Every game also has `random` (a uniformly random legal move), listed last.
    pub bots: &'static [BuiltinBot],
    /// The protocol program seats speak.
    pub protocol: Protocol,
    /// One line on that protocol, for the home and upload pages.
    pub protocol_summary: &'static str,
    /// The time per move unless a competition sets its own.
    pub move_time: Duration,
    /// Games per match unless a competition sets its own.
    pub games_per_match: u32,
    /// The most games one match may play (`None`: no limit).
    pub max_games_per_match: Option<u32>,
    /// Standings, ratings and schedules.
    pub leaderboard: Leaderboard,
    /// One score shared by every seat (cooperative): a seat that never acts scores 0
    /// ([`crate::fair`]).
    pub shared_score: bool,
    /// Python bots may be a class named by the entry (`file.py:Class(args)`), as Hanabi's
    /// original framework loads them.
    pub class_bots: bool,
    /// What players call each seat, in seat order (Bridge: `N`, `E`, `S`, `W`); empty: seats
    /// are shown by number.
    pub seat_names: &'static [&'static str],
    /// What one game of a match is called (`game`; Bridge: `board`).
    pub game_noun: &'static str,
    /// Some events' log lines name hidden information (Splendor: the card reserved from the
    /// deck), so a person at the table is shown the others' actions but not their log lines.
    pub private_events: bool,
}

/// The most players any table seats (the league's limit on a `players` override).
pub const MAX_PLAYERS: usize = 16;

/// A person's time per move at a table unless it sets its own, generous next to a bot's.
pub const DEFAULT_HUMAN_MOVE_SECS: u64 = 90;

const RANDOM: BuiltinBot = BuiltinBot {
    name: "random",
    make: || Box::new(crate::bots::Random),
};

impl GameDef {
    /// A definition for the engine `G`, with the defaults: one rule set `standard`, two seats,
    /// the random bot only, [`Protocol::JsonPerMove`], 10 s per move, one game per match, no
    /// limit on games, [`Leaderboard::FREE_FOR_ALL`], its own score per seat, no class bots.
    pub const fn new<G: Game>(id: &'static str, name: &'static str) -> GameDef {
        GameDef {
            id,
            name,
            rule_sets: &["standard"],
            default_seats: 2,
            new_game: new_typed::<G>,
            replay_game: stored_typed::<G>,
            bots: &[RANDOM],
            protocol: Protocol::JsonPerMove,
            protocol_summary: "one process per move: {seat, observation, legal_actions} JSON on \
                               stdin, one JSON action on stdout",
            move_time: Duration::from_secs(10),
            games_per_match: 1,
            max_games_per_match: None,
            leaderboard: Leaderboard::FREE_FOR_ALL,
            shared_score: false,
            class_bots: false,
            seat_names: &[],
            game_noun: "game",
            private_events: false,
        }
    }

    pub const fn rule_sets(mut self, rule_sets: &'static [&'static str]) -> Self {
        self.rule_sets = rule_sets;
        self
    }

    pub const fn seats(mut self, default_seats: usize) -> Self {
        self.default_seats = default_seats;
        self
    }

    /// The game's own bots (`random` is always there too).
    pub const fn bots(mut self, bots: &'static [BuiltinBot]) -> Self {
        self.bots = bots;
        self
    }

    pub const fn protocol(mut self, protocol: Protocol, summary: &'static str) -> Self {
        self.protocol = protocol;
        self.protocol_summary = summary;
        self
    }

    pub const fn move_time(mut self, move_time: Duration) -> Self {
        self.move_time = move_time;
        self
    }

    /// The default and the maximum of games per match.
    pub const fn games_per_match(mut self, default: u32, max: Option<u32>) -> Self {
        self.games_per_match = default;
        self.max_games_per_match = max;
        self
    }

    pub const fn leaderboard(mut self, leaderboard: Leaderboard) -> Self {
        self.leaderboard = leaderboard;
        self
    }

    pub const fn shared_score(mut self) -> Self {
        self.shared_score = true;
        self
    }

    pub const fn class_bots(mut self) -> Self {
        self.class_bots = true;
        self
    }

    /// What players call each seat, in seat order.
    pub const fn seat_names(mut self, names: &'static [&'static str]) -> Self {
        self.seat_names = names;
        self
    }

    /// What one game of a match is called (the default is `game`).
    pub const fn game_noun(mut self, noun: &'static str) -> Self {
        self.game_noun = noun;
        self
    }

    /// See [`GameDef::private_events`].
    pub const fn private_events(mut self) -> Self {
        self.private_events = true;
        self
    }

    /// Seat `seat` as players say it: its name (`N`) or its number (`2`).
    pub fn seat_name(&self, seat: usize) -> String {
        self.seat_names
            .get(seat)
            .map_or_else(|| seat.to_string(), |n| (*n).to_owned())
    }

    /// Whether seats play as two sides of partners, 0+2 against 1+3 (Guandan, Bridge): read
    /// from the leaderboard's rating form.
    pub fn partnerships(&self) -> bool {
        matches!(
            self.leaderboard.rating,
            RatingForm::Teams | RatingForm::Duplicate
        )
    }

    /// The side `seat` plays for: its partnership, or the seat itself.
    pub fn side(&self, seat: usize) -> usize {
        if self.partnerships() {
            seat % 2
        } else {
            seat
        }
    }

    /// Whether the ranks of one match decide it. Not so where a result needs another table
    /// (Bridge: a table's ranks only say which side scored, the IMPs come from comparing it
    /// with the other table of its duplicate set).
    pub fn match_ranks_decide(&self) -> bool {
        self.leaderboard.scoring != Scoring::Imps
    }

    /// The built-in bot names, the default first and `random` last.
    pub fn bot_names(&self) -> Vec<&'static str> {
        let own = self
            .bots
            .iter()
            .map(|b| b.name)
            .filter(|n| *n != RANDOM.name);
        own.chain([RANDOM.name]).collect()
    }

    /// A new built-in bot by name.
    pub fn bot(&self, name: &str) -> Option<Box<dyn DynBot>> {
        let found = self.bots.iter().chain([&RANDOM]).find(|b| b.name == name);
        found.map(|b| (b.make)())
    }
}

/// A hosted game: a handle on its [`GameDef`]. Copy it freely; two ids are equal when their
/// string ids are. The string form ([`GameId::as_str`]) is what the database, URLs and the
/// command line use.
#[derive(Clone, Copy)]
pub struct GameId(pub(crate) &'static GameDef);

impl GameId {
    /// The id of a definition, for a game's `Game::ID`. Hosting it needs
    /// [`crate::registry::register`] (or a line in [`crate::registry::BUILT_IN`]), so that its
    /// string id parses back.
    pub const fn of(def: &'static GameDef) -> GameId {
        GameId(def)
    }

    /// Everything known about the game.
    pub const fn def(self) -> &'static GameDef {
        self.0
    }

    /// The stable id: `nothanks`, `splendor`, `hanabi`, `guandan`, `bridge`, …
    pub const fn as_str(self) -> &'static str {
        self.0.id
    }

    pub const fn display_name(self) -> &'static str {
        self.0.name
    }

    pub const fn protocol_summary(self) -> &'static str {
        self.0.protocol_summary
    }

    pub const fn default_seats(self) -> usize {
        self.0.default_seats
    }

    /// Named rule sets; the first is the default.
    pub const fn rule_sets(self) -> &'static [&'static str] {
        self.0.rule_sets
    }

    /// The default rule set's name.
    pub fn default_rules(self) -> &'static str {
        self.0.rule_sets.first().copied().unwrap_or("")
    }

    /// How many players `rules` seats: `players` when given (the `{"players": n}` override,
    /// which the rule set must accept), else the rule set's own count. `None`: the rule set
    /// is unknown or refuses that count.
    pub fn seats_for(self, rules: &str, players: Option<usize>) -> Option<usize> {
        let settings = match players {
            Some(n) => serde_json::json!({ "players": n }),
            None => Value::Null,
        };
        let built = (self.0.new_game)(rules, &settings, 0).ok()?;
        Some(built.seats()).filter(|&n| players.is_none_or(|p| p == n))
    }

    /// The player counts `rules` accepts through a `players` override, fewest first, when it
    /// accepts more than one (Hanabi: 2–5); empty when the count is fixed. Read by building the
    /// game with each count up to [`MAX_PLAYERS`], so a game declares nothing extra.
    pub fn player_choices(self, rules: &str) -> Vec<usize> {
        let counts: Vec<usize> = (1..=MAX_PLAYERS)
            .filter(|&n| self.seats_for(rules, Some(n)).is_some())
            .collect();
        if counts.len() > 1 {
            counts
        } else {
            Vec::new()
        }
    }
}

impl PartialEq for GameId {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for GameId {}

impl Hash for GameId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for GameId {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for GameId {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl fmt::Debug for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameId({})", self.as_str())
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

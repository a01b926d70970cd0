//! Hanabi settings and its two rule sets, `standard` and `rainbow`.

use serde::{Deserialize, Serialize};

use crate::settings::GameSettings;
use crate::GameId;

/// The score of a game lost to the third error: the **\[choose\]** `score_on_strikeout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StrikeoutScore {
    /// The cards on the stacks, as after any other end (the seed: "the number of cards on the
    /// field"). The default.
    Stacks,
    /// Zero (deepmind's hanabi-learning-environment and hanab.live).
    Zero,
}

/// What an illegal move or another protocol fault does: the **\[choose\]** `on_illegal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnIllegal {
    /// [`Game::record_fault`](crate::Game::record_fault) ends the game with the score so far.
    /// The default.
    EndGame,
    /// The fault changes nothing; the referee asks the bot again.
    AskAgain,
}

/// Resolved Hanabi settings. Override any field by name, e.g. `{"players": 3}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// 2..=5; 4 by default (the seed's competition format).
    pub players: usize,
    /// A sixth colour of 10 rainbow cards, touched by every colour hint and never named.
    pub rainbow: bool,
    pub score_on_strikeout: StrikeoutScore,
    pub on_illegal: OnIllegal,
    /// The turn order: the seats in the order they move, the first one starting; a permutation
    /// of `0..players`. `None` (the default, left out of the JSON) is `0, 1, …, players-1`.
    /// The referee's Hanabi adapter sets it to the match's seeded seat shuffle, so that the
    /// bot given protocol index 0 starts and the others follow in index order, as in the
    /// original, while results and replays keep the spec's seat numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_order: Option<Vec<usize>>,
}

impl Settings {
    /// Five colours, 50 cards.
    pub fn standard(players: usize) -> Self {
        Settings {
            players,
            rainbow: false,
            score_on_strikeout: StrikeoutScore::Stacks,
            on_illegal: OnIllegal::EndGame,
            seat_order: None,
        }
    }

    /// Six colours, the sixth rainbow: 60 cards.
    pub fn rainbow(players: usize) -> Self {
        Settings {
            rainbow: true,
            ..Settings::standard(players)
        }
    }

    /// How many colours (and stacks): 5, or 6 with rainbow.
    pub fn colors(&self) -> usize {
        if self.rainbow {
            6
        } else {
            5
        }
    }

    /// Cards in a hand: 5 for 2–3 players, 4 for 4–5.
    pub fn hand_size(&self) -> usize {
        if self.players <= 3 {
            5
        } else {
            4
        }
    }

    /// The seats in turn order, the first one starting: `seat_order`, or `0..players`.
    pub fn turn_order(&self) -> Vec<usize> {
        match &self.seat_order {
            Some(order) => order.clone(),
            None => (0..self.players).collect(),
        }
    }

    /// All stacks complete: 25, or 30 with rainbow.
    pub fn max_score(&self) -> i64 {
        5 * self.colors() as i64
    }
}

impl GameSettings for Settings {
    const GAME: GameId = GameId::HANABI;

    fn preset(rules: &str) -> Option<Self> {
        match rules {
            "standard" => Some(Settings::standard(4)),
            "rainbow" => Some(Settings::rainbow(4)),
            _ => None,
        }
    }

    fn validate(&self) -> Result<(), String> {
        if !(2..=5).contains(&self.players) {
            return Err(format!("players must be 2 to 5, not {}", self.players));
        }
        if let Some(order) = &self.seat_order {
            let mut sorted = order.clone();
            sorted.sort_unstable();
            if !sorted.iter().copied().eq(0..self.players) {
                return Err(format!(
                    "seat_order must list each of the {} seats 0..{} once, not {order:?}",
                    self.players, self.players
                ));
            }
        }
        Ok(())
    }
}

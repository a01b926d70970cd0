//! Hanabi settings and its two rule sets, `standard` and `rainbow`.

use serde::{Deserialize, Serialize};

use crate::game_def::GameId;
use crate::settings::GameSettings;

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

/// Where the card drawn after a play or discard goes: the **\[choose\]** `draw_into`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawInto {
    /// Into the slot that was played or discarded (the origin: `hands[i][target] = draw`); once
    /// the deck is empty that slot is removed. The default.
    PlayedSlot,
    /// At the end of the hand, the slot removed (hanabi-learning-environment, OpenSpiel):
    /// Croupier's rule before 2026-11-28, kept for the replays recorded with it.
    EndOfHand,
}

/// What ends the game during the final round (after the deck ran out): the **\[choose\]**
/// `final_round`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalRound {
    /// Nothing: every player takes the turn, whatever the errors or stacks, and the game ends
    /// with the deck-out reason (the origin's `checkEndgame`). The default.
    Unchecked,
    /// A third error or the last stack completed still ends it at once (Croupier before
    /// 2026-11-28, and the other engines).
    Checked,
}

/// When a completed stack returns a hint token: the **\[choose\]** `five_returns_token`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FiveReturnsToken {
    /// Only below 8 tokens (the rules text; the origin's `game.py`). Default of `standard`.
    BelowMax,
    /// Always, even at 8, so a team may hold 9 or more; discarding is refused only at exactly 8
    /// (the origin's `gameRainbow.py`). Default of `rainbow`.
    Always,
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
    pub draw_into: DrawInto,
    /// A player may hint themself (the origin never checks the target): it costs a token and
    /// tells them about their own cards. It is never in the list of moves offered to the seat
    /// (`Game::offered_actions`), which would name their cards.
    pub self_hints: bool,
    pub final_round: FinalRound,
    pub five_returns_token: FiveReturnsToken,
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
            draw_into: DrawInto::PlayedSlot,
            self_hints: true,
            final_round: FinalRound::Unchecked,
            five_returns_token: FiveReturnsToken::BelowMax,
        }
    }

    /// Six colours, the sixth rainbow: 60 cards.
    pub fn rainbow(players: usize) -> Self {
        Settings {
            rainbow: true,
            five_returns_token: FiveReturnsToken::Always,
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
    const GAME: GameId = GameId::of(&super::GAME);

    fn preset(rules: &str) -> Option<Self> {
        match rules {
            "standard" => Some(Settings::standard(4)),
            "rainbow" => Some(Settings::rainbow(4)),
            _ => None,
        }
    }

    /// A replay stored before the origin's rules were followed (2026-11-28) has none of
    /// `draw_into`, `self_hints`, `final_round` and `five_returns_token`: it was played with the
    /// rules of the time, which these values restore.
    fn upgrade_stored(settings: &mut serde_json::Map<String, serde_json::Value>) {
        if settings.contains_key("draw_into") {
            return;
        }
        for (key, old) in [
            ("draw_into", "end_of_hand"),
            ("final_round", "checked"),
            ("five_returns_token", "below_max"),
        ] {
            settings.insert(key.to_owned(), old.into());
        }
        settings.insert("self_hints".to_owned(), false.into());
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

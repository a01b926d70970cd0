//! Board.txt and StepLog.txt, byte for byte as the course platform writes them
//! (`docs/protocols.md#contract-bridge`).
//!
//! **Board.txt**: one field per line, space between name and value, every line (the last one
//! included) ending with `\n`, no blank lines:
//!
//! ```text
//! Player3                      the seat the program answers for (1..4 = N E S W)
//! Game 2                       the board's number in the match (1..4)
//! Score 200,0,200,0            points per player before this board (see below)
//! Stage play                   `call` or `play`
//! Hand S-11,S-1,H-12,D-7,C-5   the hand to play from: spades, hearts, diamonds, clubs, each
//!                              ascending with the ace (1) last, as the seed prints
//! Other S-10,H-5,D-2,D-3,C-1   play only: dummy's hand; declarer's when `Hand` is dummy's;
//!                              `None` before the opening lead
//! Contract H-2                 play only: `<strain>-<level>`, strains C D H S N
//! Declarer Player3             play only
//! Bridge 3,2,2,1               play only: tricks won so far per player (the hand that won)
//! Round 9                      play only: the trick being played, 1..13
//! ```
//!
//! The seed's examples show a blank line after `Score` and spaces after commas; both are
//! artefacts of the document's layout (its own line numbering counts five lines plus the final
//! newline for the call-stage example), so Croupier writes neither.
//!
//! **Score** is what the original shows: each deal's points go to the side that earned them,
//! both partners alike (`200,0,200,0` after North-South made 200; a defeated contract credits
//! the defenders), summed over the earlier boards of the match. The engine's per-seat outcome
//! (N-S score, E-W its negation) is what the league reads; `Score` is only for the bots.
//!
//! **StepLog.txt**: `Stage call`, one `Player<N> call <X-n|pass>` per call, then (unless passed
//! out) `Stage play` and per trick `Round <r>` followed by its four `Player<N> play <S-n>` lines,
//! `Player<N>` being the hand the card came from (dummy's number for dummy's cards, whoever
//! chose them). The platform writes the markers (`Round <r>` as soon as the trick starts) and
//! every line of other seats; a seat the Robot plays is written `Robot call pass` /
//! `Robot play S-11`. Every line ends with `\n`.

use croupier_games::bridge::{format_hand, Call, Card, Observation, Progress, Stage};
use croupier_games::{Seat, Viewer};

/// `Player<N>` for a 0-based seat.
pub fn player(seat: Seat) -> String {
    Author::Player(seat).label().to_owned()
}

fn list<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Board.txt for the seat `obs` was observed by (`Viewer::Seat`); `None` for another viewer or
/// once the deal is over.
pub fn board_text(obs: &Observation) -> Option<String> {
    let Viewer::Seat(me) = obs.viewer else {
        return None;
    };
    let (hand, other) = obs.board_hands();
    let stage = match obs.stage {
        Stage::Call => "call",
        Stage::Play => "play",
        Stage::Over => return None,
    };
    let mut text = format!(
        "{}\nGame {}\nScore {}\nStage {stage}\nHand {}\n",
        player(me),
        obs.board,
        list(&obs.running_score),
        format_hand(&hand),
    );
    if let (Stage::Play, Some(contract)) = (obs.stage, obs.contract) {
        let opening_lead_due = obs.tricks.iter().all(|t| t.cards.is_empty());
        let other = match other {
            Some(cards) if !opening_lead_due => format_hand(&cards),
            _ => "None".to_owned(),
        };
        text.push_str(&format!(
            "Other {other}\nContract {}\nDeclarer {}\nBridge {}\nRound {}\n",
            contract.bid,
            player(contract.declarer),
            list(&obs.tricks_won),
            obs.round(),
        ));
    }
    Some(text)
}

/// Who a StepLog line is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Author {
    /// A player (for a card: the hand it came from).
    Player(Seat),
    /// The system strategy, after a violation.
    Robot,
}

impl Author {
    /// `Player1`…`Player4` or `Robot`, from a table (a StepLog line is written for every move
    /// of a deal, built-in seats' included).
    pub fn label(self) -> &'static str {
        match self {
            Author::Player(seat) => ["Player1", "Player2", "Player3", "Player4"]
                .get(seat.index())
                .copied()
                .unwrap_or("Player?"), // Bridge has four seats
            Author::Robot => "Robot",
        }
    }
}

/// The StepLog of one deal, line by line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepLog {
    lines: Vec<String>,
    in_play: bool,
    rounds: usize,
}

impl Default for StepLog {
    fn default() -> Self {
        StepLog::new()
    }
}

impl StepLog {
    /// A new deal's log: `Stage call`.
    pub fn new() -> Self {
        StepLog {
            lines: vec!["Stage call".to_owned()],
            in_play: false,
            rounds: 0,
        }
    }

    pub fn call(&mut self, by: Author, call: Call) {
        self.push_move(by, " call ", call.label());
    }

    pub fn play(&mut self, by: Author, card: Card) {
        self.push_move(by, " play ", card.label());
    }

    /// `<author> <verb> <what>` from its pieces, in one allocation.
    fn push_move(&mut self, by: Author, verb: &str, what: &str) {
        let by = by.label();
        let mut line = String::with_capacity(by.len() + verb.len() + what.len());
        line.push_str(by);
        line.push_str(verb);
        line.push_str(what);
        self.lines.push(line);
    }

    /// `Stage play`.
    pub fn stage_play(&mut self) {
        self.in_play = true;
        self.lines.push("Stage play".to_owned());
    }

    /// `Round <round>`.
    pub fn round(&mut self, round: usize) {
        self.rounds = round;
        self.lines.push(format!("Round {round}"));
    }

    /// Adds the markers the state has reached: `Stage play` once the auction produced a
    /// contract, `Round <r>` when trick `r` starts.
    pub fn catch_up(&mut self, deal: Progress<'_>) {
        if deal.contract.is_none() {
            return;
        }
        if !self.in_play {
            self.stage_play();
        }
        let starting = deal.current_trick().is_some_and(|t| t.cards.is_empty());
        if starting && deal.round() > self.rounds {
            self.round(deal.round());
        }
    }

    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// The file: every line followed by `\n`.
    pub fn text(&self) -> String {
        self.lines.iter().map(|l| format!("{l}\n")).collect()
    }
}

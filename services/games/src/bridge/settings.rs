//! Bridge settings: which board is played (dealer and vulnerability by Law 2), the running
//! score shown to bots, and the penalty for a protocol violation.

use serde::{Deserialize, Serialize};

use crate::api::Seat;
use crate::game_def::GameId;
use crate::settings::GameSettings;

/// Dealer and vulnerability of boards 1–16 (Law 2), repeating every 16 boards.
const BOARDS_CSV: &str = include_str!("../../data/bridge/board_dealer_vulnerability.csv");

/// Which sides are vulnerable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Vulnerability {
    None,
    #[serde(rename = "NS")]
    NorthSouth,
    #[serde(rename = "EW")]
    EastWest,
    All,
}

impl Vulnerability {
    /// Whether `seat`'s side (N-S = seats 0 and 2, E-W = 1 and 3) is vulnerable.
    pub const fn of(self, seat: Seat) -> bool {
        match self {
            Vulnerability::None => false,
            Vulnerability::All => true,
            Vulnerability::NorthSouth => seat.0 % 2 == 0,
            Vulnerability::EastWest => seat.0 % 2 == 1,
        }
    }
}

/// What a recorded fault ([`Game::record_fault`](crate::Game::record_fault)) costs the
/// offending side. Either way the referee hands the seat to the `robot` bot for the rest of the
/// deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultPenalty {
    /// The default (`docs/protocols.md#contract-bridge`): the deal is scored as if the offending
    /// side conceded every trick not yet played when its first fault was recorded (all 13 when it
    /// faulted in the auction). A passed-out deal still scores 0; if both sides fault, the first
    /// fault counts.
    ConcedeRemainingTricks,
    /// The deal is scored as played (the robot's play counts).
    None,
}

/// Resolved Bridge settings. One engine game is one deal; a match of 4 deals is 4 games with
/// `board` 1..=4 and the running score carried by the caller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The board number (Board.txt's `Game`), 1..=10_000; dealer and vulnerability follow it.
    pub board: u32,
    /// Points per seat before this deal (Board.txt's `Score a,b,c,d`); 4 entries.
    pub running_score: Vec<i64>,
    pub fault_penalty: FaultPenalty,
}

impl Settings {
    /// The `duplicate` rule set on `board`.
    pub fn duplicate(board: u32) -> Self {
        Settings {
            board,
            running_score: vec![0; 4],
            fault_penalty: FaultPenalty::ConcedeRemainingTricks,
        }
    }

    /// Dealer and vulnerability of this board, from the embedded Law 2 table.
    pub fn dealer_and_vulnerability(&self) -> (Seat, Vulnerability) {
        board_dealer_vulnerability(self.board).unwrap_or((Seat(0), Vulnerability::None))
    }
}

/// Dealer and vulnerability of board `board` (1-based, repeating every 16), `None` for board 0
/// or a malformed table.
pub fn board_dealer_vulnerability(board: u32) -> Option<(Seat, Vulnerability)> {
    let wanted = board.checked_sub(1)? % 16 + 1;
    BOARDS_CSV.lines().skip(1).find_map(|line| {
        let mut fields = line.trim().split(',');
        let number: u32 = fields.next()?.parse().ok()?;
        if number != wanted {
            return None;
        }
        let dealer = match fields.next()? {
            "N" => Seat(0),
            "E" => Seat(1),
            "S" => Seat(2),
            "W" => Seat(3),
            _ => return None,
        };
        let vulnerable = match fields.next()? {
            "None" => Vulnerability::None,
            "NS" => Vulnerability::NorthSouth,
            "EW" => Vulnerability::EastWest,
            "All" => Vulnerability::All,
            _ => return None,
        };
        Some((dealer, vulnerable))
    })
}

impl GameSettings for Settings {
    const GAME: GameId = GameId::of(&super::GAME);

    fn preset(rules: &str) -> Option<Self> {
        (rules == "duplicate").then(|| Settings::duplicate(1))
    }

    fn validate(&self) -> Result<(), String> {
        if !(1..=10_000).contains(&self.board) {
            return Err(format!("board must be 1 to 10000, not {}", self.board));
        }
        if self.running_score.len() != 4 {
            return Err(format!(
                "running_score needs 4 entries (one per seat), not {}",
                self.running_score.len()
            ));
        }
        if board_dealer_vulnerability(self.board).is_none() {
            return Err("the embedded board table is malformed".to_owned());
        }
        Ok(())
    }
}

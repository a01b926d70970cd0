//! Contract Bridge, as the course platform of the seed plays it
//! (`docs/protocols.md#contract-bridge`), one deal per engine game.
//!
//! **Setup.** Seats N E S W are 0..=3 (the protocol's Player1..Player4); N-S and E-W are
//! partners. The [`Settings::board`] number fixes dealer and vulnerability (Law 2, the embedded
//! `data/bridge/board_dealer_vulnerability.csv`); the seed fixes the deal (13 cards each).
//!
//! **Auction.** From the dealer, each seat calls `pass` or a bid (level 1–7 × strain
//! C < D < H < S < N) higher than the last; an insufficient bid is refused. Four opening passes
//! end the deal at 0; three passes after a bid end the auction. Declarer is the first player of
//! the winning side who named the final strain. There is no double or redouble.
//!
//! **Play.** Declarer's left-hand opponent leads; dummy's hand is shown after the opening lead
//! ([`Event::DummyShown`]). Declarer plays dummy's cards: when dummy's card is due,
//! [`turn`](crate::Game::turn) is declarer's seat and [`Observation::playing_hand`] is dummy's.
//! Players follow suit when they can; the highest trump, else the highest card of the suit led,
//! wins the trick, and its winner leads next. After 13 tricks the deal is scored by Law 77
//! ([`duplicate_score`], doubled and redoubled included for completeness); N-S seats score the
//! N-S points and E-W seats the negation.
//!
//! **Faults.** [`record_fault`](crate::Game::record_fault) marks the seat as taken over by the
//! robot (the `robot` built-in bot plays it from then on; the observation's `robot` tells the
//! StepLog writer to print `Robot`) and, with the default [`FaultPenalty`], scores the deal as
//! if the offending side conceded every trick still to play.
//!
//! **Information.** [`Observation`] carries Board.txt (board, running score, stage, own hand,
//! the other visible hand via [`Observation::board_hands`], contract, declarer, tricks per
//! player, round) and StepLog (calls and tricks). IMPs are the league's business.

mod cards;
mod event;
mod observation;
mod rules;
mod score;
mod settings;
mod state;

#[cfg(test)]
mod tests;

pub use cards::{format_hand, protocol_order, Bid, Call, Card, Strain, Suit};
pub use event::Event;
pub use observation::{
    CallRecord, Contract, DealResult, Fault, Observation, Progress, Stage, Trick,
};
pub use rules::{partners, trick_winner};
pub use score::{duplicate_score, Doubled};
pub use settings::{board_dealer_vulnerability, FaultPenalty, Settings, Vulnerability};
pub use state::{Action, Bridge};

use crate::bots::{BridgeHeuristic, BridgeRobot, Typed};
use crate::game_def::{BuiltinBot, GameDef, Protocol};
use crate::leaderboard::{Format, Leaderboard, RatingForm, Scoring};
use crate::ScoreOrder;
use std::time::Duration;

/// Contract Bridge in the game registry (`docs/rules.md`).
pub static GAME: GameDef = GameDef::new::<Bridge>("bridge", "Contract Bridge")
    .rule_sets(&["duplicate"])
    .seats(4)
    .bots(&[
        BuiltinBot {
            name: "heuristic",
            make: || Box::new(Typed::new("heuristic", BridgeHeuristic)),
        },
        BuiltinBot {
            name: "robot",
            make: || Box::new(Typed::new("robot", BridgeRobot)),
        },
    ])
    .protocol(
        Protocol::BridgeFiles,
        "one process per move: `bot Board.txt StepLog.txt`, appends one line",
    )
    .move_time(Duration::from_secs(5))
    .games_per_match(4, None)
    .leaderboard(Leaderboard {
        formats: &[Format::TeamPairs],
        scoring: Scoring::Imps,
        rating: RatingForm::Duplicate,
        score_order: ScoreOrder::HigherIsBetter,
    })
    .seat_names(&["N", "E", "S", "W"])
    .game_noun("board");

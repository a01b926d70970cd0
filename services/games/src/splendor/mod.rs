//! Splendor, as the Girl Hackathon V judge plays it (rule set `hackathon`).
//!
//! Always 3 players; 5 gems of each colour and 5 gold on the table; 4 of the 10 nobles and 4
//! cards of each level face up, drawn from the seed's shuffle of the 90 standard cards
//! (40/30/20, embedded from `data/splendor/`). A game may also start from a given
//! [`Position`] (2–4 players, as in the judge's own logs), to replay a judge log move by move.
//! On a turn a player takes 1 to 3 gems of different colours (the judge accepts one or two
//! even when more colours are on the table), takes 2 of one colour (only if at
//! least 4 of it are on the table), reserves a face-up card or a deck's top card (at most 3
//! reserved; +1 gold if any is left) or buys a face-up or reserved card. Payment is fixed:
//! bonuses first, then own gems, then gold ([`payment`]).
//!
//! Hackathon changes, all enforced here:
//! * a move that would leave the player with **more than 10 tokens is illegal** (not listed);
//!   the judge's "turn lost" is [`Action::Pass`], always legal, which the referee substitutes for
//!   an illegal move, a timeout, a crash or the protocol's `{}`;
//! * a noble is received **only if the move names it** and the player's bonuses after the move
//!   qualify; one per turn; not naming it forfeits it for that turn;
//! * reserved cards are public (blind reserves too, from the next observation on) and any
//!   reserved card may be bought.
//!
//! The game ends after the round (seats 0, 1, 2) in which someone reached 15 points, or after
//! round `max_rounds` (150). Rank by points, then fewer purchased cards; still tied → shared rank.
//!
//! Cards and nobles are named by content in actions, as the protocol matches them, so the
//! adapter turns a bot's `{"purchase_card": {...}}` into [`Action::Buy`] by reading the card;
//! several action keys resolve to the first in the order of `docs/protocols.md#splendor` (the
//! adapter's business). [`Game::record_fault`](crate::Game::record_fault) keeps the default: the
//! referee plays [`Action::Pass`] for the faulty seat, which is the judge's "turn lost".

mod action;
mod data;
mod observation;
mod position;
mod rules;
mod settings;
mod state;

#[cfg(test)]
mod tests;

pub use action::{Action, Event};
pub use data::{all_cards, all_nobles, Card, Color, Gems, Noble};
pub use observation::{Hidden, Observation, PlayerView, TableView};
pub use position::{LevelPosition, PlayerPosition, Position, MAX_PLAYERS};
pub use rules::payment;
pub use settings::Settings;
pub use state::{Splendor, PLAYERS};

use crate::bots::{SplendorGreedy, Typed};
use crate::game_def::{BuiltinBot, GameDef, Protocol};
use crate::leaderboard::{Leaderboard, Scoring};
use std::time::Duration;

/// Splendor in the game registry (`docs/rules.md`).
pub static GAME: GameDef = GameDef::new::<Splendor>("splendor", "Splendor")
    .rule_sets(&["hackathon"])
    .seats(3)
    .bots(&[BuiltinBot {
        name: "greedy",
        make: || Box::new(Typed::new("greedy", SplendorGreedy)),
    }])
    .protocol(
        Protocol::SplendorJudge,
        "one process per move: state JSON in argv[1] and on stdin, action JSON on stdout",
    )
    .move_time(Duration::from_secs(2))
    .private_events()
    .leaderboard(Leaderboard {
        scoring: Scoring::RankPoints { battle_score: true },
        ..Leaderboard::FREE_FOR_ALL
    });

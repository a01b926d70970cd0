//! The match log in the judge's wording, kept as the match's transcript lines.
//!
//! The original judge logs the initial state, then for every move the player, what it did and
//! the result (with the reason when the move failed), and at the end each player's score and
//! number of purchased cards. Croupier's Splendor transcript reads the same way:
//!
//! ```text
//! Game starts!                                   to_bot,   conn 0
//! Players: alice, bob, carol                     to_bot,   conn 0
//! {"round":1,"playerName":"alice",…}             to_bot,   conn 0   (the initial state, as input)
//! Round 1                                        to_bot,   conn 0
//! Player alice's turn                            to_bot,   conn 1   (conn = the call's number)
//! {"get_different_color_gems":["red","green"…]}  from_bot, conn 1   (its stdout, first 2 KiB)
//! Successfully got green, red, black gems.       to_bot,   conn 1
//! Player bob's turn                              to_bot,   conn 2
//! Invalid action. Can't hold more than 10 gems.  to_bot,   conn 2
//! …
//! Game over after 27 rounds.
//! Player alice: 16 points, 12 cards.
//! Ranking: 1. alice, 2. carol, 3. bob
//! ```
//!
//! `conn` numbers the calls of the match (every seat's turn, built-in seats included), so the
//! lines of one process share it; game-level lines have 0. Lines from the referee are `to_bot`
//! (there is no third direction), the program's stdout is `from_bot`. The per-call inputs are not
//! logged (they would outgrow the transcript cap): the replay rebuilds every state exactly.

use croupier_games::splendor::Event;
use croupier_games::{Outcome, Seat};

use crate::result::{Direction, Transcript};

/// How much of a bot's stdout is kept in the log per call.
const OUTPUT_SHOWN: usize = 2 << 10;

pub(crate) struct Log {
    transcript: Transcript,
}

impl Log {
    pub fn new(cap: usize) -> Self {
        Log {
            transcript: Transcript::new(cap),
        }
    }

    /// A line of the referee's.
    pub fn line(&mut self, conn: u64, seat: Option<Seat>, text: &str) {
        self.transcript.push(conn, seat, Direction::ToBot, text);
    }

    /// What the bot printed (trimmed, the first [`OUTPUT_SHOWN`] bytes).
    pub fn output(&mut self, conn: u64, seat: Seat, stdout: &[u8]) {
        let text = String::from_utf8_lossy(stdout);
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let shown = if text.len() > OUTPUT_SHOWN {
            let mut end = OUTPUT_SHOWN;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            format!("{} … ({} bytes)", &text[..end], text.len())
        } else {
            text.to_owned()
        };
        self.transcript
            .push(conn, Some(seat), Direction::FromBot, &shown);
    }

    /// The lines of a move's events; a forced pass logs only the round and end events (the
    /// fault's line already said that the turn was lost).
    pub fn events(&mut self, conn: u64, seat: Seat, events: &[Event], forced: bool) {
        for event in events {
            match event {
                Event::RoundStarted { round } => self.line(0, None, &format!("Round {round}")),
                Event::Ended { rounds, .. } => {
                    self.line(0, None, &format!("Game over after {rounds} rounds."));
                }
                Event::Passed { .. } if forced => {}
                other => {
                    let text = other.to_string();
                    let text = match text.split_once(": ") {
                        Some((who, rest)) if who.starts_with("seat ") => rest.to_owned(),
                        _ => text,
                    };
                    self.line(conn, Some(seat), &text);
                }
            }
        }
    }

    /// The end of a game: every player's points and purchased cards, then the ranking.
    pub fn result(&mut self, names: &[String], points: &[u32], cards: &[usize], outcome: &Outcome) {
        for (i, name) in names.iter().enumerate() {
            let p = points.get(i).copied().unwrap_or(0);
            let c = cards.get(i).copied().unwrap_or(0);
            let line = format!("Player {name}: {p} points, {c} cards.");
            self.line(0, Some(Seat(i)), &line);
        }
        let mut ranked: Vec<_> = outcome.seats.iter().collect();
        ranked.sort_by_key(|s| (s.rank, s.seat.index()));
        let ranking: Vec<String> = ranked
            .iter()
            .map(|s| {
                let name = names.get(s.seat.index()).map_or("?", String::as_str);
                format!("{}. {name}", s.rank)
            })
            .collect();
        self.line(0, None, &format!("Ranking: {}", ranking.join(", ")));
    }

    pub fn into_transcript(self) -> Transcript {
        self.transcript
    }
}

/// A refusal's reason in the judge's words: `Invalid action. <Reason>.`, or the reason itself
/// when the rules already give the judge's own line (which writes `Invalid Action.` at times).
pub(crate) fn invalid_action(reason: &str) -> String {
    const JUDGE: &str = "Invalid action.";
    if reason
        .get(..JUDGE.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(JUDGE))
    {
        return reason.to_owned();
    }
    let mut chars = reason.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
    let stop = if reason.ends_with('.') { "" } else { "." };
    format!(
        "Invalid action. {}{}{stop}",
        first.unwrap_or_default(),
        chars.as_str()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_read_like_the_judge() {
        assert_eq!(
            invalid_action("Invalid action. Can't hold more than 10 gems."),
            "Invalid action. Can't hold more than 10 gems."
        );
        assert_eq!(
            invalid_action("Invalid Action. Doesn't have enough gems to purchase."),
            "Invalid Action. Doesn't have enough gems to purchase."
        );
        assert_eq!(
            invalid_action("no such card to buy"),
            "Invalid action. No such card to buy."
        );
    }
}

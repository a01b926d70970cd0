//! Judging what a call left in the files: the one line the bot appended to StepLog.txt, or the
//! violation (`docs/protocols.md#contract-bridge`).
//!
//! Checks, in this order (the first that fails is the violation):
//! 1. Board.txt is byte for byte what the platform wrote (still a regular file, not a link);
//! 2. StepLog.txt still starts with exactly what the platform wrote (earlier lines unchanged);
//! 3. exactly one line was appended: the text after the old content is non-empty and has no
//!    line break except one final `\n` (a missing final `\n` is accepted; a `\r` before it is
//!    ignored, so do blanks around the words);
//! 4. the line is `Player<N> call <X-n|pass>` or `Player<N> play <S-n>`, three words separated
//!    by blanks, `N` the bot's own number, or, for dummy's card, declarer's or dummy's number.
//!
//! A well-formed line the rules refuse (an insufficient bid, a card not in the hand, a revoke, a
//! `play` during the auction) is judged by the engine afterwards: `illegal_action`. Every other
//! violation here is `invalid_output`.

use croupier_games::bridge::{Action, Call, Card};
use croupier_games::Seat;

use super::files::player;
use crate::verdict::FaultKind;

/// Why a call's answer is not a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// Board.txt was changed, removed or replaced.
    BoardChanged,
    /// StepLog.txt's earlier lines were changed (or the file removed or replaced).
    StepLogChanged,
    /// Nothing (or only a line break) was appended.
    NoLine,
    /// More than one line was appended.
    Lines(usize),
    /// The appended line is not a call or play of this seat.
    Malformed { line: String, why: String },
    /// A well-formed move the rules refuse.
    Illegal { line: String, why: String },
}

impl Violation {
    pub(crate) fn kind(&self) -> FaultKind {
        match self {
            Violation::Illegal { .. } => FaultKind::IllegalAction,
            _ => FaultKind::InvalidOutput,
        }
    }

    /// A sentence for the seat's detail.
    pub fn reason(&self) -> String {
        match self {
            Violation::BoardChanged => "changed Board.txt".to_owned(),
            Violation::StepLogChanged => "changed earlier lines of StepLog.txt".to_owned(),
            Violation::NoLine => "appended no line to StepLog.txt".to_owned(),
            Violation::Lines(n) => format!("appended {n} lines to StepLog.txt (one expected)"),
            Violation::Malformed { line, why } => format!("malformed line {line:?}: {why}"),
            Violation::Illegal { line, why } => format!("illegal move {line:?}: {why}"),
        }
    }
}

/// Who may sign the line: the seat itself, and for dummy's card also dummy's number.
#[derive(Debug, Clone, Copy)]
pub struct Signer {
    pub seat: Seat,
    /// The hand the card comes from when it is not the seat's own (dummy's).
    pub hand: Seat,
}

/// The move in the bytes the bot left, given what the platform wrote. `board_now` and
/// `log_now` are `None` when the file is missing, not a regular file or over the size cap.
pub fn judge(
    board_sent: &[u8],
    board_now: Option<&[u8]>,
    log_sent: &[u8],
    log_now: Option<&[u8]>,
    signer: Signer,
) -> Result<(Action, String), Violation> {
    if board_now != Some(board_sent) {
        return Err(Violation::BoardChanged);
    }
    let appended = log_now
        .and_then(|now| now.strip_prefix(log_sent))
        .ok_or(Violation::StepLogChanged)?;
    let text = String::from_utf8_lossy(appended);
    let body = text.strip_suffix('\n').unwrap_or(&text);
    if body.contains('\n') {
        return Err(Violation::Lines(body.split('\n').count()));
    }
    let line = body.trim();
    if line.is_empty() {
        return Err(Violation::NoLine);
    }
    parse_line(line, signer).map(|action| (action, line.to_owned()))
}

/// Parses one StepLog line of the seat.
pub fn parse_line(line: &str, signer: Signer) -> Result<Action, Violation> {
    let bad = |why: String| Violation::Malformed {
        line: line.to_owned(),
        why,
    };
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let [who, verb, what] = words.as_slice() else {
        return Err(bad(format!(
            "{} words, expected 3 (`Player<N> call H-2`, `Player<N> play S-1`)",
            words.len()
        )));
    };
    let (me, hand) = (player(signer.seat), player(signer.hand));
    if *who != me && *who != hand {
        let may = if me == hand {
            me
        } else {
            format!("{me} or {hand}")
        };
        return Err(bad(format!("written as {who}, this call is {may}'s")));
    }
    match *verb {
        "call" => what.parse::<Call>().map(Action::Call).map_err(bad),
        "play" => what.parse::<Card>().map(Action::Play).map_err(bad),
        other => Err(bad(format!("{other:?} is neither `call` nor `play`"))),
    }
}

//! The verdict of a validation game: is the bot usable, and what should its team be warned of.
//!
//! The original platforms do not turn a bot away for one bad move: Splendor's judge loses the
//! turn, No Thanks' server declines the action and plays for the seat, Guandan asks again, the
//! Bridge platform hands the deal to its Robot and calls the bot again on the next, Hanabi ends
//! the game with the score so far. So the one question is the fairness rule's
//! ([`croupier_games::fair`]): did the bot make **at least one legal move of its own**? A bot
//! that did is `ready`, and every fault it made is listed in a warning; one that did not (it
//! crashed or hung before its first move, wrote nothing the protocol reads, or only ever chose
//! moves the rules refuse) fails with its first fault as the reason.

use croupier_games::fair::{participation, Participation};
use croupier_referee::{FaultKind, MatchLimits, MatchResult, SeatOutcome};
use croupier_sandbox::EndState;
use croupier_store::builds::Verdict;
use croupier_store::submissions::{FaultCount, ValidationWarning};

use crate::artifact::tail;
use crate::outcome::{end_state_name, stored_end_state};

/// How many faults' reasons a warning quotes.
const REASONS: usize = 3;
/// The longest quoted reason, in bytes (its end is kept).
const REASON_BYTES: usize = 300;

/// The verdict for seat `mine` of a validation game played under `limits`.
pub(super) fn verdict(result: &MatchResult, mine: usize, limits: &MatchLimits) -> Verdict {
    let Some(me) = result.seats.get(mine) else {
        return Verdict::Failed("validation game: no result for the submission's seat".into());
    };
    let seats = result.seats.len();
    let played = result
        .games
        .iter()
        .any(|g| participation(seats, &g.replay.entries).get(mine) == Some(&Participation::Played));
    let clean = me.end_state == EndState::Ok && me.faults.is_empty();
    if played || clean {
        return Verdict::Ready(warning(me));
    }
    Verdict::Failed(reason(me, limits))
}

/// Why an unusable bot failed: its end state (the first fault) in words, and the details.
fn reason(me: &SeatOutcome, limits: &MatchLimits) -> String {
    let why = match &me.end_state {
        EndState::TimeLimit => format!(
            "your bot did not answer within {} s",
            limits.move_time.as_secs_f64()
        ),
        EndState::MemoryLimit => format!(
            "your bot used more than {} MiB of memory",
            limits.seat.memory_bytes >> 20
        ),
        EndState::Crashed { .. } => "your bot exited or crashed".into(),
        EndState::OutputLimit => "your bot wrote more output than allowed".into(),
        EndState::InvalidOutput => "your bot sent a message the protocol does not allow".into(),
        EndState::IllegalAction => "your bot chose a move the rules refuse".into(),
        EndState::Ok | EndState::SetupError(_) => "your bot was never asked to move".into(),
    };
    let mut reason = format!(
        "validation game: {} — {why}, and it never made a legal move",
        end_state_name(&me.end_state)
    );
    if !me.detail.is_empty() {
        reason.push_str(&format!(" ({})", tail(&me.detail, 500)));
    }
    reason.push_str("; see the log for details");
    reason
}

/// The faults of a usable bot, or `None` when it made none.
fn warning(me: &SeatOutcome) -> Option<ValidationWarning> {
    let mut faults: Vec<(croupier_store::EndState, &str)> = me
        .faults
        .iter()
        .map(|f| (kind(f.kind), f.detail.as_str()))
        .collect();
    if faults.is_empty() && me.end_state != EndState::Ok {
        // A limit the sandbox saw without the protocol seeing a fault (a seat's wall time).
        faults.push((stored_end_state(&me.end_state), me.detail.as_str()));
    }
    if faults.is_empty() {
        return None;
    }
    let mut kinds: Vec<FaultCount> = Vec::new();
    for (kind, _) in &faults {
        match kinds.iter_mut().find(|k| k.kind == *kind) {
            Some(known) => known.count += 1,
            None => kinds.push(FaultCount {
                kind: *kind,
                count: 1,
            }),
        }
    }
    // Most frequent first; equal counts keep the order they first happened in.
    kinds.sort_by_key(|k| std::cmp::Reverse(k.count));
    let reasons = faults
        .iter()
        .map(|(_, detail)| tail(detail.trim(), REASON_BYTES).to_owned())
        .filter(|d| !d.is_empty())
        .take(REASONS)
        .collect();
    Some(ValidationWarning {
        faults: u32::try_from(faults.len()).unwrap_or(u32::MAX),
        kinds,
        reasons,
    })
}

/// A fault's kind, named as the seat end state it would make.
fn kind(kind: FaultKind) -> croupier_store::EndState {
    use croupier_store::EndState as Stored;
    match kind {
        FaultKind::TimeLimit => Stored::TimeLimit,
        FaultKind::InvalidOutput => Stored::InvalidOutput,
        FaultKind::IllegalAction => Stored::IllegalAction,
        FaultKind::OutputLimit => Stored::OutputLimit,
        FaultKind::Left => Stored::Crashed,
    }
}

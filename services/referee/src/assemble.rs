//! Turning a finished match into its [`MatchResult`]: every seat process is ended and its
//! report combined with its faults ([`verdict`](crate::verdict)), the games' outcomes summed.
//! Protocol-independent.

use croupier_games::Seat;
use croupier_sandbox::{EndState, KillReason};

use crate::permove::PerMoveTotals;
use crate::result::{millis, MatchResult, SeatOutcome, Transcript};
use crate::seat::SeatProc;
use crate::table::{Finished, Table};
use crate::verdict::{end_state, Faults};
use crate::RefereeError;

/// A seat at the end of the match: its process (none for a built-in) and its faults.
pub(crate) struct SeatEnd {
    pub proc: Option<SeatProc>,
    pub faults: Faults,
}

/// Ends every seat (all are told at once, then awaited) and builds the result.
pub(crate) async fn assemble(
    ends: Vec<SeatEnd>,
    table: Table,
    transcript: Transcript,
) -> Result<MatchResult, RefereeError> {
    assemble_with(ends, Vec::new(), table, transcript).await
}

/// [`assemble`] for matches with one-process-per-move seats: `per_move[i]`, when given, holds
/// seat `i`'s call totals, which set its end state, CPU time, memory and tails
/// ([`PerMoveTotals::settle`]).
pub(crate) async fn assemble_with(
    ends: Vec<SeatEnd>,
    per_move: Vec<Option<PerMoveTotals>>,
    table: Table,
    transcript: Transcript,
) -> Result<MatchResult, RefereeError> {
    let wall_ms = transcript.elapsed_ms();
    for end in &ends {
        if let Some(proc) = &end.proc {
            proc.kill(KillReason::MatchEnded);
        }
    }
    let Finished {
        games,
        outcome,
        names,
        stats,
    } = table.finish()?;
    let mut seats = Vec::with_capacity(names.len());
    let per_seat = ends.into_iter().zip(names.into_iter().zip(stats));
    for (i, (end, (name, stats))) in per_seat.enumerate() {
        let result = outcome.get(Seat(i)).copied();
        let (rank, score) = result.map_or((0, 0), |r| (r.rank, r.score));
        // A person who let a turn run out: `time_limit`, each lapse in the detail.
        let (state, detail) = match stats.lapses.first() {
            Some(_) if end.proc.is_none() => {
                let mut detail = end.faults.detail();
                if detail.is_empty() {
                    detail = stats.lapses.join("\n");
                }
                (EndState::TimeLimit, detail)
            }
            _ => (EndState::Ok, end.faults.detail()),
        };
        let mut seat = SeatOutcome {
            seat: Seat(i),
            name,
            rank,
            score,
            end_state: state,
            detail,
            faults: end.faults.all().to_vec(),
            moves: stats.moves,
            forced_moves: stats.forced,
            move_ms: stats.move_ms,
            move_log: stats.move_log,
            cpu_ms: 0,
            max_rss_bytes: 0,
            stderr_tail: String::new(),
            stdout_tail: String::new(),
        };
        if let Some(proc) = end.proc {
            let run = proc.finish().await?;
            seat.end_state =
                end_state(&end.faults, &run.report).map_err(|reason| RefereeError::Sandbox {
                    seat: i,
                    reason: format!("{reason}: {}", run.stderr_tail.trim()),
                })?;
            seat.cpu_ms = millis(run.report.cpu);
            seat.max_rss_bytes = run.report.max_rss_bytes;
            (seat.stderr_tail, seat.stdout_tail) = (run.stderr_tail, run.stdout_tail);
        }
        if let Some(Some(totals)) = per_move.get(i) {
            totals.settle(&mut seat, &end.faults);
        }
        seats.push(seat);
    }
    let (transcript, transcript_truncated) = transcript.finish();
    Ok(MatchResult {
        seats,
        games,
        outcome,
        transcript,
        transcript_truncated,
        wall_ms,
    })
}

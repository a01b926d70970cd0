//! Croupier's own protocol, for games that come without an original platform
//! ([`Protocol::JsonPerMove`](croupier_games::registry::Protocol::JsonPerMove);
//! `docs/protocols.md#json-per-move`). Any engine speaks it: nothing in this module knows a game.
//!
//! For every turn of a program seat the referee runs the bot once (`permove::PerMoveSeat`, the
//! seat's private `/bot` kept for the match) with one JSON object on stdin, then closed:
//!
//! ```json
//! {"game": "nim", "seat": 1, "observation": {…}, "legal_actions": [{…}, …]}
//! ```
//!
//! `observation` is exactly what the engine shows that seat; `legal_actions` the engine's list.
//! The bot prints one JSON value on stdout: an action as the engine writes it (any entry of
//! `legal_actions`), or a bare index into `legal_actions`. Whatever loses the move — a crash, the
//! time limit, no output, output that is not one JSON value, an action the rules refuse — is
//! recorded against the seat (the first such fault decides its end state) and the referee plays
//! the seat's first legal action for it, counted as forced; the seat keeps playing its next turns.
//! The transcript has one line per call with the bot's answer and the referee's verdict.

use std::time::Instant;

use croupier_games::{Turn, Viewer};
use croupier_sandbox::Sandbox;
use serde_json::{json, Value};

use crate::assemble::{assemble_with, SeatEnd};
use crate::permove::{close_all, program_seats};
use crate::result::{Direction, MatchResult, Transcript};
use crate::table::Table;
use crate::verdict::{FaultKind, Faults};
use crate::{MatchSpec, RefereeError};

/// How much of one answer the transcript keeps.
const ANSWER_SHOWN: usize = 1 << 10;

pub(crate) async fn run(
    sandbox: &Sandbox,
    spec: &MatchSpec,
    mut table: Table,
) -> Result<MatchResult, RefereeError> {
    let mut programs = program_seats(sandbox, spec, &mut table).await?;
    let mut faults = vec![Faults::default(); programs.len()];
    let mut log = Transcript::new(spec.limits.transcript_bytes);
    let mut conn = 0_u64;
    for game in 0..table.games() {
        if game > 0 {
            table.next_game()?;
        }
        while let Turn::Seat(seat) = table.turn() {
            conn += 1;
            let Some(Some(program)) = programs.get_mut(seat.index()) else {
                table.apply_auto(seat).await?;
                continue;
            };
            let input = json!({
                "game": spec.game.as_str(),
                "seat": seat.index(),
                "observation": table.game().observe_json(Viewer::Seat(seat)),
                "legal_actions": table.game().offered_actions_json(seat),
            });
            let t0 = Instant::now();
            let call = program.call(&[], input.to_string().into_bytes()).await?;
            let took = t0.elapsed();
            let shown = String::from_utf8_lossy(&call.stdout);
            let shown: String = shown.trim().chars().take(ANSWER_SHOWN).collect();
            if !shown.is_empty() {
                log.push(conn, Some(seat), Direction::FromBot, &shown);
            }
            let answer = match call.outcome.fault(spec.limits.move_time) {
                Some(fault) => Err(fault),
                None => read_answer(&call.stdout, &table.game().offered_actions_json(seat))
                    .map_err(|reason| (FaultKind::InvalidOutput, reason)),
            };
            let refused = match answer {
                Ok(action) => match table.apply_bot(seat, action, took) {
                    Ok(()) => None,
                    Err(e) => Some((FaultKind::IllegalAction, e.to_string())),
                },
                Err(fault) => Some(fault),
            };
            match refused {
                None => log.push(conn, Some(seat), Direction::ToBot, "ok"),
                Some((kind, reason)) => {
                    let detail = format!("game {}, call {}: {reason}", game + 1, call.number);
                    if let Some(f) = faults.get_mut(seat.index()) {
                        f.push(kind, detail.clone());
                    }
                    table.fault(seat, &detail);
                    log.push(
                        conn,
                        Some(seat),
                        Direction::ToBot,
                        &format!("move lost: {reason}"),
                    );
                    table.apply_forced(seat)?;
                }
            }
        }
    }
    let ends = faults
        .into_iter()
        .map(|faults| SeatEnd { proc: None, faults });
    let per_move = close_all(programs).await;
    assemble_with(ends.collect(), per_move, table, log).await
}

/// The action a bot printed: one JSON value, either an action or an index into `legal`.
fn read_answer(stdout: &[u8], legal: &[Value]) -> Result<Value, String> {
    let text = std::str::from_utf8(stdout).map_err(|_| "the output is not UTF-8".to_owned())?;
    let text = text.trim();
    if text.is_empty() {
        return Err("no output".into());
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("the output is not one JSON value: {e}"))?;
    match value.as_u64() {
        Some(i) if !legal.iter().any(|a| a == &value) => usize::try_from(i)
            .ok()
            .and_then(|i| legal.get(i))
            .cloned()
            .ok_or_else(|| format!("index {i} is past the {} legal actions", legal.len())),
        _ => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_an_action_or_an_index_and_anything_else_is_refused_with_a_reason() {
        let legal = vec![json!({"take": 1}), json!({"take": 2})];
        assert_eq!(
            read_answer(b" {\"take\": 2}\n", &legal),
            Ok(json!({"take": 2}))
        );
        assert_eq!(read_answer(b"1\n", &legal), Ok(json!({"take": 2})));
        // An action that is not listed is the engine's to refuse, with its own reason.
        assert_eq!(
            read_answer(b"{\"take\": 9}", &legal),
            Ok(json!({"take": 9}))
        );
        assert_eq!(read_answer(b"", &legal), Err("no output".into()));
        let past = read_answer(b"5", &legal).unwrap_err();
        assert!(past.contains("past the 2 legal actions"), "{past}");
        let two = read_answer(b"{} {}", &legal).unwrap_err();
        assert!(two.contains("not one JSON value"), "{two}");
        assert!(read_answer(&[0xff, 0xfe], &legal).is_err());
        // A game whose actions are numbers: a listed number is the action, not an index.
        let numbers = vec![json!(3), json!(0)];
        assert_eq!(read_answer(b"0", &numbers), Ok(json!(0)));
        assert_eq!(read_answer(b"1", &numbers), Ok(json!(0)));
    }
}

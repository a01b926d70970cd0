//! Fixtures of the crate's own tests: played schedules with known orders.

use uuid::Uuid;

use crate::results::{EndState, MatchResult, SeatOutcome};
use crate::{schedule, ScheduleSpec};
use croupier_games::GameId;

/// Plays `game`'s schedule (`rounds` rounds from `seed`) for entrants 1..=n; a lower id beats
/// a higher one, and a seat's score is `score(entrant, ordinal)`.
pub(crate) fn played(
    game: GameId,
    n: u128,
    (rounds, seed): (u32, u64),
    score: impl Fn(u128, u32) -> f64,
) -> Vec<MatchResult<Uuid>> {
    let entrants: Vec<Uuid> = (1..=n).map(Uuid::from_u128).collect();
    let rules = game.rule_sets().first().copied().unwrap_or_default();
    let planned = schedule(game, &ScheduleSpec::new(rules, rounds, seed), &entrants);
    let planned = planned.expect("a schedule");
    planned
        .into_iter()
        .map(|m| {
            let seats = m.seats.iter().map(|e| SeatOutcome {
                entrant: *e,
                score: score(e.as_u128(), m.ordinal),
                rank: 1 + m.seats.iter().filter(|o| *o < e).count() as u32,
                end_state: EndState::Ok,
            });
            let boards = if game == GameId::BRIDGE {
                vec![if m.seats[0] < m.seats[1] { 420 } else { -50 }; 4]
            } else {
                Vec::new()
            };
            MatchResult {
                ordinal: m.ordinal,
                group: m.group,
                seats: seats.collect(),
                boards,
            }
        })
        .collect()
}

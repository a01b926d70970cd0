//! Stored seats read as the league's [`MatchResult`]s.

use std::collections::{BTreeMap, HashMap};

use croupier_games::GameId;
use croupier_league::{EndState, Format, MatchResult, Scheme, Scoring, SeatOutcome};
use croupier_store::competitions::SeatScore;
use uuid::Uuid;

/// The matches among `seats` (in (ordinal, match, seat) order or any order grouped by match)
/// as the league reads them. A match with a built-in bot in a seat is no competition match and
/// is left out. Each match's duplicate set is its stored `duplicate_set`; for matches older
/// than that column it is rebuilt: the matches of one seed between the same entrants (in
/// self-play, the seed alone), numbered after every stored set.
pub fn to_results(game: GameId, format: Format, seats: &[SeatScore]) -> Vec<MatchResult<Uuid>> {
    let mut by_match: BTreeMap<(i32, Uuid), Vec<&SeatScore>> = BTreeMap::new();
    for s in seats {
        by_match.entry((s.ordinal, s.match_id)).or_default().push(s);
    }
    let stored = seats.iter().filter_map(|s| s.duplicate_set).max();
    let first_free = stored.map_or(0, |m| u32::try_from(m).unwrap_or(0) + 1);
    let mut groups: HashMap<(i64, Vec<Uuid>), u32> = HashMap::new();
    let mut results = Vec::with_capacity(by_match.len());
    for ((ordinal, _), mut seats) in by_match {
        seats.sort_by_key(|s| s.seat);
        let Some(entrants) = seats
            .iter()
            .map(|s| s.submission_id)
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let group = match seats.first().and_then(|s| s.duplicate_set) {
            Some(set) => u32::try_from(set).unwrap_or(0),
            None => {
                let seed = seats.first().map_or(0, |s| s.seed);
                let mut set = entrants.clone();
                set.sort();
                set.dedup();
                if format == Format::SelfPlay {
                    set.clear();
                }
                let next = first_free + u32::try_from(groups.len()).unwrap_or(u32::MAX);
                *groups.entry((seed, set)).or_insert(next)
            }
        };
        results.push(MatchResult {
            ordinal: u32::try_from(ordinal).unwrap_or(0),
            group,
            seats: seats
                .iter()
                .zip(entrants)
                .map(|(s, entrant)| SeatOutcome {
                    entrant,
                    score: s.score,
                    rank: u32::try_from(s.rank).unwrap_or(u32::MAX),
                    end_state: end_state(s.end_state),
                })
                .collect(),
            // IMP scoring (Bridge): North-South's score on each board of this table (seat 0 is
            // North).
            boards: if Scheme::of(game).scoring == Scoring::Imps {
                seats
                    .first()
                    .map(|s| s.game_scores.clone())
                    .unwrap_or_default()
            } else {
                Vec::new()
            },
        });
    }
    results
}

/// The league's name for a stored seat end state.
fn end_state(stored: croupier_store::EndState) -> EndState {
    use croupier_store::EndState as Stored;
    match stored {
        Stored::Ok => EndState::Ok,
        Stored::TimeLimit => EndState::TimeLimit,
        Stored::MemoryLimit => EndState::MemoryLimit,
        Stored::Crashed => EndState::Crashed,
        Stored::OutputLimit => EndState::OutputLimit,
        Stored::InvalidOutput => EndState::InvalidOutput,
        Stored::IllegalAction => EndState::IllegalAction,
        Stored::SetupError => EndState::SetupError,
    }
}

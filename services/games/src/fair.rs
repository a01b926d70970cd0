//! The platform's fairness rule, on top of each game's own outcome (docs/fair-play.md).
//!
//! A seat that was due to move in a game (it has at least one entry in the record: a move, a
//! refusal or a fault) but never made a legal move of its own is *idle*: every move it has was
//! played for it by the referee after a fault (a lost turn, a forced pick or pass, the Bridge
//! Robot). An idle seat ranks last in that game, below every seat that made at least one legal
//! move, whatever the game's own scores and tie-breaks say; idle seats tie among themselves.
//! The other seats keep the game's own order. Scores stay the game's, except where the score is
//! shared ([`GameDef::shared_score`](crate::GameDef::shared_score): Hanabi): there an idle seat scores 0, so a bot that never acts cannot take a
//! share of what the others built.
//!
//! A seat with no entry at all (the game ended before its first turn) is not idle.

use crate::outcome::Outcome;
use crate::replay::Entry;
use crate::GameId;

/// What a seat did in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Participation {
    /// No entry: the game ended before its turn came.
    Absent,
    /// Due to move, but never made a legal move of its own.
    Idle,
    /// Made at least one legal move.
    Played,
}

/// Each of `seats` seats' [`Participation`], read from a game's record.
pub fn participation(seats: usize, entries: &[Entry]) -> Vec<Participation> {
    let mut out = vec![Participation::Absent; seats];
    for entry in entries {
        let (seat, legal) = match entry {
            Entry::Move { seat, forced, .. } => (seat, !forced),
            Entry::Refused { seat, .. } | Entry::Fault { seat, .. } => (seat, false),
        };
        if let Some(p) = out.get_mut(seat.index()) {
            if legal {
                *p = Participation::Played;
            } else if *p == Participation::Absent {
                *p = Participation::Idle;
            }
        }
    }
    out
}

/// `idle[s]` for each of `seats` seats, read from a game's record.
pub fn idle_seats(seats: usize, entries: &[Entry]) -> Vec<bool> {
    let seen = participation(seats, entries);
    seen.iter().map(|&p| p == Participation::Idle).collect()
}

/// `engine` (a game's own outcome) with the rule applied for the seats marked in `idle`.
pub fn outcome(game: GameId, mut engine: Outcome, idle: &[bool]) -> Outcome {
    if game.def().shared_score {
        for seat in &mut engine.seats {
            if idle.get(seat.seat.index()).copied().unwrap_or(false) {
                seat.score = 0;
            }
        }
        let scores: Vec<i64> = engine.seats.iter().map(|s| s.score).collect();
        engine = Outcome::from_scores(engine.order, &scores);
    }
    engine.demote_idle(idle)
}

/// Over several games with the same seats (a match): a seat is idle when it was idle in every
/// game in which it was due to move, and due in at least one. `per_game[g][s]` is seat `s`'s
/// participation in game `g`.
pub fn idle_over(seats: usize, per_game: &[Vec<Participation>]) -> Vec<bool> {
    (0..seats)
        .map(|s| {
            let due = per_game
                .iter()
                .filter_map(|game| game.get(s))
                .filter(|&&p| p != Participation::Absent);
            let mut any = false;
            for &p in due {
                if p == Participation::Played {
                    return false;
                }
                any = true;
            }
            any
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::api::Seat;
    use crate::outcome::ScoreOrder;
    use crate::replay::Recorder;
    use crate::Turn;

    fn ranks(outcome: &Outcome) -> Vec<u32> {
        outcome.seats.iter().map(|r| r.rank).collect()
    }

    #[test]
    fn a_seat_whose_every_move_was_forced_is_idle_and_a_seat_never_due_is_not() {
        let mut game = Recorder::new(GameId::NO_THANKS, "boardcoder", &Value::Null, 5).unwrap();
        let mut turns = 0;
        while let Turn::Seat(seat) = game.game().turn() {
            let action = json!("pick");
            if seat == Seat(1) {
                game.apply_forced(seat, action).unwrap();
            } else {
                game.apply(seat, action).unwrap();
            }
            turns += 1;
        }
        assert!(turns > 3);
        let replay = game.into_replay();
        assert_eq!(replay.idle_seats(), [false, true, false]);
        let fair = replay.fair_outcome().unwrap();
        assert_eq!(fair.get(Seat(1)).unwrap().rank, 3);
        assert_eq!(fair.check(3), Ok(()));
        assert_eq!(idle_seats(3, &replay.entries[..1]), [false; 3]);
    }

    #[test]
    fn an_idle_hanabi_seat_scores_nothing_and_ranks_below_the_players() {
        let engine = Outcome::from_scores(ScoreOrder::HigherIsBetter, &[17, 17, 17, 17]);
        let fair = outcome(GameId::HANABI, engine.clone(), &[false, true, false, true]);
        let scores: Vec<i64> = fair.seats.iter().map(|s| s.score).collect();
        assert_eq!(scores, [17, 0, 17, 0]);
        assert_eq!(ranks(&fair), [1, 3, 1, 3]);
        let everyone = outcome(GameId::HANABI, engine, &[true; 4]);
        assert!(everyone.seats.iter().all(|s| s.score == 0 && s.rank == 1));
    }

    #[test]
    fn over_a_match_a_seat_is_idle_only_if_idle_in_every_game_it_was_due_in() {
        use Participation::{Absent, Idle, Played};
        let games = vec![
            vec![Idle, Idle, Absent],
            vec![Idle, Played, Absent],
            vec![Absent, Absent, Absent],
        ];
        assert_eq!(idle_over(3, &games), [true, false, false]);
        assert_eq!(participation(3, &[])[0], Absent);
        assert_eq!(idle_over(2, &[]), [false, false]);
    }
}

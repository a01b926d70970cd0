//! Who sits where in each match of `croupier play`, and on which seed.
//!
//! * `--bot` specs that are the same text are one entrant (`--bot X` four times for Hanabi
//!   self-play is one bot in the standings).
//! * Team games (Guandan, Bridge: partners 0+2 against 1+3) accept two bots, A and B, seated
//!   A-B-A-B, or four. Their matches come in duplicate pairs: matches `2k` and `2k+1` are dealt
//!   from seed `S + k`, the second with every seat moved by one (A-B-A-B becomes B-A-B-A), so
//!   both sides play the same cards; `--games` defaults to 2 (one pair).
//! * Other games: match `i` is played on seed `S + i` with the seating rotated by `i`: bot `b`
//!   sits in seat `(b - i) mod seats`, so `--games` = seats (the default) plays every bot in
//!   every seat once.

use anyhow::{bail, Result};
use croupier_games::GameId;
use croupier_league::{Format, Scheme};

/// One match of the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seating {
    /// The `--bot` index playing each seat.
    pub bots: Vec<usize>,
    pub seed: u64,
    /// Matches on the same deals share a group (the league's duplicate set).
    pub group: u32,
}

/// Whether `game` is played by two teams of partners (seats 0+2 against 1+3).
pub fn team_game(game: GameId) -> bool {
    Scheme::of(game).default_format() == Format::TeamPairs
}

/// The `--bot` index of each seat before any rotation.
pub fn base(game: GameId, seats: usize, bots: usize) -> Result<Vec<usize>> {
    if bots == seats {
        return Ok((0..seats).collect());
    }
    if team_game(game) && seats == 4 && bots == 2 {
        return Ok(vec![0, 1, 0, 1]);
    }
    let also = if team_game(game) {
        " (or 2: partners share a bot, seated A-B-A-B)"
    } else {
        ""
    };
    bail!("{game} seats {seats} players, but {bots} bot(s) were given: pass --bot once per seat{also}")
}

/// The matches to play without `--games`.
pub fn default_count(game: GameId, seats: usize) -> u32 {
    if team_game(game) {
        2
    } else {
        u32::try_from(seats).unwrap_or(1)
    }
}

/// Match `i` of the run from seed `seed`.
pub fn seating(game: GameId, base: &[usize], seed: u64, i: u32) -> Seating {
    let n = base.len().max(1);
    let (shift, seed, group) = if team_game(game) {
        ((i % 2) as usize, seed.wrapping_add(u64::from(i / 2)), i / 2)
    } else {
        (i as usize % n, seed.wrapping_add(u64::from(i)), i)
    };
    Seating {
        bots: (0..n).map(|s| base[(s + shift) % n]).collect(),
        seed,
        group,
    }
}

/// Entrant of each `--bot`: the index of the first `--bot` with the same text.
pub fn entrants(labels: &[String]) -> Vec<usize> {
    (0..labels.len())
        .map(|i| labels.iter().position(|l| l == &labels[i]).unwrap_or(i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn team_games_play_duplicate_pairs_with_the_sides_swapped_on_the_same_seed() {
        let base = base(GameId::BRIDGE, 4, 2).unwrap();
        assert_eq!(base, [0, 1, 0, 1]);
        let first = seating(GameId::BRIDGE, &base, 7, 0);
        let second = seating(GameId::BRIDGE, &base, 7, 1);
        assert_eq!(
            (first.bots.clone(), first.seed, first.group),
            (vec![0, 1, 0, 1], 7, 0)
        );
        assert_eq!(
            (second.bots, second.seed, second.group),
            (vec![1, 0, 1, 0], 7, 0)
        );
        let third = seating(GameId::GUANDAN, &[0, 1, 2, 3], 7, 2);
        assert_eq!(
            (third.bots, third.seed, third.group),
            (vec![0, 1, 2, 3], 8, 1)
        );
        assert_eq!(default_count(GameId::GUANDAN, 4), 2);
    }

    #[test]
    fn other_games_rotate_every_bot_through_every_seat_on_consecutive_seeds() {
        let base = base(GameId::NO_THANKS, 3, 3).unwrap();
        let seen: Vec<Vec<usize>> = (0..3)
            .map(|i| seating(GameId::NO_THANKS, &base, 0, i).bots)
            .collect();
        assert_eq!(seen, [vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
        assert_eq!(seating(GameId::NO_THANKS, &base, 5, 2).seed, 7);
        assert!(super::base(GameId::NO_THANKS, 3, 2).is_err());
        let err = super::base(GameId::GUANDAN, 4, 3).unwrap_err().to_string();
        assert!(err.contains("A-B-A-B"), "{err}");
    }

    #[test]
    fn the_same_bot_given_twice_is_one_entrant() {
        let labels = ["a", "b", "a", "b"].map(String::from);
        assert_eq!(entrants(&labels), [0, 1, 0, 1]);
    }
}

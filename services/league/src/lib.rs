//! Croupier's competition logic: schedules, standings, ratings and confidence intervals.
//! Pure functions over plain, serde-serializable values: no I/O, no database, no async.
//!
//! The server and the worker hold a [`GameId`](croupier_games::GameId) and call
//! [`schedule`], [`standings`], [`ratings`] and [`history`] (each entrant's rating or score
//! after each of its matches, for plots); the game's [`Scheme`] decides the rest, so no caller
//! matches on games. Entrants are any `Clone + Ord` id (Croupier passes submission ids).
//! Ladders (continuous matchmaking) ask [`next_groups`] for their next duplicate groups, and
//! A/B tests of two submissions decide with [`ab_test`] (`docs/rules.md#ladders`,
//! `docs/rules.md#ab-tests`). The final ranking with honest uncertainty is [`fitted`]: one
//! Bradley–Terry or Plackett–Luce fit over all of a competition's matches (Hanabi: the mean
//! score), with a 95% interval per entrant and whether each pair of neighbours is decided.
//! Contests too big for a round-robin are played round by round: [`next_round`] gives a
//! [`Plan`]'s next round (Swiss rounds, or budgeted adaptive ranking) from the entrants and the
//! results so far (`docs/competitions.md`), and [`sim`] plays any of them by simulation for the
//! contest benchmark (`tests/contest_bench.rs`).
//!
//! # Schemes (`docs/rules.md#leaderboards`)
//!
//! | game | schedule ([`Format`]) | matches for n entrants | standings ([`Scoring`]) | ratings ([`RatingForm`]) |
//! |---|---|---|---|---|
//! | No Thanks | triples: A-B-C, B-C-A, C-A-B | C(n,3) × 3 × rounds | rank points 4/2/1, mean score | Weng-Lin, free for all |
//! | Splendor | triples | C(n,3) × 3 × rounds | rank points + battle score | Weng-Lin, free for all |
//! | Guandan | team pairs: A in seats 0+2, B in 1+3, then swapped | C(n,2) × 2 × rounds | games won, draws ½ | Weng-Lin, two teams |
//! | Bridge | team pairs: table 1 A N-S, table 2 A E-W | C(n,2) × 2 × rounds | total IMPs, IMPs per board | Weng-Lin, two teams per duplicate set |
//! | Hanabi | self-play: one entrant in every seat (default; 4 seats unless `players`) | n × rounds | mean score | none (cooperative) |
//! | Hanabi | cross-play: A-B-A-B…, then B-A-B-A… | C(n,2) × 2 × rounds | mean score | none |
//!
//! With 3, 4 and 5 entrants and 2 rounds that is 6, 24, 60 matches for triples, 12, 24, 40 for
//! pairs and 6, 8, 10 for self-play. Triples need 3 entrants, pairs 2, self-play 1.
//!
//! **Duplicate seeds.** Round `r` is played on seed `splitmix64(base_seed + r)` (top bit
//! cleared, so it fits a `bigint`), and *every* match of the round uses it: the seatings of one
//! pairing replay the same deal with the seats moved (a *group*), and the whole field meets the
//! same deals, as in a duplicate Bridge event. The same base seed gives the same schedule.
//!
//! **Order.** Round-major; within a round the pairings are shuffled from the base seed so a
//! half-played schedule is spread over the field, and a group's matches are consecutive so
//! duplicate sets complete together. `ordinal` numbers the list from 0; ratings update in it.
//!
//! **Standings** (see [`standings`]): sorted by the metric, then mean score, then
//! entrant id; equal metrics share a position. Each row carries the 95% Student-t confidence
//! interval of the metric per game ([`Interval`]). Bridge IMPs come from the per-board
//! North-South scores of the two tables of a group and [`imps`], the WBF table embedded from
//! `data/imp_table.csv`.
//!
//! **Settings.** A competition's settings are one [`CompetitionSettings`]: validated once when
//! the competition is created, stored as JSON, read back as the same struct by the worker.
//!
//! # Example
//!
//! ```
//! use croupier_games::GameId;
//! use croupier_league::{EndState, MatchResult, ScheduleSpec, SeatOutcome};
//!
//! let bots = ["ann", "bob", "cyd", "dee"];
//! let plan = croupier_league::schedule(GameId::NO_THANKS, &ScheduleSpec::new("boardcoder", 2, 7), &bots)?;
//! assert_eq!(plan.len(), 4 * 3 * 2); // C(4,3) triples × 3 rotations × 2 rounds
//!
//! // The worker plays them; here seat 0 always wins.
//! let results: Vec<MatchResult<&str>> = plan.iter().map(|m| MatchResult {
//!     ordinal: m.ordinal,
//!     group: m.group,
//!     seats: m.seats.iter().enumerate().map(|(seat, bot)| SeatOutcome {
//!         entrant: *bot, score: seat as f64, rank: seat as u32 + 1, end_state: EndState::Ok,
//!     }).collect(),
//!     boards: vec![],
//! }).collect();
//!
//! let table = croupier_league::standings(GameId::NO_THANKS, &results);
//! assert_eq!(table[0].games, 18);
//! assert_eq!(table[0].rank_points, 6 * (4 + 2 + 1)); // every entrant sat in every seat
//! assert_eq!(table[0].position, 1);
//! assert!(table.iter().all(|row| row.position == 1)); // so all share first place
//! let rated = croupier_league::ratings(GameId::NO_THANKS, &results);
//! assert_eq!(rated.len(), 4);
//! # Ok::<(), croupier_league::LeagueError>(())
//! ```
mod ab;
mod bridge;
mod error;
mod fit;
mod history;
mod imp;
mod ladder;
mod ratings;
mod record;
mod results;
mod rounds;
mod schedule;
mod scheme;
mod seed;
mod settings;
pub mod sim;
mod standings;
mod stats;
#[cfg(test)]
mod testing;

pub use ab::{ab_test, AbConfig, AbReport, Verdict};
pub use bridge::{duplicate_sets, DuplicateSet};
pub use error::LeagueError;
pub use fit::{fitted, FitModel, FittedRanking, FittedRow};
pub use history::{history, HistoryPoint, HistoryStep, Outline};
pub use imp::imps;
pub use ladder::{next_groups, Contender, LadderPick, NextIds};
pub use ratings::{rated, ratings, Rating, Skill};
pub use record::{absorb, records, Record};
pub use results::{EndState, MatchResult, SeatOutcome, UnknownEndState};
pub use rounds::{
    next_round, plan_matches, swiss_rounds, Decide, NextRound, Plan, Progress, RoundStart,
    RoundsState,
};
pub use schedule::{
    match_count, matches_per_group, schedule, PlannedMatch, ScheduleSpec, MAX_MATCHES,
};
pub use scheme::{Format, RatingForm, Scheme, Scoring};
pub use seed::round_seed;
pub use settings::{
    formats, CompetitionSettings, LadderBudget, SettingsError, FINAL_TOP, LADDER_MATCHES_PER_HOUR,
    LADDER_PENDING, MAX_GAMES_PER_MATCH, MAX_MOVE_TIME_MS, MAX_ROUNDS, SEAT_CPU_MILLICORES,
    SEAT_DISK_MIB, SEAT_MEMORY_MIB,
};
pub use standings::{battle_score, rank_points, ranked, standings, Extra, Standing, Tally};
pub use stats::{normal_quantile, t_975, Interval, Moments};

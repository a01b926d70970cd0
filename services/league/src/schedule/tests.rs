use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;

use super::*;
use croupier_games::SettingsError;

fn entrants(n: u128) -> Vec<uuid::Uuid> {
    (1..=n).map(uuid::Uuid::from_u128).collect()
}

fn plan(game: GameId, n: u128, rounds: u32, seed: u64) -> Vec<PlannedMatch<uuid::Uuid>> {
    let rules = game.rule_sets().first().copied().unwrap_or_default();
    schedule(game, &ScheduleSpec::new(rules, rounds, seed), &entrants(n)).expect("schedules")
}

#[test]
fn match_counts_for_3_4_5_entrants_and_2_rounds_follow_the_documented_formulas() {
    // (game, [3, 4, 5 entrants]) with 2 rounds.
    let expected = [
        (GameId::NO_THANKS, [6, 24, 60]), // C(n,3) × 3 × 2
        (GameId::SPLENDOR, [6, 24, 60]),
        (GameId::GUANDAN, [12, 24, 40]), // C(n,2) × 2 × 2
        (GameId::BRIDGE, [12, 24, 40]),
        (GameId::HANABI, [6, 8, 10]), // self-play: n × 2
    ];
    for (game, counts) in expected {
        for (n, count) in [3, 4, 5].into_iter().zip(counts) {
            assert_eq!(plan(game, n, 2, 1).len(), count, "{game} with {n} entrants");
        }
    }
    let cross = ScheduleSpec::new("standard", 2, 1).with_format(Format::CrossPlay);
    for (n, count) in [(3, 12), (4, 24), (5, 40)] {
        let planned = schedule(GameId::HANABI, &cross, &entrants(n)).expect("cross-play");
        assert_eq!(planned.len(), count);
        assert_eq!(match_count(Format::CrossPlay, n as usize, 2), count as u128);
    }
}

#[test]
fn ordinals_count_up_from_zero_in_round_major_order() {
    let planned = plan(GameId::SPLENDOR, 5, 3, 9);
    for (i, m) in planned.iter().enumerate() {
        assert_eq!(m.ordinal as usize, i);
    }
    assert!(planned.windows(2).all(|w| w[0].round <= w[1].round));
    assert!(planned.windows(2).all(|w| w[0].group <= w[1].group));
}

#[test]
fn every_triple_appears_with_all_3_rotations_on_one_seed() {
    let planned = plan(GameId::NO_THANKS, 5, 2, 3);
    let mut groups: BTreeMap<u32, Vec<&PlannedMatch<uuid::Uuid>>> = BTreeMap::new();
    for m in &planned {
        groups.entry(m.group).or_default().push(m);
    }
    assert_eq!(groups.len(), 10 * 2);
    let mut triples_per_round: BTreeMap<u32, BTreeSet<Vec<uuid::Uuid>>> = BTreeMap::new();
    for matches in groups.values() {
        let [a, b, c] = matches.as_slice() else {
            panic!("a group of {} matches", matches.len())
        };
        assert!(a.seed == b.seed && b.seed == c.seed);
        let s = &a.seats;
        assert_eq!(b.seats, [s[1], s[2], s[0]]);
        assert_eq!(c.seats, [s[2], s[0], s[1]]);
        let mut triple = s.clone();
        triple.sort();
        triples_per_round.entry(a.round).or_default().insert(triple);
    }
    assert!(triples_per_round.values().all(|t| t.len() == 10));
}

#[test]
fn every_entrant_sits_in_every_seat_equally_often() {
    for game in GameId::all() {
        let planned = plan(game, 5, 2, 11);
        let mut seats: BTreeMap<(uuid::Uuid, usize), usize> = BTreeMap::new();
        for m in &planned {
            for (seat, e) in m.seats.iter().enumerate() {
                *seats.entry((*e, seat)).or_default() += 1;
            }
        }
        let counts: BTreeSet<usize> = seats.values().copied().collect();
        assert_eq!(counts.len(), 1, "{game}: {seats:?}");
        assert_eq!(seats.len(), 5 * game.default_seats());
    }
}

#[test]
fn team_pairs_seat_partners_opposite_and_swap_on_the_same_seed() {
    let planned = plan(GameId::GUANDAN, 2, 1, 5);
    let [first, second] = planned.as_slice() else {
        panic!("two tables")
    };
    let (a, b) = (first.seats[0], first.seats[1]);
    assert_eq!(first.seats, [a, b, a, b]);
    assert_eq!(second.seats, [b, a, b, a]);
    assert_eq!((first.seed, first.group), (second.seed, second.group));
}

#[test]
fn hanabi_self_play_fills_every_seat_with_one_entrant_on_seeds_shared_by_all() {
    let spec = ScheduleSpec::new("rainbow", 3, 8).with_settings(json!({ "players": 3 }));
    let planned = schedule(GameId::HANABI, &spec, &entrants(4)).expect("self-play");
    for m in &planned {
        assert_eq!(m.seats.len(), 3);
        assert!(m.seats.iter().all(|e| *e == m.seats[0]));
        assert_eq!(m.settings, json!({ "players": 3 }));
        assert_eq!(m.group, m.round);
    }
    let seeds: BTreeSet<(u32, u64)> = planned.iter().map(|m| (m.round, m.seed)).collect();
    assert_eq!(
        seeds.len(),
        3,
        "one seed per round, shared by every entrant"
    );
}

#[test]
fn hanabi_cross_play_alternates_two_entrants_round_the_table() {
    let spec = ScheduleSpec::new("standard", 1, 8).with_format(Format::CrossPlay);
    let planned = schedule(GameId::HANABI, &spec, &entrants(2)).expect("cross-play");
    let (a, b) = (planned[0].seats[0], planned[0].seats[1]);
    assert_eq!(planned[0].seats, [a, b, a, b]);
    assert_eq!(planned[1].seats, [b, a, b, a]);
    assert_eq!(
        planned[0].settings,
        Value::Null,
        "Hanabi's default table of 4"
    );
}

#[test]
fn schedules_are_deterministic_from_the_base_seed_and_differ_for_different_seeds() {
    for game in GameId::all() {
        assert_eq!(plan(game, 5, 2, 77), plan(game, 5, 2, 77));
        let (a, b) = (plan(game, 5, 2, 77), plan(game, 5, 2, 78));
        assert_ne!(a, b);
        assert!(a.iter().zip(&b).all(|(x, y)| x.seed != y.seed));
    }
}

#[test]
fn each_round_gets_a_new_seed_below_2_to_the_63() {
    let planned = plan(GameId::BRIDGE, 3, 4, u64::MAX);
    let seeds: BTreeSet<u64> = planned.iter().map(|m| m.seed).collect();
    assert_eq!(seeds.len(), 4);
    assert!(seeds.iter().all(|&s| i64::try_from(s).is_ok()));
}

#[test]
fn exactly_3_entrants_make_one_triple_per_round() {
    let planned = plan(GameId::SPLENDOR, 3, 1, 0);
    assert_eq!(planned.len(), 3);
    assert!(planned.iter().all(|m| m.group == 0));
}

#[test]
fn fewer_than_3_entrants_are_refused_for_triples() {
    let err = schedule(
        GameId::NO_THANKS,
        &ScheduleSpec::new("boardcoder", 1, 0),
        &entrants(2),
    );
    assert_eq!(
        err,
        Err(LeagueError::TooFewEntrants {
            format: Format::Triples,
            need: 3,
            got: 2
        })
    );
    let message = err.err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(message, "triples needs at least 3 entrants, not 2");
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    let ids = entrants(4);
    let nt = |spec: ScheduleSpec, ids: &[uuid::Uuid]| schedule(GameId::NO_THANKS, &spec, ids);
    let twice = [ids[0], ids[1], ids[0]];
    assert_eq!(
        nt(ScheduleSpec::new("boardcoder", 1, 0), &twice),
        Err(LeagueError::DuplicateEntrant {
            first: 0,
            second: 2
        })
    );
    assert_eq!(
        nt(ScheduleSpec::new("boardcoder", 0, 0), &ids),
        Err(LeagueError::NoRounds)
    );
    assert!(matches!(
        nt(ScheduleSpec::new("chess", 1, 0), &ids),
        Err(LeagueError::Settings(SettingsError::UnknownRules { .. }))
    ));
    assert!(matches!(
        nt(
            ScheduleSpec::new("standard", 1, 0).with_settings(json!({ "players": 5 })),
            &ids
        ),
        Err(LeagueError::Players { .. })
    ));
    assert!(matches!(
        nt(
            ScheduleSpec::new("standard", 1, 0).with_settings(json!({ "coins": 3 })),
            &ids
        ),
        Err(LeagueError::Settings(SettingsError::Invalid { .. }))
    ));
    assert!(matches!(
        nt(
            ScheduleSpec::new("boardcoder", 1, 0).with_format(Format::SelfPlay),
            &ids
        ),
        Err(LeagueError::FormatNotOffered { .. })
    ));
    assert!(matches!(
        schedule(GameId::BRIDGE, &ScheduleSpec::new("rubber", 1, 0), &ids),
        Err(LeagueError::Settings(SettingsError::UnknownRules { .. }))
    ));
    assert!(matches!(
        nt(ScheduleSpec::new("boardcoder", MAX_MATCHES, 0), &ids),
        Err(LeagueError::TooManyMatches { .. })
    ));
}

#[test]
fn a_spec_reads_from_competition_settings_with_defaults() {
    let spec: ScheduleSpec =
        serde_json::from_value(json!({ "rules": "standard", "base_seed": 5 })).expect("spec");
    assert_eq!(spec, ScheduleSpec::new("standard", 1, 5));
}

use std::collections::{BTreeMap, BTreeSet};

use croupier_games::GameId;

use super::*;
use crate::sim::{field, play_plan, simulate};
use crate::MatchResult;

fn spec(game: GameId) -> ScheduleSpec {
    let rules = game.rule_sets().first().copied().unwrap_or_default();
    ScheduleSpec::new(rules, 1, 11)
}

const START: RoundStart = RoundStart {
    round: 0,
    ordinal: 0,
    group: 0,
};

/// Each group's sorted members, by group number.
fn groups(matches: &[PlannedMatch<usize>]) -> BTreeMap<u32, BTreeSet<usize>> {
    let mut out: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::new();
    for m in matches {
        out.entry(m.group)
            .or_default()
            .extend(m.seats.iter().copied());
    }
    out
}

#[test]
fn a_swiss_round_seats_every_entrant_once_with_rotations_on_the_round_seed() {
    let entrants: Vec<usize> = (0..10).collect();
    let plan = Plan::Swiss { rounds: Some(4) };
    let start = RoundStart {
        round: 2,
        ordinal: 50,
        group: 20,
    };
    let next = next_round(
        GameId::SPLENDOR,
        &spec(GameId::SPLENDOR),
        &plan,
        &entrants,
        &[],
        start,
    )
    .expect("a round");
    assert_eq!(next.matches.len(), 3 * 3, "3 triples × 3 rotations");
    assert_eq!(next.byes.len(), 1, "10 mod 3");
    let seated: BTreeSet<usize> = next.matches.iter().flat_map(|m| m.seats.clone()).collect();
    assert_eq!(seated.len(), 9);
    assert!(!seated.contains(&next.byes[0]));
    for (k, m) in next.matches.iter().enumerate() {
        assert_eq!(m.ordinal, 50 + k as u32);
        assert_eq!((m.round, m.seed), (2, crate::round_seed(11, 2)));
        assert_eq!(m.group, 20 + k as u32 / 3);
    }
    for trio in next.matches.chunks(3) {
        let s = &trio[0].seats;
        assert_eq!(trio[1].seats, [s[1], s[2], s[0]]);
        assert_eq!(trio[2].seats, [s[2], s[0], s[1]]);
    }
    assert_eq!(next.progress.rounds, Some(4));
    assert!(!next.progress.finished);
}

#[test]
fn swiss_avoids_repeated_groups_rotates_byes_and_stops_after_its_rounds() {
    let strengths = field(10, 1.0, 3);
    let plan = Plan::Swiss { rounds: Some(10) };
    let played = play_plan(
        GameId::NO_THANKS,
        &spec(GameId::NO_THANKS),
        &plan,
        &strengths,
        1,
    )
    .expect("played");
    assert_eq!(played.rounds, 10);
    assert!(played.progress.finished);
    assert_eq!(played.results.len(), 10 * 3 * 3);
    let planned: Vec<PlannedMatch<usize>> = played
        .results
        .iter()
        .map(|r| PlannedMatch {
            ordinal: r.ordinal,
            round: 0,
            group: r.group,
            seed: 0,
            seats: r.seats.iter().map(|s| s.entrant).collect(),
            settings: serde_json::Value::Null,
        })
        .collect();
    let all = groups(&planned);
    let distinct: BTreeSet<&BTreeSet<usize>> = all.values().collect();
    assert_eq!(
        distinct.len(),
        all.len(),
        "no triple twice in 10 rounds of 10"
    );
    // One bye a round, and the fewest-byes rule gives each of the 10 entrants exactly one.
    let mut played_groups = [0; 10];
    for members in all.values() {
        for &e in members {
            played_groups[e] += 1;
        }
    }
    assert_eq!(played_groups, [9; 10]);
}

#[test]
fn later_swiss_rounds_group_entrants_of_similar_standing() {
    let strengths: Vec<f64> = (0..30).map(|i| 3.0 - 0.2 * f64::from(i)).collect();
    let plan = Plan::Swiss { rounds: Some(6) };
    let entrants: Vec<usize> = (0..30).collect();
    let spec = spec(GameId::SPLENDOR);
    let mut results: Vec<MatchResult<usize>> = Vec::new();
    let mut start = START;
    let mut spans = Vec::new();
    while let Some(next) =
        Some(next_round(GameId::SPLENDOR, &spec, &plan, &entrants, &results, start).expect("round"))
            .filter(|n| !n.matches.is_empty())
    {
        let span: usize = groups(&next.matches)
            .values()
            .map(|g| g.iter().max().unwrap_or(&0) - g.iter().min().unwrap_or(&0))
            .sum();
        spans.push(span as f64 / 10.0);
        results.extend(simulate(
            GameId::SPLENDOR,
            &next.matches,
            |&e| strengths[e],
            7,
        ));
        start = RoundStart {
            round: start.round + 1,
            ordinal: start.ordinal + next.matches.len() as u32,
            group: start.group + 10,
        };
    }
    assert_eq!(spans.len(), 6);
    // The first round is drawn at random (a triple of 30 spans about 15 places on average);
    // once strengths are known, a triple spans a few places of the true order.
    assert!(spans[0] > 12.0, "{spans:?}");
    assert!(spans[2..].iter().all(|&s| s < 10.0), "{spans:?}");
}

#[test]
fn the_default_number_of_swiss_rounds_grows_with_the_field() {
    assert_eq!(
        swiss_rounds(Format::Triples, 3),
        1,
        "one triple: the round-robin itself"
    );
    assert_eq!(swiss_rounds(Format::Triples, 50), 32);
    assert_eq!(
        swiss_rounds(Format::TeamPairs, 50),
        24,
        "half of 49 round-robin rounds"
    );
    assert_eq!(swiss_rounds(Format::Triples, 200), 40);
    assert_eq!(swiss_rounds(Format::TeamPairs, 200), 56);
    assert!(swiss_rounds(Format::Triples, 1000) > swiss_rounds(Format::Triples, 200));
    let next = next_round(
        GameId::GUANDAN,
        &spec(GameId::GUANDAN),
        &Plan::Swiss { rounds: None },
        &(0..200).collect::<Vec<usize>>(),
        &[],
        START,
    )
    .expect("a round");
    assert_eq!(next.progress.rounds, Some(56));
    assert_eq!(next.matches.len(), 100 * 2);
}

#[test]
fn adaptive_ranking_decides_a_spread_field_and_keeps_to_its_budget() {
    let strengths: Vec<f64> = (0..8).map(|i| 4.0 - 1.2 * f64::from(i)).collect();
    let spec = spec(GameId::GUANDAN);
    let plan = Plan::Adaptive {
        budget: 4000,
        decide: Decide::Order,
    };
    let played = play_plan(GameId::GUANDAN, &spec, &plan, &strengths, 5).expect("played");
    assert!(
        played.progress.decided && played.progress.finished,
        "{:?}",
        played.progress
    );
    assert!(played.progress.ties.is_empty());
    assert!(played.results.len() <= 4000);
    let ranking = crate::fitted(GameId::GUANDAN, &played.results);
    let order: Vec<usize> = ranking.rows.iter().map(|r| r.entrant).collect();
    assert_eq!(order, (0..8).collect::<Vec<_>>());
    assert!(ranking.rows[..7].iter().all(|r| r.ahead_of_next));

    // A budget too small to decide stops at the budget and says which places are ties.
    let tight = Plan::Adaptive {
        budget: 40,
        decide: Decide::Order,
    };
    let played = play_plan(GameId::GUANDAN, &spec, &tight, &strengths, 5).expect("played");
    assert!(played.results.len() <= 40 && played.results.len() > 30);
    assert!(played.progress.finished && !played.progress.decided);
    assert!(!played.progress.ties.is_empty());
}

#[test]
fn adaptive_top_k_stops_once_the_top_is_decided_and_spends_on_it() {
    // A clear top three over a field drawn from Normal(0, 0.5²).
    let mut strengths = field(60, 0.5, 9);
    strengths[..3].copy_from_slice(&[4.0, 3.0, 2.0]);
    let spec = spec(GameId::SPLENDOR);
    let plan = Plan::Adaptive {
        budget: 30_000,
        decide: Decide::Top(3),
    };
    let played = play_plan(GameId::SPLENDOR, &spec, &plan, &strengths, 2).expect("played");
    assert!(played.progress.decided, "{:?}", played.progress);
    assert!(
        played.results.len() < 3000,
        "{} matches",
        played.results.len()
    );
    let ranking = crate::fitted(GameId::SPLENDOR, &played.results);
    assert!(
        ranking.rows[2].ahead_of_next,
        "the top three are apart from the rest"
    );
    let estimate: Vec<f64> = {
        let mut v = vec![0.0; 60];
        for r in &ranking.rows {
            v[r.entrant] = r.strength;
        }
        v
    };
    assert_eq!(crate::sim::top_k_found(&strengths, &estimate, 3), 3);
    // The top three played more than the median entrant.
    let mut games: Vec<u32> = ranking.rows.iter().map(|r| r.games).collect();
    let top_games = games[..3].iter().min().copied().unwrap_or(0);
    games.sort_unstable();
    assert!(top_games > games[30], "{top_games} vs median {}", games[30]);
}

#[test]
fn bad_plans_are_refused_with_a_reason() {
    let entrants: Vec<usize> = (0..6).collect();
    let ask = |plan: Plan, entrants: &[usize]| {
        next_round(
            GameId::NO_THANKS,
            &spec(GameId::NO_THANKS),
            &plan,
            entrants,
            &[],
            START,
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    };
    let tiny = Plan::Adaptive {
        budget: 2,
        decide: Decide::Top(1),
    };
    assert_eq!(
        ask(tiny, &entrants).unwrap_err(),
        "a match budget of 2 is less than one group (3 matches)"
    );
    let none = Plan::Swiss { rounds: Some(0) };
    assert!(ask(none, &entrants)
        .unwrap_err()
        .contains("1 to 1000 rounds"));
    let swiss = Plan::Swiss { rounds: Some(3) };
    assert!(ask(swiss, &[1, 2, 1]).unwrap_err().contains("same"));
    assert!(ask(swiss, &[1, 2]).unwrap_err().contains("at least 3"));
}

#[test]
fn plans_read_from_json() {
    let swiss: Plan = serde_json::from_str(r#"{"kind": "swiss"}"#).expect("swiss");
    assert_eq!(swiss, Plan::Swiss { rounds: None });
    let top: Plan =
        serde_json::from_str(r#"{"kind": "adaptive", "budget": 900, "decide": {"top": 10}}"#)
            .expect("top");
    assert_eq!(
        top,
        Plan::Adaptive {
            budget: 900,
            decide: Decide::Top(10)
        }
    );
    let order: Plan =
        serde_json::from_str(r#"{"kind": "adaptive", "budget": 900, "decide": "order"}"#)
            .expect("order");
    assert!(matches!(
        order,
        Plan::Adaptive {
            decide: Decide::Order,
            ..
        }
    ));
}

#[test]
fn a_plan_counts_its_matches_before_anything_is_played() {
    use crate::{plan_matches, swiss_rounds, Format};
    let swiss = Plan::Swiss { rounds: Some(5) };
    // 200 entrants in triples: 66 groups a round (2 byes), 3 rotations each.
    assert_eq!(plan_matches(Format::Triples, &swiss, 200), 5 * 66 * 3);
    // Pairs: 100 groups, 2 seatings.
    assert_eq!(plan_matches(Format::TeamPairs, &swiss, 200), 5 * 100 * 2);
    let chosen = Plan::Swiss { rounds: None };
    let rounds = u64::from(swiss_rounds(Format::Triples, 200));
    assert_eq!(plan_matches(Format::Triples, &chosen, 200), rounds * 66 * 3);
    let adaptive = Plan::Adaptive {
        budget: 4000,
        decide: Decide::Top(10),
    };
    assert_eq!(plan_matches(Format::Triples, &adaptive, 200), 4000);
}

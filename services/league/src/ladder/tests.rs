use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;

use super::*;
use crate::Format;

const NEXT: NextIds = NextIds {
    ordinal: 100,
    group: 40,
    seed_base: 7,
};

fn spec(game: GameId) -> ScheduleSpec {
    let rules = game.rule_sets().first().copied().unwrap_or_default();
    ScheduleSpec::new(rules, 1, 0)
}

/// Entrant `id` with rating μ, σ and `played` groups finished, none pending.
fn rated(id: u32, mu: f64, sigma: f64, played: u32) -> Contender<u32> {
    Contender {
        mu,
        sigma,
        played,
        ..Contender::new(id)
    }
}

/// `n` settled entrants 1..=n with μ 20 + id, σ 2 and 50 groups played.
fn settled(n: u32) -> Vec<Contender<u32>> {
    (1..=n)
        .map(|id| rated(id, 20.0 + f64::from(id), 2.0, 50))
        .collect()
}

fn pick(
    game: GameId,
    field: &[Contender<u32>],
    want: usize,
    next: NextIds,
) -> Vec<PlannedMatch<u32>> {
    let pick = LadderPick::default();
    next_groups(game, &spec(game), &pick, field, want, next).expect("next groups")
}

/// The matches of each group, by group number.
fn groups(plan: &[PlannedMatch<u32>]) -> BTreeMap<u32, Vec<&PlannedMatch<u32>>> {
    let mut groups: BTreeMap<u32, Vec<&PlannedMatch<u32>>> = BTreeMap::new();
    for m in plan {
        groups.entry(m.group).or_default().push(m);
    }
    groups
}

/// The distinct entrants of a group.
fn members(group: &[&PlannedMatch<u32>]) -> BTreeSet<u32> {
    group.iter().flat_map(|m| m.seats.iter().copied()).collect()
}

#[test]
fn a_newcomer_starts_at_the_weng_lin_start_with_nothing_played() {
    let fresh = Contender::new(3_u32);
    assert_eq!((fresh.mu, fresh.sigma), (25.0, 25.0 / 3.0));
    assert_eq!((fresh.entrant, fresh.played, fresh.pending), (3, 0, 0));
}

#[test]
fn placing_entrants_anchor_first_fewest_first_until_capped() {
    // Guandan pairs. 7 (1 played) and 8 (3 played) are placing; 1–4 are settled near μ 25,
    // surer than a newcomer, so a newcomer is never among another anchor's 3 best matches.
    let mut field: Vec<_> = (1..=4).map(|id| rated(id, 25.0, 2.0, 50)).collect();
    field.push(rated(7, 25.0, 25.0 / 3.0, 1));
    field.push(rated(8, 25.0, 25.0 / 3.0, 3));
    let plan = pick(GameId::GUANDAN, &field, 4, NEXT);
    let groups: Vec<BTreeSet<u32>> = groups(&plan).values().map(|g| members(g)).collect();
    assert_eq!(groups.len(), 4);
    // 7 anchors until it has 2 pending (the cap), then 8.
    let with = |id: u32| -> Vec<bool> { groups.iter().map(|g| g.contains(&id)).collect() };
    assert_eq!(with(7), [true, true, false, false], "{groups:?}");
    assert_eq!(with(8), [false, false, true, true], "{groups:?}");

    // Placing beats a higher σ: 9 is sure of itself and far from everyone, 1 is unsure.
    let mut field = settled(6);
    field[0].sigma = 7.0;
    field.push(rated(9, 80.0, 1.5, 4));
    let plan = pick(GameId::GUANDAN, &field, 1, NEXT);
    assert!(plan.iter().all(|m| m.seats.contains(&9)), "{plan:?}");
}

#[test]
fn once_placed_the_highest_sigma_anchors_then_the_fewest_played() {
    // No Thanks triples: 9 is unsure and far from everyone's μ, so it is nobody's near
    // opponent; it can only appear as the anchor.
    let mut field = settled(6);
    field.push(rated(9, 45.0, 6.0, 60)); // more played than the others
    let plan = pick(GameId::NO_THANKS, &field, 1, NEXT);
    assert_eq!(plan.len(), 3);
    assert!(plan.iter().all(|m| m.seats.contains(&9)), "{plan:?}");

    // Equal σ: fewer played + pending anchors first.
    let mut field = settled(6);
    field.push(rated(9, 45.0, 2.0, 20));
    field.push(Contender {
        pending: 1,
        ..rated(10, 0.0, 2.0, 18)
    });
    let plan = pick(GameId::NO_THANKS, &field, 1, NEXT);
    assert!(plan.iter().all(|m| m.seats.contains(&10)), "{plan:?}");
}

#[test]
fn opponents_are_the_nearest_in_mu_and_vary_with_the_seed() {
    // Anchor 1 (highest σ) at μ 30; with spread 2 its opponent is one of the 3 nearest.
    let mut field = vec![rated(1, 30.0, 5.0, 40)];
    for (id, mu) in [
        (2, 10.0),
        (3, 12.0),
        (4, 29.0),
        (5, 31.0),
        (6, 32.5),
        (7, 50.0),
    ] {
        field.push(rated(id, mu, 2.0, 40));
    }
    let (mut seen, mut first_north_south) = (BTreeSet::new(), BTreeSet::new());
    for seed_base in 0..40 {
        let next = NextIds { seed_base, ..NEXT };
        let plan = pick(GameId::BRIDGE, &field, 1, next);
        let group = members(&plan.iter().collect::<Vec<_>>());
        assert!(group.contains(&1));
        seen.extend(group.into_iter().filter(|&e| e != 1));
        first_north_south.insert(plan[0].seats[0] == 1);
    }
    assert_eq!(seen, BTreeSet::from([4, 5, 6]));
    // Who sits first (table 1 North-South) varies too.
    assert_eq!(first_north_south, BTreeSet::from([false, true]));
}

#[test]
fn groups_use_each_games_native_format_and_seat_rotation() {
    let field = settled(5);
    for game in [GameId::NO_THANKS, GameId::SPLENDOR] {
        let plan = pick(game, &field, 2, NEXT);
        assert_eq!(plan.len(), 6, "{game}");
        for group in groups(&plan).values() {
            let [a, b, c] = group.as_slice() else {
                panic!("{game}: a group of {}", group.len())
            };
            let s = &a.seats;
            assert_eq!(s.len(), 3);
            assert_eq!(b.seats, [s[1], s[2], s[0]], "{game}");
            assert_eq!(c.seats, [s[2], s[0], s[1]], "{game}");
        }
    }
    // Guandan: A in seats 0+2, then B; Bridge: table 1 A North-South, table 2 A East-West.
    for game in [GameId::GUANDAN, GameId::BRIDGE] {
        let plan = pick(game, &field, 2, NEXT);
        assert_eq!(plan.len(), 4, "{game}");
        for group in groups(&plan).values() {
            let [one, two] = group.as_slice() else {
                panic!("{game}: a group of {}", group.len())
            };
            let (a, b) = (one.seats[0], one.seats[1]);
            assert_ne!(a, b);
            assert_eq!(one.seats, [a, b, a, b], "{game}");
            assert_eq!(two.seats, [b, a, b, a], "{game}");
        }
    }
    // Hanabi self-play: one match, the anchor in every seat; cross-play: A-B-A-B, B-A-B-A.
    let plan = pick(GameId::HANABI, &field, 2, NEXT);
    assert_eq!(plan.len(), 2);
    for m in &plan {
        assert_eq!(m.seats.len(), GameId::HANABI.default_seats());
        assert!(m.seats.iter().all(|&e| e == m.seats[0]));
    }
    let cross = spec(GameId::HANABI)
        .with_format(Format::CrossPlay)
        .with_settings(json!({"players": 3}));
    let pick_default = LadderPick::default();
    let plan = next_groups(GameId::HANABI, &cross, &pick_default, &field, 1, NEXT).expect("cross");
    let [one, two] = plan.as_slice() else {
        panic!("a cross-play group of {}", plan.len())
    };
    let (a, b) = (one.seats[0], one.seats[1]);
    assert_eq!(one.seats, [a, b, a]);
    assert_eq!(two.seats, [b, a, b]);
    assert_eq!(one.settings, json!({"players": 3}));
}

#[test]
fn ordinals_groups_and_seeds_continue_from_next() {
    let plan = pick(GameId::SPLENDOR, &settled(6), 3, NEXT);
    let ordinals: Vec<u32> = plan.iter().map(|m| m.ordinal).collect();
    assert_eq!(ordinals, (100..109).collect::<Vec<_>>());
    for (i, m) in plan.iter().enumerate() {
        let group = 40 + i as u32 / 3;
        assert_eq!((m.group, m.round), (group, group));
        assert_eq!(m.seed, round_seed(7, group));
        assert!(m.seed < 1 << 63);
    }
    let seeds: BTreeSet<u64> = plan.iter().map(|m| m.seed).collect();
    assert_eq!(seeds.len(), 3, "each group gets a fresh seed");
}

#[test]
fn the_same_inputs_give_the_same_groups() {
    let field = settled(8);
    for game in GameId::all() {
        assert_eq!(
            pick(game, &field, 4, NEXT),
            pick(game, &field, 4, NEXT),
            "{game}"
        );
    }
    let other = NextIds {
        seed_base: 8,
        ..NEXT
    };
    assert_ne!(
        pick(GameId::NO_THANKS, &field, 4, NEXT),
        pick(GameId::NO_THANKS, &field, 4, other)
    );
}

#[test]
fn too_few_entrants_give_no_groups() {
    assert!(pick(GameId::NO_THANKS, &settled(2), 3, NEXT).is_empty());
    assert!(pick(GameId::GUANDAN, &settled(1), 3, NEXT).is_empty());
    assert!(pick(GameId::HANABI, &[], 3, NEXT).is_empty());
    assert_eq!(pick(GameId::NO_THANKS, &settled(3), 1, NEXT).len(), 3);
    assert!(pick(GameId::NO_THANKS, &settled(3), 0, NEXT).is_empty());
}

#[test]
fn no_entrant_appears_twice_in_a_group() {
    for game in [GameId::NO_THANKS, GameId::GUANDAN, GameId::BRIDGE] {
        let size = if game == GameId::NO_THANKS { 3 } else { 2 };
        for n in 3..9 {
            let field: Vec<_> = (1..=n)
                .map(|id| {
                    rated(
                        id,
                        25.0 + f64::from(id % 3),
                        1.0 + f64::from(id % 4),
                        id % 7,
                    )
                })
                .collect();
            for seed_base in 0..10 {
                let next = NextIds { seed_base, ..NEXT };
                for group in groups(&pick(game, &field, 20, next)).values() {
                    assert_eq!(members(group).len(), size, "{game} {group:?}");
                }
            }
        }
    }
}

#[test]
fn the_pending_cap_holds_while_picking_greedily() {
    let mut field = settled(7);
    field[0].pending = 2; // at the cap already: waits
    field[1].pending = 1;
    let plan = pick(GameId::NO_THANKS, &field, 100, NEXT);
    let mut pending: BTreeMap<u32, u32> = field.iter().map(|c| (c.entrant, c.pending)).collect();
    for group in groups(&plan).values() {
        for e in members(group) {
            *pending.entry(e).or_default() += 1;
        }
    }
    assert!(!plan.iter().any(|m| m.seats.contains(&1)));
    assert!(pending.values().all(|&p| p <= 2), "{pending:?}");
    // 7 entrants with 11 free slots between them fill at most 3 triples.
    assert_eq!(groups(&plan).len(), 3);
}

#[test]
fn a_refused_format_or_a_repeated_entrant_is_an_error() {
    let selfplay = spec(GameId::SPLENDOR).with_format(Format::SelfPlay);
    let pick = LadderPick::default();
    let field = settled(4);
    assert!(matches!(
        next_groups(GameId::SPLENDOR, &selfplay, &pick, &field, 1, NEXT),
        Err(LeagueError::FormatNotOffered { .. })
    ));
    let twice = [settled(3), settled(1)].concat();
    assert_eq!(
        next_groups(
            GameId::SPLENDOR,
            &spec(GameId::SPLENDOR),
            &pick,
            &twice,
            1,
            NEXT
        ),
        Err(LeagueError::DuplicateEntrant {
            first: 0,
            second: 3
        })
    );
}

//! Tribute cases (double, anti with one joker each, 1st+4th partners), level advances, the
//! draw after too many drops, and random play over many deals.

use std::time::Instant;

use super::cards;
use crate::guandan::action::Action;
use crate::guandan::action::Kind;
use crate::guandan::state::Stage;
use crate::guandan::{AWin, Event, Guandan, SameTeamTribute, Settings};
use crate::{Game, GameRng, Seat, Stream, Turn};
use serde_json::json;

fn table(settings: Settings, hands: [&str; 4], level: u8) -> Guandan {
    Guandan::from_hands(
        settings,
        hands.iter().map(|h| cards(h)).collect(),
        level,
        Seat(0),
    )
}

fn order(seats: [usize; 4]) -> Vec<Seat> {
    seats.map(Seat).to_vec()
}

#[test]
fn double_tribute_gives_the_higher_card_to_the_first_and_each_receiver_returns_to_its_payer() {
    let hands = ["S3 S4", "S5 SK", "S6 S7", "S8 SA"];
    let mut g = table(Settings::platform(), hands, 2);
    let mut events = Vec::new();
    // Seats 0 and 2 finished 1st and 2nd: seats 3 (last) and 1 (third) both pay.
    g.start_tribute(&order([0, 2, 1, 3]), &mut events);
    assert_eq!(
        g.turn(),
        Turn::Seat(Seat(3)),
        "the last finisher pays first"
    );
    g.apply(Seat(3), Action::Tribute("SA".parse().unwrap()))
        .unwrap();
    assert_eq!(g.turn(), Turn::Seat(Seat(1)));
    let events = g
        .apply(Seat(1), Action::Tribute("SK".parse().unwrap()))
        .unwrap();
    let paid = events.iter().find_map(|e| match e {
        Event::Tribute { result } => Some(result.clone()),
        _ => None,
    });
    let (a, k) = ("SA".parse().unwrap(), "SK".parse().unwrap());
    assert_eq!(
        paid,
        Some(vec![(Seat(3), Seat(0), a), (Seat(1), Seat(2), k)])
    );
    // Returns: seat 0 to seat 3, seat 2 to seat 1; then the higher payer (seat 3) leads.
    assert_eq!(g.turn(), Turn::Seat(Seat(0)));
    g.apply(Seat(0), Action::Back("S3".parse().unwrap()))
        .unwrap();
    assert_eq!(g.turn(), Turn::Seat(Seat(2)));
    g.apply(Seat(2), Action::Back("S6".parse().unwrap()))
        .unwrap();
    assert_eq!(g.hand(Seat(3)), cards("S3 S8").as_slice());
    assert_eq!(g.hand(Seat(1)), cards("S5 S6").as_slice());
    assert_eq!(g.hand(Seat(2)), cards("S7 SK").as_slice());
    assert_eq!(g.stage, Stage::Play);
    assert_eq!(g.turn(), Turn::Seat(Seat(3)));
    assert!(!g.legal_actions(Seat(3)).contains(&Action::Pass));
}

#[test]
fn a_big_joker_in_each_payers_hand_is_anti_tribute_by_both_and_the_first_leads() {
    let hands = ["S3", "HR S4", "S7", "HR S5"];
    let mut g = table(Settings::platform(), hands, 2);
    let mut events = Vec::new();
    g.start_tribute(&order([2, 0, 3, 1]), &mut events);
    assert_eq!(
        events,
        vec![Event::AntiTribute {
            anti_pos: vec![Seat(1), Seat(3)]
        }]
    );
    assert_eq!(g.stage, Stage::Play);
    assert_eq!(g.turn(), Turn::Seat(Seat(2)));
    // One big joker with a single payer is not enough.
    let mut g = table(Settings::platform(), ["S3", "HR S4", "S7", "S5"], 2);
    let mut events = Vec::new();
    g.start_tribute(&order([0, 3, 2, 1]), &mut events);
    assert!(events.is_empty());
    assert_eq!(g.turn(), Turn::Seat(Seat(1)), "seat 1, last, pays");
}

#[test]
fn partners_first_and_last_pay_by_default_or_not_at_all_when_chosen() {
    let hands = ["S3 S4", "S5 S6", "S7 SA", "S8 S9"];
    let mut g = table(Settings::platform(), hands, 2);
    let mut events = Vec::new();
    g.start_tribute(&order([0, 1, 3, 2]), &mut events);
    assert_eq!(
        g.turn(),
        Turn::Seat(Seat(2)),
        "tribute_from_last: the partner pays"
    );
    g.apply(Seat(2), Action::Tribute("SA".parse().unwrap()))
        .unwrap();
    assert_eq!(g.turn(), Turn::Seat(Seat(0)));

    let settings = Settings {
        same_team_tribute: SameTeamTribute::NoTribute,
        ..Settings::platform()
    };
    let mut g = table(settings, hands, 2);
    let mut events = Vec::new();
    g.start_tribute(&order([0, 1, 3, 2]), &mut events);
    assert_eq!(g.stage, Stage::Play);
    assert_eq!(
        g.turn(),
        Turn::Seat(Seat(0)),
        "no tribute: the first finisher leads"
    );
}

#[test]
fn the_winners_advance_two_with_the_partner_third_and_one_with_the_partner_last() {
    // Seat 0 out first, seat 1 second, seat 2 third: partner third, +2.
    let mut g = table(Settings::platform(), ["S3", "S6", "S7", "S8 S9"], 12);
    g.apply(Seat(0), super::action(json!(["Single", "3", ["S3"]])))
        .unwrap();
    g.apply(Seat(1), super::action(json!(["Single", "6", ["S6"]])))
        .unwrap();
    g.apply(Seat(2), super::action(json!(["Single", "7", ["S7"]])))
        .unwrap();
    assert_eq!(g.levels(), [14, 12], "Q + 2 = A");
    // Seat 0 out first, then seats 1 and 3: partner last, +1, capped at A.
    let mut g = table(Settings::platform(), ["S3", "S6", "S7 S8", "S9"], 14);
    g.levels = [13, 14];
    g.apply(Seat(0), super::action(json!(["Single", "3", ["S3"]])))
        .unwrap();
    g.apply(Seat(1), super::action(json!(["Single", "6", ["S6"]])))
        .unwrap();
    g.apply(Seat(2), Action::Pass).unwrap();
    g.apply(Seat(3), super::action(json!(["Single", "9", ["S9"]])))
        .unwrap();
    assert_eq!(g.levels()[0], 14);
    assert_eq!(
        g.level(),
        14,
        "the next deal is played at the winners' level"
    );
}

#[test]
fn the_game_is_a_draw_after_the_last_allowed_drop() {
    let settings = Settings {
        max_drops: 1,
        ..Settings::platform()
    };
    let mut g = table(settings, ["S3", "S6", "S7 S8", "S9"], 14);
    g.a_fails = [1, 0];
    g.apply(Seat(0), super::action(json!(["Single", "3", ["S3"]])))
        .unwrap();
    g.apply(Seat(1), super::action(json!(["Single", "6", ["S6"]])))
        .unwrap();
    g.apply(Seat(2), Action::Pass).unwrap();
    let events = g
        .apply(Seat(3), super::action(json!(["Single", "9", ["S9"]])))
        .unwrap();
    assert!(events.contains(&Event::GameOver { winner: None }));
    assert_eq!(g.turn(), Turn::Over);
    let scores: Vec<i64> = g.outcome().unwrap().seats.iter().map(|s| s.score).collect();
    assert_eq!(scores, [0, 0, 0, 0]);
}

#[test]
fn a_win_may_be_chosen_to_accept_the_partner_third() {
    let finish = |a_win: AWin| {
        let settings = Settings {
            a_win,
            ..Settings::platform()
        };
        let mut g = table(settings, ["S3", "S6", "S7", "S8 S9"], 14);
        g.levels = [14, 13];
        g.apply(Seat(0), super::action(json!(["Single", "3", ["S3"]])))
            .unwrap();
        g.apply(Seat(1), super::action(json!(["Single", "6", ["S6"]])))
            .unwrap();
        g.apply(Seat(2), super::action(json!(["Single", "7", ["S7"]])))
            .unwrap();
        g
    };
    let platform = finish(AWin::FirstSecond);
    assert!(
        platform.outcome().is_none(),
        "1st and 3rd is not enough on the platform"
    );
    assert_eq!(platform.a_fails, [1, 0]);
    let rules_2017 = finish(AWin::FirstSecondOrThird);
    let scores: Vec<i64> = rules_2017
        .outcome()
        .unwrap()
        .seats
        .iter()
        .map(|s| s.score)
        .collect();
    assert_eq!(scores, [1, 0, 1, 0]);
}

#[test]
fn max_bomb_caps_the_bombs_two_wilds_can_make() {
    let hand = "S5 S5 H5 H5 C5 C5 D5 D5 H2 H2";
    let largest = |max_bomb: u8| {
        let settings = Settings {
            max_bomb,
            ..Settings::platform()
        };
        let g = table(settings, [hand, "SA", "SK", "SQ"], 2);
        g.legal_actions(Seat(0))
            .iter()
            .filter_map(|a| match a {
                Action::Play(p) if p.kind == Kind::Bomb => Some(p.cards.len()),
                _ => None,
            })
            .max()
    };
    assert_eq!(largest(10), Some(10));
    assert_eq!(largest(8), Some(8));
}

/// Random play over many deals: every listed action is accepted by `apply` (one random
/// listed action per position is applied on a clone), nothing panics, and every game ends.
/// The move played is a random listed one, half the time among those shedding the most cards
/// (so deals end sooner and more of them fit in the time).
#[test]
fn random_play_over_many_deals_never_panics_and_always_ends() {
    let t0 = Instant::now();
    let (mut deals, mut games, mut moves) = (0_u32, 0, 0_u64);
    let mut seed = 100;
    while deals < 800 {
        let mut game = Guandan::new(Settings::platform(), seed).unwrap();
        let mut rng = GameRng::derive(seed, Stream::Testing);
        let mut steps = 0;
        while let Turn::Seat(seat) = game.turn() {
            let legal = game.legal_actions(seat);
            assert!(!legal.is_empty());
            let probe = rng.choose(&legal).unwrap().clone();
            game.clone().apply(seat, probe).unwrap();
            let size = |a: &Action| match a {
                Action::Play(p) => p.cards.len(),
                _ => 0,
            };
            let most = legal.iter().map(size).max().unwrap_or(0);
            let biggest: Vec<&Action> = legal.iter().filter(|a| size(a) == most).collect();
            let chosen = if rng.below(2) == 0 {
                (*rng.choose(&biggest).unwrap()).clone()
            } else {
                rng.choose(&legal).unwrap().clone()
            };
            let events = game.apply(seat, chosen).unwrap();
            deals += events
                .iter()
                .filter(|e| matches!(e, Event::DealOver { .. }))
                .count() as u32;
            steps += 1;
            assert!(steps < 200_000, "seed {seed} does not end");
        }
        assert!(game.outcome().is_some());
        moves += steps;
        games += 1;
        seed += 1;
    }
    eprintln!(
        "{games} games, {deals} deals, {moves} moves in {:?}",
        t0.elapsed()
    );
}

//! A bot that crashes on every call never outranks one that plays: in every game, a real
//! sandboxed process that exits 1 whenever it is started plays against each built-in and
//! ranks last in every game of the match (docs/fair-play.md).

mod common;

use common::*;
use croupier_games::bots::names;
use croupier_games::{new_game, GameId, Seat};
use croupier_referee::{MatchResult, SeatSpec};
use croupier_sandbox::EndState;
use serde_json::Value;

/// Exits 1 at once, every time it is started (one process per match or per move).
const CRASH: &str = "import sys\nsys.exit(1)\n";

/// The crashing seats of each game: one seat of three, or a whole partnership.
fn crash_seats(game: GameId, seats: usize) -> Vec<usize> {
    if game == GameId::GUANDAN || game == GameId::BRIDGE {
        vec![0, 2]
    } else if game == GameId::HANABI {
        vec![0]
    } else {
        (0..seats).filter(|s| s % 2 == 0).collect()
    }
}

/// Plays `game` with the crashing bot against `builtin` and checks the ranks.
async fn crash_against(game: GameId, builtin: &str) -> MatchResult {
    let (sb, _) = sandbox().await;
    let rules = game.rule_sets()[0];
    let seats = new_game(game, rules, &Value::Null, 0).unwrap().seats();
    let crashing = crash_seats(game, seats);
    let mut bots = Bots::default();
    let specs = (0..seats)
        .map(|s| match crashing.contains(&s) {
            true => bots.script(&format!("crash-{s}"), CRASH),
            false => SeatSpec::builtin(builtin),
        })
        .collect();
    let mut spec = croupier_referee::MatchSpec::new(game, 7, specs);
    spec.limits = quick_limits();
    let result = play(&sb, spec).await.expect("a crash is a result");
    let about = format!("{game} crash vs {builtin}\n{}", describe(&result));
    assert_consistent(&result);
    let worst = (result.seats.iter().map(|s| s.rank).max()).unwrap();
    for seat in &result.seats {
        let crashed = crashing.contains(&seat.seat.index());
        if crashed {
            assert!(
                matches!(seat.end_state, EndState::Crashed { .. }),
                "{about}"
            );
            assert_eq!(seat.rank, worst, "a crashing seat ranks last: {about}");
            assert!(result.outcome.is_idle(seat.seat), "{about}");
            if game == GameId::HANABI {
                assert_eq!(seat.score, 0, "an idle Hanabi seat scores nothing: {about}");
            }
        } else {
            assert_eq!(seat.rank, 1, "the built-in ranks first: {about}");
        }
    }
    assert!(
        worst > 1,
        "nobody ranks level with the crashing seats: {about}"
    );
    for (g, record) in result.games.iter().enumerate() {
        for &s in &crashing {
            let r = record.outcome.get(Seat(s)).unwrap();
            let best_player = (record.outcome.seats.iter())
                .filter(|o| !crashing.contains(&o.seat.index()))
                .map(|o| o.rank)
                .min()
                .unwrap();
            assert!(r.rank > best_player, "game {g}: {about}");
        }
    }
    result
}

async fn every_built_in(game: GameId) {
    let builtins = names(game);
    assert!(!builtins.is_empty(), "{game} has built-in bots");
    for builtin in builtins {
        crash_against(game, builtin).await;
    }
}

#[tokio::test]
async fn a_crashing_no_thanks_bot_ranks_below_every_built_in() {
    every_built_in(GameId::NO_THANKS).await;
}

#[tokio::test]
async fn crashing_splendor_bots_rank_below_every_built_in() {
    every_built_in(GameId::SPLENDOR).await;
}

#[tokio::test]
async fn a_crashing_hanabi_bot_ranks_below_its_built_in_partners_and_scores_nothing() {
    every_built_in(GameId::HANABI).await;
}

#[tokio::test]
async fn a_crashing_guandan_partnership_ranks_below_every_built_in_pair() {
    every_built_in(GameId::GUANDAN).await;
}

#[tokio::test]
async fn a_crashing_bridge_pair_ranks_below_every_built_in_pair() {
    every_built_in(GameId::BRIDGE).await;
}

//! The built-in Splendor bots: the greedy bot must clearly beat random play.

use croupier_games::bots::{builtin, play_out, DynBot};
use croupier_games::{new_game, GameId, Outcome, Seat};
use serde_json::Value;

/// One hackathon game: `hero` plays `bot`, the other seats play random.
fn against_random(bot: &str, seed: u64, hero: usize) -> Outcome {
    let mut game = new_game(GameId::SPLENDOR, "hackathon", &Value::Null, seed).unwrap();
    let mut bots: Vec<Box<dyn DynBot>> = (0..3)
        .map(|s| builtin(GameId::SPLENDOR, if s == hero { bot } else { "random" }).unwrap())
        .collect();
    play_out(game.as_mut(), &mut bots, seed).unwrap()
}

#[test]
fn greedy_beats_two_random_bots_clearly_over_200_seeded_games() {
    let games = 200;
    let (mut rank_sum, mut wins) = (0_u32, 0_u32);
    for seed in 0..games {
        let hero = Seat((seed % 3) as usize);
        let rank = against_random("greedy", seed, hero.index())
            .get(hero)
            .unwrap()
            .rank;
        rank_sum += rank;
        wins += u32::from(rank == 1);
    }
    let mean_rank = f64::from(rank_sum) / games as f64;
    let win_rate = f64::from(wins) / games as f64;
    println!("greedy vs 2 random: mean rank {mean_rank:.3}, win rate {win_rate:.3}");
    assert!(mean_rank < 1.3, "mean rank {mean_rank:.3}");
    assert!(win_rate > 0.8, "win rate {win_rate:.3}");
}

#[test]
fn greedy_games_replay_exactly_and_greedy_reaches_15_against_itself() {
    for seed in 0..10 {
        assert_eq!(
            against_random("greedy", seed, 2),
            against_random("greedy", seed, 2)
        );
        let mut game = new_game(GameId::SPLENDOR, "hackathon", &Value::Null, seed).unwrap();
        let mut bots: Vec<Box<dyn DynBot>> = (0..3)
            .map(|_| builtin(GameId::SPLENDOR, "greedy").unwrap())
            .collect();
        let outcome = play_out(game.as_mut(), &mut bots, seed).unwrap();
        assert!(
            outcome.seats.iter().any(|r| r.score >= 15),
            "seed {seed}: {outcome:?}"
        );
    }
}

#[test]
fn random_games_end_with_a_winner_and_scores_the_rules_allow() {
    // A seat that has 14 points can gain at most a 5-point card and a 3-point noble in the
    // turn that ends the game; no one reaches more.
    let most = 14 + 5 + 3;
    for seed in 0..20 {
        let outcome = against_random("random", seed, 0);
        if let Err(e) = outcome.check(3) {
            panic!("seed {seed}: inconsistent outcome {outcome:?}: {e}");
        }
        assert!(
            outcome.seats.iter().all(|r| (0..=most).contains(&r.score)),
            "seed {seed}: a score outside 0..={most}: {outcome:?}"
        );
        let top = outcome.seats.iter().map(|r| r.score).max();
        let winners: Vec<_> = outcome.seats.iter().filter(|r| r.rank == 1).collect();
        assert!(
            !winners.is_empty() && winners.iter().all(|r| Some(r.score) == top),
            "seed {seed}: the winners are not the top scorers: {outcome:?}"
        );
    }
}

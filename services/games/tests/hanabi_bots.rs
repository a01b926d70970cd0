//! The built-in Hanabi bots: the convention bot must score clearly above random play.

use croupier_games::bots::{builtin, play_out, DynBot};
use croupier_games::{new_game, GameId};
use serde_json::json;

/// The mean team score of `games` seeded self-play games of `bot` at `players` seats.
fn mean_self_play(rules: &str, players: usize, bot: &str, games: u64) -> f64 {
    let mut total = 0_i64;
    for seed in 0..games {
        let settings = json!({ "players": players });
        let mut game = new_game(GameId::HANABI, rules, &settings, seed).unwrap();
        let mut bots: Vec<Box<dyn DynBot>> = (0..players)
            .map(|_| builtin(GameId::HANABI, bot).unwrap())
            .collect();
        let outcome = play_out(game.as_mut(), &mut bots, seed).unwrap();
        assert!(outcome.seats.iter().all(|r| r.rank == 1));
        total += outcome.seats[0].score;
    }
    total as f64 / games as f64
}

#[test]
fn the_convention_bot_scores_clearly_above_random_over_1000_four_player_games() {
    for (rules, floor) in [("standard", 16.0), ("rainbow", 16.0)] {
        let convention = mean_self_play(rules, 4, "convention", 1000);
        let random = mean_self_play(rules, 4, "random", 1000);
        println!("{rules}: convention {convention:.2}, random {random:.2} (4 players, 1000 games)");
        assert!(
            convention > floor,
            "{rules}: convention mean {convention:.2}"
        );
        assert!(
            convention > random + 8.0,
            "{rules}: {convention:.2} vs {random:.2}"
        );
    }
}

#[test]
fn the_convention_bot_plays_every_table_size() {
    for players in 2..=5 {
        for rules in ["standard", "rainbow"] {
            let mean = mean_self_play(rules, players, "convention", 50);
            println!("{rules}, {players} players: convention {mean:.2} over 50 games");
            assert!(mean > 8.0, "{rules} {players}: {mean:.2}");
        }
    }
}

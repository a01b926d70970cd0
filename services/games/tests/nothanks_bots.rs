//! The built-in No Thanks bots: the heuristic must clearly beat random play.

use croupier_games::bots::{builtin, play_out, DynBot};
use croupier_games::{new_game, GameId, Outcome, Seat};
use serde_json::Value;

/// One boardcoder game: the heuristic in `hero`'s seat, random bots elsewhere.
fn heuristic_against_random(seed: u64, hero: usize) -> Outcome {
    let mut game = new_game(GameId::NO_THANKS, "boardcoder", &Value::Null, seed).unwrap();
    let mut bots: Vec<Box<dyn DynBot>> = (0..3)
        .map(|s| {
            builtin(
                GameId::NO_THANKS,
                if s == hero { "heuristic" } else { "random" },
            )
            .unwrap()
        })
        .collect();
    play_out(game.as_mut(), &mut bots, seed).unwrap()
}

#[test]
fn the_heuristic_beats_two_random_bots_clearly_over_300_seeded_games() {
    let games = 300;
    let (mut rank_sum, mut wins) = (0_u32, 0_u32);
    for seed in 0..games {
        let hero = Seat((seed % 3) as usize);
        let outcome = heuristic_against_random(seed, hero.index());
        let rank = outcome.get(hero).unwrap().rank;
        rank_sum += rank;
        wins += u32::from(rank == 1);
    }
    let mean_rank = f64::from(rank_sum) / games as f64;
    let win_rate = f64::from(wins) / games as f64;
    println!("heuristic vs 2 random: mean rank {mean_rank:.3}, win rate {win_rate:.3}");
    // Random play would average rank 2 and win a third of the games.
    assert!(mean_rank < 1.3, "mean rank {mean_rank:.3}");
    assert!(win_rate > 0.75, "win rate {win_rate:.3}");
}

#[test]
fn bot_games_replay_exactly_from_their_seed() {
    for seed in 0..20 {
        assert_eq!(
            heuristic_against_random(seed, 1),
            heuristic_against_random(seed, 1)
        );
    }
}

#[test]
fn every_game_has_a_random_bot_and_the_named_bots_exist() {
    for game in GameId::all() {
        assert!(croupier_games::bots::names(game).contains(&"random"));
        for name in croupier_games::bots::names(game) {
            assert_eq!(builtin(game, name).map(|b| b.name()), Some(name));
        }
        assert!(builtin(game, "grandmaster").is_none());
    }
}

#[test]
fn the_heuristic_plays_a_standard_game_at_every_table_size() {
    for players in 3..=7 {
        let settings = serde_json::json!({ "players": players });
        let mut game = new_game(GameId::NO_THANKS, "standard", &settings, 7).unwrap();
        let mut bots: Vec<Box<dyn DynBot>> = (0..players)
            .map(|_| builtin(GameId::NO_THANKS, "heuristic").unwrap())
            .collect();
        let outcome = play_out(game.as_mut(), &mut bots, 7).unwrap();
        assert_eq!(outcome.check(players), Ok(()));
    }
}

mod heuristic {
    use croupier_games::bots::{Bot, NoThanksHeuristic};
    use croupier_games::nothanks::{Action, Observation, PlayerView};
    use croupier_games::{GameRng, Seat, Viewer};

    /// Seat 0 on turn holding `cards` and `coins`, facing `card` with `field_coins` on it.
    fn facing(cards: &[u8], coins: u32, card: u8, field_coins: u32) -> Observation {
        let other = PlayerView {
            coins: 20,
            cards: vec![],
            points: -20,
        };
        Observation {
            viewer: Viewer::Seat(Seat(0)),
            turnnum: 5,
            to_act: Some(Seat(0)),
            turn_order: vec![Seat(0), Seat(1), Seat(2)],
            ranking_order: vec![Seat(0), Seat(1), Seat(2)],
            players: vec![
                PlayerView {
                    coins,
                    cards: cards.to_vec(),
                    points: 0,
                },
                other.clone(),
                other,
            ],
            deck_count: 10,
            field_card: Some(card),
            field_coins,
            end: false,
            hidden: None,
        }
    }

    fn choice(obs: &Observation) -> Option<Action> {
        let legal = if obs.players[0].coins > 0 {
            vec![Action::Pick, Action::Pass]
        } else {
            vec![Action::Pick]
        };
        NoThanksHeuristic::default().choose(obs, &legal, &mut GameRng::new(0))
    }

    #[test]
    fn it_takes_a_card_that_extends_its_run() {
        assert_eq!(choice(&facing(&[20, 21], 15, 22, 0)), Some(Action::Pick));
        assert_eq!(choice(&facing(&[20, 21], 15, 19, 0)), Some(Action::Pick));
    }

    #[test]
    fn it_passes_on_an_expensive_card_while_it_has_coins() {
        assert_eq!(choice(&facing(&[5], 15, 33, 2),), Some(Action::Pass));
    }

    #[test]
    fn it_takes_an_expensive_card_once_enough_coins_lie_on_it() {
        assert_eq!(choice(&facing(&[5], 15, 33, 31)), Some(Action::Pick));
    }

    #[test]
    fn it_takes_cheaper_cards_as_its_purse_empties() {
        assert_eq!(choice(&facing(&[], 15, 12, 0)), Some(Action::Pass));
        assert_eq!(choice(&facing(&[], 2, 12, 0)), Some(Action::Pick));
    }

    #[test]
    fn it_never_passes_with_zero_coins() {
        assert_eq!(choice(&facing(&[], 0, 35, 0)), Some(Action::Pick));
    }
}

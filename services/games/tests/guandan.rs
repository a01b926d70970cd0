//! Guandan through the public API: the heuristic beats random, and action-list timing.

use croupier_games::bots::{builtin, play_out, DynBot};
use croupier_games::guandan::cards::parse_cards;
use croupier_games::guandan::combos::plays;
use croupier_games::guandan::{Guandan, Settings};
use croupier_games::{new_game, Game, GameId, GameRng, Seat, Stream, Turn};
use serde_json::Value;

#[test]
fn the_heuristic_beats_random() {
    let games = 6;
    let mut heuristic_wins = 0.0;
    for seed in 0..games {
        let mut game = new_game(GameId::GUANDAN, "platform", &Value::Null, seed).unwrap();
        // The heuristic plays seats 0 and 2 in even games, 1 and 3 in odd ones.
        let h = usize::try_from(seed % 2).unwrap();
        let mut bots: Vec<Box<dyn DynBot>> = (0..4)
            .map(|s| {
                builtin(
                    GameId::GUANDAN,
                    if s % 2 == h { "heuristic" } else { "random" },
                )
                .unwrap()
            })
            .collect();
        let outcome = play_out(game.as_mut(), &mut bots, seed).unwrap();
        heuristic_wins += outcome.seats[h].score as f64;
    }
    assert!(
        heuristic_wins >= 5.0,
        "heuristic won {heuristic_wins} of {games}"
    );
}

/// Prints the median and worst action-list generation times seen in random play, and the
/// time for a hand built to have many wild-card interpretations.
#[test]
fn action_lists_of_random_play_and_of_a_1000_action_hand_are_all_playable() {
    // Their generation time is `croupier bench guandan-actions`' business, not a test's.
    let mut lists = 0;
    let mut largest = 0;
    let mut game = Guandan::new(Settings::platform(), 3).unwrap();
    let mut rng = GameRng::derive(3, Stream::Testing);
    for _ in 0..3000 {
        let Turn::Seat(seat) = game.turn() else { break };
        let legal = game.legal_actions(seat);
        assert!(!legal.is_empty());
        lists += 1;
        largest = largest.max(legal.len());
        let action = rng.choose(&legal).unwrap().clone();
        game.apply(seat, action).unwrap();
    }
    assert!(
        lists > 100 && largest > 10,
        "{lists} lists, largest {largest}"
    );
    let hand = parse_cards(
        "H2 H2 S3 C3 D3 H3 S4 C4 D4 H4 S5 C5 D5 H5 S6 C6 D6 H6 S7 C7 D7 H7 S8 C8 D8 H8 S9",
    )
    .unwrap();
    let built = plays(&hand, 2, (10, false), None);
    assert!(built.len() >= 1000);
    let mut game = Guandan::from_hands(
        Settings::platform(),
        vec![
            hand,
            parse_cards("SA").unwrap(),
            parse_cards("SK").unwrap(),
            parse_cards("SQ").unwrap(),
        ],
        2,
        Seat(0),
    );
    let legal = game.legal_actions(Seat(0));
    assert_eq!(legal.len(), built.len());
    for action in legal.iter().step_by(97) {
        game.clone().apply(Seat(0), action.clone()).unwrap();
    }
    game.apply(Seat(0), legal[0].clone()).unwrap();
}

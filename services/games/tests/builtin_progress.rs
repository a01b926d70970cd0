//! Built-in bots never stall: every built-in of every game, seated against opponents that pass
//! every move or crash on every call (played the way the referee plays a crashed seat), makes
//! only legal moves, finishes every game, and makes goal-directed progress.

use croupier_games::bots::{builtin, names, DynBot};
use croupier_games::{GameId, GameRng, Outcome, Recorder, Seat, Stream, Turn};
use serde_json::Value;

/// How the seats that are not the built-in behave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opponent {
    /// Makes the most passive legal move every turn (a pass where the game has one).
    Passive,
    /// Crashes on every call: a fault is recorded and the referee plays the seat's move
    /// (Splendor: the lost turn, a pass; Bridge: the Robot; the others: the first legal move).
    Crash,
}

/// A finished game seen by the test.
struct Played {
    outcome: Outcome,
    /// Moves each seat made (forced ones included).
    moves: Vec<u32>,
    /// Hanabi: error tokens used at the end.
    errors: u64,
    engine: Outcome,
}

/// A pass where the game has one; Hanabi has none: a discard, else a hint (never a play).
fn passive_move(legal: &[Value]) -> Option<Value> {
    let find = |word: &str| {
        legal
            .iter()
            .find(|a| a.to_string().to_lowercase().contains(word))
    };
    let hint = legal
        .iter()
        .find(|a| !a.to_string().to_lowercase().contains("play"));
    (find("pass")
        .or_else(|| find("discard"))
        .or(hint)
        .or(legal.first()))
    .cloned()
}

/// Plays one game: the seats in `heroes` are the built-in `bot`, the others `opponent`.
fn play(
    game: GameId,
    settings: &Value,
    seed: u64,
    heroes: &[usize],
    bot: &str,
    opponent: Opponent,
) -> Played {
    let rules = game.rule_sets()[0];
    let mut recorder = Recorder::new(game, rules, settings, seed).unwrap();
    let seats = recorder.game().seats();
    let mut bots: Vec<Option<Box<dyn DynBot>>> = (0..seats)
        .map(|s| heroes.contains(&s).then(|| builtin(game, bot).unwrap()))
        .collect();
    let mut robot = builtin(GameId::BRIDGE, "robot").unwrap();
    let mut rngs: Vec<GameRng> = Seat::all(seats)
        .map(|s| GameRng::derive(seed, Stream::Bot(s)))
        .collect();
    let mut faulted = vec![false; seats];
    let mut moves = vec![0_u32; seats];
    let mut turns = 0_u32;
    while let Turn::Seat(seat) = recorder.game().turn() {
        turns += 1;
        assert!(turns < 100_000, "{game} seed {seed}: the game does not end");
        let s = seat.index();
        moves[s] += 1;
        let rng = &mut rngs[s];
        if let Some(hero) = bots[s].as_mut() {
            let action = hero.choose(recorder.game(), seat, rng).expect("a move");
            if let Err(e) = recorder.apply(seat, action.clone()) {
                panic!("{game} {bot} seed {seed}: {action} refused: {e}");
            }
            continue;
        }
        let legal = recorder.game().legal_actions_json(seat);
        match opponent {
            Opponent::Passive => {
                recorder.apply(seat, passive_move(&legal).unwrap()).unwrap();
            }
            Opponent::Crash => {
                if !faulted[s] {
                    faulted[s] = true;
                    recorder.fault(seat, "crashed");
                    if recorder.game().turn() != Turn::Seat(seat) {
                        continue;
                    }
                }
                let action = if game == GameId::SPLENDOR {
                    passive_move(&legal).unwrap()
                } else if game == GameId::BRIDGE {
                    robot.choose(recorder.game(), seat, rng).unwrap()
                } else {
                    legal[0].clone()
                };
                recorder.apply_forced(seat, action).unwrap();
            }
        }
    }
    let errors = recorder
        .game()
        .observe_json(croupier_games::Viewer::Omniscient)["error_tokens"]
        .as_u64()
        .unwrap_or(0);
    let replay = recorder.into_replay();
    Played {
        outcome: replay.fair_outcome().unwrap(),
        engine: replay.outcome.clone().unwrap(),
        moves,
        errors,
    }
}

/// The hero's seats: one seat, or a partnership (seats 0 and 2) in the team games.
fn heroes(game: GameId, seed: u64) -> Vec<usize> {
    if game == GameId::GUANDAN || game == GameId::BRIDGE {
        vec![0, 2]
    } else {
        vec![(seed % 3) as usize]
    }
}

#[test]
fn every_built_in_plays_legal_moves_to_the_end_and_a_crashing_seat_always_ranks_last() {
    for game in GameId::all() {
        assert!(!names(game).is_empty(), "{game} has built-in bots");
        for bot in names(game) {
            // Crashed seats that were due to move, and so were checked to rank last.
            let mut ranked_last = 0;
            for opponent in [Opponent::Passive, Opponent::Crash] {
                let seeds = if game == GameId::GUANDAN { 4 } else { 12 };
                for seed in 0..seeds {
                    let heroes = heroes(game, seed);
                    let p = play(game, &Value::Null, seed, &heroes, bot, opponent);
                    let about = format!("{game} {bot} vs {opponent:?}, seed {seed}");
                    assert_eq!(p.outcome.check(p.moves.len()), Ok(()), "{about}");
                    if opponent == Opponent::Crash {
                        for seat in
                            Seat::all(p.moves.len()).filter(|s| !heroes.contains(&s.index()))
                        {
                            let crashed = p.outcome.get(seat).unwrap();
                            if p.moves[seat.index()] > 0 || p.outcome.is_idle(seat) {
                                assert!(p.outcome.is_idle(seat), "{about}: {seat} idle");
                                let worst = p.outcome.seats.iter().map(|s| s.rank).max();
                                assert_eq!(Some(crashed.rank), worst, "{about}");
                                ranked_last += 1;
                            }
                            for &h in &heroes {
                                let hero = p.outcome.get(Seat(h)).unwrap();
                                assert!(
                                    hero.rank < crashed.rank || p.moves[seat.index()] == 0,
                                    "{about}"
                                );
                            }
                        }
                    }
                }
            }
            assert!(
                ranked_last > 0,
                "{game} {bot}: no crashed seat was ever checked"
            );
        }
    }
}

#[test]
fn splendor_greedy_reaches_15_points_within_45_of_its_moves_in_every_one_of_300_games() {
    for opponent in [Opponent::Passive, Opponent::Crash] {
        let mut worst = 0;
        for seed in 0..300 {
            let hero = heroes(GameId::SPLENDOR, seed)[0];
            let p = play(
                GameId::SPLENDOR,
                &Value::Null,
                seed,
                &[hero],
                "greedy",
                opponent,
            );
            let result = p.outcome.get(Seat(hero)).unwrap();
            assert!(
                result.score >= 15,
                "seed {seed} vs {opponent:?}: {result:?} after {} moves",
                p.moves[hero]
            );
            assert_eq!(result.rank, 1, "seed {seed} vs {opponent:?}");
            worst = worst.max(p.moves[hero]);
        }
        println!("greedy vs {opponent:?}: 15 points within {worst} moves (cap 150 rounds)");
        assert!(worst <= 45, "{worst} moves");
    }
}

#[test]
fn no_thanks_heuristic_wins_against_passing_or_crashing_seats() {
    for opponent in [Opponent::Passive, Opponent::Crash] {
        let mut wins = 0;
        for seed in 0..200 {
            let hero = heroes(GameId::NO_THANKS, seed)[0];
            let p = play(
                GameId::NO_THANKS,
                &Value::Null,
                seed,
                &[hero],
                "heuristic",
                opponent,
            );
            let engine = p.engine.get(Seat(hero)).unwrap();
            wins += u32::from(engine.rank == 1 && p.engine.winners().count() == 1);
            assert!(
                engine.rank <= 2,
                "seed {seed} vs {opponent:?}: {:?}",
                p.engine
            );
        }
        println!("no thanks heuristic vs {opponent:?}: {wins} sole wins of 200");
        assert!(wins >= 190, "{wins} of 200");
    }
}

#[test]
fn guandan_heuristic_partners_win_the_game_against_passing_or_crashing_partners() {
    for opponent in [Opponent::Passive, Opponent::Crash] {
        for seed in 0..12 {
            let p = play(
                GameId::GUANDAN,
                &Value::Null,
                seed,
                &[0, 2],
                "heuristic",
                opponent,
            );
            let winners: Vec<Seat> = p.engine.winners().collect();
            assert_eq!(winners, [Seat(0), Seat(2)], "seed {seed} vs {opponent:?}");
        }
    }
}

#[test]
fn bridge_built_ins_bid_and_play_for_a_plus_score_against_passing_or_crashing_opponents() {
    for bot in ["heuristic", "robot"] {
        for opponent in [Opponent::Passive, Opponent::Crash] {
            let (mut total, mut plus, mut minus) = (0_i64, 0, 0);
            for seed in 0..200 {
                let p = play(GameId::BRIDGE, &Value::Null, seed, &[0, 2], bot, opponent);
                let ns = p.engine.get(Seat(0)).unwrap().score;
                total += ns;
                plus += u32::from(ns > 0);
                minus += u32::from(ns < 0);
                if opponent == Opponent::Crash {
                    assert!(ns >= 0, "{bot} seed {seed}: a crashing side concedes, {ns}");
                }
            }
            println!("bridge {bot} vs {opponent:?}: {total} points, {plus} boards won, {minus} lost of 200");
            assert!(
                total > 0 && plus > 3 * minus,
                "{bot} vs {opponent:?}: {plus} won, {minus} lost"
            );
        }
    }
}

#[test]
fn hanabi_convention_hints_and_plays_to_the_end_of_the_deck_with_passive_partners() {
    let mut total = 0;
    for seed in 0..200 {
        let hero = (seed % 4) as usize;
        let p = play(
            GameId::HANABI,
            &Value::Null,
            seed,
            &[hero],
            "convention",
            Opponent::Passive,
        );
        assert!(p.moves[hero] >= 10, "seed {seed}: {} moves", p.moves[hero]);
        assert!(
            p.errors < 3,
            "seed {seed}: the convention bot never strikes out"
        );
        total += p.engine.seats[0].score;
    }
    let mean = total as f64 / 200.0;
    println!("hanabi with 3 passive partners: convention {mean:.2}");
    assert!(mean > 0.2, "{mean}");
}

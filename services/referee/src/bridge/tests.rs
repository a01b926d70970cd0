//! The pure parts of the adapter: judging an answer, the StepLog markers and Board.txt through
//! real deals.

use croupier_games::bots::{Bot, BridgeRobot};
use croupier_games::bridge::{format_hand, Action, Bridge, Settings};
use croupier_games::{Game, GameRng, Seat, Stream, Turn, Viewer};

use super::answer::{judge, parse_line, Signer, Violation};
use super::files::{board_text, Author, StepLog};
use crate::verdict::FaultKind;

const BOARD: &[u8] = b"Player1\nGame 1\nScore 0,0,0,0\nStage call\nHand S-2\n";
const LOG: &[u8] = b"Stage call\n";

fn me(seat: usize) -> Signer {
    Signer {
        seat: Seat(seat),
        hand: Seat(seat),
    }
}

fn with(appended: &str) -> Result<(Action, String), Violation> {
    let now = [LOG, appended.as_bytes()].concat();
    judge(BOARD, Some(BOARD), LOG, Some(&now), me(0))
}

#[test]
fn one_appended_line_is_the_move() {
    let pass = Action::Call("pass".parse().unwrap());
    assert_eq!(
        with("Player1 call pass\n"),
        Ok((pass, "Player1 call pass".into()))
    );
    assert_eq!(
        with("Player1 call pass").map(|a| a.0),
        Ok(pass),
        "no final newline"
    );
    assert_eq!(with("  Player1   call pass \r\n").map(|a| a.0), Ok(pass));
    let card = Action::Play("S-1".parse().unwrap());
    assert_eq!(with("Player1 play S-1\n").map(|a| a.0), Ok(card));
}

#[test]
fn every_violation_of_the_files_is_named() {
    assert_eq!(with(""), Err(Violation::NoLine));
    assert_eq!(with("\n"), Err(Violation::NoLine));
    assert_eq!(
        with("Player1 call pass\nPlayer1 call pass\n"),
        Err(Violation::Lines(2))
    );
    assert_eq!(with("Player1 call pass\n\n"), Err(Violation::Lines(2)));
    for bad in [
        "Player1 call",
        "Player1 call H-8",
        "Player1 bid H-1",
        "Player2 call pass",
        "Robot call pass",
        "Player1 play S-14",
        "Player1 call pass now",
    ] {
        assert!(
            matches!(with(bad), Err(Violation::Malformed { .. })),
            "{bad}"
        );
    }
    let sent = b"Stage call\nPlayer4 call S-1\n";
    let rewritten = b"Stage call\nPlayer4 call S-7\nPlayer1 call pass\n";
    assert_eq!(
        judge(BOARD, Some(BOARD), sent, Some(rewritten), me(0)),
        Err(Violation::StepLogChanged)
    );
    assert_eq!(
        judge(BOARD, Some(BOARD), LOG, None, me(0)),
        Err(Violation::StepLogChanged)
    );
    let edited = b"Player1\nGame 1\nScore 0,0,0,0\nStage call\nHand S-1\n";
    let now = b"Stage call\nPlayer1 call pass\n";
    assert_eq!(
        judge(BOARD, Some(edited), LOG, Some(now), me(0)),
        Err(Violation::BoardChanged)
    );
    assert_eq!(
        judge(BOARD, None, LOG, Some(now), me(0)),
        Err(Violation::BoardChanged)
    );
    assert_eq!(Violation::NoLine.kind(), FaultKind::InvalidOutput);
    let illegal = Violation::Illegal {
        line: "Player1 call C-1".into(),
        why: "insufficient bid".into(),
    };
    assert_eq!(illegal.kind(), FaultKind::IllegalAction);
    assert!(illegal.reason().contains("insufficient bid"));
}

#[test]
fn declarer_may_sign_dummys_card_with_either_number() {
    let signer = Signer {
        seat: Seat(2),
        hand: Seat(0),
    };
    let card = Ok(Action::Play("H-5".parse().unwrap()));
    assert_eq!(parse_line("Player3 play H-5", signer), card);
    assert_eq!(parse_line("Player1 play H-5", signer), card);
    let other = parse_line("Player2 play H-5", signer).unwrap_err();
    assert!(
        other.reason().contains("Player3 or Player1"),
        "{}",
        other.reason()
    );
}

/// Plays a deal with the Robot everywhere, checking Board.txt for every decision and
/// rebuilding the StepLog as the adapter does. Returns the log.
fn robot_deal(board: u32, seed: u64) -> (Bridge, StepLog) {
    let mut game = Bridge::new(Settings::duplicate(board), seed).unwrap();
    let mut rng = GameRng::derive(seed, Stream::Testing);
    let mut log = StepLog::new();
    while let Turn::Seat(seat) = game.turn() {
        let obs = game.observe(Viewer::Seat(seat));
        let text = board_text(&obs).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(text.ends_with('\n') && !text.contains("\n\n"), "{text}");
        assert_eq!(lines[0], format!("Player{}", seat.0 + 1));
        assert_eq!(lines[1], format!("Game {board}"));
        assert_eq!(lines[2], "Score 0,0,0,0");
        if let Some(contract) = obs.contract {
            assert_eq!(lines.len(), 10, "{text}");
            assert_eq!(lines[3], "Stage play");
            let dummy = contract.dummy();
            let (hand, other) = (&lines[4][5..], &lines[5][6..]);
            let all = game.observe(Viewer::Omniscient);
            let cards = |s: Seat| format_hand(all.hand(s).unwrap_or_default());
            if obs.playing_hand == Some(dummy) {
                assert_eq!(
                    (hand, other),
                    (&*cards(dummy), &*cards(seat)),
                    "declarer for dummy"
                );
            } else {
                assert_eq!(hand, cards(seat));
                let lead_due = obs.tricks.iter().all(|t| t.cards.is_empty());
                assert_eq!(
                    other,
                    if lead_due {
                        "None".into()
                    } else {
                        cards(dummy)
                    }
                );
            }
            assert_eq!(lines[6], format!("Contract {}", contract.bid));
            assert_eq!(
                lines[7],
                format!("Declarer Player{}", contract.declarer.0 + 1)
            );
            assert_eq!(lines[9], format!("Round {}", obs.round()));
        } else {
            assert_eq!(lines.len(), 5, "{text}");
            assert_eq!(lines[3], "Stage call");
        }
        let legal = game.legal_actions(seat);
        let action = BridgeRobot.choose(&obs, &legal, &mut rng).unwrap();
        game.apply(seat, action).unwrap();
        let after = game.observe(Viewer::Spectator);
        let (hand, made) = after.progress().last_move().unwrap();
        assert_eq!(made, action);
        match made {
            Action::Call(call) => log.call(Author::Player(hand), call),
            Action::Play(card) => log.play(Author::Player(hand), card),
        }
        log.catch_up(after.progress());
    }
    (game, log)
}

#[test]
fn a_played_deal_has_the_steplog_structure_of_the_protocol() {
    let mut played = 0;
    for seed in 0..40 {
        let (game, log) = robot_deal(1 + (seed % 4) as u32, seed);
        let lines = log.lines();
        assert_eq!(lines[0], "Stage call");
        let calls = lines.iter().take_while(|l| *l != "Stage play").skip(1);
        assert!(calls.clone().all(|l| l.contains(" call ")));
        let Some(contract) = game.contract() else {
            assert_eq!(lines.len(), 5, "passed out: four passes and nothing else");
            continue;
        };
        played += 1;
        let start = lines.iter().position(|l| l == "Stage play").unwrap();
        let tricks: Vec<&[String]> = lines[start + 1..].chunks(5).collect();
        assert_eq!(tricks.len(), 13);
        let mut leader = contract.declarer.next(4);
        for (r, trick) in tricks.iter().enumerate() {
            assert_eq!(trick[0], format!("Round {}", r + 1));
            for (k, line) in trick[1..].iter().enumerate() {
                let hand = (leader.0 + k) % 4;
                assert!(
                    line.starts_with(&format!("Player{} play ", hand + 1)),
                    "{line}"
                );
            }
            leader = game.observe(Viewer::Spectator).tricks[r].winner.unwrap();
        }
        assert_eq!(log.text().lines().count(), lines.len());
        assert!(log.text().ends_with('\n'));
    }
    assert!(played > 10, "{played} deals were played out");
}

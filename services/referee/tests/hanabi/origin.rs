//! Class bots written for the original platform, played through the real sandbox: the
//! origin's names (`colors.red`, `actions.play`, `endgames.emtpyDeck`, plain `Enum`s), a class
//! not named `player` (`SimplePlayer(basePlayer)`, found without an entry), a subclass with a
//! constructor argument chosen by the entry (`origin_bots.py:cautious(0.3)`), and bots that
//! ship their own copy of the origin's `game.py`, loaded or shadowed by Croupier's.

use std::fs;

use super::*;

const ORIGIN_BOTS: &str = include_str!("origin_bots.py");
const SIMPLE_PLAYER: &str = include_str!("simple_player.py");
const OWN_BOT: &str = include_str!("own_bot.py");
const ORIGIN_GAME: &str = include_str!("origin_game.py");

/// `module` is `game` or `gameRainbow`: the one the bots import, as the origin's bots do.
fn fill(text: &str, module: &str) -> String {
    let rainbow = module == "gameRainbow";
    text.replace("GAME", module)
        .replace("RAINBOW_MEMBER", if rainbow { "rainbow = 5" } else { "" })
        .replace("REASON_ZERO", if rainbow { "blackFuse" } else { "error" })
}

impl Dirs {
    /// A bot directory holding `files`, started as `python3 /bot/<entry>` (`entry` may name
    /// a class: the build plan's form of the submitter's entry).
    pub(super) fn entry(&mut self, name: &str, files: &[(&str, String)], entry: &str) -> SeatSpec {
        let dir = open_dir();
        for (file, text) in files {
            fs::write(dir.path().join(file), text).unwrap();
        }
        let seat = SeatSpec::program(
            name,
            dir.path(),
            ["/usr/bin/python3".to_owned(), format!("/bot/{entry}")],
        );
        self.0.push(dir);
        seat
    }

    fn origin_seats(&mut self, module: &str) -> Vec<SeatSpec> {
        let bots = ("origin_bots.py", fill(ORIGIN_BOTS, module));
        let own = |hack: &str| {
            vec![
                ("own.py", fill(OWN_BOT, module).replace("HACK", hack)),
                bots.clone(),
            ]
        };
        let mut own_copy = own("True");
        own_copy.push((
            if module == "game" {
                "game.py"
            } else {
                "gameRainbow.py"
            },
            fill(ORIGIN_GAME, module),
        ));
        let mut shadowed = own("False");
        shadowed.push(own_copy[2].clone());
        vec![
            self.entry(
                "simple",
                &[("simple_player.py", SIMPLE_PLAYER.to_owned()), bots.clone()],
                "simple_player.py",
            ),
            self.entry(
                "cautious",
                std::slice::from_ref(&bots),
                "origin_bots.py:cautious(0.3)",
            ),
            self.entry("own-copy", &own_copy, "own.py:mine"),
            self.entry("shadowed-copy", &shadowed, "own.py:mine"),
        ]
    }
}

async fn plays_full_games_with_the_origin_names(rules: &str, module: &str) {
    let (sb, uids) = sandbox().await;
    let mut dirs = Dirs::default();
    let seats = dirs.origin_seats(module);

    let result = play(&sb, hanabi(rules, 3, seats)).await.unwrap();

    eprintln!("{}", describe(&result));
    assert_consistent(&result);
    for seat in &result.seats {
        assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
        assert!(seat.moves > 0, "{}", describe(&result));
    }
    let tail = |i: usize| result.seats[i].stderr_tail.as_str();
    assert!(tail(0).contains("ORIGIN OK SimplePlayer"), "{}", tail(0));
    assert!(
        tail(1).contains("ORIGIN OK cautious hintP=0.3"),
        "{}",
        tail(1)
    );
    assert!(tail(2).contains("ORIGIN OK mine copy=True"), "{}", tail(2));
    assert!(tail(3).contains("ORIGIN OK mine copy=False"), "{}", tail(3));
    let score = result.seats[0].score;
    assert!(score > 0, "the bots build fireworks: {score}");
    for i in 0..4 {
        assert!(tail(i).contains(&format!("score={score}")), "{}", tail(i));
    }
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn origin_style_class_bots_play_a_standard_game() {
    plays_full_games_with_the_origin_names("standard", "game").await;
}

#[tokio::test]
async fn origin_style_class_bots_play_a_rainbow_game() {
    plays_full_games_with_the_origin_names("rainbow", "gameRainbow").await;
}

/// The checks a probe made, from its `ORIGIN OK … checks=N` line.
fn checks(tail: &str) -> u32 {
    let line = tail.lines().find(|l| l.starts_with("ORIGIN OK"));
    let n = line.and_then(|l| l.rsplit("checks=").next());
    n.and_then(|n| n.trim().parse().ok()).unwrap_or(0)
}

/// Bots that model every hand the origin's way (the drawn card takes the played slot) check
/// that model against every card played or discarded and every hint given, over many games of
/// both variants: class bots (one of them hinting itself, which the origin allows) and a
/// websocket client. Any mismatch crashes the seat.
async fn hands_tracked_the_origins_way_never_disagree(rules: &str, module: &str) {
    let (sb, uids) = sandbox().await;
    let mut dirs = Dirs::default();
    let bots = ("origin_bots.py", fill(ORIGIN_BOTS, module));
    let raw_args: &[&str] = if module == "gameRainbow" {
        &["--rainbow"]
    } else {
        &[]
    };
    let (mut total, mut self_hints) = (0, 0);
    for seed in 0..6 {
        let seats = vec![
            dirs.entry(
                "careful",
                std::slice::from_ref(&bots),
                "origin_bots.py:careful",
            ),
            dirs.raw("websocket", raw_args),
            dirs.entry(
                "selfhinter",
                std::slice::from_ref(&bots),
                "origin_bots.py:selfhinter",
            ),
            dirs.entry(
                "cautious",
                std::slice::from_ref(&bots),
                "origin_bots.py:cautious(0.5)",
            ),
        ];
        let result = play(&sb, hanabi(rules, seed, seats)).await.unwrap();
        assert_consistent(&result);
        for seat in &result.seats {
            assert_eq!(seat.end_state, EndState::Ok, "{}", describe(&result));
        }
        let tail = |i: usize| result.seats[i].stderr_tail.as_str();
        assert!(tail(1).contains("PROTOCOL OK"), "{}", tail(1));
        for i in [0, 2, 3] {
            assert!(tail(i).contains("ORIGIN OK"), "{}", tail(i));
            total += checks(tail(i));
        }
        self_hints += tail(2).matches("SELF HINT OK").count();
    }
    eprintln!("{rules}: {total} checks of the class bots' hand models, {self_hints} self-hints");
    assert!(total > 300, "{rules}: only {total} checks");
    assert!(self_hints > 0, "{rules}: nobody hinted themself");
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn hands_tracked_the_origins_way_match_every_move_of_standard_games() {
    hands_tracked_the_origins_way_never_disagree("standard", "game").await;
}

#[tokio::test]
async fn hands_tracked_the_origins_way_match_every_move_of_rainbow_games() {
    hands_tracked_the_origins_way_never_disagree("rainbow", "gameRainbow").await;
}

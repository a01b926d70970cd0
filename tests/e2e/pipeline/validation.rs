//! `croupier submit --wait` through the real binary, server and workers: a Splendor bot that
//! makes some illegal moves is `ready` and the command prints its warning; a Hanabi class bot
//! for 3 rainbow players (which exits unless it sees them) is validated at that table.

use super::api::Api;
use super::bots::game_kit;
use super::procs::{scratch, Proc};
use crate::binary::process::croupier;
use crate::helpers::PASSWORD;

/// The Splendor kit's bot, answering two golds (an illegal move) on every third round.
fn sometimes_illegal() -> Vec<u8> {
    let kit = String::from_utf8(game_kit("splendor", "python/bot.py")).expect("utf-8");
    let chosen = "    action = choose(state)\n";
    assert!(kit.contains(chosen));
    let illegal = "    action = {\"get_two_same_color_gems\": \"gold\"} if state[\"round\"] % 3 == 0 else choose(state)\n";
    kit.replace(chosen, illegal).into_bytes()
}

/// The Hanabi kit's class bot, exiting in `onStart` unless it sees 3 players and rainbow
/// colours (it loads `gameRainbow` first, so the runner hands it those in a rainbow game).
fn three_rainbow() -> Vec<u8> {
    let kit = String::from_utf8(game_kit("hanabi", "python/player.py")).expect("utf-8");
    let check = r#"

class checked(player):
    def __init__(self):
        super().__init__()
        self.onStart.insert(0, self.check)

    def check(self, handStatus):
        colours = type(handStatus[0][0].color)
        if len(handStatus) != 3 or "rainbow" not in colours.__members__:
            print("expected 3 players and rainbow colours", file=sys.stderr, flush=True)
            sys.exit(1)
"#;
    format!("import sys\n\nimport gameRainbow\n{kit}{check}").into_bytes()
}

#[tokio::test(flavor = "multi_thread")]
async fn croupier_submit_waits_for_the_verdict_and_prints_the_warning() {
    // Arrange
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let api = Api::user(&base, "sam", PASSWORD, true).await;
    let team = api.team("Team sam").await;
    let splendor = dir.path().join("bot.py");
    std::fs::write(&splendor, sometimes_illegal()).unwrap();
    let hanabi = dir.path().join("checked.py");
    std::fs::write(&hanabi, three_rainbow()).unwrap();
    let submit = |args: &[&str], file: &std::path::Path| {
        croupier()
            .args([
                "submit",
                "--server",
                &base,
                "--token",
                api.token(),
                "--team",
                &team,
            ])
            .args(["--lang", "python3", "--wait"])
            .args(args)
            .arg(file)
            .output()
            .expect("croupier submit")
    };

    // Act
    let warned = submit(&["--game", "splendor"], &splendor);
    let rainbow = submit(
        &[
            "--game",
            "hanabi",
            "--rules",
            "rainbow",
            "--players",
            "3",
            "--entry",
            "checked.py:checked",
        ],
        &hanabi,
    );
    let four = submit(
        &["--game", "hanabi", "--entry", "checked.py:checked"],
        &hanabi,
    );

    // Assert: ready with the illegal moves listed; the Hanabi bot passes only at its table
    let out = |o: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    };
    assert!(warned.status.success(), "{}", out(&warned));
    let text = out(&warned);
    assert!(text.contains("validation game: hackathon, seed "), "{text}");
    assert!(text.contains("status ready\n"), "{text}");
    assert!(
        text.contains("in the validation game, played on after: illegal_action × "),
        "{text}"
    );
    assert!(
        text.contains("gold cannot be taken: it comes only with a reservation"),
        "{text}"
    );
    assert!(rainbow.status.success(), "{}", out(&rainbow));
    assert!(
        out(&rainbow).contains("validation game: rainbow, 3 players, seed "),
        "{}",
        out(&rainbow)
    );
    assert!(!four.status.success(), "{}", out(&four));
    let text = out(&four);
    assert!(
        text.contains("validation game: standard, 4 players"),
        "{text}"
    );
    assert!(
        text.contains("status failed\nreason: validation game: ")
            && text.contains("never made a legal move"),
        "{text}"
    );
}

//! The validation game's verdict, with real PostgreSQL, the real sandbox and real bots: a bot
//! that makes some illegal moves is `ready` with a warning (the game only cost it those turns),
//! one that never makes a legal move fails; a Hanabi bot is validated at the table it is for
//! (rule set and players); the same upload always plays the same game.

mod common;

use common::*;
use croupier_store::submissions::{self, FaultCount, ValidationWarning};
use croupier_store::PgPool;

/// The Splendor kit's bot (legal moves), its answer replaced by `illegal` on every round for
/// which `when` (a Python expression of `state`) holds.
fn splendor_bot(when: &str) -> String {
    let kit = include_str!("../../../kits/splendor/python/bot.py");
    let chosen = "    action = choose(state)\n";
    assert!(kit.contains(chosen), "the kit chooses its action in main");
    kit.replace(
        chosen,
        &format!(
            "    action = {{\"get_two_same_color_gems\": \"gold\"}} if {when} else choose(state)\n"
        ),
    )
}

/// The Hanabi kit's class bot, checked in `onStart`: it exits unless it sees 3 players and a
/// colour enum with rainbow in it. (It loads `gameRainbow` first, so in a rainbow game the
/// runner hands it that module's colours; the kit's own `game` import is used otherwise.)
fn hanabi_three_rainbow() -> String {
    let kit = include_str!("../../../kits/hanabi/python/player.py");
    format!(
        r#"import sys

import gameRainbow
{kit}

class checked(player):
    def __init__(self):
        super().__init__()
        self.onStart.insert(0, self.check)

    def check(self, handStatus):
        colours = type(handStatus[0][0].color)
        if len(handStatus) != 3 or "rainbow" not in colours.__members__:
            print("expected 3 players and rainbow colours, got %d players and %s"
                  % (len(handStatus), ", ".join(colours.__members__)), file=sys.stderr, flush=True)
            sys.exit(1)
        print("checked: 3 players, rainbow", file=sys.stderr, flush=True)
"#
    )
}

async fn validated(
    pool: &PgPool,
    language: Language,
    bot: &Bot<'_>,
    team_name: &str,
) -> submissions::Submission {
    let (worker, _scratch) = worker(pool, |_| {}).await;
    let id = upload_bot(pool, team(pool, team_name).await, language, bot).await;
    assert_eq!(drain(&worker).await, 1);
    submission(pool, id).await
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_splendor_bot_with_some_illegal_moves_is_ready_with_a_warning(pool: PgPool) {
    // Arrange: a bot whose every third round is an illegal move (two golds)
    let text = splendor_bot("state[\"round\"] % 3 == 0");
    let bot = Bot::new("splendor", "bot.py", &text);

    // Act
    let s = validated(&pool, Language::Python3, &bot, "sometimes").await;

    // Assert: usable, with the illegal moves listed (kind, count, first reasons)
    assert_ready(&s);
    let ValidationWarning {
        faults,
        kinds,
        reasons,
    } = s.validation_warning.expect("a warning").0;
    assert!(faults >= 2, "{faults} faults\n{}", s.compile_log);
    assert_eq!(
        kinds,
        [FaultCount {
            kind: EndState::IllegalAction,
            count: faults
        }]
    );
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(
        reasons
            .iter()
            .all(|r| r.contains("gold cannot be taken: it comes only with a reservation")),
        "{reasons:?}"
    );
    assert!(
        s.compile_log
            .contains("validation game (Splendor hackathon, 3 players"),
        "{}",
        s.compile_log
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_bot_that_never_makes_a_legal_move_fails(pool: PgPool) {
    let text = splendor_bot("True");
    let bot = Bot::new("splendor", "bot.py", &text);

    let s = validated(&pool, Language::Python3, &bot, "never").await;

    assert_eq!(s.status, SubmissionStatus::Failed, "{}", s.compile_log);
    let reason = s.failure_reason.unwrap_or_default();
    assert!(
        reason.starts_with("validation game: illegal_action")
            && reason.contains("never made a legal move"),
        "{reason}"
    );
    assert!(s.validation_warning.is_none());
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_three_player_rainbow_hanabi_bot_is_validated_at_its_table(pool: PgPool) {
    // Arrange: one class bot that insists on 3 players and rainbow colours
    let text = hanabi_three_rainbow();
    let mut rainbow = Bot::new("hanabi", "checked.py", &text);
    (rainbow.rules, rainbow.players, rainbow.entry) = ("rainbow", Some(3), "checked.py:checked");
    let mut standard = Bot::new("hanabi", "checked.py", &text);
    standard.entry = "checked.py:checked";

    // Act: uploaded for its table, and for the game's default one (standard, 4 players)
    let mine = validated(&pool, Language::Python3, &rainbow, "rainbows").await;
    let default = validated(&pool, Language::Python3, &standard, "standards").await;

    // Assert
    assert_ready(&mine);
    assert!(
        mine.compile_log
            .contains("validation game (Hanabi rainbow, 3 players")
            && mine.compile_log.contains("checked: 3 players, rainbow"),
        "{}",
        mine.compile_log
    );
    assert_eq!(
        default.status,
        SubmissionStatus::Failed,
        "{}",
        default.compile_log
    );
    assert!(
        default
            .compile_log
            .contains("expected 3 players and rainbow colours, got 4 players"),
        "{}",
        default.compile_log
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_same_bytes_get_the_same_seed_and_verdict(pool: PgPool) {
    // Arrange: one bot uploaded twice, by two teams, and once more for another table
    let text = splendor_bot("state[\"round\"] % 2 == 0");
    let bot = Bot::new("splendor", "bot.py", &text);
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let first = upload_bot(&pool, team(&pool, "first").await, Language::Python3, &bot).await;
    let again = upload_bot(&pool, team(&pool, "again").await, Language::Python3, &bot).await;
    let nothanks = "import sys\nsys.exit(1)\n";
    let other_a = Bot::new("nothanks", "bot.py", nothanks);
    let mut other_b = Bot::new("nothanks", "bot.py", nothanks);
    other_b.players = Some(5);
    let a = upload_bot(
        &pool,
        team(&pool, "three").await,
        Language::Python3,
        &other_a,
    )
    .await;
    let b = upload_bot(
        &pool,
        team(&pool, "five").await,
        Language::Python3,
        &other_b,
    )
    .await;

    // Act
    assert_eq!(drain(&worker).await, 4);

    // Assert: the same game (seed, seat, faults), the same verdict
    let (first, again) = (
        submission(&pool, first).await,
        submission(&pool, again).await,
    );
    assert_eq!(first.validation_seed, again.validation_seed);
    assert_eq!(
        first.status,
        SubmissionStatus::Ready,
        "{}",
        first.compile_log
    );
    assert_eq!(first.status, again.status);
    assert_eq!(first.validation_warning, again.validation_warning);
    let game_line = |log: &str| {
        let line = log.lines().find(|l| l.starts_with("--- validation game"));
        line.map(str::to_owned).unwrap_or_default()
    };
    assert!(
        game_line(&first.compile_log).contains(&format!("seed {}", first.validation_seed)),
        "{}",
        first.compile_log
    );
    assert_eq!(game_line(&first.compile_log), game_line(&again.compile_log));
    // Another table of the same bytes is another game.
    let (a, b) = (submission(&pool, a).await, submission(&pool, b).await);
    assert_ne!(a.validation_seed, b.validation_seed);
}

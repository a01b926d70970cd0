//! `croupier` as a client of a running platform (`croupier up` with its workers), as a bot
//! author uses it from a terminal: `login` keeps a token in the config directory, then
//! `submit`, `submissions`, `challenge --wait`, `matches`, `replay` (which `croupier play
//! --replay` re-checks), `logs`, `leaderboard`, and `login --forget`; a wrong password and
//! someone else's seat log are refused with the server's words.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Output, Stdio};

use serde_json::Value;

use super::api::Api;
use super::procs::{scratch, Proc};
use crate::binary::process::croupier;
use crate::helpers::PASSWORD;

/// `croupier ARGS` with `config` as its config directory (XDG_CONFIG_HOME), `stdin` written to
/// it; run in `cwd`.
fn client(config: &Path, cwd: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write as _;
    let mut command = croupier();
    command
        .args(args)
        .current_dir(cwd)
        .env("XDG_CONFIG_HOME", config)
        .env_remove("CROUPIER_CONFIG_DIR")
        .env_remove("CROUPIER_SERVER")
        .env_remove("CROUPIER_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("run croupier");
    let mut pipe = child.stdin.take().expect("stdin");
    if let Some(text) = stdin {
        pipe.write_all(text.as_bytes()).expect("write stdin");
    }
    drop(pipe);
    child.wait_with_output().expect("wait for croupier")
}

fn ok(out: &Output, what: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn refused(out: &Output, what: &str) -> String {
    assert!(!out.status.success(), "{what} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bot_author_logs_in_submits_challenges_and_reads_matches_replays_logs_and_boards_from_the_terminal(
) {
    // Arrange: the platform, a No Thanks ladder, and Ann (signed up, team Ants) who has not
    // used the command line yet.
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let ann = Api::user(&base, "ann", PASSWORD, true).await;
    ann.team("Ants").await;
    let competition = admin.small_ladder("Open ladder", "nothanks").await;
    let config = dir.path().join("config");
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).expect("work dir");
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kits/nothanks/python/bot.py");
    let kit = kit.to_str().expect("utf-8");
    let run = |args: &[&str], stdin: Option<&str>| client(&config, &work, args, stdin);

    // Act + assert: nothing works before logging in, and says how to log in.
    let err = refused(&run(&["matches"], None), "matches before login");
    assert!(err.contains("croupier login --server URL"), "{err}");

    // A wrong password is the server's refusal, and nothing is saved.
    let err = refused(
        &run(
            &[
                "login",
                "--server",
                &base,
                "--username",
                "ann",
                "--password-stdin",
            ],
            Some("not her password\n"),
        ),
        "login with a wrong password",
    );
    assert!(err.contains("the server refused (401"), "{err}");
    let saved = config.join("croupier").join("credentials.json");
    assert!(!saved.exists(), "a failed login saved something");

    // Logging in keeps the token, readable by its owner only.
    let said = ok(
        &run(
            &[
                "login",
                "--server",
                &format!("{base}/"),
                "--username",
                "ann",
                "--password-stdin",
            ],
            Some(&format!("{PASSWORD}\n")),
        ),
        "login",
    );
    assert!(
        said.contains(&format!("logged in to {base} as ann (team Ants)")),
        "{said}"
    );
    let mode = std::fs::metadata(&saved)
        .expect("saved login")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "the saved login is readable by others");
    let kept: Value = serde_json::from_slice(&std::fs::read(&saved).expect("read")).expect("json");
    assert_eq!(kept["server"], base.as_str());
    assert!(
        kept["token"].as_str().is_some_and(|t| t.starts_with("cr_")),
        "{kept}"
    );
    let shown = ok(&run(&["login", "--show"], None), "login --show");
    assert!(
        shown.contains(&format!("logged in to {base} as ann")),
        "{shown}"
    );

    // Submit the kit with the saved login and wait for its validation.
    let said = ok(
        &run(
            &[
                "submit", "--game", "nothanks", "--lang", "python3", "--wait", kit,
            ],
            None,
        ),
        "submit",
    );
    assert!(said.contains("uploaded nothanks bot version 1"), "{said}");
    assert!(said.contains("status ready"), "{said}");
    let listed = ok(&run(&["submissions", "--json"], None), "submissions");
    let listed: Value = serde_json::from_str(&listed).expect("json");
    let kit_id = listed["submissions"][0]["submission_id"]
        .as_str()
        .expect("the submission is listed")
        .to_owned();
    let table = ok(&run(&["submissions"], None), "submissions");
    assert!(
        table.contains(&kit_id) && table.contains("ready"),
        "{table}"
    );

    // The competitions and a challenge in one, followed to its end.
    let listed = ok(&run(&["leaderboard"], None), "leaderboard");
    assert!(
        listed.contains(&competition) && listed.contains("Open ladder"),
        "{listed}"
    );
    let said = ok(
        &run(
            &[
                "challenge",
                &competition,
                "--seat",
                &kit_id,
                "--seat",
                "builtin:random",
                "--seat",
                "builtin:random",
                "--wait",
            ],
            None,
        ),
        "challenge",
    );
    assert!(said.contains("3 matches queued"), "{said}");
    assert!(said.contains("over: 3 finished, 0 failed"), "{said}");
    assert!(
        said.contains(&kit_id) && said.contains("builtin:random"),
        "{said}"
    );

    // Ann's matches: the challenge's three, finished.
    let matches = ok(&run(&["matches", "--json"], None), "matches");
    let matches: Value = serde_json::from_str(&matches).expect("json");
    assert_eq!(matches["total"], 3, "{matches}");
    let first = &matches["matches"][0];
    assert_eq!(first["status"], "finished", "{first}");
    let id = first["match_id"].as_str().expect("id").to_owned();
    let seat = (first["seats"].as_array().expect("seats").iter())
        .find(|s| s["submission_id"] == kit_id.as_str())
        .and_then(|s| s["seat"].as_u64())
        .expect("the kit's seat")
        .to_string();
    let other = (first["seats"].as_array().expect("seats").iter())
        .find(|s| s["submission_id"].is_null())
        .and_then(|s| s["seat"].as_u64())
        .expect("a built-in seat")
        .to_string();
    let table = ok(&run(&["matches"], None), "matches");
    assert!(
        table.contains("3 matches in all") && table.contains(&id),
        "{table}"
    );

    // The replay, downloaded, plays back identically on this machine.
    let said = ok(&run(&["replay", &id], None), "replay");
    let file = work.join(format!("match-{id}.json"));
    assert!(
        said.contains(&file.file_name().unwrap().to_string_lossy().into_owned()),
        "{said}"
    );
    let replay: Value =
        serde_json::from_slice(&std::fs::read(&file).expect("replay")).expect("json");
    assert_eq!(replay["format"], 1);
    assert_eq!(replay["games"][0]["replay"]["game"], "nothanks");
    let checked = ok(
        &run(&["play", "--replay", file.to_str().expect("utf-8")], None),
        "play --replay",
    );
    assert!(checked.contains("identical"), "{checked}");

    // Ann's seat's log; a built-in bot's seat has none for her.
    let log = ok(&run(&["logs", &id, &seat], None), "logs");
    assert!(
        log.contains(&format!("match {id}, seat {seat}: Ants v1")) && log.contains("end ok"),
        "{log}"
    );
    let err = refused(
        &run(&["logs", &id, &other], None),
        "logs of a built-in seat",
    );
    assert!(err.contains("the server refused (404"), "{err}");

    // The ladder's leaderboard (a challenge is unrated: no finished match counts).
    let board = ok(&run(&["leaderboard", &competition], None), "leaderboard");
    assert!(board.contains("Open ladder (nothanks"), "{board}");

    // Forgetting the login.
    let said = ok(&run(&["login", "--forget"], None), "login --forget");
    assert!(said.contains("forgot the login"), "{said}");
    assert!(!saved.exists());
    up.stop().await;
}

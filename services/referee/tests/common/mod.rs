//! Shared helpers: a real isolated sandbox per test (own slot uids), the starter kits as bots,
//! and hostile bots written as small Python scripts.
#![allow(dead_code)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use croupier_games::GameId;
use croupier_referee::{MatchLimits, MatchResult, MatchSpec, SeatOutcome, SeatSpec};
use croupier_sandbox::{Config, Mode, Sandbox};
use tempfile::TempDir;

/// Slot uids per test sandbox: a seat each, at most four seats.
const SLOTS: u32 = 4;

/// An isolated sandbox with slot uids no other test uses, and the first of them (`uids ..
/// uids + 4`, for [`assert_no_slot_processes`]).
pub async fn sandbox() -> (Sandbox, u32) {
    let uids = croupier_sandbox::testing::uid_range(SLOTS);
    let sandbox = Sandbox::new(Config {
        first_uid: uids,
        slots: SLOTS,
        state_dir: PathBuf::from("/tmp/croupier-referee-tests"),
        init: init_binary(),
        ..Config::default()
    })
    .await
    .expect("the sandbox probe passes on this machine (run the tests as root)");
    (sandbox, uids)
}

/// Plain child processes (mode `none`), as `croupier play` uses locally.
pub async fn unsandboxed() -> Sandbox {
    let config = Config {
        mode: Mode::None,
        ..Config::default()
    };
    Sandbox::new(config).await.expect("mode none needs nothing")
}

/// The `croupier-sandbox-init` binary: `$CROUPIER_SANDBOX_INIT`, or next to the test binary's
/// target directory, built with cargo if missing (a plain `cargo test -p croupier-referee`
/// does not build other packages' binaries).
fn init_binary() -> PathBuf {
    static INIT: OnceLock<PathBuf> = OnceLock::new();
    INIT.get_or_init(|| {
        if let Some(path) = std::env::var_os("CROUPIER_SANDBOX_INIT") {
            return PathBuf::from(path);
        }
        let path = croupier_sandbox::default_init_path();
        if !path.exists() {
            let status = Command::new(env!("CARGO"))
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    "croupier-sandbox",
                    "--bin",
                    "croupier-sandbox-init",
                ])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .status()
                .expect("cargo runs");
            assert!(status.success(), "building croupier-sandbox-init failed");
        }
        path
    })
    .clone()
}

/// A world-readable temporary directory (the sandbox binds it as the slot uid).
pub fn open_dir() -> TempDir {
    let dir = tempfile::Builder::new()
        .prefix("croupier-ref-")
        .tempdir()
        .unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn kits() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kits/nothanks")
}

/// Bot directories that live as long as the test.
#[derive(Default)]
pub struct Bots(Vec<TempDir>);

impl Bots {
    /// The Python starter kit; `port` is passed as its argument when given.
    pub fn python_kit(&mut self, name: &str, port: Option<u16>) -> SeatSpec {
        let dir = open_dir();
        fs::copy(kits().join("python/bot.py"), dir.path().join("bot.py")).unwrap();
        let mut command = vec!["/usr/bin/python3".to_string(), "/bot/bot.py".into()];
        command.extend(port.map(|p| p.to_string()));
        self.keep(dir, name, command)
    }

    /// The C starter kit, compiled here with `gcc -O2`.
    pub fn c_kit(&mut self, name: &str, port: Option<u16>) -> SeatSpec {
        let dir = open_dir();
        let status = Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(dir.path().join("bot"))
            .arg(kits().join("c/bot.c"))
            .status()
            .expect("gcc runs");
        assert!(status.success(), "the C kit compiles");
        let mut command = vec!["/bot/bot".to_string()];
        command.extend(port.map(|p| p.to_string()));
        self.keep(dir, name, command)
    }

    /// A Python script as the bot.
    pub fn script(&mut self, name: &str, source: &str) -> SeatSpec {
        let dir = open_dir();
        fs::write(dir.path().join("bot.py"), source).unwrap();
        self.keep(
            dir,
            name,
            vec!["/usr/bin/python3".into(), "/bot/bot.py".into()],
        )
    }

    fn keep(&mut self, dir: TempDir, name: &str, command: Vec<String>) -> SeatSpec {
        let seat = SeatSpec::program(name, dir.path(), command);
        self.0.push(dir);
        seat
    }
}

/// A Python prelude for hostile bots: connect, join with the stdin name (or `NAME`), and hand
/// each request to `on_request(conn, msg)`.
pub const HOSTILE: &str = r#"
import json, socket, sys, time
room, me = input().strip(), input().strip()
conn = socket.create_connection(("127.0.0.1", 2004))
f = conn.makefile("rb")
def send(kind, payload):
    conn.sendall((json.dumps({"type": kind, "payload": payload}) + "\n").encode())
def run(on_request, name=None):
    for line in f:
        msg = json.loads(line)
        if msg["type"] == "request_room_name_and_role":
            send("reply_room_name_and_role", {"room_name": room, "role": "player", "player_name": name or me})
        elif msg["type"] == "request_action":
            on_request(msg)
"#;

/// One No Thanks match under the boardcoder rules.
pub fn nothanks(seed: u64, seats: Vec<SeatSpec>) -> MatchSpec {
    MatchSpec::new(GameId::NO_THANKS, seed, seats)
}

/// Short limits for hostile tests.
pub fn quick_limits() -> MatchLimits {
    MatchLimits {
        move_time: Duration::from_secs(1),
        join_time: Duration::from_secs(5),
        ..MatchLimits::default()
    }
}

/// Checks what every finished match must satisfy: consistent ranks, replays that rebuild to
/// the recorded engine outcome, game outcomes that are the replays' fair outcomes, and one
/// outcome per seat.
pub fn assert_consistent(result: &MatchResult) {
    let seats = result.seats.len();
    result.outcome.check(seats).unwrap();
    for game in &result.games {
        game.outcome.check(seats).unwrap();
        let rebuilt = game.replay.rebuild().expect("the replay rebuilds");
        assert_eq!(rebuilt.outcome(), game.replay.outcome);
        assert_eq!(game.replay.fair_outcome().as_ref(), Some(&game.outcome));
    }
    for (seat, outcome) in result.seats.iter().zip(&result.outcome.seats) {
        assert_eq!((seat.rank, seat.score), (outcome.rank, outcome.score));
    }
}

pub fn describe(result: &MatchResult) -> String {
    let seat = |s: &SeatOutcome| {
        format!(
            "{} {:?} rank {} score {} moves {} forced {} cpu {} ms detail {:?}\n  stderr: {}",
            s.name,
            s.end_state,
            s.rank,
            s.score,
            s.moves,
            s.forced_moves,
            s.cpu_ms,
            s.detail,
            s.stderr_tail.trim()
        )
    };
    let lines: Vec<String> = result.seats.iter().map(seat).collect();
    format!("match took {} ms\n{}", result.wall_ms, lines.join("\n"))
}

/// Asserts that no process of the slot uids `base .. base + SLOTS` is alive (every seat's tree was
/// killed). Processes the kernel is still tearing down after their sandbox's init exited (SIGKILL
/// sent, not yet reaped) are given 3 s to disappear.
pub fn assert_no_slot_processes(base: u32) {
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    loop {
        let left = slot_processes(base);
        if left.is_empty() {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "processes of the slot uids survived: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The first status line (`Name:`) of every process of the slot uids.
fn slot_processes(base: u32) -> Vec<String> {
    let mut left = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(status) = fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let uid: Option<u32> = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok());
        if uid.is_some_and(|u| (base..base + SLOTS).contains(&u)) {
            left.push(status.lines().next().unwrap_or_default().to_owned());
        }
    }
    left
}

/// [`croupier_referee::play`] with the per-move Python seats warm (forked from the seat's warm
/// Python, the default) or, with `CROUPIER_TEST_PYTHON=cold` in the environment, cold (a new
/// `python3` every move): the per-move tests pass both ways (`scripts/test` runs them cold
/// too).
pub async fn play(
    sandbox: &Sandbox,
    mut spec: MatchSpec,
) -> Result<MatchResult, croupier_referee::RefereeError> {
    spec.limits.warm_python = python_warm();
    croupier_referee::play(sandbox, spec).await
}

/// Whether this test run's per-move Python seats are warm (see [`play`]).
pub fn python_warm() -> bool {
    std::env::var("CROUPIER_TEST_PYTHON").map_or(true, |v| v != "cold")
}

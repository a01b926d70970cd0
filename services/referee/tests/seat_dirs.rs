//! Every game: a bot may write next to itself (issue 12). Each starter kit is wrapped so that
//! before every decision it reads a counter from `notes.txt` in its cwd, writes it back plus
//! one, appends to `log.txt` next to its own file (`__file__`-relative) and prints `notes N` on
//! stderr. A whole game must then play without faults with the counts going 1, 2, 3, … in each
//! seat: for the per-move games (Splendor, Bridge) that is a file written by one process and
//! read by the next; two seats running the same bot directory count separately (their
//! directories are private); and the submission directory is byte-for-byte unchanged.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use croupier_games::GameId;
use croupier_referee::{MatchResult, MatchSpec, SeatOutcome, SeatSpec};
use croupier_sandbox::EndState;
use tempfile::TempDir;

/// Defines `note()`; a wrapper calls it before each decision.
const NOTE: &str = r#"
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
def note():
    try:
        n = int(open("notes.txt").read())
    except FileNotFoundError:
        n = 0
    with open("notes.txt", "w") as out:
        out.write(str(n + 1))
    with open(os.path.join(HERE, "log.txt"), "a") as log:
        log.write("move %d\n" % (n + 1))
    if open("notes.txt").read() != str(n + 1):
        sys.exit(7)
    print("notes %d" % (n + 1), file=sys.stderr, flush=True)
def noted(f):
    def wrapped(*args, **kwargs):
        note()
        return f(*args, **kwargs)
    return wrapped
"#;

fn kit(path: &str) -> String {
    let kits = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kits");
    fs::read_to_string(kits.join(path)).unwrap()
}

/// A bot directory: the kit as `kit.py` and `bot.py` = [`NOTE`] + `body`.
fn wrapped(kit_file: &str, body: &str) -> TempDir {
    let dir = open_dir();
    fs::write(dir.path().join("kit.py"), kit(kit_file)).unwrap();
    fs::write(dir.path().join("bot.py"), format!("{NOTE}\n{body}")).unwrap();
    dir
}

fn seat(name: &str, dir: &Path) -> SeatSpec {
    SeatSpec::program(name, dir, ["/usr/bin/python3", "/bot/bot.py"])
}

/// Every file of `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(snapshot(&path));
        } else {
            files.insert(path.clone(), fs::read(&path).unwrap());
        }
    }
    files
}

/// The `notes N` counts a seat printed, in order.
fn notes(seat: &SeatOutcome) -> Vec<u32> {
    seat.stderr_tail
        .lines()
        .filter_map(|l| l.strip_prefix("notes ")?.trim().parse().ok())
        .collect()
}

/// Plays `spec`; every seat in `wrapped_seats` must end `ok` without a fault, its counts
/// must be 1, 2, …, n (n ≥ `min`), and the bot directories must be unchanged.
async fn check(spec: MatchSpec, wrapped_seats: &[usize], min: u32, dirs: &[&Path]) -> MatchResult {
    let before: Vec<_> = dirs.iter().map(|d| snapshot(d)).collect();
    let (sb, uids) = sandbox().await;
    let result = play(&sb, spec).await.unwrap();
    let about = describe(&result);
    eprintln!("{about}");
    assert_consistent(&result);
    for &i in wrapped_seats {
        let s = &result.seats[i];
        assert_eq!(s.end_state, EndState::Ok, "{about}");
        assert!(s.detail.is_empty() && s.forced_moves == 0, "{about}");
        let counts = notes(s);
        let n = counts.len() as u32;
        assert!(n >= min, "seat {i} noted {n} decisions: {about}");
        assert_eq!(
            counts,
            (1..=n).collect::<Vec<_>>(),
            "seat {i}'s own file, kept and private: {about}"
        );
    }
    let after: Vec<_> = dirs.iter().map(|d| snapshot(d)).collect();
    assert_eq!(before, after, "the submissions are never written");
    assert_no_slot_processes(uids);
    result
}

#[tokio::test]
async fn splendor_bots_keep_files_between_moves_in_private_directories() {
    let bot = wrapped(
        "splendor/python/bot.py",
        "import kit\nkit.choose = noted(kit.choose)\nkit.main()\n",
    );
    let seats = vec![
        seat("a", bot.path()),
        seat("b", bot.path()),
        SeatSpec::builtin("greedy"),
    ];
    let spec = MatchSpec::new(GameId::SPLENDOR, 3, seats);

    let result = check(spec, &[0, 1], 10, &[bot.path()]).await;

    for s in &result.seats[..2] {
        assert_eq!(notes(s).len() as u32, s.moves, "one count per call");
    }
}

#[tokio::test]
async fn bridge_partners_keep_files_between_calls_next_to_board_and_steplog() {
    let bot = wrapped(
        "bridge/python/bot.py",
        "import kit\nkit.choose_call = noted(kit.choose_call)\n\
         kit.choose_card = noted(kit.choose_card)\nkit.main()\n",
    );
    let seats = vec![
        seat("north", bot.path()),
        SeatSpec::builtin("robot"),
        seat("south", bot.path()),
        SeatSpec::builtin("robot"),
    ];
    let mut spec = MatchSpec::new(GameId::BRIDGE, 7, seats);
    spec.games = 1;

    check(spec, &[0, 2], 2, &[bot.path()]).await;
}

#[tokio::test]
async fn no_thanks_bots_write_next_to_themselves_on_every_move() {
    let bot = wrapped(
        "nothanks/python/bot.py",
        "import kit\nkit.wants_card = noted(kit.wants_card)\nkit.main()\n",
    );
    let seats = vec![
        seat("a", bot.path()),
        seat("b", bot.path()),
        SeatSpec::builtin("random"),
    ];

    check(nothanks(4, seats), &[0, 1], 5, &[bot.path()]).await;
}

#[tokio::test]
async fn guandan_bots_write_next_to_themselves_on_every_move() {
    let bot = wrapped(
        "guandan/python/client.py",
        "import kit\nkit.Strategy.choose = noted(kit.Strategy.choose)\n\
         client = kit.GuandanClient('ws://127.0.0.1:23456/game/client1')\n\
         client.connect()\nclient.run_forever()\n",
    );
    let seats = vec![
        seat("a", bot.path()),
        SeatSpec::builtin("random"),
        seat("b", bot.path()),
        SeatSpec::builtin("random"),
    ];
    let mut spec = MatchSpec::new(GameId::GUANDAN, 8, seats);
    spec.games = 1;

    check(spec, &[0, 2], 5, &[bot.path()]).await;
}

#[tokio::test]
async fn hanabi_websocket_and_class_based_bots_write_next_to_themselves_on_every_move() {
    let ws = wrapped(
        "hanabi/python/ws_bot.py",
        "import kit\nkit.Table.choose = noted(kit.Table.choose)\nkit.main(sys.argv[1:])\n",
    );
    let class = open_dir();
    fs::write(
        class.path().join("kitplayer.py"),
        kit("hanabi/python/player.py"),
    )
    .unwrap();
    fs::write(
        class.path().join("player.py"),
        format!(
            "{NOTE}\nfrom kitplayer import player as _kit\n\
             class player(_kit):\n    def turn(self):\n        note()\n        return super().turn()\n"
        ),
    )
    .unwrap();
    let seats = vec![
        seat("ws-a", ws.path()),
        seat("ws-b", ws.path()),
        SeatSpec::program(
            "class",
            class.path(),
            ["/usr/bin/python3", "/bot/player.py"],
        ),
        SeatSpec::builtin("convention"),
    ];
    let spec = MatchSpec {
        limits: quick_limits(),
        ..MatchSpec::new(GameId::HANABI, 11, seats)
    };

    check(spec, &[0, 1, 2], 3, &[ws.path(), class.path()]).await;
}

/// After its first good move it fills its directory to the last page and leaves a tree deeper
/// than PATH_MAX where Board.txt was: that call changed Board.txt, and at its next call the
/// platform cannot write Board.txt any more. Both are its own violations; the match goes on.
const SABOTAGE: &str = r#"
import os, sys
import kit
kit.main()
def fill():
    try:
        with open(os.path.join(HERE, "fill"), "ab", buffering=0) as f:
            while True:
                f.write(b"x" * 4096)
    except OSError:
        pass
if not os.path.exists("done"):
    open("done", "w").close()
    fill()
    os.remove(sys.argv[1])
    os.mkdir(sys.argv[1])
    os.chdir(sys.argv[1])
    for _ in range(60):
        os.mkdir("d" * 100)
        os.chdir("d" * 100)
    fill()  # the page Board.txt had
    print("sabotaged", file=sys.stderr)
"#;

#[tokio::test]
async fn a_bridge_bot_that_fills_its_directory_and_buries_board_txt_only_faults_itself() {
    let bot = wrapped("bridge/python/bot.py", SABOTAGE);
    let seats = vec![
        seat("north", bot.path()),
        SeatSpec::builtin("robot"),
        SeatSpec::builtin("robot"),
        SeatSpec::builtin("robot"),
    ];
    let mut spec = MatchSpec::new(GameId::BRIDGE, 7, seats);
    spec.games = 2;
    spec.limits.seat.disk_bytes = 2 << 20;
    let (sb, uids) = sandbox().await;

    let result = play(&sb, spec).await.unwrap();

    let about = describe(&result);
    eprintln!("{about}");
    assert_consistent(&result);
    assert_eq!(result.games.len(), 2, "both deals are played");
    let north = &result.seats[0];
    assert!(north.stderr_tail.contains("sabotaged"), "{about}");
    assert_eq!(north.end_state, EndState::InvalidOutput, "{about}");
    let faults: Vec<&str> = north.detail.lines().collect();
    assert_eq!(faults.len(), 2, "{about}");
    assert!(faults[0].starts_with("board 1,"), "{about}");
    assert!(
        faults[1].starts_with("board 2,") && faults[1].contains("could not be written"),
        "{about}"
    );
    assert_no_slot_processes(uids);
}

//! A seat's warm Python ([`croupier_sandbox::MoveRunner::warm_python`]): a move forked from it
//! sees what `python3 bot.py …` would (argv, stdin, cwd, `__main__`, exit status, tracebacks),
//! nothing of an earlier move survives into the next, random generators are new per move, and
//! the per-move limits hold. Each check runs warm and cold, and the two must agree.

mod common;

use std::time::Duration;

use common::*;
use croupier_sandbox::{EndState, MoveRunner, RunReport, Sandbox, SeatDir};

/// A runner of `/usr/bin/python3 /bot/bot.py` in a seat dir, warm or cold.
async fn runner(
    sb: &Sandbox,
    bot: &tempfile::TempDir,
    wall: Duration,
    warm: bool,
) -> (MoveRunner, SeatDir) {
    let mut spec = spec("/usr/bin/python3", bot.path(), wall);
    spec.args = vec!["/bot/bot.py".into()];
    let seat = sb
        .seat_dir(bot.path(), "/bot", &spec.limits)
        .await
        .expect("a seat dir");
    spec.seat_dir = Some(seat.clone());
    (sb.move_runner(spec).warm_python(warm), seat)
}

fn out(report: &RunReport) -> String {
    String::from_utf8_lossy(&report.stdout).into_owned()
}

fn err(report: &RunReport) -> String {
    String::from_utf8_lossy(&report.stderr).into_owned()
}

/// Prints what a script can see of how it was started, and what an earlier move might have
/// left: a global of its own, an attribute set on a standard module, a helper module's
/// counter; then sets all three. Ends as its first word says.
const PROBE: &str = r#"import sys, os, json, random
import helper
print("argv", sys.argv)
print("stdin", repr(sys.stdin.read()))
print("cwd", os.getcwd(), "path0", sys.path[0], "name", __name__, "file", __file__)
print("main", sys.modules["__main__"].__dict__ is globals(), sorted(k for k in globals() if k.startswith("__")))
print("left", globals().get("LEFT"), getattr(json, "left", None), helper.count)
print("stdio", sys.stdout.isatty(), sys.stdin.seekable(), sys.stdout.encoding, sys.stdout.line_buffering)
print("threads", __import__("threading").active_count())
LEFT = 1
json.left = 1
helper.count += 1
print("log line", sys.argv[1:], file=sys.stderr)
word = sys.argv[1] if len(sys.argv) > 1 else ""
if word == "raise":
    def deeper():
        raise ValueError("boom")
    deeper()
if word == "exit3":
    sys.exit(3)
if word == "exitmsg":
    sys.exit("a message")
if word == "atexit":
    import atexit
    atexit.register(lambda: print("at exit"))
    sys.stdout.write("unflushed")
"#;

fn probe_bot() -> tempfile::TempDir {
    let bot = script_bot("bot.py", PROBE);
    std::fs::write(bot.path().join("helper.py"), "count = 0\n").unwrap();
    bot
}

/// The words of every move and what it reports, warm or cold.
async fn play_probe(warm: bool) -> Vec<(EndState, String, String)> {
    let (sb, uids) = sandbox().await;
    let bot = probe_bot();
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(10), warm).await;
    let mut seen = Vec::new();
    for word in ["", "raise", "exit3", "exitmsg", "atexit", "x y"] {
        let args: Vec<String> = if word.is_empty() {
            vec![]
        } else {
            vec![word.into(), "z".into()]
        };
        let report = moves.run(&args, format!("in {word}\n").into_bytes()).await;
        assert_eq!(moves.is_warm(), warm, "warm {warm}: {}", err(&report));
        seen.push((report.end_state.clone(), out(&report), err(&report)));
    }
    moves.close().await;
    assert_no_slot_processes(uids);
    seen
}

#[tokio::test]
async fn a_warm_move_sees_what_a_cold_one_does() {
    let cold = play_probe(false).await;
    let warm = play_probe(true).await;
    for (c, w) in cold.iter().zip(&warm) {
        eprintln!("cold: {c:?}\nwarm: {w:?}");
    }
    assert_eq!(cold, warm);
    let (state, text, log) = &warm[0];
    assert_eq!(*state, EndState::Ok);
    assert!(text.contains("argv ['/bot/bot.py']"), "{text}");
    assert!(text.contains("stdin 'in \\n'"), "{text}");
    assert!(
        text.contains("cwd /bot path0 /bot name __main__ file /bot/bot.py"),
        "{text}"
    );
    assert!(text.contains("main True"), "{text}");
    assert!(text.contains("left None None 0"), "hidden state: {text}");
    assert_eq!(log.trim(), "log line []", "stderr per move");
    let (state, _, log) = &warm[1];
    let crashed = |code| EndState::Crashed {
        signal: None,
        code: Some(code),
    };
    assert_eq!(*state, crashed(1));
    assert!(
        log.contains("Traceback (most recent call last):\n  File \"/bot/bot.py\", line"),
        "{log}"
    );
    assert!(log.contains("ValueError: boom"), "{log}");
    assert!(
        !log.contains("<string>"),
        "no frame of the warm Python's: {log}"
    );
    assert_eq!(warm[2].0, crashed(3));
    assert_eq!(warm[3].0, crashed(1));
    assert!(warm[3].2.contains("a message"), "{}", warm[3].2);
    assert!(warm[4].1.contains("unflushedat exit"), "{}", warm[4].1);
    assert!(warm[5].1.contains("argv ['/bot/bot.py', 'x y', 'z']"));
    for (_, text, _) in &warm {
        if !text.is_empty() {
            assert!(text.contains("left None None 0"), "hidden state: {text}");
        }
    }
}

#[tokio::test]
async fn random_generators_are_new_every_move() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot(
        "bot.py",
        "import sys\nwarm = 'numpy' in sys.modules\nimport random, numpy\n\
         print(warm, random.random(), numpy.random.rand(), numpy.random.default_rng().random())\n",
    );
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(10), true).await;
    let mut draws = Vec::new();
    for _ in 0..3 {
        let report = moves.run(&[], Vec::new()).await;
        assert_eq!(report.end_state, EndState::Ok, "{}", err(&report));
        let text = out(&report);
        assert!(
            text.starts_with("True "),
            "numpy was imported before the move: {text}"
        );
        draws.push(text);
    }
    assert!(moves.is_warm());
    for (i, a) in draws.iter().enumerate() {
        for b in &draws[i + 1..] {
            for (x, y) in a.split(' ').zip(b.split(' ')).skip(1) {
                assert_ne!(x, y, "the same draw in two moves: {draws:?}");
            }
        }
    }
    moves.close().await;
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn limits_apply_to_each_warm_move_and_the_seat_plays_on() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot(
        "bot.py",
        "import sys, time, os, subprocess\nword = sys.argv[1] if len(sys.argv) > 1 else ''\n\
         if word == 'hang':\n    while True: pass\n\
         if word == 'memory':\n    b = b'x' * (2 << 30)\n\
         if word == 'flood':\n    while True: sys.stdout.write('y' * 65536)\n\
         if word == 'spin':\n    t = time.process_time()\n    while time.process_time() - t < 0.3: pass\n\
         if word == 'leave':\n    subprocess.Popen(['sleep', '30'])\n\
         print('ok', os.getpid() > 0)\n",
    );
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(2), true).await;
    let cases = [
        ("hang", EndState::TimeLimit),
        ("memory", EndState::MemoryLimit),
        ("flood", EndState::OutputLimit),
        ("leave", EndState::Ok),
    ];
    for (word, want) in cases {
        let report = moves.run(&[word.into()], Vec::new()).await;
        eprintln!("{word}: {:?} in {:?}", report.end_state, report.wall);
        assert_eq!(report.end_state, want, "{word}: {}", err(&report));
        let after = moves.run(&[], Vec::new()).await;
        assert_eq!(after.end_state, EndState::Ok, "the move after {word}");
        assert_eq!(out(&after).trim(), "ok True");
        assert!(moves.is_warm(), "warm again after {word}");
    }
    let spin = moves.run(&["spin".into()], Vec::new()).await;
    assert_eq!(spin.end_state, EndState::Ok);
    assert!(
        spin.cpu >= Duration::from_millis(250),
        "a warm move's own CPU time is measured: {:?}",
        spin.cpu
    );
    moves.close().await;
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_move_that_kills_the_warm_python_gets_its_own_result_and_the_seat_goes_on_cold() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot(
        "bot.py",
        "import os, signal\nif os.path.exists('/bot/kill'):\n    try:\n        os.kill(-1, signal.SIGKILL)\n    \
         except ProcessLookupError:\n        print('nothing to kill')\n\
         open('/bot/kill', 'w').close()\nprint('pid', os.getpid())\n",
    );
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(5), true).await;
    let first = moves.run(&[], Vec::new()).await;
    assert_eq!(first.end_state, EndState::Ok, "{}", err(&first));
    assert!(moves.is_warm());
    let killer = moves.run(&[], Vec::new()).await;
    eprintln!("killer: {:?} {}", killer.end_state, err(&killer));
    assert_eq!(killer.end_state, EndState::Ok, "{}", err(&killer));
    assert!(
        out(&killer).starts_with("pid "),
        "it killed the warm Python: {}",
        out(&killer)
    );
    for _ in 0..2 {
        let next = moves.run(&[], Vec::new()).await;
        assert_eq!(next.end_state, EndState::Ok, "{}", err(&next));
        assert!(
            out(&next).starts_with("nothing to kill\npid "),
            "a cold move, alone in the sandbox: {}",
            out(&next)
        );
    }
    moves.close().await;
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_file_of_the_bot_named_like_a_standard_module_is_the_one_imported() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot("bot.py", "import json\nprint(json.ours)\n");
    std::fs::write(bot.path().join("json.py"), "ours = 'the bot s json'\n").unwrap();
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(5), true).await;
    for _ in 0..2 {
        let report = moves.run(&[], Vec::new()).await;
        assert_eq!(report.end_state, EndState::Ok, "{}", err(&report));
        assert_eq!(out(&report).trim(), "the bot s json");
    }
    assert!(moves.is_warm());
    moves.close().await;
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_script_that_rewrites_itself_runs_its_new_text_next_move() {
    let (sb, uids) = sandbox().await;
    let bot = script_bot(
        "bot.py",
        "print('first')\nopen(__file__, 'w').write(\"print('second')\\n\")\n",
    );
    let (mut moves, _seat) = runner(&sb, &bot, Duration::from_secs(5), true).await;
    for want in ["first", "second", "second"] {
        let report = moves.run(&[], Vec::new()).await;
        assert_eq!(report.end_state, EndState::Ok, "{}", err(&report));
        assert_eq!(out(&report).trim(), want);
    }
    assert!(moves.is_warm());
    moves.close().await;
    assert_no_slot_processes(uids);
}

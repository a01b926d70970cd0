//! What a bot can see and reach, and what is left of it afterwards.

mod common;

use std::time::Duration;

use common::*;
use croupier_sandbox::{EndState, KillReason};

const CONNECT: &str = r#"import socket
try:
    socket.create_connection(("127.0.0.1", 5432), timeout=2)
    print("CONNECTED")
except OSError as e:
    print("FAILED", e)
"#;

#[tokio::test]
async fn connecting_to_the_hosts_postgres_fails() {
    let (sb, _) = sandbox().await;
    let bot = script_bot("bot.py", CONNECT);
    let host = std::net::TcpStream::connect("127.0.0.1:5432");
    assert!(
        host.is_ok(),
        "the test needs a listener on the host's 127.0.0.1:5432"
    );

    let mut spec = spec("/usr/bin/python3", bot.path(), Duration::from_secs(10));
    spec.args = vec!["/bot/bot.py".into()];
    let report = sb.run(spec, Vec::new()).await;

    let out = String::from_utf8_lossy(&report.stdout);
    eprintln!("connect 5432: {:?} {out}", report.end_state);
    assert_eq!(
        report.end_state,
        EndState::Ok,
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    assert!(out.starts_with("FAILED"), "{out}");
}

#[tokio::test]
async fn another_teams_files_and_etc_shadow_cannot_be_read() {
    let (sb, _) = sandbox().await;
    let root = open_dir();
    let (mine, theirs) = (root.path().join("team-a"), root.path().join("team-b"));
    std::fs::create_dir(&mine).unwrap();
    std::fs::create_dir(&theirs).unwrap();
    std::fs::write(theirs.join("secret.txt"), "TOP-SECRET").unwrap();
    let script = format!(
        "#!/bin/sh\ncat /etc/shadow\ncat {0}/secret.txt\ncat /bot/../team-b/secret.txt\nls / /bot/.. >&2\necho done\n",
        theirs.display()
    );
    std::fs::write(mine.join("bot"), script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    for d in [&mine, &theirs] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::set_permissions(mine.join("bot"), std::fs::Permissions::from_mode(0o755)).unwrap();

    let report = sb
        .run(spec("/bot/bot", &mine, Duration::from_secs(5)), Vec::new())
        .await;

    let (out, err) = (
        String::from_utf8_lossy(&report.stdout),
        String::from_utf8_lossy(&report.stderr),
    );
    eprintln!("reads: {:?}\n{out}{err}", report.end_state);
    assert_eq!(out, "done\n");
    assert!(!err.contains("TOP-SECRET") && !err.contains("root:"));
    assert!(err.contains("/etc/shadow: No such file"), "{err}");
}

#[tokio::test]
async fn a_daemonized_child_is_dead_after_the_bot_exits() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot(
        r#"#include <unistd.h>
int main(void){ if(fork()==0){ setsid(); if(fork()==0){ close(0); close(1); close(2); for(;;) sleep(1000); } _exit(0); } sleep(1); return 0; }"#,
    );

    let report = sb
        .run(
            spec("/bot/bot", bot.path(), Duration::from_secs(5)),
            Vec::new(),
        )
        .await;

    eprintln!("daemon: {:?}", report.end_state);
    assert_eq!(report.end_state, EndState::Ok);
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_seat_killed_at_match_end_is_ok_and_leaves_no_process() {
    let (sb, uids) = sandbox().await;
    let bot = c_bot(
        r#"#include <unistd.h>
#include <stdio.h>
int main(void){ if(fork()==0){ setsid(); for(;;) sleep(1000); } puts("ready"); fflush(stdout); for(;;) sleep(1000); }"#,
    );
    let mut p = sb
        .spawn(spec("/bot/bot", bot.path(), Duration::from_secs(60)))
        .await
        .unwrap();
    let mut line = String::new();
    let mut out = tokio::io::BufReader::new(p.stdout.take().unwrap());
    tokio::io::AsyncBufReadExt::read_line(&mut out, &mut line)
        .await
        .unwrap();
    assert_eq!(line, "ready\n");
    assert_eq!(
        slot_processes(uids).len(),
        4,
        "bwrap, init, bot and its child: {:?}",
        slot_processes(uids)
    );

    p.kill(KillReason::MatchEnded);
    let report = p.wait().await;

    assert_eq!(report.end_state, EndState::Ok);
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_seat_killed_for_its_deadline_is_a_time_limit() {
    let (sb, uids) = sandbox().await;
    let bot = open_dir();
    let mut spec = spec("/bin/sleep", bot.path(), Duration::from_secs(60));
    spec.args = vec!["1000".into()];
    let mut p = sb.spawn(spec).await.unwrap();

    p.kill(KillReason::Deadline);
    let report = p.wait().await;

    assert_eq!(report.end_state, EndState::TimeLimit);
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn dropping_a_process_kills_its_tree_and_frees_the_slot() {
    let (sb, uids) = sandbox().await;
    let bot = open_dir();
    let mut spec = spec("/bin/sleep", bot.path(), Duration::from_secs(60));
    spec.args = vec!["1000".into()];
    let p = sb.spawn(spec).await.unwrap();
    assert!(!slot_processes(uids).is_empty());

    drop(p);

    let t0 = std::time::Instant::now();
    while !slot_processes(uids).is_empty() && t0.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn the_bot_has_no_capabilities_cannot_nest_namespaces_and_cannot_read_the_init() {
    let (sb, _) = sandbox().await;
    let bot = script_bot(
        "bot",
        "#!/bin/sh\ngrep CapEff /proc/self/status\nunshare -U true || echo no-userns\nunshare -n true || echo no-netns\n\
         cat /proc/1/environ || echo no-environ\ntouch /x || echo ro-root\ndf -B1 --output=size /dev/shm | tail -1\n",
    );

    let report = sb
        .run(
            spec("/bot/bot", bot.path(), Duration::from_secs(5)),
            Vec::new(),
        )
        .await;

    let out = String::from_utf8_lossy(&report.stdout);
    eprintln!("escape attempts: {out}");
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert_eq!(
        lines[..5],
        [
            "CapEff:\t0000000000000000",
            "no-userns",
            "no-netns",
            "no-environ",
            "ro-root"
        ]
    );
    assert_eq!(
        lines[5],
        croupier_sandbox::Limits::default().disk_bytes.to_string()
    );
}

/// The prepared `/dev` and `/etc` (one bind each): the devices work, nothing can be added or
/// changed there, and `/etc` holds only the listed host files and the sandbox's `hosts`.
const DEV_AND_ETC: &str = r#"import os
with open("/dev/null", "w") as f:
    f.write("gone")
assert len(open("/dev/urandom", "rb").read(16)) == 16
assert open("/dev/zero", "rb").read(4) == b"\0\0\0\0"
try:
    with open("/dev/full", "w") as f:
        f.write("x")
except OSError as e:
    print("full:", e.strerror)
for path in ("/dev/planted", "/etc/planted", "/dev/shm/../planted"):
    try:
        open(path, "w").write("x")
        print("WROTE", path)
    except OSError as e:
        print("refused:", path, e.strerror)
for node in ("/dev/null", "/etc/hosts"):
    try:
        os.chmod(node, 0o777)
        print("CHMOD", node)
    except OSError as e:
        print("refused chmod:", node, e.strerror)
print("dev:", sorted(os.listdir("/dev")))
print("etc has shadow:", os.path.exists("/etc/shadow"), "passwd:", os.path.exists("/etc/passwd"))
print("hosts:", open("/etc/hosts").read().split("\n")[0])
print("fd link:", os.readlink("/dev/fd"))
"#;

#[tokio::test]
async fn dev_and_etc_are_the_prepared_ones_and_read_only_to_the_bot() {
    let (sb, _) = sandbox().await;
    let bot = script_bot("bot.py", DEV_AND_ETC);
    let mut spec = spec("/usr/bin/python3", bot.path(), Duration::from_secs(10));
    spec.args = vec!["/bot/bot.py".into()];
    let report = sb.run(spec, Vec::new()).await;

    let (out, err) = (
        String::from_utf8_lossy(&report.stdout),
        String::from_utf8_lossy(&report.stderr),
    );
    eprintln!("{:?}\n{out}{err}", report.end_state);
    assert_eq!(report.end_state, EndState::Ok, "{err}");
    assert!(out.contains("full: No space left on device"), "{out}");
    assert!(!out.contains("WROTE") && !out.contains("CHMOD"), "{out}");
    assert_eq!(out.matches("refused").count(), 5, "{out}");
    assert!(
        out.contains(
            "dev: ['fd', 'full', 'null', 'random', 'shm', 'stderr', 'stdin', 'stdout', 'tty', \
             'urandom', 'zero']"
        ),
        "{out}"
    );
    assert!(out.contains("etc has shadow: False passwd: False"), "{out}");
    assert!(out.contains("hosts: 127.0.0.1 localhost croupier"), "{out}");
    assert!(out.contains("fd link: /proc/self/fd"), "{out}");
}

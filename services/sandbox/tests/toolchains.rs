//! Real bot toolchains inside the sandbox, mode `none`, and the probe.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use croupier_sandbox::{probe, EndState, Mode, Sandbox};

#[tokio::test]
async fn a_python3_bot_runs_with_debians_python() {
    let (sb, _) = sandbox().await;
    let bot = script_bot(
        "bot.py",
        "import json, sys\nstate = json.load(sys.stdin)\nprint(json.dumps({'n': state['n'] + 1, 'exe': sys.executable}))\n",
    );
    let mut spec = spec("python3", bot.path(), Duration::from_secs(10));
    spec.args = vec!["bot.py".into()];

    let report = sb.run(spec, br#"{"n": 41}"#.to_vec()).await;

    assert_eq!(
        report.end_state,
        EndState::Ok,
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    let out: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(out["n"], 42);
    assert!(
        out["exe"].as_str().unwrap().starts_with("/usr/bin/python3"),
        "{out}"
    );
}

/// What the worker does after a build: takes the executable out of the build's seat dir (which
/// goes away with it) into a directory the bots' slot uids can read.
fn artifact(build: &croupier_sandbox::SeatDir, dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::copy(build.path().join("bot"), dir.join("bot")).unwrap();
    dir.to_owned()
}

#[tokio::test]
async fn numpy_threads_and_subprocesses_work_under_the_system_call_filter() {
    let (sb, _) = sandbox().await;
    let bot = script_bot(
        "bot.py",
        "import numpy, subprocess, threading, multiprocessing\n\
         out = []\n\
         t = threading.Thread(target=lambda: out.append(int(numpy.arange(10).sum())))\n\
         t.start(); t.join()\n\
         with multiprocessing.Pool(2) as pool: squares = pool.map(abs, [-1, -2])\n\
         echo = subprocess.run(['/bin/echo', 'child'], capture_output=True, text=True).stdout.strip()\n\
         print(out[0], sum(squares), echo)\n",
    );
    let mut spec = spec("/usr/bin/python3", bot.path(), Duration::from_secs(20));
    spec.args = vec!["/bot/bot.py".into()];

    let report = sb.run(spec, Vec::new()).await;

    assert_eq!(
        report.end_state,
        EndState::Ok,
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&report.stdout), "45 3 child\n");
}

#[tokio::test]
async fn gxx_builds_a_threaded_cpp_bot_that_runs_under_the_filter() {
    let (sb, _) = sandbox().await;
    let (tools, work) = (open_dir(), open_dir());
    std::fs::write(
        work.path().join("main.cpp"),
        "#include <iostream>\n#include <thread>\nint main(){ int n = 0; std::thread t([&]{ n = 7; }); t.join(); std::cout << n << std::endl; }\n",
    )
    .unwrap();
    let mut compile = spec("g++", tools.path(), Duration::from_secs(60));
    compile.args = ["-O2", "-pthread", "-o", "/work/bot", "/work/main.cpp"]
        .map(String::from)
        .to_vec();
    let build = sb
        .seat_dir(work.path(), "/work", &compile.limits)
        .await
        .unwrap();
    compile.seat_dir = Some(build.clone());
    compile.cwd = "/work".into();
    compile.limits.memory_bytes = 768 << 20;
    compile.limits.wall = Duration::from_secs(60);
    compile.limits.cpu = Duration::from_secs(60);

    let built = sb.run(compile, Vec::new()).await;
    assert_eq!(
        built.end_state,
        EndState::Ok,
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let report = sb
        .run(
            spec(
                "/bot/bot",
                &artifact(&build, work.path()),
                Duration::from_secs(5),
            ),
            Vec::new(),
        )
        .await;
    assert_eq!(report.end_state, EndState::Ok);
    assert_eq!(report.stdout, b"7\n");
}

#[tokio::test]
async fn gcc_compiles_a_c_file_in_the_work_dir_and_the_result_runs() {
    let (sb, _) = sandbox().await;
    let (tools, work) = (open_dir(), open_dir());
    std::fs::write(
        work.path().join("main.c"),
        "#include <stdio.h>\nint main(void){ puts(\"built\"); return 0; }\n",
    )
    .unwrap();
    let mut compile = spec("cc", tools.path(), Duration::from_secs(30));
    compile.args = ["-O2", "-o", "/work/bot", "/work/main.c"]
        .map(String::from)
        .to_vec();
    let build = sb
        .seat_dir(work.path(), "/work", &compile.limits)
        .await
        .unwrap();
    compile.seat_dir = Some(build.clone());
    compile.cwd = "/work".into();
    compile.limits.memory_bytes = 512 << 20;

    let built = sb.run(compile, Vec::new()).await;
    assert_eq!(
        built.end_state,
        EndState::Ok,
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let ran = sb
        .run(
            spec(
                "/bot/bot",
                &artifact(&build, work.path()),
                Duration::from_secs(5),
            ),
            Vec::new(),
        )
        .await;

    eprintln!("gcc in the sandbox took {:?}", built.wall);
    assert_eq!(ran.end_state, EndState::Ok);
    assert_eq!(ran.stdout, b"built\n");
}

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn mode_none_runs_a_bot_without_isolation_and_warns_on_every_spawn() {
    let logs = Captured::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let sb = Sandbox::new(croupier_sandbox::Config {
        mode: Mode::None,
        ..config()
    })
    .await
    .unwrap();
    let bot = script_bot("bot", "#!/bin/sh\ncat\nid -u\n");

    let report = sb
        .run(
            spec("/bot/bot", bot.path(), Duration::from_secs(5)),
            b"hello\n".to_vec(),
        )
        .await;

    assert_eq!(report.end_state, EndState::Ok);
    assert_eq!(report.stdout, b"hello\n0\n");
    let logs = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(
        logs.contains("WARN") && logs.contains("WITHOUT isolation") && logs.contains("/bot/bot"),
        "{logs}"
    );
}

#[tokio::test]
async fn the_probe_passes_here_and_names_a_missing_bubblewrap() {
    assert_eq!(probe(config()).await, Ok(()));

    let err = probe(croupier_sandbox::Config {
        bwrap: "/nonexistent/bwrap".into(),
        ..config()
    })
    .await
    .unwrap_err();

    eprintln!("{err}");
    assert!(
        err.to_string().contains("bubblewrap at /nonexistent/bwrap"),
        "{err}"
    );
}

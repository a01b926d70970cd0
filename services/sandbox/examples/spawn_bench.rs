//! Spawn overhead: median of N sandboxed runs of a tiny C echo bot vs the same bot spawned plainly,
//! plus concurrent throughput. Run as root:
//!
//! ```text
//! cargo build --release -p croupier-sandbox --bins --examples
//! target/release/examples/spawn_bench [N=200]
//! ```
//! The init binary is found next to the example's parent dir, or via `CROUPIER_SANDBOX_INIT`.

use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;
use std::time::{Duration, Instant};

use croupier_sandbox::{Config, EndState, Limits, Sandbox, Spec};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const ECHO: &str = "#include <stdio.h>\nint main(void){ char b[4096]; size_t n; while((n=fread(b,1,sizeof b,stdin))>0) fwrite(b,1,n,stdout); return 0; }\n";
const INPUT: &[u8] = br#"{"n":41,"board":[[1,2,3],[4,5,6],[7,8,9]],"players":["a","b"]}"#;

fn stats(mut v: Vec<Duration>) -> String {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "median {:.2} ms, p90 {:.2} ms, min {:.2} ms (n={})",
        ms(v[v.len() / 2]),
        ms(v[v.len() * 9 / 10]),
        ms(v[0]),
        v.len()
    )
}

/// The bot under a bare bwrap (as the slot uid, no cgroup, no init), for comparison.
fn bare_bwrap(dir: &std::path::Path, uid: u32) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new("bwrap");
    cmd.args([
        "--unshare-all",
        "--unshare-user",
        "--die-with-parent",
        "--as-pid-1",
    ])
    .args([
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/lib",
        "/lib",
        "--symlink",
        "usr/lib64",
        "/lib64",
    ])
    .arg("--ro-bind")
    .arg(dir)
    .args(["/bot", "--", "/bot/bot"])
    .env_clear()
    .uid(uid)
    .gid(uid);
    cmd
}

async fn plain(cmd: tokio::process::Command) -> Vec<u8> {
    let mut cmd = cmd;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(INPUT).await.unwrap();
    drop(stdin);
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut out)
        .await
        .unwrap();
    child.wait().await.unwrap();
    out
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .init();
    }
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let dir = tempfile::Builder::new()
        .prefix("croupier-bench-")
        .tempdir()
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(dir.path().join("bot.c"), ECHO).unwrap();
    let bot = dir.path().join("bot");
    let ok = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&bot)
        .arg(dir.path().join("bot.c"))
        .status();
    assert!(ok.is_ok_and(|s| s.success()), "gcc failed");

    // Slots 0..16 for the sandbox; the plain bwrap runs use the one after them.
    let first_uid = croupier_sandbox::testing::uid_range(17);
    let mut cfg = Config {
        first_uid,
        slots: 16,
        ..Config::default()
    };
    if let Some(init) = std::env::var_os("CROUPIER_SANDBOX_INIT") {
        cfg.init = init.into();
    }
    let sb = Sandbox::new(cfg).await.unwrap_or_else(|e| panic!("{e}"));
    let spec = || Spec {
        limits: Limits {
            wall: Duration::from_secs(5),
            ..Limits::default()
        },
        ..Spec::new("/bot/bot", dir.path())
    };

    for _ in 0..5 {
        plain(tokio::process::Command::new(&bot)).await;
        sb.run(spec(), INPUT.to_vec()).await;
    }
    let mut plain_t = Vec::with_capacity(n);
    let mut sandboxed_t = Vec::with_capacity(n);
    let mut bare_t = Vec::with_capacity(n);
    for _ in 0..n {
        let t0 = Instant::now();
        assert_eq!(plain(tokio::process::Command::new(&bot)).await, INPUT);
        plain_t.push(t0.elapsed());
        let t0 = Instant::now();
        assert_eq!(plain(bare_bwrap(dir.path(), first_uid + 16)).await, INPUT);
        bare_t.push(t0.elapsed());
        let t0 = Instant::now();
        let report = sb.run(spec(), INPUT.to_vec()).await;
        sandboxed_t.push(t0.elapsed());
        assert_eq!(
            (report.end_state, report.stdout.as_slice()),
            (EndState::Ok, INPUT)
        );
    }
    println!("plain spawn:     {}", stats(plain_t));
    println!("bare bwrap:      {}", stats(bare_t));
    println!("sandboxed spawn: {}", stats(sandboxed_t));

    // A seat: its directory (tmpfs mount + copy of the bot) once, then every move in it.
    let (mut made_t, mut seat_t, mut gone_t) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n / 10 {
        let t0 = Instant::now();
        let seat = sb
            .seat_dir(dir.path(), "/bot", &Limits::default())
            .await
            .unwrap();
        made_t.push(t0.elapsed());
        for _ in 0..10 {
            let t0 = Instant::now();
            let report = sb
                .run(
                    Spec {
                        seat_dir: Some(seat.clone()),
                        ..spec()
                    },
                    INPUT.to_vec(),
                )
                .await;
            seat_t.push(t0.elapsed());
            assert_eq!(report.end_state, EndState::Ok);
        }
        let t0 = Instant::now();
        drop(seat);
        gone_t.push(t0.elapsed());
    }
    println!("seat dir made:   {}", stats(made_t));
    println!("run in seat dir: {}", stats(seat_t));
    println!("seat dir gone:   {}", stats(gone_t));

    let (tasks, per_task) = (8, n / 4);
    let t0 = Instant::now();
    let handles: Vec<_> = (0..tasks)
        .map(|_| {
            let (sb, spec) = (sb.clone(), spec());
            tokio::spawn(async move {
                let mut failures = 0;
                for _ in 0..per_task {
                    let r = sb.run(spec.clone(), INPUT.to_vec()).await;
                    failures += usize::from(r.end_state != EndState::Ok || r.stdout != INPUT);
                }
                failures
            })
        })
        .collect();
    let mut failures = 0;
    for h in handles {
        failures += h.await.unwrap();
    }
    let total = tasks * per_task;
    println!(
        "concurrent: {total} sandboxed runs from {tasks} tasks in {:.2} s = {:.0}/s, {failures} failures",
        t0.elapsed().as_secs_f64(),
        total as f64 / t0.elapsed().as_secs_f64()
    );
}

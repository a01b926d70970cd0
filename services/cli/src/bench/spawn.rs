//! `croupier bench spawn`: a per-move call of a tiny C echo program three ways: a plain spawn,
//! a seat's move (the seat's zygote, [`croupier_sandbox::MoveRunner`]), and a sandbox per call.

use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use croupier_sandbox::{EndState, Limits, RunReport, Sandbox, Spec};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::summary;

const ECHO: &str = "#include <stdio.h>\nint main(void){ char b[4096]; size_t n; \
    while((n=fread(b,1,sizeof b,stdin))>0) fwrite(b,1,n,stdout); return 0; }\n";
/// A small state, as a per-move bot would get it.
const INPUT: &[u8] = br#"{"n":41,"board":[[1,2,3],[4,5,6],[7,8,9]],"players":["a","b"]}"#;

/// The echo program spawned plainly: stdin written and closed, stdout read to the end.
async fn plain(bot: &std::path::Path) -> Result<Vec<u8>> {
    let mut child = tokio::process::Command::new(bot)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().context("stdin")?;
    stdin.write_all(INPUT).await?;
    drop(stdin);
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .context("stdout")?
        .read_to_end(&mut out)
        .await?;
    child.wait().await?;
    Ok(out)
}

pub async fn run(sandbox: &Sandbox, runs: usize, goals: &mut super::Goals) -> Result<()> {
    let dir = tempfile::Builder::new()
        .prefix("croupier-bench-")
        .tempdir()?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))?;
    std::fs::write(dir.path().join("echo.c"), ECHO)?;
    let bot = dir.path().join("echo");
    let built = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&bot)
        .arg(dir.path().join("echo.c"))
        .status()
        .context("cannot run gcc (apt-get install gcc)")?;
    if !built.success() {
        bail!("gcc could not build the echo program");
    }
    let limits = Limits {
        wall: Duration::from_secs(5),
        ..Limits::default()
    };
    // As a match runs a per-move seat: its own writable copy of the bot, one slot uid. Two
    // seats: a seat's zygote holds its seat dir while it lives.
    let seat = || async {
        sandbox
            .seat_dir(dir.path(), "/bot", &limits)
            .await
            .map_err(|e| anyhow::anyhow!("a seat dir: {e}"))
    };
    let spec = Spec {
        limits: limits.clone(),
        seat_dir: Some(seat().await?),
        ..Spec::new("/bot/echo", dir.path())
    };
    let mut moves = sandbox.move_runner(spec.clone());
    let spec = Spec {
        seat_dir: Some(seat().await?),
        ..spec
    };
    let check = |report: RunReport| {
        if report.end_state != EndState::Ok || report.stdout != INPUT {
            bail!(
                "a sandboxed run ended {:?}: {}",
                report.end_state,
                String::from_utf8_lossy(&report.stderr)
            );
        }
        Ok(())
    };
    for _ in 0..5 {
        plain(&bot).await?;
        check(moves.run(&[], INPUT.to_vec()).await)?;
        check(sandbox.run(spec.clone(), INPUT.to_vec()).await)?;
    }
    let mut times = [(); 3].map(|()| Vec::with_capacity(runs));
    for _ in 0..runs {
        let t0 = Instant::now();
        if plain(&bot).await? != INPUT {
            bail!("the plain echo program answered wrongly");
        }
        times[0].push(t0.elapsed());
        let t0 = Instant::now();
        check(moves.run(&[], INPUT.to_vec()).await)?;
        times[1].push(t0.elapsed());
        let t0 = Instant::now();
        check(sandbox.run(spec.clone(), INPUT.to_vec()).await)?;
        times[2].push(t0.elapsed());
    }
    moves.close().await;
    let [mut bare, mut seat_move, mut fresh] = times;
    let bare_median = median(&mut bare);
    println!(
        "spawn: one per-move call of a C echo program (start, write stdin, read stdout, exit)"
    );
    println!("  bare spawn                   {}", summary(&mut bare));
    let seat_median = median(&mut seat_move);
    let seat_ratio = ratio(seat_median, bare_median);
    println!(
        "  sandboxed, a seat's move     {}  = {seat_ratio:.2}x bare (goal: <= 1.5x)",
        summary(&mut seat_move),
    );
    goals.add(format!(
        "a per-move call: a seat's move {:.2} ms against a plain spawn's {:.2} ms = {seat_ratio:.2}x (goal: <= 1.5x)",
        seat_median.as_secs_f64() * 1e3,
        bare_median.as_secs_f64() * 1e3,
    ));
    println!(
        "  sandboxed, a sandbox per call {} = {:.2}x bare",
        summary(&mut fresh),
        ratio(median(&mut fresh), bare_median)
    );
    println!(
        "  (a seat's move: the seat's zygote forks it in the seat's sandbox, made once per seat and \
         match; a sandbox per call: bwrap, cgroup and init for every call, as before)"
    );
    Ok(())
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

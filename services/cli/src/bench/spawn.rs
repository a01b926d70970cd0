//! `croupier bench spawn`: a per-move sandboxed run of a tiny C echo program vs a plain spawn.

use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use croupier_sandbox::{EndState, Limits, Sandbox, Spec};
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

pub async fn run(sandbox: &Sandbox, runs: usize) -> Result<()> {
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
    let spec = Spec {
        limits: Limits {
            wall: Duration::from_secs(5),
            ..Limits::default()
        },
        ..Spec::new("/bot/echo", dir.path())
    };
    let sandboxed = || async {
        let report = sandbox.run(spec.clone(), INPUT.to_vec()).await;
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
        sandboxed().await?;
    }
    let (mut plain_t, mut sandboxed_t) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    for _ in 0..runs {
        let t0 = Instant::now();
        if plain(&bot).await? != INPUT {
            bail!("the plain echo program answered wrongly");
        }
        plain_t.push(t0.elapsed());
        let t0 = Instant::now();
        sandboxed().await?;
        sandboxed_t.push(t0.elapsed());
    }
    println!("spawn: one per-move run of a C echo program (spawn, write stdin, read stdout, exit)");
    println!("  plain spawn      {}", summary(&mut plain_t));
    println!("  sandboxed spawn  {}", summary(&mut sandboxed_t));
    Ok(())
}

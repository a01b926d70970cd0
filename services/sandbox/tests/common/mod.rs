//! Shared helpers for the sandbox tests: a sandbox per test with its own slot range (so "no process
//! of the slot uids is left" is exact even with tests running in parallel, see
//! `croupier_sandbox::testing`), bot dirs, C bots.
#![allow(dead_code)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use croupier_sandbox::{Config, Limits, Sandbox, Spec};
use tempfile::TempDir;

pub const SLOTS: u32 = 4;

/// An isolated sandbox with its own slot uids, and the first of them (`uids .. uids + SLOTS`).
pub async fn sandbox() -> (Sandbox, u32) {
    let config = config();
    let uids = config.first_uid;
    let sandbox = Sandbox::new(config)
        .await
        .expect("the sandbox probe passes on this machine");
    (sandbox, uids)
}

/// A sandbox configuration with slot uids no other test uses.
pub fn config() -> Config {
    Config {
        first_uid: croupier_sandbox::testing::uid_range(SLOTS),
        slots: SLOTS,
        state_dir: PathBuf::from("/tmp/croupier-sandbox-tests"),
        init: PathBuf::from(env!("CARGO_BIN_EXE_croupier-sandbox-init")),
        ..Config::default()
    }
}

/// A world-readable temporary directory (bwrap resolves bind sources as the slot uid).
pub fn open_dir() -> TempDir {
    let dir = tempfile::Builder::new()
        .prefix("croupier-sbx-")
        .tempdir()
        .unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Compiles `src` with gcc into `dir/name`.
pub fn compile_c(dir: &Path, name: &str, src: &str) -> PathBuf {
    let c = dir.join(format!("{name}.c"));
    fs::write(&c, src).unwrap();
    let out = dir.join(name);
    let st = Command::new("gcc")
        .args(["-O1", "-o"])
        .arg(&out)
        .arg(&c)
        .status()
        .unwrap();
    assert!(st.success(), "gcc failed for {name}");
    out
}

/// A bot dir holding one compiled C program called `bot`.
pub fn c_bot(src: &str) -> TempDir {
    let dir = open_dir();
    compile_c(dir.path(), "bot", src);
    dir
}

/// A bot dir holding `name` with `text`, executable.
pub fn script_bot(name: &str, text: &str) -> TempDir {
    let dir = open_dir();
    let p = dir.path().join(name);
    let _writing = croupier_sandbox::forklock::writing();
    fs::write(&p, text).unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

pub fn spec(program: &str, bot_dir: &Path, wall: Duration) -> Spec {
    let mut spec = Spec::new(program, bot_dir);
    spec.limits = Limits {
        wall,
        ..Limits::default()
    };
    spec
}

/// Host processes (pid, uid, "name, state") whose real uid is in `base .. base + SLOTS`. The
/// state (`/proc/<pid>/status`'s `State:`, e.g. `Z (zombie)`) tells a process that still runs
/// from one that is dead and not yet reaped, when a check fails.
pub fn slot_processes(base: u32) -> Vec<(u32, u32, String)> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(status) = fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let field = |k: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(k))
                .map(|v| v.trim().to_string())
        };
        let uid: u32 = field("Uid:")
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0);
        if (base..base + SLOTS).contains(&uid) {
            let name = field("Name:").unwrap_or_default();
            let state = field("State:").unwrap_or_default();
            found.push((pid, uid, format!("{name}, {state}")));
        }
    }
    found
}

/// Asserts that no process of the sandbox's slot uids is alive.
pub fn assert_no_slot_processes(base: u32) {
    let left = slot_processes(base);
    assert!(
        left.is_empty(),
        "processes of the slot uids survived: {left:?}"
    );
}

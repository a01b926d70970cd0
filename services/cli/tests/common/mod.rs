//! Running the real `croupier` binary with a clean environment and a private sandbox uid range.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository root (the kits are found relative to it).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `croupier ARGS` run in the repository root, with none of the developer's settings and a
/// sandbox of its own (16 slot uids of this test process's range, shared through the slot pool
/// of one state dir; the init built with this crate).
pub fn croupier(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_croupier"));
    for (var, _) in std::env::vars() {
        if var == "DATABASE_URL" || var.starts_with("CROUPIER_") || var == "RUST_LOG" {
            command.env_remove(var);
        }
    }
    command
        .current_dir(repo())
        .env(
            "CROUPIER_SANDBOX_INIT",
            env!("CARGO_BIN_EXE_croupier-cli-sandbox-init"),
        )
        .env("CROUPIER_SANDBOX_FIRST_UID", first_uid().to_string())
        .env("CROUPIER_SANDBOX_SLOTS", "16")
        .env("CROUPIER_SANDBOX_STATE_DIR", "/tmp/croupier-cli-tests")
        .args(args)
        .output()
        .expect("run croupier")
}

/// The first of this process's 16 slot uids.
fn first_uid() -> u32 {
    static FIRST: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *FIRST.get_or_init(|| croupier_sandbox::testing::uid_range(16))
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts a failure whose stderr names every one of `needles`.
pub fn assert_fails_naming(o: &Output, needles: &[&str]) {
    assert!(!o.status.success(), "expected a failure:\n{}", stdout(o));
    let err = stderr(o);
    for needle in needles {
        assert!(
            err.contains(needle),
            "stderr does not name {needle:?}:\n{err}"
        );
    }
}

pub fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|v| v.split_whitespace().nth(1))
        == Some("0")
}

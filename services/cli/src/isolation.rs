//! Sandbox settings shared by `work`, `up`, `play` and `bench`, and building the
//! [`Sandbox`] with its startup probe.
//!
//! * `--sandbox isolated` (the default of `work` and `up`): bubblewrap + slot uids + cgroups
//!   (see `deploy/sandbox.md`). [`Sandbox::new`] probes every layer first; a failure is an
//!   error naming each missing layer.
//! * `--sandbox none`: plain child processes, for local development only. A loud warning is
//!   printed here once; the sandbox crate also warns on every spawn.
//! * `--sandbox auto` (only `croupier play`, its default): `isolated` when running as root
//!   and the probe passes, otherwise `none` with a loud warning.

use std::path::PathBuf;

use anyhow::{anyhow, Result};
use clap::Args;
use croupier_sandbox::{Config, Mode, Sandbox};

use crate::settings::parse;

/// Where and how sandboxes are made. The mode flag itself lives in each command (its default
/// differs); these are the knobs every command shares.
#[derive(Args, Debug, Clone)]
pub struct SandboxTuning {
    /// The sandbox init binary (default: `croupier-sandbox-init`, or else
    /// `croupier-cli-sandbox-init`, next to the `croupier` binary).
    #[arg(long, env = "CROUPIER_SANDBOX_INIT")]
    pub sandbox_init: Option<PathBuf>,
    /// First slot uid (= gid) of the sandboxes; slots are FIRST .. FIRST + SLOTS.
    #[arg(long, env = "CROUPIER_SANDBOX_FIRST_UID", default_value = "60001")]
    pub sandbox_first_uid: String,
    /// Number of slot uids (concurrent sandboxes on this machine).
    #[arg(long, env = "CROUPIER_SANDBOX_SLOTS", default_value = "64")]
    pub sandbox_slots: String,
    /// Slot lock files live here; processes sharing a uid range must share it.
    #[arg(
        long,
        env = "CROUPIER_SANDBOX_STATE_DIR",
        default_value = "/run/croupier"
    )]
    pub sandbox_state_dir: PathBuf,
}

/// The isolation a command asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isolation {
    Isolated,
    None,
    /// `isolated` if it works here, else `none` (only `croupier play`).
    Auto,
}

impl Isolation {
    /// Parses `--sandbox`; `auto` only where `allow_auto`.
    pub fn parse(value: &str, allow_auto: bool) -> Result<Self> {
        let expected = if allow_auto {
            "auto, isolated or none"
        } else {
            "isolated or none"
        };
        match value.trim().to_ascii_lowercase().as_str() {
            "isolated" => Ok(Isolation::Isolated),
            "none" => Ok(Isolation::None),
            "auto" if allow_auto => Ok(Isolation::Auto),
            _ => Err(anyhow!(
                "invalid value {value:?} for --sandbox (environment variable CROUPIER_SANDBOX): expected {expected}"
            )),
        }
    }
}

impl SandboxTuning {
    /// The sandbox configuration for `mode`.
    pub fn config(&self, mode: Mode) -> Result<Config> {
        let uid = "a uid from 1000 to 4000000000";
        let first_uid: u32 = parse(
            &self.sandbox_first_uid,
            "--sandbox-first-uid",
            "CROUPIER_SANDBOX_FIRST_UID",
            uid,
        )?;
        let slots: u32 = parse(
            &self.sandbox_slots,
            "--sandbox-slots",
            "CROUPIER_SANDBOX_SLOTS",
            "a number from 1 to 4096",
        )?;
        if !(1000..=4_000_000_000).contains(&first_uid) || !(1..=4096).contains(&slots) {
            return Err(anyhow!(
                "invalid sandbox uid range {first_uid} + {slots} (--sandbox-first-uid, --sandbox-slots): expected {uid} and 1 to 4096 slots"
            ));
        }
        let mut cfg = Config {
            mode,
            first_uid,
            slots,
            state_dir: self.sandbox_state_dir.clone(),
            ..Config::default()
        };
        cfg.init = match &self.sandbox_init {
            Some(init) => init.clone(),
            None => default_init(),
        };
        Ok(cfg)
    }

    /// Builds the sandbox, probing it in `isolated` mode, and says which mode it got. `Auto`
    /// falls back to `none` with a warning when not root or when the probe fails; `Isolated`
    /// fails with the probe's error.
    pub async fn open(&self, isolation: Isolation) -> Result<(Sandbox, Mode)> {
        let isolated = || async {
            let cfg = self.config(Mode::Isolated)?;
            Ok::<_, anyhow::Error>(Sandbox::new(cfg).await?)
        };
        let none = |why: &str| {
            warn_none(why);
            async { Ok((Sandbox::new(self.config(Mode::None)?).await?, Mode::None)) }
        };
        match isolation {
            Isolation::None => none("--sandbox=none").await,
            Isolation::Isolated => match isolated().await {
                Ok(sandbox) => Ok((sandbox, Mode::Isolated)),
                Err(e) => Err(anyhow!("{e:#}\n{}", advice())),
            },
            Isolation::Auto if !is_root() => {
                none("not running as root, so the real sandbox is unavailable").await
            }
            Isolation::Auto => match isolated().await {
                Ok(sandbox) => Ok((sandbox, Mode::Isolated)),
                Err(e) => none(&format!("{e:#}")).await,
            },
        }
    }
}

/// `croupier-sandbox-init` next to the `croupier` binary (`cargo build -p croupier-sandbox`);
/// failing that, the identical `croupier-cli-sandbox-init` that `cargo build -p croupier-cli`
/// builds beside it, so a plain `scripts/run` build has a sandbox init too; failing both, the
/// `croupier` binary itself, which is the init when started as one ([`is_sandbox_init`]): the
/// single downloaded runner sandboxes bots with nothing beside it.
fn default_init() -> PathBuf {
    let standard = croupier_sandbox::default_init_path();
    let exe = std::env::current_exe().unwrap_or_default();
    let ours = exe.with_file_name("croupier-cli-sandbox-init");
    if standard.exists() {
        standard
    } else if ours.exists() {
        ours
    } else if exe.is_file() {
        exe
    } else {
        standard
    }
}

/// The names the binary answers to as the sandbox init instead of as `croupier`: the path the
/// sandbox mounts its init at (`/.croupier-init`, `croupier_sandbox`'s launcher) and the init
/// binaries' own names.
const INIT_NAMES: [&str; 3] = [
    ".croupier-init",
    "croupier-sandbox-init",
    "croupier-cli-sandbox-init",
];

/// Whether a process started as `argv0` is the sandbox init (pid 1 of a sandbox) rather than a
/// `croupier` command: the one binary is both, so a lone downloaded `croupier` needs no init
/// file beside it.
pub fn is_sandbox_init(argv0: Option<&std::ffi::OsStr>) -> bool {
    argv0
        .map(std::path::Path::new)
        .and_then(std::path::Path::file_name)
        .and_then(std::ffi::OsStr::to_str)
        .is_some_and(|name| INIT_NAMES.contains(&name))
}

/// What to do about a failed probe.
pub fn advice() -> String {
    [
        "The bot sandbox needs root, bubblewrap and writable cgroups (the `croupier` binary is its",
        "own sandbox init, or `croupier-sandbox-init` next to it is used); see deploy/sandbox.md.",
        "For local development only, --sandbox=none runs bots WITHOUT isolation.",
    ]
    .join("\n")
}

/// The loud warning of mode `none` (the sandbox crate also logs one, and one per spawn).
pub fn warn_none(why: &str) {
    eprintln!();
    eprintln!("  !! WARNING: bots run WITHOUT any sandbox ({why}).");
    eprintln!(
        "  !! They can read and write your files and use your network: run only code you trust."
    );
    eprintln!();
}

/// Whether the effective uid is 0.
pub fn is_root() -> bool {
    croupier_sandbox::running_as_root()
}

/// This machine's name, for worker ids (`<hostname>-<pid>-<n>`).
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_owned())
}

//! Starting untrusted bot processes with enforced limits.
//!
//! # What a sandboxed bot gets
//!
//! * its own **slot uid** (= gid, 60001 + n by default, no supplementary groups), exclusive on the
//!   machine through an `flock`ed file per slot, never root (RLIMIT_NPROC is void for root); a
//!   seat keeps one slot uid for its whole match (its [`SeatDir`] leases it);
//! * user, pid, mount, ipc, uts and cgroup namespaces and no capabilities; a read-only system
//!   (`/usr`, the `/bin`, `/lib*` symlinks, an `/etc` holding copies of a few host files), a private `/proc`, a minimal `/dev` prepared once per machine;
//! * its **seat dir** ([`SeatDir`]): a private copy of its files read-write at `/bot` with its
//!   `/tmp` and `/dev/shm`, all on one tmpfs capped at [`Limits::disk_bytes`], kept for the
//!   seat's match and unmounted after (without one: its files read-only at `/bot` and private
//!   capped `/tmp`, `/dev/shm`); an optional platform runtime read-only at `/work`;
//! * **no network**, or only the loopback of its match's [`MatchNet`];
//! * a fresh cgroup: memory (no swap) and pids caps that the kernel enforces, a CPU quota
//!   ([`Limits::cpu_millicores`]), CPU accounting, and an OOM-kill counter for an unambiguous
//!   `memory_limit`;
//! * a **seccomp** deny list ([`seccomp`]) installed just before the bot's `exec`: denied calls
//!   fail with `EPERM`;
//! * only its stdio: every other inherited descriptor is closed at `exec` (`close_range`);
//! * rlimits FSIZE, NOFILE, CORE 0, CPU (backstop), NPROC (backstop on the exclusive uid);
//! * a **server-side wall-clock deadline**; at the end its whole tree is killed and the cgroup is
//!   removed before the slot is reused.
//!
//! Every run ends in an [`EndState`].
//!
//! # Why bubblewrap
//!
//! The measurements on the target machine (`deploy/sandbox.md#why-bubblewrap`) put an in-process
//! clone launcher at ~2.5 ms per spawn and bwrap at ~4.5 ms, but the hand-written launcher needs
//! ~400 lines of unsafe code that runs between `clone` and `exec` in a multi-threaded tokio process,
//! where it deadlocked in glibc and leaked descriptors between sandboxes until fixed. Bubblewrap is a
//! small, audited, maintained tool packaged by Debian (0.8.0); the extra ~2 ms is ≈1 s over a
//! 450-move game. The pitfalls of bwrap found there are handled as follows:
//!
//! * run as root it would keep full capabilities in its user namespace: it is started as the slot
//!   uid, with `--unshare-user --disable-userns`;
//! * its pid-1 reaper would expose our environment and leave zombies to the host's init: the
//!   command's environment is cleared and `--as-pid-1` makes our own tiny init
//!   ([`init`], binary `croupier-sandbox-init`) pid 1;
//! * a bot that is pid 1 ignores SIGXCPU/SIGXFSZ and bwrap reports signals as a lossy `128 + n` exit
//!   code: our init runs the bot as pid 2, reaps every orphan, and reports the bot's real wait
//!   status and rusage over a pipe the bot cannot reach; `setup_error` is "the init never started";
//! * `pre_exec` hooks run after std's uid drop: we drop the uid ourselves at the end of the child
//!   setup (`launch.rs`), after joining the cgroups and the match network namespace as root;
//! * `--die-with-parent` ties the sandbox to the *thread* that forked bwrap: all spawns go through
//!   one long-lived launcher thread owned by the [`Sandbox`] and kept alive by every [`Process`].
//!
//! # Use
//!
//! * A seat: [`Sandbox::seat_dir`] once per seat and match (a copy of the bot), then every
//!   process of the seat with it in [`Spec::seat_dir`].
//! * Per-move bots: [`Sandbox::run`] feeds stdin, closes it, collects capped stdout/stderr and
//!   returns a classified [`RunReport`].
//! * Long-lived seats (websocket/TCP): create a [`MatchNet`], bind the match server's listeners with
//!   [`MatchNet::listen_tcp`] (adopt them with `tokio::net::TcpListener::from_std`), set
//!   [`Spec::net`], [`Sandbox::spawn`] each seat with the whole match as its wall limit, talk over
//!   the pipes and sockets with your own per-move deadlines (use [`Process::cpu_time`] deltas for
//!   per-move CPU), then [`Process::kill`] with [`KillReason::MatchEnded`] (→ `ok` unless a limit
//!   was hit) or [`KillReason::Deadline`] (→ `time_limit`) and [`Process::wait`].
//! * Compile jobs: run `cc`/`g++` in a seat dir holding the upload at `/work`
//!   (`seat_dir(upload, "/work", limits)`), then pack the result from [`SeatDir::path`].
//!
//! Mode [`Mode::None`] runs bots as plain child processes for local development, with a loud
//! warning on every spawn. [`probe`] checks every layer at startup.

pub mod accounting;
mod cgroup;
mod config;
mod dev;
mod etc;
pub mod forklock;
pub mod init;
mod launch;
mod net;
mod probe;
mod process;
mod report;
mod sandbox;
mod seatdir;
pub mod seccomp;
mod slot;
pub mod testing;
mod util;
pub mod zygote;

pub use accounting::{cpu_split, CpuSplit};
pub use cgroup::CgroupLayout;
pub use config::{default_init_path, Config, Mode, SetupError, Spec};
pub use net::MatchNet;
pub use probe::{probe, ProbeError};
pub use process::{MemoryMeter, Process};
pub use report::{running_as_root, EndState, ExitInfo, KillReason, Limits, RunReport};
pub use sandbox::Sandbox;
pub use seatdir::SeatDir;
pub use zygote::MoveRunner;

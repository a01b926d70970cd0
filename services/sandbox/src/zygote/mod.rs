//! A seat's per-move sandbox, made once and reused by every move: the [`MoveRunner`].
//!
//! A per-move bot (Splendor, Bridge, JSON per move) is a new process at every decision. Building
//! a whole sandbox for each (bwrap's namespaces and mounts, a cgroup, the init) costs ~6 ms of
//! CPU and a fork of the large worker, many times the bot's own start. Instead the first move of
//! a seat starts the seat's sandbox with a resident **zygote** as its pid 1 (the init binary,
//! `--zygote`, [`serve`]); every move is then one request over a `SOCK_SEQPACKET` socket
//! carrying the move's stdio ([`wire`]): the small zygote forks and execs the program, waits,
//! kills whatever the move left running, and answers with the exit status, CPU time and memory
//! peak.
//!
//! What a move gets is what a sandbox per move gave it: the seat's files at `/bot` and its
//! `/tmp` (the seat's [`crate::SeatDir`], kept for the match either way), its slot uid, no
//! network, the seat's cgroup limits (memory, pids, CPU quota — moves run one at a time, so the
//! seat's cap is each move's), its own `RLIMIT_CPU` backstop, the system-call filter, only its
//! stdio, and no process of an earlier move. The wall deadline is the worker's: at the deadline,
//! on too much output, or if the zygote is gone, the whole seat sandbox is killed and the next
//! move starts a fresh one. The same [`classify`](crate::report) rules decide the end state.
//!
//! A runner made [`warm for Python`](MoveRunner::warm_python) whose program is `python3
//! <script>` also starts, before the first move, a Python interpreter inside the seat's sandbox
//! that every move forks instead of starting Python ([`python`]): the same sandbox, limits per
//! move and semantics as `python3 <script> …`, a fraction of the CPU.
//!
//! In mode [`crate::Mode::None`] a runner simply calls [`Sandbox::run`] per move.

#![allow(unsafe_code)]

mod python;
mod serve;
mod wire;

pub(crate) use serve::serve;

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::Arc;
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;
use nix::sys::socket::{socketpair, AddressFamily, SockFlag, SockType};
use tokio::io::unix::AsyncFd;
use tokio::io::AsyncWriteExt;
use tokio::net::unix::pipe;

use crate::cgroup::Cgroup;
use crate::config::{Mode, Spec};
use crate::process::InitReport;
use crate::report::{classify, Observed};
use crate::util::{collected, overflow, read_capped};
use crate::{KillReason, Process, RunReport, Sandbox};

use wire::{Message, Request, MAX_REQUEST};

/// How long a new zygote may take to say it is ready.
const READY_WITHIN: Duration = Duration::from_secs(20);

/// Runs one seat's per-move processes, all in one sandbox made on the first move (see the
/// module docs). Dropping it ends the seat's sandbox in the background; [`MoveRunner::close`]
/// waits for that.
pub struct MoveRunner {
    sandbox: Sandbox,
    spec: Spec,
    warm: Option<Warm>,
    /// Start a warm Python in the seat's sandbox ([`python`]), if the program is one.
    python: bool,
}

impl std::fmt::Debug for MoveRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveRunner")
            .field("program", &self.spec.program)
            .field("warm", &self.warm.is_some())
            .field("python", &self.python)
            .finish_non_exhaustive()
    }
}

/// A running zygote: its sandbox (cgroup, slot, seat reservation) and its socket.
struct Warm {
    process: Process,
    socket: AsyncFd<OwnedFd>,
    /// bwrap's stderr, kept open (never read after the start) so a late message of bwrap's
    /// monitor cannot meet a closed pipe.
    _stderr: Option<tokio::process::ChildStderr>,
    /// The cgroup's OOM-kill count after the last move that read it (the group is new: 0).
    oom_seen: u64,
    /// The CPU time the zygote reported for its moves so far (the rest of the cgroup's is a
    /// killed move's, or the zygote's own).
    cpu_reported: Duration,
    /// Its warm Python started.
    python: bool,
}

impl Sandbox {
    /// A runner for the per-move processes of one seat: every [`MoveRunner::run`] starts
    /// `spec.program` with `spec.args` and the call's own words, under `spec.limits` (the wall
    /// limit per move). `spec.net` is ignored: moves have no network. With a
    /// [`Spec::seat_dir`], the seat's sandbox reserves it while it lives (from the first move
    /// to [`MoveRunner::close`]): no other process can use that seat dir meanwhile.
    pub fn move_runner(&self, spec: Spec) -> MoveRunner {
        MoveRunner {
            sandbox: self.clone(),
            spec: Spec { net: None, ..spec },
            warm: None,
            python: false,
        }
    }
}

/// The interpreter and script of a `python3 <script.py> …` spec (`python3`, `python3.11`,
/// by name or path; no interpreter options), the programs a warm Python can run.
fn python_script(spec: &Spec) -> Option<(&str, &str)> {
    let name = spec.program.rsplit('/').next()?;
    let script = spec.args.first()?;
    let python = name == "python3"
        || name
            .strip_prefix("python3.")
            .is_some_and(|minor| !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit()));
    (python && script.ends_with(".py") && !script.starts_with('-'))
        .then_some((spec.program.as_str(), script.as_str()))
}

impl MoveRunner {
    /// With `on`, a runner whose program is `python3 <script>.py` keeps a started Python in
    /// the seat's sandbox and forks it for every move ([`python`]); other programs, and mode
    /// [`Mode::None`], are unaffected.
    #[must_use]
    pub fn warm_python(mut self, on: bool) -> Self {
        self.python = on;
        self
    }

    /// Whether the seat's moves are forked from a warm Python right now (its sandbox is up
    /// and its warm Python started).
    pub fn is_warm(&self) -> bool {
        self.warm.as_ref().is_some_and(|w| w.python)
    }

    /// One move: `args` after the seat's own, `stdin` written then closed; stdout collected up
    /// to its cap (more is `output_limit`), stderr truncated at its cap. The wall limit runs
    /// from the request (the seat's sandbox, made on the first move, is not counted).
    pub async fn run(&mut self, args: &[String], stdin: Vec<u8>) -> RunReport {
        if self.sandbox.cfg.mode == Mode::None {
            let mut spec = self.spec.clone();
            spec.args.extend_from_slice(args);
            return self.sandbox.run(spec, stdin).await;
        }
        let mut warm = match self.warm.take() {
            Some(warm) => warm,
            None => match self.start_seat().await {
                Ok(warm) => warm,
                Err(reason) => return RunReport::setup_error(reason),
            },
        };
        let mut request = Request {
            cpu_secs: self.spec.limits.cpu.as_secs()
                + u64::from(self.spec.limits.cpu.subsec_nanos() > 0),
            program: self.spec.program.clone(),
            args: self.spec.args.clone(),
        };
        request.args.extend_from_slice(args);
        let (report, keep) = warm.call(&request, stdin, &self.spec).await;
        if keep {
            self.warm = Some(warm);
        } else {
            warm.discard().await;
        }
        report
    }

    /// Starts the seat's sandbox (and its warm Python) now rather than at the first move, so
    /// that a match can start its seats side by side; a no-op when it is up, or in mode
    /// [`Mode::None`]. A sandbox that does not start is tried again, and reported, by the
    /// first move.
    pub async fn prepare(&mut self) {
        if self.sandbox.cfg.mode == Mode::None || self.warm.is_some() {
            return;
        }
        if let Ok(warm) = self.start_seat().await {
            self.warm = Some(warm);
        }
    }

    /// The seat's sandbox, warm if it can be: a warm Python that does not start leaves the
    /// seat cold (the platform's trouble, never the bot's).
    async fn start_seat(&mut self) -> Result<Warm, String> {
        match self.start().await {
            Err(reason) if self.python => {
                tracing::warn!(%reason, "the seat goes on without a warm Python");
                self.python = false;
                self.start().await
            }
            started => started,
        }
    }

    /// Ends the seat's sandbox now (dropping the runner does the same in the background).
    pub async fn close(mut self) {
        if let Some(warm) = self.warm.take() {
            warm.discard().await;
        }
    }

    async fn start(&self) -> Result<Warm, String> {
        let (ours, theirs) = socketpair(
            AddressFamily::Unix,
            SockType::SeqPacket,
            None,
            SockFlag::SOCK_CLOEXEC | SockFlag::SOCK_NONBLOCK,
        )
        .map_err(|e| format!("the zygote's socket: {e}"))?;
        // The zygote blocks on its end; only ours is polled.
        nix::fcntl::fcntl(
            theirs.as_raw_fd(),
            nix::fcntl::FcntlArg::F_SETFL(OFlag::empty()),
        )
        .map_err(|e| format!("the zygote's socket: {e}"))?;
        let mut process = self
            .sandbox
            .spawn_isolated(self.spec.clone(), Some(theirs))
            .await
            .map_err(|e| e.to_string())?;
        drop(process.stdin.take());
        drop(process.stdout.take());
        let stderr = process.stderr.take();
        // SAFETY: `ours` is a valid socket owned by the AsyncFd from here on; nothing else closes
        // or replaces it.
        let socket =
            unsafe { AsyncFd::register(ours) }.map_err(|e| format!("the zygote's socket: {e}"))?;
        let mut warm = Warm {
            process,
            socket,
            _stderr: None,
            oom_seen: 0,
            cpu_reported: Duration::ZERO,
            python: false,
        };
        let ready = tokio::time::timeout(READY_WITHIN, warm.receive()).await;
        match ready {
            Ok(Some(line)) if line == "init" => {
                warm._stderr = stderr;
                match python_script(&self.spec).filter(|_| self.python) {
                    Some((python, script)) => warm.start_python(python, script, &self.spec).await,
                    None => Ok(warm),
                }
            }
            other => {
                let said = match other {
                    Ok(Some(line)) => format!("it said {line:?}"),
                    Ok(None) => "it exited".to_owned(),
                    Err(_) => format!("it was not ready within {READY_WITHIN:?}"),
                };
                warm.discard().await;
                let stderr = read_capped(stderr, 4096, None).await;
                Err(format!(
                    "the seat's sandbox did not start ({said}): {}",
                    String::from_utf8_lossy(&stderr).trim()
                ))
            }
        }
    }
}

impl Warm {
    /// Asks the zygote for a warm Python; when it is ready, the cgroup's caps grow by what it
    /// holds. A Python that does not start leaves the seat cold (every move starts Python);
    /// one that does not answer in time costs the sandbox.
    async fn start_python(
        mut self,
        python: &str,
        script: &str,
        spec: &Spec,
    ) -> Result<Self, String> {
        let sent = Message::encode_warm(python, script)
            .and_then(|bytes| wire::send(self.socket.as_raw_fd(), &bytes, &[]));
        if let Err(e) = sent {
            self.discard().await;
            return Err(format!("the seat's sandbox took no request: {e}"));
        }
        match tokio::time::timeout(READY_WITHIN, self.receive()).await {
            Ok(Some(line)) if line == "warm ready" => {
                let allowed = self
                    .cgroup()
                    .map_or(Ok(()), |cg| cg.allow_resident(&spec.limits));
                match allowed {
                    Ok(()) => self.python = true,
                    Err(e) => {
                        self.discard().await;
                        return Err(format!("the seat's cgroup: {e}"));
                    }
                }
                Ok(self)
            }
            Ok(Some(line)) if line.starts_with("warm off") => {
                tracing::warn!(%python, %script, %line, "no warm Python for this seat");
                Ok(self)
            }
            other => {
                self.discard().await;
                Err(format!("the seat's warm Python did not start: {other:?}"))
            }
        }
    }

    fn cgroup(&self) -> Option<&Arc<Cgroup>> {
        self.process.cgroup.as_ref()
    }

    /// The zygote's next line; `None` when it is gone.
    async fn receive(&self) -> Option<String> {
        let mut buf = vec![0u8; 1024];
        loop {
            let mut ready = self.socket.readable().await.ok()?;
            match ready.try_io(|s| wire::recv(s, &mut buf)) {
                Ok(Ok(Some((n, _)))) => {
                    return Some(String::from_utf8_lossy(&buf[..n]).into_owned())
                }
                Ok(Ok(None) | Err(_)) => return None,
                Err(_would_block) => {}
            }
        }
    }

    /// Runs one request; the report, and whether the zygote can take the next one.
    async fn call(&mut self, request: &Request, stdin: Vec<u8>, spec: &Spec) -> (RunReport, bool) {
        let limits = &spec.limits;
        let bytes = match request.encode() {
            Ok(b) => b,
            Err(e) => return (RunReport::setup_error(e.to_string()), true),
        };
        debug_assert!(bytes.len() <= MAX_REQUEST);
        let pipes = match MovePipes::new() {
            Ok(p) => p,
            Err(e) => {
                return (
                    RunReport::setup_error(format!("the move's pipes: {e}")),
                    true,
                )
            }
        };
        let t0 = Instant::now();
        let theirs = [
            pipes.stdin.0.as_raw_fd(),
            pipes.stdout.1.as_raw_fd(),
            pipes.stderr.1.as_raw_fd(),
        ];
        if let Err(e) = wire::send(self.socket.as_raw_fd(), &bytes, &theirs) {
            return (
                RunReport::setup_error(format!("the seat's sandbox took no request: {e}")),
                false,
            );
        }
        let (stdin_w, stdout_r, stderr_r) = pipes.ours();
        let writer = tokio::spawn(async move {
            if let Ok(mut w) = pipe::Sender::from_owned_fd(stdin_w) {
                let _ = w.write_all(&stdin).await;
            }
        });
        let (over_tx, mut over) = overflow();
        let out = tokio::spawn(read_capped(
            pipe::Receiver::from_owned_fd(stdout_r).ok(),
            limits.stdout_bytes,
            Some(over_tx),
        ));
        let err = tokio::spawn(read_capped(
            pipe::Receiver::from_owned_fd(stderr_r).ok(),
            limits.stderr_bytes,
            None,
        ));
        let deadline = tokio::time::sleep_until((t0 + limits.wall).into());
        let mut obs = Observed {
            started: true,
            ..Observed::default()
        };
        let mut init = InitReport::default();
        let answered = tokio::select! {
            biased;
            line = self.receive() => line,
            () = deadline => { obs.wall_expired = true; obs.killed = Some(KillReason::Deadline); None }
            () = over.fired() => { obs.killed = Some(KillReason::OutputLimit); None }
        };
        obs.wall = t0.elapsed();
        // The bot may have died of the SIGPIPE of the closed stdout before the wake-up was seen.
        obs.output_exceeded = over.hit();
        let keep = answered.is_some();
        match (&answered, obs.killed) {
            (Some(line), _) => init.read(line),
            (None, Some(reason)) => self.process.kill(reason),
            (None, None) => self.process.kill(KillReason::Cancelled),
        }
        obs.exit = init.exit;
        // The counters are read only when the move may have met the kernel's limits (the OOM
        // killer sends SIGKILL): two file reads fewer on every ordinary move.
        let killed_by_signal_9 = init.exit.is_some_and(|e| e.signal == Some(9));
        if answered.is_none() || killed_by_signal_9 {
            let oom = self.cgroup().map_or(0, |cg| cg.oom_kills());
            obs.oom_killed = oom > self.oom_seen;
            self.oom_seen = oom;
        }
        obs.cpu = match answered {
            Some(_) => init.cpu,
            None => self
                .cgroup()
                .and_then(|cg| cg.cpu())
                .map_or(Duration::ZERO, |all| all.saturating_sub(self.cpu_reported)),
        };
        self.cpu_reported += init.cpu;
        if answered.is_none() && obs.killed.is_none() && !obs.oom_killed {
            obs.setup_failure = Some("the seat's sandbox ended during a move".into());
        }
        if init.exit.is_none() && answered.is_some() {
            obs.setup_failure = Some(format!("the seat's zygote answered {answered:?}"));
        }
        writer.abort();
        let report = RunReport {
            end_state: classify(&obs, limits),
            exit: obs.exit.unwrap_or_default(),
            wall: obs.wall,
            cpu: obs.cpu,
            max_rss_bytes: init.max_rss_bytes,
            stdout: collected(out).await,
            stderr: collected(err).await,
        };
        let keep = keep && report_keeps(&report);
        (report, keep)
    }

    /// Kills the seat's sandbox and waits until it is gone (bwrap's monitor has reaped the
    /// zygote, the cgroup is removed, the slot and seat are free). One kill only: a second one
    /// would find only the monitor left and kill it before it reaps the zygote.
    async fn discard(mut self) {
        if self.process.killed.is_none() {
            self.process.kill(KillReason::MatchEnded);
        }
        // The moves' own CPU, as the zygote reported it, for the accounting of the sandbox.
        let moves = Observed {
            exit: Some(crate::ExitInfo::default()),
            cpu: self.cpu_reported,
            ..Observed::default()
        };
        let _ = self.process.finish(moves).await;
    }
}

impl Drop for MoveRunner {
    /// Ends the seat's sandbox in the background, as [`MoveRunner::close`] does.
    fn drop(&mut self) {
        if let Some(warm) = self.warm.take() {
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn(warm.discard());
                }
                Err(_) => drop(warm),
            }
        }
    }
}

/// A setup error means the zygote is in doubt: the next move gets a fresh sandbox.
fn report_keeps(report: &RunReport) -> bool {
    !matches!(report.end_state, crate::EndState::SetupError(_))
}

/// The three pipes of one move: (read end, write end) each, close-on-exec.
struct MovePipes {
    stdin: (OwnedFd, OwnedFd),
    stdout: (OwnedFd, OwnedFd),
    stderr: (OwnedFd, OwnedFd),
}

impl MovePipes {
    fn new() -> io::Result<Self> {
        let pair = || nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(io::Error::from);
        Ok(Self {
            stdin: pair()?,
            stdout: pair()?,
            stderr: pair()?,
        })
    }

    /// Our ends (the zygote's are closed here, after they were sent): stdin's write end,
    /// stdout's and stderr's read ends.
    fn ours(self) -> (OwnedFd, OwnedFd, OwnedFd) {
        (self.stdin.1, self.stdout.0, self.stderr.0)
    }
}

//! The [`Sandbox`]: slot pool, launcher thread, `spawn` and the one-shot `run`.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;
use tokio::io::AsyncWriteExt;
use tokio::net::unix::pipe;
use tokio::process::{Child, Command};
use tokio::sync::oneshot;

use crate::cgroup::{Cgroup, CgroupLayout};
use crate::config::{Config, Mode, SetupError, Spec};
use crate::launch::{bwrap_command, finish, ChildSetup, PATH};
use crate::process::{read_report, Process};
use crate::slot::SlotPool;
use crate::util::{collected, overflow, read_capped};
use crate::{etc, seatdir, EndState, KillReason, Limits, ProbeError, RunReport, SeatDir};

type Job = Box<dyn FnOnce() + Send>;

/// The thread every sandbox is forked from (`--die-with-parent` follows the forking thread).
struct Launcher {
    tx: mpsc::Sender<Job>,
}

/// Starts sandboxed processes. Cheap to clone.
#[derive(Clone)]
pub struct Sandbox {
    pub(crate) cfg: Arc<Config>,
    layout: Option<CgroupLayout>,
    slots: Option<Arc<SlotPool>>,
    /// The sandboxes' `/etc` ([`crate::etc`]).
    etc: PathBuf,
    /// The sandboxes' `/dev` ([`crate::dev`]); `None`: bwrap makes one per sandbox.
    dev: Option<PathBuf>,
    launcher: Arc<Launcher>,
}

impl Sandbox {
    /// Prepares the sandbox and runs the [`crate::probe`]; fails naming every missing layer.
    pub async fn new(cfg: Config) -> Result<Self, ProbeError> {
        let sandbox = Self::build(cfg)?;
        if sandbox.cfg.mode == Mode::None {
            tracing::warn!(
                "sandbox mode `none`: bots will run WITHOUT any isolation (local development only)"
            );
            return Ok(sandbox);
        }
        crate::probe::check(&sandbox).await?;
        Ok(sandbox)
    }

    fn build(cfg: Config) -> Result<Self, ProbeError> {
        let mut problems = Vec::new();
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("croupier-sandbox-launcher".into())
            .spawn(move || rx.into_iter().for_each(|job| job()))
            .map_err(|e| ProbeError::one(format!("launcher thread: {e}")))?;
        let etc_dir = cfg.state_dir.join("etc");
        let (mut layout, mut slots, mut dev) = (None, None, None);
        if cfg.mode == Mode::Isolated {
            match cfg.cgroups.clone().map_or_else(CgroupLayout::detect, Ok) {
                Ok(l) => match l.ensure_parents() {
                    Ok(()) => {
                        if let Err(e) = l.weigh(cfg.slots) {
                            tracing::warn!(error = %e, "could not set the sandboxes' CPU weight");
                        }
                        layout = Some(l);
                    }
                    Err(e) => problems.push(format!("cgroup parents not writable: {e}")),
                },
                Err(e) => problems.push(e),
            }
            match SlotPool::new(cfg.first_uid, cfg.slots, &cfg.state_dir.join("slots")) {
                Ok(p) => slots = Some(Arc::new(p)),
                Err(e) => problems.push(format!("slot lock dir {}: {e}", cfg.state_dir.display())),
            }
            let seats = seatdir::prepare(&cfg.state_dir).and_then(|()| match &slots {
                Some(pool) => seatdir::sweep(&cfg.state_dir, pool),
                None => Ok(()),
            });
            if let Err(e) = seats {
                problems.push(format!("seat dirs under {}: {e}", cfg.state_dir.display()));
            }
            let dev_dir = cfg.state_dir.join("dev");
            match crate::dev::prepare(&dev_dir) {
                Ok(()) => dev = Some(dev_dir),
                Err(e) => tracing::warn!(
                    error = %e,
                    "could not prepare the sandboxes' /dev; bwrap makes one per sandbox (~1 ms more each)"
                ),
            }
            if let Err(e) = etc::prepare(&etc_dir) {
                problems.push(format!("the sandboxes' /etc in {}: {e}", etc_dir.display()));
            }
        }
        if !problems.is_empty() {
            return Err(ProbeError { missing: problems });
        }
        Ok(Self {
            cfg: Arc::new(cfg),
            layout,
            slots,
            etc: etc_dir,
            dev,
            launcher: Arc::new(Launcher { tx }),
        })
    }

    /// A seat's private writable directory holding a copy of `source`, to be mounted at `at`
    /// (`/bot` for a bot, so its commands and `__file__`-relative writes work unchanged) by every
    /// process started with it in [`Spec::seat_dir`]. Leases a slot uid for as long as it lives;
    /// see [`SeatDir`]. Its cap is `limits.disk_bytes` beyond the copied files.
    pub async fn seat_dir(
        &self,
        source: &Path,
        at: &str,
        limits: &Limits,
    ) -> Result<SeatDir, SetupError> {
        let (source, at, limits) = (source.to_owned(), at.to_owned(), limits.clone());
        let made = match (self.cfg.mode, &self.slots) {
            (Mode::None, _) => {
                tokio::task::spawn_blocking(move || SeatDir::create_unisolated(&source, &at)).await
            }
            (Mode::Isolated, Some(pool)) => {
                let slot = pool
                    .acquire(self.cfg.slot_patience)
                    .await
                    .map_err(SetupError::NoSlot)?;
                let state_dir = self.cfg.state_dir.clone();
                tokio::task::spawn_blocking(move || {
                    SeatDir::create(&state_dir, slot, &source, &at, &limits)
                })
                .await
            }
            (Mode::Isolated, None) => Ok(Err(io::Error::other("sandbox not initialised"))),
        };
        made.map_err(|e| SetupError::SeatDir(io::Error::other(e)))?
            .map_err(SetupError::SeatDir)
    }

    /// Starts `spec`. The wall deadline runs from now; see [`Process`].
    pub async fn spawn(&self, spec: Spec) -> Result<Process, SetupError> {
        match self.cfg.mode {
            Mode::Isolated => self.spawn_isolated(spec, None).await,
            Mode::None => self.spawn_none(spec).await,
        }
    }

    /// Starts `spec` in a fresh sandbox: its program under the init, or (given the zygote's end
    /// of a socket) the seat's zygote, which runs nothing until asked ([`crate::zygote`]).
    pub(crate) async fn spawn_isolated(
        &self,
        spec: Spec,
        zygote: Option<std::os::fd::OwnedFd>,
    ) -> Result<Process, SetupError> {
        let (Some(pool), Some(layout)) = (&self.slots, &self.layout) else {
            return Err(SetupError::Spawn(io::Error::other(
                "sandbox not initialised",
            )));
        };
        let t0 = Instant::now();
        let (slot, seat, uid) = match &spec.seat_dir {
            Some(dir) => {
                let Some(uid) = dir.uid() else {
                    return Err(SetupError::SeatDir(io::Error::other(
                        "the seat dir was made by a sandbox in mode `none`",
                    )));
                };
                (None, Some((dir.clone(), dir.reserve().await)), uid)
            }
            None => {
                let slot = pool
                    .acquire(self.cfg.slot_patience)
                    .await
                    .map_err(SetupError::NoSlot)?;
                let uid = slot.uid;
                (Some(slot), None, uid)
            }
        };
        let cg = Arc::new(
            Cgroup::create(layout, &format!("slot-{uid}"), &spec.limits)
                .await
                .map_err(SetupError::Cgroup)?,
        );
        let started = async {
            let is_zygote = zygote.is_some();
            let (pass, report) = match zygote {
                Some(socket) => (socket, None),
                None => {
                    let (r, w) = nix::unistd::pipe2(OFlag::O_CLOEXEC)
                        .map_err(|e| SetupError::Spawn(e.into()))?;
                    let rx = pipe::Receiver::from_owned_fd(r).map_err(SetupError::Spawn)?;
                    (w, Some(rx))
                }
            };
            let setup = ChildSetup {
                cgroup_procs: cg.procs_files().map_err(SetupError::Cgroup)?,
                net: spec.net.clone(),
                limits: spec.limits.clone(),
                uid: Some(uid),
                report: Some(pass),
                zygote: is_zygote,
            };
            let cmd = bwrap_command(
                &self.cfg.bwrap,
                &self.cfg.init,
                &self.etc,
                self.dev.as_deref(),
                &spec,
                setup,
            );
            let child = self.launch(cmd).await?;
            Ok::<_, SetupError>((child, report.map(|rx| tokio::spawn(read_report(rx)))))
        };
        let started_at = Instant::now();
        let cgroup_us = started_at.duration_since(t0).as_micros();
        match started.await {
            Ok((child, report)) => {
                let launch_us = started_at.elapsed().as_micros();
                tracing::debug!(uid, cgroup_us, launch_us, "sandbox started");
                let mut p = self.process(child, report, Some(cg), slot, spec.limits);
                p.seat = seat;
                Ok(p)
            }
            Err(e) => {
                let _ = cg.destroy().await;
                Err(e)
            }
        }
        .map(|mut p| {
            p.started_at = started_at;
            p
        })
    }

    async fn spawn_none(&self, spec: Spec) -> Result<Process, SetupError> {
        tracing::warn!(program = %spec.program, "sandbox mode `none`: running a bot WITHOUT isolation");
        let seat = match &spec.seat_dir {
            Some(d) => Some((d.clone(), d.reserve().await)),
            None => None,
        };
        let host = |p: &str| -> PathBuf {
            let map = |root: &str, dir: &Path| {
                p.strip_prefix(root)
                    .filter(|r| r.is_empty() || r.starts_with('/'))
                    .map(|r| dir.join(r.trim_start_matches('/')))
            };
            let seat = spec.seat_dir.as_ref();
            seat.and_then(|d| map(d.inside(), &d.path()))
                .or_else(|| map("/bot", &spec.bot_dir))
                .or_else(|| spec.work_dir.as_deref().and_then(|w| map("/work", w)))
                .unwrap_or_else(|| PathBuf::from(p))
        };
        let mut cmd = Command::new(host(&spec.program));
        let setup = ChildSetup {
            cgroup_procs: Vec::new(),
            net: spec.net.clone(),
            limits: spec.limits.clone(),
            uid: None,
            report: None,
            zygote: false,
        };
        finish(&mut cmd, setup);
        cmd.args(spec.args.iter().map(|a| host(a)))
            .current_dir(host(&spec.cwd))
            .process_group(0);
        cmd.env("PATH", PATH)
            .env("HOME", std::env::temp_dir())
            .envs(spec.env.iter().map(|(k, v)| (k, v)));
        let child = self.launch(cmd).await?;
        let mut p = self.process(child, None, None, None, spec.limits);
        p.seat = seat;
        Ok(p)
    }

    fn process(
        &self,
        mut child: Child,
        report: Option<tokio::task::JoinHandle<crate::process::InitReport>>,
        cgroup: Option<Arc<Cgroup>>,
        slot: Option<crate::slot::Slot>,
        limits: Limits,
    ) -> Process {
        Process {
            stdin: child.stdin.take(),
            stdout: child.stdout.take(),
            stderr: child.stderr.take(),
            child,
            report,
            cgroup,
            slot,
            seat: None,
            limits,
            started_at: Instant::now(),
            killed: None,
            done: false,
            report_rss: 0,
            _keep: self.launcher.clone(),
        }
    }

    /// Forks from the launcher thread, inside the current runtime (apart from files being
    /// written, see [`crate::forklock`]).
    async fn launch(&self, cmd: Command) -> Result<Child, SetupError> {
        let (tx, rx) = oneshot::channel();
        let handle = tokio::runtime::Handle::current();
        let job: Job = Box::new(move || {
            let _rt = handle.enter();
            let mut cmd = cmd;
            let mut result = spawn_apart(&mut cmd);
            for _ in 0..SPAWN_RETRIES {
                match &result {
                    Err(e) if crate::forklock::text_file_busy(e) => {
                        std::thread::sleep(Duration::from_millis(20));
                        result = spawn_apart(&mut cmd);
                    }
                    _ => break,
                }
            }
            drop(cmd); // closes our copies of the report pipe and the cgroup files
            let _ = tx.send(result);
        });
        let gone = || SetupError::Spawn(io::Error::other("the launcher thread is gone"));
        self.launcher.tx.send(job).map_err(|_| gone())?;
        rx.await.map_err(|_| gone())?.map_err(SetupError::Spawn)
    }

    /// One-shot helper for per-move bots: feeds `stdin` and closes it, collects stdout (over the cap:
    /// `output_limit`, the tree is killed) and stderr (truncated at its cap) until exit or deadline.
    pub async fn run(&self, spec: Spec, stdin: Vec<u8>) -> RunReport {
        let (out_cap, err_cap) = (spec.limits.stdout_bytes, spec.limits.stderr_bytes);
        let mut p = match self.spawn(spec).await {
            Ok(p) => p,
            Err(e) => return RunReport::setup_error(e.to_string()),
        };
        if let Some(mut w) = p.stdin.take() {
            tokio::spawn(async move { w.write_all(&stdin).await });
        }
        let (over_tx, mut over) = overflow();
        let out = tokio::spawn(read_capped(p.stdout.take(), out_cap, Some(over_tx)));
        let err = tokio::spawn(read_capped(p.stderr.take(), err_cap, None));
        let extra = async {
            over.fired().await;
            KillReason::OutputLimit
        };
        let mut obs = p.supervise(extra).await;
        // The bot may have died of the SIGPIPE of the closed stdout before the wake-up was seen.
        obs.output_exceeded |= over.hit();
        let mut report = p.finish(obs).await;
        report.stdout = collected(out).await;
        report.stderr = collected(err).await;
        if let EndState::SetupError(msg) = &mut report.end_state {
            msg.push_str(&format!(
                ": {}",
                String::from_utf8_lossy(&report.stderr).trim()
            ));
        }
        report
    }
}

/// Spawns retried after `ETXTBSY` (see [`crate::forklock`]), 20 ms apart.
const SPAWN_RETRIES: usize = 5;

/// `cmd.spawn()` while no executable file is open for writing in this process.
fn spawn_apart(cmd: &mut Command) -> io::Result<Child> {
    let _apart = crate::forklock::forking();
    cmd.spawn()
}

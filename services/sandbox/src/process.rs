//! A running sandbox and its supervision: one `select!` over the init's report, the wall deadline
//! and the caller's extra kill condition, then tree kill, cgroup accounting and classification.

use std::future::Future;
use std::os::unix::process::ExitStatusExt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::unix::pipe;
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use tokio::task::JoinHandle;

use crate::cgroup::Cgroup;
use crate::report::{classify, Observed};
use crate::slot::Slot;
use crate::{ExitInfo, KillReason, Limits, RunReport, SeatDir};

/// What the sandbox init wrote on its report pipe.
#[derive(Debug, Default, Clone)]
pub(crate) struct InitReport {
    pub started: bool,
    pub exit: Option<ExitInfo>,
    pub cpu: Duration,
    pub max_rss_bytes: u64,
}

/// Reads the init's report until EOF (the init has exited).
pub(crate) async fn read_report(rx: pipe::Receiver) -> InitReport {
    let mut lines = BufReader::new(rx).lines();
    let mut r = InitReport::default();
    while let Ok(Some(line)) = lines.next_line().await {
        r.read(&line);
    }
    r
}

impl InitReport {
    /// Takes in one report line of the init (or of a seat's zygote); others are ignored.
    pub(crate) fn read(&mut self, line: &str) {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["init"] => self.started = true,
            ["exec-error", ..] => {
                self.exit = Some(ExitInfo {
                    code: Some(127),
                    signal: None,
                });
            }
            ["exit", code, signal, cpu_us, rss_kb] => {
                self.exit = Some(ExitInfo {
                    code: code.parse().ok(),
                    signal: signal.parse().ok(),
                });
                self.cpu = Duration::from_micros(cpu_us.parse().unwrap_or(0));
                self.max_rss_bytes = rss_kb.parse::<u64>().unwrap_or(0) * 1024;
            }
            _ => {}
        }
    }
}

/// The memory peak of one sandbox's tree period by period ([`Process::memory_meter`]): each
/// [`MemoryMeter::take_peak`] answers the peak since the previous one (the first: since the
/// start), page cache and tmpfs included, as the memory limit counts it.
#[derive(Debug, Clone)]
pub struct MemoryMeter(Arc<Cgroup>);

impl MemoryMeter {
    /// The peak in bytes since the previous call; `None` when the kernel cannot say (a v2
    /// kernel before 6.12, or the sandbox is gone).
    pub fn take_peak(&self) -> Option<u64> {
        self.0.take_period_peak()
    }
}

/// A started sandbox. Take `stdin`/`stdout`/`stderr` to talk to the bot; call [`Process::kill`] to
/// stop it and [`Process::wait`] to get the classified report. Dropping it kills the tree.
pub struct Process {
    pub stdin: Option<ChildStdin>,
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
    pub(crate) child: Child,
    pub(crate) report: Option<JoinHandle<InitReport>>,
    pub(crate) cgroup: Option<Arc<Cgroup>>,
    pub(crate) slot: Option<Slot>,
    /// The seat dir this process runs with, reserved until its cgroup is gone.
    pub(crate) seat: Option<(SeatDir, tokio::sync::OwnedMutexGuard<()>)>,
    pub(crate) limits: Limits,
    pub(crate) started_at: Instant,
    pub(crate) killed: Option<KillReason>,
    pub(crate) done: bool,
    pub(crate) report_rss: u64,
    /// Keeps the launcher thread (the bwrap monitor's parent for `--die-with-parent`) alive.
    pub(crate) _keep: Arc<dyn Send + Sync>,
}

impl std::fmt::Debug for Process {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Process")
            .field("pid", &self.child.id())
            .field("slot", &self.slot)
            .finish()
    }
}

impl Process {
    /// The slot uid the bot runs as (`None` in mode `none`).
    pub fn uid(&self) -> Option<u32> {
        let seat = self.seat.as_ref().and_then(|(d, _)| d.uid());
        self.slot.as_ref().map(|s| s.uid).or(seat)
    }

    /// CPU time of the whole tree so far (for per-move accounting of long-lived seats).
    pub fn cpu_time(&self) -> Option<Duration> {
        self.cgroup.as_ref().and_then(|c| c.cpu())
    }

    /// A meter of the tree's memory peak per period (one move of a long-lived seat); `None`
    /// without a cgroup (sandbox mode `none`).
    pub fn memory_meter(&self) -> Option<MemoryMeter> {
        self.cgroup.clone().map(MemoryMeter)
    }

    /// Kills the whole tree now. The first reason given is the one that counts.
    pub fn kill(&mut self, reason: KillReason) {
        self.killed.get_or_insert(reason);
        kill_tree(self.cgroup.as_deref(), self.child.id());
    }

    /// Waits for the bot to exit (or kills it at the wall deadline) and classifies the run.
    pub async fn wait(mut self) -> RunReport {
        let obs = self.supervise(std::future::pending()).await;
        self.finish(obs).await
    }

    /// The supervision loop; `extra` resolves when the caller wants the tree killed.
    pub(crate) async fn supervise(&mut self, extra: impl Future<Output = KillReason>) -> Observed {
        let deadline = tokio::time::sleep_until((self.started_at + self.limits.wall).into());
        let mut obs = Observed::default();
        let (cgroup, monitor) = (self.cgroup.clone(), self.child.id());
        let mut report = self.report.take();
        let child = &mut self.child;
        let exited = async move {
            match report.as_mut() {
                Some(task) => task.await.unwrap_or_default(),
                None => match child.wait().await {
                    Ok(s) => InitReport {
                        started: true,
                        exit: Some(ExitInfo {
                            code: s.code(),
                            signal: s.signal(),
                        }),
                        ..Default::default()
                    },
                    Err(_) => InitReport::default(),
                },
            }
        };
        tokio::pin!(deadline, extra, exited);
        let mut killed = self.killed;
        let init = tokio::select! {
            biased;
            r = &mut exited => Some(r),
            _ = &mut deadline => { obs.wall_expired = true; None }
            reason = &mut extra => { killed.get_or_insert(reason); None }
        };
        let init = match init {
            Some(r) => r,
            None => {
                kill_tree(cgroup.as_deref(), monitor);
                exited.await
            }
        };
        if obs.wall_expired {
            killed.get_or_insert(KillReason::Deadline);
        }
        self.killed = killed;
        obs.started = init.started;
        obs.exit = init.exit;
        obs.killed = self.killed;
        obs.cpu = init.cpu;
        obs.wall = self.started_at.elapsed();
        self.report_rss = init.max_rss_bytes;
        obs
    }

    /// Reaps the monitor, empties and removes the cgroup, releases the slot, and classifies.
    pub(crate) async fn finish(&mut self, mut obs: Observed) -> RunReport {
        let t0 = Instant::now();
        if tokio::time::timeout(Duration::from_secs(2), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.start_kill();
            let _ = self.child.wait().await;
        }
        let mut max_rss = self.report_rss;
        if let Some(cg) = self.cgroup.take() {
            obs.oom_killed = cg.oom_kills() > 0;
            if let Some(group) = cg.cpu() {
                // The init's report (the bot's tree) when it made one; the group's total is
                // what the run is charged.
                crate::accounting::add(group, obs.exit.is_some().then_some(obs.cpu));
                obs.cpu = group;
            }
            if max_rss == 0 {
                max_rss = cg.memory_peak();
            }
            if let Err(e) = cg.destroy().await {
                tracing::error!(error = %e, "could not remove a sandbox cgroup");
            }
        }
        self.slot = None;
        self.seat = None;
        self.done = true;
        let teardown_us = t0.elapsed().as_micros();
        tracing::debug!(
            wall_us = obs.wall.as_micros(),
            teardown_us,
            "sandbox finished"
        );
        RunReport {
            end_state: classify(&obs, &self.limits),
            exit: obs.exit.unwrap_or_default(),
            wall: obs.wall,
            cpu: obs.cpu,
            max_rss_bytes: max_rss,
            stdout: Vec::new(),
            stderr: Vec::new(),
        }
    }
}

/// SIGKILLs the tree. With a cgroup: everything but bwrap's monitor, so the sandbox init dies, the
/// pid namespace dies with it, and the monitor reaps the init and exits (no zombie is left to the
/// host's init); the monitor itself only when nothing else is there yet. Without: the process group.
fn kill_tree(cgroup: Option<&Cgroup>, monitor: Option<u32>) {
    let monitor = monitor.map(|p| Pid::from_raw(p as i32));
    match cgroup {
        Some(cg) => {
            if cg.kill_all(monitor.map(nix::unistd::Pid::as_raw)) <= 1 {
                if let Some(pid) = monitor {
                    let _ = kill(pid, Signal::SIGKILL);
                }
            }
        }
        None => {
            if let Some(pid) = monitor {
                let _ = killpg(pid, Signal::SIGKILL);
                let _ = kill(pid, Signal::SIGKILL);
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        self.kill(KillReason::Cancelled);
        // Release the slot only once its cgroup is empty and gone.
        let (cg, slot, seat) = (self.cgroup.take(), self.slot.take(), self.seat.take());
        if let Some(cg) = cg {
            std::thread::spawn(move || {
                cg.destroy_blocking();
                drop(slot);
                drop(seat);
            });
        }
    }
}

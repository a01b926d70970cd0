//! One fresh cgroup per sandbox, under a `croupier` parent in each hierarchy.
//!
//! v1 (hybrid hosts like the dev VM): `memory/croupier/slot-N` (+ `memory.memsw.*` when swap
//! accounting exists), `pids/croupier/slot-N`, `cpuacct/croupier/slot-N`, `cpu/croupier/slot-N`
//! (`cpu.cfs_quota_us` over a 100 ms `cpu.cfs_period_us`); controllers mounted together share one
//! directory. v2: one `<cgroup2>/croupier/slot-N` with `memory.max`, `memory.swap.max`,
//! `pids.max`, `cpu.max` (when the cpu controller can be enabled), `cgroup.kill`.
//! Nothing outside the `croupier` parents is ever written. The group is named after the slot, so a
//! group left behind by a crashed worker is emptied and replaced when the slot is next used.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use crate::Limits;

/// Where the `croupier` parent groups live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CgroupLayout {
    /// Separate v1 hierarchies (memory and pids required, cpuacct and cpu optional).
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpuacct: Option<PathBuf>,
        cpu: Option<PathBuf>,
    },
    /// The unified hierarchy with the memory and pids controllers available.
    V2 { root: PathBuf },
}

impl CgroupLayout {
    /// Finds the hierarchies from `/proc/self/mounts`. The v1 memory controller wins when mounted,
    /// because a controller bound to v1 is missing from v2.
    pub fn detect() -> Result<Self, String> {
        let mounts = fs::read_to_string("/proc/self/mounts")
            .map_err(|e| format!("/proc/self/mounts: {e}"))?;
        let (mut memory, mut pids, mut cpuacct, mut cpu, mut unified) =
            (None, None, None, None, None);
        for line in mounts.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let [_, dir, kind, opts, ..] = f[..] else {
                continue;
            };
            let dir = PathBuf::from(dir);
            match kind {
                "cgroup" => {
                    let opts: Vec<&str> = opts.split(',').collect();
                    if opts.contains(&"memory") {
                        memory = Some(dir.join("croupier"));
                    }
                    if opts.contains(&"pids") {
                        pids = Some(dir.join("croupier"));
                    }
                    if opts.contains(&"cpuacct") {
                        cpuacct = Some(dir.join("croupier"));
                    }
                    if opts.contains(&"cpu") {
                        cpu = Some(dir.join("croupier"));
                    }
                }
                "cgroup2" => unified = Some(dir),
                _ => {}
            }
        }
        match (memory, pids, unified) {
            (Some(memory), Some(pids), _) => Ok(Self::V1 {
                memory,
                pids,
                cpuacct,
                cpu,
            }),
            (Some(_), None, _) => {
                Err("cgroup v1 memory is mounted but the pids controller is not".into())
            }
            (None, _, Some(root)) => {
                let have = fs::read_to_string(root.join("cgroup.controllers")).unwrap_or_default();
                let missing: Vec<&str> = ["memory", "pids"]
                    .into_iter()
                    .filter(|c| !have.split_whitespace().any(|h| h == *c))
                    .collect();
                if missing.is_empty() {
                    Ok(Self::V2 {
                        root: root.join("croupier"),
                    })
                } else {
                    Err(format!(
                        "cgroup v2 at {} lacks the {} controller(s)",
                        root.display(),
                        missing.join(", ")
                    ))
                }
            }
            (None, _, None) => Err("no memory cgroup controller is mounted (v1 or v2)".into()),
        }
    }

    /// The distinct parent directories (co-mounted controllers share one).
    fn parents(&self) -> Vec<&Path> {
        let mut v = match self {
            Self::V1 {
                memory,
                pids,
                cpuacct,
                cpu,
            } => {
                let mut v = vec![memory.as_path(), pids.as_path()];
                v.extend(cpuacct.as_deref());
                v.extend(cpu.as_deref());
                v
            }
            Self::V2 { root } => vec![root.as_path()],
        };
        let mut seen = Vec::new();
        v.retain(|p| {
            let new = !seen.contains(p);
            seen.push(*p);
            new
        });
        v
    }

    /// Creates the `croupier` parents (and, on v2, delegates memory and pids to their children).
    pub fn ensure_parents(&self) -> io::Result<()> {
        for p in self.parents() {
            fs::create_dir_all(p).map_err(|e| annotate(e, p))?;
        }
        if let Self::V2 { root } = self {
            let f = root.join("cgroup.subtree_control");
            let current = fs::read_to_string(&f).map_err(|e| annotate(e, &f))?;
            if !(current.contains("memory") && current.contains("pids")) {
                write(&f, "+memory +pids")?;
            }
            // CPU quotas need the cpu controller, which the host may not delegate: without it
            // seats run unthrottled (the probe says so in the log).
            if !current.contains("cpu") && write(&f, "+cpu").is_err() {
                tracing::warn!("cgroup v2: the cpu controller is not available, no CPU quotas");
            }
        }
        Ok(())
    }
}

impl CgroupLayout {
    /// Gives the `croupier` parent the CPU weight of `slots` ordinary processes (v1 `cpu.shares`
    /// 1024 each, v2 `cpu.weight` 100 each, capped by the kernel's maximum). Each sandbox's group
    /// competes with its siblings inside the parent; without this the parent as a whole would
    /// weigh like one host process and every bot would starve under host load, while their move
    /// clocks run on wall time. Each seat stays bounded by its own quota.
    pub fn weigh(&self, slots: u32) -> io::Result<()> {
        match self {
            Self::V1 { cpu: Some(cpu), .. } => write(
                &cpu.join("cpu.shares"),
                &(1024 * u64::from(slots)).min(262_144).to_string(),
            ),
            Self::V1 { cpu: None, .. } => Ok(()),
            Self::V2 { root } => {
                let f = root.join("cpu.weight");
                match f.exists() {
                    true => write(&f, &(100 * u64::from(slots)).min(10_000).to_string()),
                    false => Ok(()),
                }
            }
        }
    }
}

/// The cgroup(s) of one sandbox.
#[derive(Debug)]
pub(crate) struct Cgroup {
    /// Every distinct directory (created and removed together).
    dirs: Vec<PathBuf>,
    memory: PathBuf,
    /// Holds every task (`cgroup.procs` to list and kill).
    tasks: PathBuf,
    /// `cpuacct.usage` (v1) or `cpu.stat` (v2) lives here.
    cpuacct: Option<PathBuf>,
    /// The cpu controller's directory, when quotas can be set.
    cpu: Option<PathBuf>,
    v2: bool,
    /// The highest peak a [`MemoryMeter`](crate::MemoryMeter) read before resetting it (v1 resets
    /// the group's own peak), so [`Cgroup::memory_peak`] still reports the whole run's.
    peak_seen: AtomicU64,
    /// The meter's open peak file: v2 `memory.peak`, whose resets are local to this descriptor;
    /// v1 `memory.max_usage_in_bytes`. `Some(None)`: it cannot be opened (v2 before Linux 6.12),
    /// so per-move peaks are not read.
    move_peak: Mutex<Option<Option<File>>>,
}

impl Cgroup {
    /// Creates `<parent>/<name>` in every hierarchy, replacing a leftover, and writes the limits.
    pub async fn create(layout: &CgroupLayout, name: &str, limits: &Limits) -> io::Result<Self> {
        let dirs: Vec<PathBuf> = layout.parents().into_iter().map(|p| p.join(name)).collect();
        let cg = match layout {
            CgroupLayout::V1 {
                memory,
                pids,
                cpuacct,
                cpu,
            } => Self {
                dirs,
                memory: memory.join(name),
                tasks: pids.join(name),
                cpuacct: cpuacct.as_ref().map(|d| d.join(name)),
                cpu: cpu.as_ref().map(|d| d.join(name)),
                v2: false,
                peak_seen: AtomicU64::new(0),
                move_peak: Mutex::new(None),
            },
            CgroupLayout::V2 { root } => {
                let d = root.join(name);
                let controllers =
                    fs::read_to_string(root.join("cgroup.subtree_control")).unwrap_or_default();
                let cpu = controllers.split_whitespace().any(|c| c == "cpu");
                Self {
                    dirs,
                    memory: d.clone(),
                    tasks: d.clone(),
                    cpuacct: Some(d.clone()),
                    cpu: cpu.then(|| d.clone()),
                    v2: true,
                    peak_seen: AtomicU64::new(0),
                    move_peak: Mutex::new(None),
                }
            }
        };
        if cg.dirs.iter().any(|d| d.exists()) {
            tracing::warn!(cgroup = name, "removing a leftover sandbox cgroup");
            cg.destroy().await?;
        }
        for d in &cg.dirs {
            fs::create_dir(d).map_err(|e| annotate(e, d))?;
        }
        let mem = limits.memory_bytes.to_string();
        let pids = (limits.pids + 2).to_string(); // + bwrap's monitor and the sandbox init
        let (m, p) = (&cg.memory, &cg.tasks);
        if cg.v2 {
            write(&m.join("memory.max"), &mem)?;
            let swap = m.join("memory.swap.max");
            if swap.exists() {
                write(&swap, "0")?;
            }
        } else {
            write(&m.join("memory.limit_in_bytes"), &mem)?;
            let memsw = m.join("memory.memsw.limit_in_bytes");
            if memsw.exists() {
                write(&memsw, &mem)?;
            }
        }
        write(&p.join("pids.max"), &pids)?;
        if let (Some(c), 1..) = (&cg.cpu, limits.cpu_millicores) {
            let quota = u64::from(limits.cpu_millicores) * CPU_PERIOD_US / 1000;
            if cg.v2 {
                write(&c.join("cpu.max"), &format!("{quota} {CPU_PERIOD_US}"))?;
            } else {
                write(&c.join("cpu.cfs_period_us"), &CPU_PERIOD_US.to_string())?;
                write(&c.join("cpu.cfs_quota_us"), &quota.to_string())?;
            }
        }
        Ok(cg)
    }

    /// `cgroup.procs` of every hierarchy, opened for writing, for the child to move itself in.
    pub fn procs_files(&self) -> io::Result<Vec<File>> {
        self.dirs
            .iter()
            .map(|d| {
                let f = d.join("cgroup.procs");
                OpenOptions::new()
                    .write(true)
                    .open(&f)
                    .map_err(|e| annotate(e, &f))
            })
            .collect()
    }

    /// The processes in the group (from the pids or unified hierarchy, which holds every task).
    pub fn pids(&self) -> Vec<i32> {
        let f = self.tasks.join("cgroup.procs");
        fs::read_to_string(f)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// SIGKILLs every process in the group except `spare` (bwrap's monitor, which must stay alive to
    /// reap the sandbox init so it does not become a zombie of the host's init).
    pub fn kill_all(&self, spare: Option<i32>) -> usize {
        let pids = self.pids();
        for &pid in &pids {
            if Some(pid) != spare {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
        pids.len()
    }

    /// Kills everything and, once the group is empty, removes it. True when it is gone.
    fn try_remove(&self) -> io::Result<bool> {
        if self.kill_all(None) > 0 {
            return Ok(false);
        }
        for d in &self.dirs {
            match fs::remove_dir(d) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) if e.raw_os_error() == Some(nix::libc::EBUSY) => return Ok(false),
                Err(e) => return Err(annotate(e, d)),
            }
        }
        Ok(true)
    }

    /// Kills everything, waits until the group is empty, and removes it.
    pub async fn destroy(&self) -> io::Result<()> {
        let t0 = Instant::now();
        while !self.try_remove()? {
            if t0.elapsed() > Duration::from_secs(10) {
                return Err(io::Error::other("sandbox cgroup did not empty within 10 s"));
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        Ok(())
    }

    /// [`Cgroup::destroy`] for threads without a runtime.
    pub fn destroy_blocking(&self) {
        let t0 = Instant::now();
        while !matches!(self.try_remove(), Ok(true)) && t0.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Raises the group's memory and process caps by what is resident now (memory) and one
    /// process: a seat's warm interpreter ([`crate::zygote`]), started before any move, is then
    /// not charged to the moves, whose own caps stay `limits`' (its pages that a move shares
    /// copy-on-write count once, as the interpreter's).
    pub fn allow_resident(&self, limits: &Limits) -> io::Result<()> {
        let (current, max) = match self.v2 {
            true => ("memory.current", "memory.max"),
            false => ("memory.usage_in_bytes", "memory.limit_in_bytes"),
        };
        let path = self.memory.join(current);
        let resident: u64 = fs::read_to_string(&path)
            .map_err(|e| annotate(e, &path))?
            .trim()
            .parse()
            .map_err(|e| annotate(io::Error::new(io::ErrorKind::InvalidData, e), &path))?;
        let mem = (limits.memory_bytes + resident).to_string();
        if !self.v2 {
            // v1: the memory+swap cap may never be below the memory cap, so it goes up first.
            let memsw = self.memory.join("memory.memsw.limit_in_bytes");
            if memsw.exists() {
                write(&memsw, &mem)?;
            }
        }
        write(&self.memory.join(max), &mem)?;
        write(&self.tasks.join("pids.max"), &(limits.pids + 3).to_string())
    }

    /// How many times the OOM killer fired in this group.
    pub fn oom_kills(&self) -> u64 {
        let file = match self.v2 {
            false => self.memory.join("memory.oom_control"),
            true => self.memory.join("memory.events"),
        };
        let text = fs::read_to_string(file).unwrap_or_default();
        keyed(&text, "oom_kill").unwrap_or(0)
    }

    /// CPU time used by the whole tree so far.
    pub fn cpu(&self) -> Option<Duration> {
        let dir = self.cpuacct.as_ref()?;
        if self.v2 {
            let text = fs::read_to_string(dir.join("cpu.stat")).ok()?;
            Some(Duration::from_micros(keyed(&text, "usage_usec")?))
        } else {
            let ns = fs::read_to_string(dir.join("cpuacct.usage")).ok()?;
            Some(Duration::from_nanos(ns.trim().parse().ok()?))
        }
    }

    /// Peak memory charged to the group (includes page cache and tmpfs).
    pub fn memory_peak(&self) -> u64 {
        let file = match self.v2 {
            false => self.memory.join("memory.max_usage_in_bytes"),
            true => self.memory.join("memory.peak"),
        };
        let read = fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        read.max(self.peak_seen.load(Ordering::Relaxed))
    }

    /// The peak memory charged to the group since the previous call (the first call: since the
    /// group was made), then starts a new period. v2 resets a peak local to the meter's own
    /// open `memory.peak` (Linux ≥ 6.12; `None` before); v1 resets the group's
    /// `memory.max_usage_in_bytes`, remembering the old peak for [`Cgroup::memory_peak`].
    /// Either file is opened once per group and kept: a long-lived seat's meter reads it at
    /// every move, and opening a cgroup file per move was 14 % of the worker's CPU in a hosted
    /// No Thanks match.
    pub fn take_period_peak(&self) -> Option<u64> {
        let mut file = self.move_peak.lock().ok()?;
        let f = file
            .get_or_insert_with(|| {
                let name = match self.v2 {
                    true => "memory.peak",
                    false => "memory.max_usage_in_bytes",
                };
                let path = self.memory.join(name);
                OpenOptions::new().read(true).write(true).open(path).ok()
            })
            .as_ref()?;
        let peak = read_at_start(f)?;
        let reset: &[u8] = if self.v2 { b"reset\n" } else { b"0" };
        f.write_all_at(reset, 0).ok()?;
        drop(file);
        self.peak_seen.fetch_max(peak, Ordering::Relaxed);
        Some(peak)
    }
}

/// The CFS period the quotas are expressed over.
const CPU_PERIOD_US: u64 = 100_000;

/// A number read from the start of an open cgroup file.
fn read_at_start(file: &File) -> Option<u64> {
    let mut buf = [0_u8; 32];
    let n = file.read_at(&mut buf, 0).ok()?;
    std::str::from_utf8(buf.get(..n)?).ok()?.trim().parse().ok()
}

fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.trim().parse().ok())
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    let mut f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| annotate(e, path))?;
    f.write_all(value.as_bytes()).map_err(|e| annotate(e, path))
}

fn annotate(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

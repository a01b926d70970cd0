//! One fresh cgroup per sandbox, under a `croupier` parent in each hierarchy.
//!
//! v1 (hybrid hosts like the dev VM): `memory/croupier/slot-N` (+ `memory.memsw.*` when swap
//! accounting exists), `pids/croupier/slot-N`, `cpuacct/croupier/slot-N`. v2: one
//! `<cgroup2>/croupier/slot-N` with `memory.max`, `memory.swap.max`, `pids.max`, `cgroup.kill`.
//! Nothing outside the `croupier` parents is ever written. The group is named after the slot, so a
//! group left behind by a crashed worker is emptied and replaced when the slot is next used.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use crate::Limits;

/// Where the `croupier` parent groups live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CgroupLayout {
    /// Separate v1 hierarchies (memory and pids required, cpuacct optional).
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpuacct: Option<PathBuf>,
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
        let (mut memory, mut pids, mut cpuacct, mut unified) = (None, None, None, None);
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

    fn parents(&self) -> Vec<&Path> {
        match self {
            Self::V1 {
                memory,
                pids,
                cpuacct,
            } => {
                let mut v = vec![memory.as_path(), pids.as_path()];
                v.extend(cpuacct.as_deref());
                v
            }
            Self::V2 { root } => vec![root.as_path()],
        }
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
        }
        Ok(())
    }
}

/// The cgroup(s) of one sandbox.
#[derive(Debug)]
pub(crate) struct Cgroup {
    layout: CgroupLayout,
    dirs: Vec<PathBuf>,
}

impl Cgroup {
    /// Creates `<parent>/<name>` in every hierarchy, replacing a leftover, and writes the limits.
    pub async fn create(layout: &CgroupLayout, name: &str, limits: &Limits) -> io::Result<Self> {
        let dirs: Vec<PathBuf> = layout.parents().into_iter().map(|p| p.join(name)).collect();
        let cg = Self {
            layout: layout.clone(),
            dirs,
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
        match &cg.layout {
            CgroupLayout::V1 { .. } => {
                let (m, p) = (&cg.dirs[0], &cg.dirs[1]);
                write(&m.join("memory.limit_in_bytes"), &mem)?;
                let memsw = m.join("memory.memsw.limit_in_bytes");
                if memsw.exists() {
                    write(&memsw, &mem)?;
                }
                write(&p.join("pids.max"), &pids)?;
            }
            CgroupLayout::V2 { .. } => {
                let d = &cg.dirs[0];
                write(&d.join("memory.max"), &mem)?;
                let swap = d.join("memory.swap.max");
                if swap.exists() {
                    write(&swap, "0")?;
                }
                write(&d.join("pids.max"), &pids)?;
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
        let dir = match self.layout {
            CgroupLayout::V1 { .. } => &self.dirs[1],
            CgroupLayout::V2 { .. } => &self.dirs[0],
        };
        let f = dir.join("cgroup.procs");
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

    /// How many times the OOM killer fired in this group.
    pub fn oom_kills(&self) -> u64 {
        let file = match self.layout {
            CgroupLayout::V1 { .. } => self.dirs[0].join("memory.oom_control"),
            CgroupLayout::V2 { .. } => self.dirs[0].join("memory.events"),
        };
        let text = fs::read_to_string(file).unwrap_or_default();
        keyed(&text, "oom_kill").unwrap_or(0)
    }

    /// CPU time used by the whole tree so far.
    pub fn cpu(&self) -> Option<Duration> {
        match &self.layout {
            CgroupLayout::V1 {
                cpuacct: Some(_), ..
            } => {
                let ns = fs::read_to_string(self.dirs[2].join("cpuacct.usage")).ok()?;
                Some(Duration::from_nanos(ns.trim().parse().ok()?))
            }
            CgroupLayout::V1 { .. } => None,
            CgroupLayout::V2 { .. } => {
                let text = fs::read_to_string(self.dirs[0].join("cpu.stat")).ok()?;
                Some(Duration::from_micros(keyed(&text, "usage_usec")?))
            }
        }
    }

    /// Peak memory charged to the group (includes page cache and tmpfs).
    pub fn memory_peak(&self) -> u64 {
        let file = match self.layout {
            CgroupLayout::V1 { .. } => self.dirs[0].join("memory.max_usage_in_bytes"),
            CgroupLayout::V2 { .. } => self.dirs[0].join("memory.peak"),
        };
        fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    }
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

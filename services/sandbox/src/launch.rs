//! Building the bubblewrap command line and the child-side setup before `exec`.
//!
//! The child of the worker runs [`prepare_child`] between `fork` and `exec` *as root*: it moves
//! itself into the sandbox cgroups, joins the match network namespace, sets the rlimits, makes the
//! report pipe inheritable (every other descriptor above stderr is marked close-on-exec) and only
//! then drops to the slot uid/gid with no supplementary groups.
//! We drop the uid ourselves instead of using `Command::uid`, because std runs `pre_exec` hooks after
//! its own uid drop, when joining a cgroup or a namespace is no longer allowed. Everything there is a
//! plain syscall on memory prepared before the fork (no allocation, no locks).
#![allow(unsafe_code)]

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;

use nix::fcntl::{fcntl, FcntlArg, FdFlag};
use nix::sched::{setns, CloneFlags};
use nix::sys::resource::{setrlimit, Resource, RLIM_INFINITY};
use nix::unistd::{setgroups, setresgid, setresuid, Gid, Uid};
use tokio::process::Command;

use crate::{Limits, MatchNet, Spec};

/// Where the init binary appears inside the sandbox.
pub(crate) const INIT_PATH: &str = "/.croupier-init";
/// The sandbox PATH (Debian's /usr/bin/python3, not a pyenv shim from the worker's PATH).
pub(crate) const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Everything the child needs between fork and exec, prepared before the fork.
pub(crate) struct ChildSetup {
    pub cgroup_procs: Vec<File>,
    pub net: Option<Arc<MatchNet>>,
    pub limits: Limits,
    /// Slot uid/gid to drop to; `None` in mode `none`.
    pub uid: Option<u32>,
    /// The write end of the init's report pipe (or the zygote's socket), made inheritable in
    /// the child.
    pub report: Option<OwnedFd>,
    /// Start the init as the seat's zygote ([`crate::zygote`]) instead of running a program;
    /// its own CPU is then unlimited (each move's process gets the backstop).
    pub zygote: bool,
}

/// The bwrap command for `spec` (stdio piped, environment cleared, child setup attached).
pub(crate) fn bwrap_command(
    bwrap: &Path,
    init: &Path,
    etc: &Path,
    dev: Option<&Path>,
    spec: &Spec,
    setup: ChildSetup,
) -> Command {
    let mut a: Vec<OsString> = Vec::new();
    let mut arg = |parts: &[&dyn AsRef<std::ffi::OsStr>]| {
        a.extend(parts.iter().map(|p| p.as_ref().to_owned()));
    };
    arg(&[&"--unshare-all", &"--unshare-user", &"--disable-userns"]);
    if setup.net.is_some() {
        arg(&[&"--share-net"]); // the child already joined the match namespace
    }
    arg(&[
        &"--die-with-parent",
        &"--new-session",
        &"--as-pid-1",
        &"--clearenv",
        &"--hostname",
        &"croupier",
    ]);
    arg(&[&"--ro-bind", &"/usr", &"/usr"]);
    for dir in ["bin", "sbin", "lib", "lib32", "lib64", "libx32"] {
        let host = Path::new("/").join(dir);
        match std::fs::read_link(&host) {
            Ok(target) => arg(&[&"--symlink", &target, &host]),
            Err(_) if host.is_dir() => arg(&[&"--ro-bind", &host, &host]),
            Err(_) => {}
        }
    }
    // One prepared directory rather than a bind per file: each bind costs bwrap ~0.25 ms.
    arg(&[&"--ro-bind", &etc, &"/etc"]);
    arg(&[&"--proc", &"/proc"]);
    match dev {
        // The prepared device tmpfs (one bind) rather than bwrap's per-sandbox /dev (~0.9 ms).
        Some(dev) => arg(&[&"--dev-bind", &dev, &"/dev"]),
        None => arg(&[&"--dev", &"/dev"]),
    }
    let seat_at = spec.seat_dir.as_ref().map(super::seatdir::SeatDir::inside);
    match &spec.seat_dir {
        // The seat's own tmpfs: one cap for all it writes, kept for the seat's whole match.
        Some(seat) => {
            arg(&[&"--bind", &seat.tmp(), &"/tmp"]);
            arg(&[&"--bind", &seat.shm(), &"/dev/shm"]);
        }
        None => {
            let size = setup.limits.disk_bytes.to_string();
            for dir in ["/tmp", "/dev/shm"] {
                arg(&[&"--perms", &"1777", &"--size", &size, &"--tmpfs", &dir]);
            }
        }
    }
    arg(&[&"--ro-bind", &init, &INIT_PATH]);
    if seat_at != Some("/bot") {
        arg(&[&"--ro-bind", &spec.bot_dir, &"/bot"]);
    }
    match &spec.work_dir {
        Some(work) if seat_at != Some("/work") => arg(&[&"--ro-bind", work, &"/work"]),
        _ => {}
    }
    if let Some(seat) = &spec.seat_dir {
        arg(&[&"--bind", &seat.path(), &seat.inside()]);
    }
    arg(&[&"--remount-ro", &"/", &"--chdir", &spec.cwd]);
    let home = seat_at.unwrap_or("/tmp");
    for (k, v) in [
        ("PATH", PATH),
        ("HOME", home),
        ("TMPDIR", "/tmp"),
        ("LANG", "C.UTF-8"),
    ] {
        arg(&[&"--setenv", &k, &v]);
    }
    arg(&[&"--setenv", &"PYTHONDONTWRITEBYTECODE", &"1"]);
    for (k, v) in &spec.env {
        arg(&[&"--setenv", k, v]);
    }
    let report_fd = setup
        .report
        .as_ref()
        .map_or(-1, std::os::fd::AsRawFd::as_raw_fd)
        .to_string();
    if setup.zygote {
        arg(&[&"--", &INIT_PATH, &"--zygote", &report_fd]);
    } else {
        arg(&[&"--", &INIT_PATH, &report_fd, &spec.program]);
        a.extend(spec.args.iter().map(OsString::from));
    }

    let mut cmd = Command::new(bwrap);
    cmd.args(a);
    finish(&mut cmd, setup);
    cmd
}

/// Common settings: cleared environment, piped stdio, kill on drop, and the child-side setup.
pub(crate) fn finish(cmd: &mut Command, mut setup: ChildSetup) {
    cmd.env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // SAFETY: the closure runs in the forked child before exec. It performs only async-signal-safe
    // syscalls (write, setns, setrlimit, close_range, fcntl, setgroups, setresgid, setresuid) on descriptors and
    // values captured before the fork; it allocates nothing and takes no locks. The glibc wrappers
    // are safe here because std forks with fork(2), which leaves glibc's thread list consistent
    // (the setxid deadlock seen after a raw clone() does not apply).
    unsafe {
        cmd.pre_exec(move || prepare_child(&mut setup));
    }
}

fn prepare_child(s: &mut ChildSetup) -> io::Result<()> {
    for f in &s.cgroup_procs {
        nix::unistd::write(f, b"0")?;
    }
    if let Some(net) = &s.net {
        setns(net.fd(), CloneFlags::CLONE_NEWNET)?;
    }
    let l = &s.limits;
    let cpu = l.cpu.as_secs() + u64::from(l.cpu.subsec_nanos() > 0);
    setrlimit(Resource::RLIMIT_CORE, 0, 0)?;
    setrlimit(Resource::RLIMIT_FSIZE, l.file_size_bytes, l.file_size_bytes)?;
    setrlimit(Resource::RLIMIT_NOFILE, l.open_files, l.open_files)?;
    if s.zygote {
        setrlimit(Resource::RLIMIT_CPU, RLIM_INFINITY, RLIM_INFINITY)?;
    } else {
        setrlimit(Resource::RLIMIT_CPU, cpu.max(1), cpu.max(1) + 1)?;
    }
    // Nothing the worker has open may reach bwrap (and through it the bot): only the report pipe
    // is made inheritable again below.
    crate::init::close_on_exec_above_stdio()?;
    if let Some(fd) = &s.report {
        fcntl(fd.as_fd().as_raw_fd(), FcntlArg::F_SETFD(FdFlag::empty()))?;
    }
    if let Some(uid) = s.uid {
        // The uid is exclusive to this sandbox, so NPROC counts only its own processes.
        let nproc = u64::from(l.pids) + 8;
        setrlimit(Resource::RLIMIT_NPROC, nproc, nproc)?;
        setgroups(&[])?;
        setresgid(Gid::from_raw(uid), Gid::from_raw(uid), Gid::from_raw(uid))?;
        setresuid(Uid::from_raw(uid), Uid::from_raw(uid), Uid::from_raw(uid))?;
    }
    Ok(())
}

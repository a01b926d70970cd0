//! The sandbox init: pid 1 of every sandbox (bwrap `--as-pid-1`), run from the
//! `croupier-sandbox-init` binary (or from any binary that calls [`main`] on request).
//!
//! Usage: `croupier-sandbox-init <report-fd> <program> [args…]` (or `--zygote <socket-fd>`: a
//! seat's resident init that starts one process per move on request, [`crate::zygote`]). It
//! starts the bot as pid 2, reaps every process of the namespace (so orphans never pile up as
//! zombies in the pids cgroup), and when the bot exits it writes the bot's real wait status and the rusage of everything it reaped to the
//! report fd, then exits, which makes the kernel kill whatever else is left in the pid namespace.
//! Report lines: `init`, then `exit <code|-> <signal|-> <cpu_us> <maxrss_kb>` or
//! `exec-error <errno> <message>`. Being pid 2, the bot gets SIGXCPU/SIGXFSZ with their default
//! action (pid 1 would silently ignore them), and bwrap's lossy `128 + signal` exit code is never
//! needed. The report fd is close-on-exec before the bot starts, and the init is not dumpable, so the
//! bot (same uid, no capabilities) can neither write to it nor ptrace the init.
//!
//! In the bot's process, between fork and exec, the init marks every descriptor above stderr
//! close-on-exec (`close_range`), so the bot starts with its stdio and nothing else, and installs
//! the system-call filter ([`crate::seccomp`], built before the fork). A filter that cannot be built
//! is a setup error (the init exits before saying `init`).
#![allow(unsafe_code)]

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::Command;

use nix::errno::Errno;
use nix::fcntl::{fcntl, FcntlArg, FdFlag};
use nix::sys::resource::{getrusage, UsageWho};
use nix::sys::wait::{waitpid, WaitStatus};
use nix::unistd::{dup2, Pid};

/// Runs the init with the process's own arguments; never returns.
pub fn main() -> ! {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let code = run(args);
    std::process::exit(code)
}

fn run(mut args: Vec<OsString>) -> i32 {
    let zygote = args.first().is_some_and(|a| a == "--zygote");
    if zygote {
        args.remove(0);
    }
    let Some(fd) = args
        .first()
        .and_then(|a| a.to_str())
        .and_then(|a| a.parse::<RawFd>().ok())
    else {
        eprintln!("usage: croupier-sandbox-init <report-fd> <program> [args...]");
        eprintln!("       croupier-sandbox-init --zygote <socket-fd>");
        return 2;
    };
    if fd < 3 || fcntl(fd, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC)).is_err() {
        eprintln!("croupier-sandbox-init: bad report fd {fd}");
        return 2;
    }
    // SAFETY: the launcher passed this inherited descriptor to us alone (checked open just above); no
    // other owner exists in this process, so taking ownership cannot double-close anything.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    if zygote {
        return crate::zygote::serve(owned);
    }
    let mut report = File::from(owned);
    let filters = match crate::seccomp::programs() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("croupier-sandbox-init: building the system-call filter: {e}");
            return 2;
        }
    };
    let _ = nix::sys::prctl::set_dumpable(false);
    let _ = report.write_all(b"init\n");
    let Some(program) = args.get(1) else {
        let _ = report.write_all(b"exec-error 22 no program given\n");
        return 127;
    };
    let mut command = Command::new(program);
    command.args(&args[2..]);
    // SAFETY: the init is single-threaded, so the forked child may call anything; the closure only
    // makes two system calls through `close_range` and the filter installation, on data built
    // before the fork.
    unsafe {
        command.pre_exec(move || {
            close_on_exec_above_stdio()?;
            crate::seccomp::install(&filters)
        });
    }
    let child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            eprintln!(
                "croupier-sandbox-init: cannot start {}: {e}",
                program.to_string_lossy()
            );
            let _ = writeln!(report, "exec-error {} {e}", e.raw_os_error().unwrap_or(0));
            return 127;
        }
    };
    let bot = Pid::from_raw(child.id() as i32);
    drop(child); // reaped below by waitpid, which also reaps orphans
                 // The init keeps no copy of the bot's stdio, so the pipes close when the bot's tree is done.
    if let Ok(null) = File::options().read(true).write(true).open("/dev/null") {
        for target in 0..3 {
            let _ = dup2(null.as_raw_fd(), target);
        }
    }
    let (code, signal) = loop {
        match waitpid(None, None) {
            Ok(WaitStatus::Exited(pid, code)) if pid == bot => break (Some(code), None),
            Ok(WaitStatus::Signaled(pid, sig, _)) if pid == bot => break (None, Some(sig as i32)),
            Ok(_) | Err(Errno::EINTR) => continue,
            Err(_) => break (None, None),
        }
    };
    let (cpu_us, maxrss_kb) = match getrusage(UsageWho::RUSAGE_CHILDREN) {
        Ok(u) => {
            let us = |t: nix::sys::time::TimeVal| t.tv_sec() * 1_000_000 + t.tv_usec();
            (us(u.user_time()) + us(u.system_time()), u.max_rss())
        }
        Err(_) => (0, 0),
    };
    let show = |v: Option<i32>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    let _ = writeln!(
        report,
        "exit {} {} {cpu_us} {maxrss_kb}",
        show(code),
        show(signal)
    );
    0
}

/// Marks every descriptor above stderr close-on-exec (Linux 5.11+ `close_range` flag): whatever the
/// process inherited is closed by the coming `exec`, while std's own exec-error pipe still works.
pub(crate) fn close_on_exec_above_stdio() -> io::Result<()> {
    // SAFETY: close_range only changes descriptor flags in this process; no memory is involved.
    let r = unsafe {
        nix::libc::syscall(
            nix::libc::SYS_close_range,
            3u32,
            u32::MAX,
            nix::libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

//! The zygote's side: pid 1 of a seat's sandbox, started once per seat and match
//! (`croupier-sandbox-init --zygote <socket-fd>`), forking one process per move on request.
//!
//! For each request it starts the program as the init does a bot (stdio from the request's
//! descriptors, every other descriptor closed at `exec`, the system-call filter — installed on
//! the zygote once and inherited —, the request's CPU backstop as `RLIMIT_CPU`), waits for it, then **kills and reaps every other
//! process of the sandbox** (anything the move left running), so no process of one move ever
//! runs during the next — as when each move had a sandbox of its own. Only then it answers
//! with the move's wait status, its CPU time (all it and its descendants used) and its memory
//! peak. Being pid 1 of the pid namespace and not dumpable, it cannot be signalled, traced or
//! read by the moves (same uid, no capabilities); the socket is close-on-exec and never reaches
//! them.
#![allow(unsafe_code)]

use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use nix::errno::Errno;
use nix::sys::resource::{getrusage, setrlimit, Resource, UsageWho};
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::waitpid;
use nix::unistd::{dup2, Pid};

use super::python::{clear_sparing, Served, WarmPython};
use super::wire::{self, Message, Request, MAX_REQUEST};

/// Serves requests on `socket` until the worker closes it; the exit code of the init.
pub(crate) fn serve(socket: OwnedFd) -> i32 {
    // The filter is installed once, on the zygote itself: every move's process inherits it
    // through fork and exec (loading and checking it per move cost more than the fork). The
    // zygote needs none of the calls it denies.
    let filtered = crate::seccomp::programs()
        .and_then(|f| crate::seccomp::install(&f).map_err(|e| e.to_string()));
    if let Err(e) = filtered {
        eprintln!("croupier-sandbox-init: the system-call filter: {e}");
        return 2;
    }
    let _ = nix::sys::prctl::set_dumpable(false);
    if wire::send(socket.as_raw_fd(), b"init", &[]).is_err() {
        return 2;
    }
    // The zygote keeps no copy of bwrap's stdio: the worker reads every move from its own pipes.
    if let Ok(null) = File::options().read(true).write(true).open("/dev/null") {
        for target in 0..3 {
            let _ = dup2(null.as_raw_fd(), target);
        }
    }
    let mut buf = vec![0u8; MAX_REQUEST];
    let mut warm: Option<WarmPython> = None;
    loop {
        let (n, fds) = match wire::recv(&socket, &mut buf) {
            Ok(Some(got)) => got,
            Ok(None) => return 0,
            Err(e) if e.raw_os_error() == Some(Errno::EINTR as i32) => continue,
            Err(_) => return 1,
        };
        let reply = match (Message::decode(&buf[..n]), <[OwnedFd; 3]>::try_from(fds)) {
            (Some(Message::Run(request)), Ok(stdio)) => match &warm {
                Some(python) if python.serves(&request) => {
                    let (reply, alive) = run_warm(python, &request, stdio);
                    if !alive {
                        warm = None;
                    }
                    reply
                }
                _ => {
                    // Another program: the warm Python (if any) is not needed again.
                    warm = None;
                    run(&request, stdio)
                }
            },
            (Some(Message::Warm { python, script }), Err(_)) if warm.is_none() => {
                match WarmPython::start(&python, &script) {
                    Ok(started) => {
                        warm = Some(started);
                        "warm ready".to_owned()
                    }
                    Err(why) => format!("warm off {why}"),
                }
            }
            _ => "exec-error 22 a malformed request".to_owned(),
        };
        if wire::send(socket.as_raw_fd(), reply.as_bytes(), &[]).is_err() {
            return 0;
        }
    }
}

/// One move through the warm Python: its report line, and whether the warm Python lives on.
fn run_warm(python: &WarmPython, request: &Request, stdio: [OwnedFd; 3]) -> (String, bool) {
    let before = children_cpu_us();
    let (status, cpu_us, maxrss_kb) = match python.run(request, stdio) {
        Served::Exited {
            status,
            cpu_us,
            maxrss_kb,
        } => {
            let alive = clear_sparing(python.pid());
            // What the zygote reaped (processes the move left behind) is the move's too.
            let left = children_cpu_us().saturating_sub(before);
            let cpu_us = if alive { cpu_us + left } else { cpu_us };
            return (exit_line(status, cpu_us, maxrss_kb), alive);
        }
        Served::Orphaned { pid } => {
            let (status, cpu_us, maxrss_kb) = wait_with_usage(pid);
            clear();
            (status, cpu_us, maxrss_kb)
        }
        Served::Refused(stdio) => {
            clear();
            return (run(request, stdio), false);
        }
    };
    (exit_line(status, cpu_us, maxrss_kb), false)
}

fn exit_line(status: i32, cpu_us: u64, maxrss_kb: i64) -> String {
    let info = crate::ExitInfo::from_wait_status(status);
    let show = |v: Option<i32>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    format!(
        "exit {} {} {cpu_us} {maxrss_kb}",
        show(info.code),
        show(info.signal)
    )
}

/// One move: start, wait, clear the sandbox, report.
fn run(request: &Request, [stdin, stdout, stderr]: [OwnedFd; 3]) -> String {
    let before = children_cpu_us();
    let mut command = Command::new(&request.program);
    command
        .args(&request.args)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr));
    let cpu = request.cpu_secs.max(1);
    // SAFETY: the zygote is single-threaded, so the forked child may call anything; the closure
    // makes two system calls (setrlimit, close_range) on values copied before the fork.
    unsafe {
        command.pre_exec(move || {
            setrlimit(Resource::RLIMIT_CPU, cpu, cpu + 1)?;
            crate::init::close_on_exec_above_stdio()
        });
    }
    let spawned = command.spawn();
    drop(command); // closes the zygote's copies of the move's stdio
    let child = match spawned {
        Ok(child) => child,
        Err(e) => {
            clear();
            return format!("exec-error {} {e}", e.raw_os_error().unwrap_or(0));
        }
    };
    let pid = child.id() as i32;
    drop(child);
    let (status, _, maxrss_kb) = wait_with_usage(pid);
    clear();
    let cpu_us = children_cpu_us().saturating_sub(before);
    exit_line(status, cpu_us, maxrss_kb)
}

/// Waits for `pid` (reaping any orphan meanwhile): its raw wait status, its CPU time in µs
/// and its memory peak in KiB.
fn wait_with_usage(pid: i32) -> (i32, u64, i64) {
    loop {
        let mut status = 0;
        // SAFETY: rusage is plain old data, zeroed before the call fills it.
        let mut usage: nix::libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 writes only to the two locals passed by pointer.
        let got = unsafe { nix::libc::wait4(-1, &raw mut status, 0, &raw mut usage) };
        if got == pid {
            let us = |t: nix::libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
            let cpu = u64::try_from(us(usage.ru_utime) + us(usage.ru_stime)).unwrap_or(0);
            return (status, cpu, usage.ru_maxrss);
        }
        if got < 0 && Errno::last() != Errno::EINTR {
            return (0, 0, 0);
        }
    }
}

/// Kills and reaps every process of the sandbox but the zygote (it is pid 1, so `kill(-1)`
/// spares it); until none is left, since a process may fork while being killed.
pub(super) fn clear() {
    loop {
        let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
        if let Err(Errno::ECHILD) = waitpid(None, None) {
            return;
        }
    }
}

/// CPU time of every process the zygote has reaped, in microseconds.
fn children_cpu_us() -> u64 {
    getrusage(UsageWho::RUSAGE_CHILDREN).map_or(0, |u| {
        let us = |t: nix::sys::time::TimeVal| t.tv_sec() * 1_000_000 + t.tv_usec();
        u64::try_from(us(u.user_time()) + us(u.system_time())).unwrap_or(0)
    })
}

//! A seat's **warm Python**, inside the seat's sandbox: one `python3` started by the zygote
//! before the first move (`warm.py`, run with `-c`), which has imported those of the modules
//! bots commonly import that the bot's `.py` files import (numpy too when one of them names it:
//! a module no move uses would only make every fork dearer) and then, for every move that runs
//! `python3 <script> …`, forks a child that runs the script as `__main__` exactly as
//! `python3 <script> …` would: the move's argv, stdin, stdout, stderr and cwd, fresh globals,
//! `random` and numpy's global generator re-seeded from the OS, and the interpreter's own
//! handling of the end (exit status, `SystemExit`, a traceback on stderr and status 1 for an
//! uncaught exception, `atexit`, threads joined). Starting Python and importing its modules is
//! paid once per seat instead of once per move, and so is compiling the script: the warm
//! Python compiles it at its start (parsing only), and a move whose script still has the same
//! bytes runs that code object (compiling in each forked child cost more than the rest of its
//! start, its fresh pages all copied); a script changed since is compiled by the move.
//!
//! Nothing of one move reaches the next: the child exits; the warm process never runs bot code
//! (it forks, waits and reports); the zygote then kills every other process of the sandbox, as
//! for any move. What the moves share is what a fork shares: the warm process's memory as it
//! was before any move, copy-on-write. Python's string hashes are the one thing per process
//! that is not new per move (the same `set` order in every move of a seat).
//!
//! The warm process is not dumpable, so a move cannot read or write its memory; a move can
//! still kill it (same uid). Then that move's result is read from its own process (which the
//! zygote inherits) and the seat's later moves start Python the ordinary way. The same happens
//! for any request the warm process does not serve (another program, another script).
#![allow(unsafe_code)]

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use nix::errno::Errno;
use nix::fcntl::{fcntl, FcntlArg, FdFlag, OFlag};
use nix::sys::signal::{kill, Signal};
use nix::sys::socket::{socketpair, AddressFamily, SockFlag, SockType};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{dup2, Pid};

use super::wire::{self, Request};

/// The server, run as `python3 -c WARM_PY <script>`.
const WARM_PY: &str = include_str!("warm.py");

/// A running warm Python, owned by the zygote.
pub(crate) struct WarmPython {
    pid: i32,
    socket: OwnedFd,
    /// The read end (non-blocking) of the pipe on which it writes each move's pid: read only
    /// when it is gone before it answered, and drained after every move.
    pids: OwnedFd,
    python: String,
    script: String,
    /// Its stdout's read end: its stdout is a pipe, as a move's is (Python decides its stdio's
    /// buffering from what they are at start-up), never written to.
    _stdout: OwnedFd,
}

/// How a move through the warm Python ended.
pub(crate) enum Served {
    /// The child's raw wait status, CPU time (µs) and memory peak (KiB).
    Exited {
        status: i32,
        cpu_us: u64,
        maxrss_kb: i64,
    },
    /// The warm Python is gone (a move killed it) after it started the child `pid`, now the
    /// zygote's to wait for.
    Orphaned { pid: i32 },
    /// The warm Python is gone before it started anything: the move's stdio comes back.
    Refused([OwnedFd; 3]),
}

impl WarmPython {
    /// Starts `python -c WARM_PY script` and waits until it is ready; the reason otherwise.
    pub fn start(python: &str, script: &str) -> Result<Self, String> {
        let (ours, theirs) = socketpair(
            AddressFamily::Unix,
            SockType::SeqPacket,
            None,
            SockFlag::SOCK_CLOEXEC,
        )
        .map_err(|e| format!("a socket: {e}"))?;
        let pipe = || nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|e| format!("a pipe: {e}"));
        let (stdin, _) = pipe()?;
        let (pids, pids_w) = pipe()?;
        fcntl(
            pids.as_raw_fd(),
            FcntlArg::F_SETFL(OFlag::O_NONBLOCK | OFlag::O_CLOEXEC),
        )
        .map_err(|e| format!("a pipe: {e}"))?;
        let (stdout_r, stdout_w) = pipe()?;
        let (stderr_r, stderr_w) = pipe()?;
        let mut command = Command::new(python);
        command
            .arg("-c")
            .arg(WARM_PY)
            .arg(script)
            .stdin(Stdio::from(stdin))
            .stdout(Stdio::from(stdout_w))
            .stderr(Stdio::from(stderr_w));
        let (fd, pid_fd) = (theirs.as_raw_fd(), pids_w.as_raw_fd());
        // SAFETY: the zygote is single-threaded, so the forked child may call anything; the
        // closure makes a few system calls on descriptor numbers copied before the fork.
        unsafe {
            command.pre_exec(move || {
                crate::init::close_on_exec_above_stdio()?;
                // The socket at 3, the pid pipe at 4 (moved out of the way first if it is 3).
                let pid_fd = if pid_fd == 3 {
                    fcntl(pid_fd, FcntlArg::F_DUPFD_CLOEXEC(5))?
                } else {
                    pid_fd
                };
                for (from, to) in [(fd, 3), (pid_fd, 4)] {
                    if from == to {
                        fcntl(to, FcntlArg::F_SETFD(FdFlag::empty()))?;
                    } else {
                        dup2(from, to)?;
                    }
                }
                Ok(())
            });
        }
        let spawned = command.spawn();
        drop(command);
        drop(theirs);
        drop(pids_w);
        let child = spawned.map_err(|e| format!("cannot start {python}: {e}"))?;
        let pid = child.id() as i32;
        drop(child);
        let mut buf = [0u8; 64];
        match wire::recv(&ours, &mut buf) {
            Ok(Some((n, _))) if &buf[..n] == b"ready" => Ok(WarmPython {
                pid,
                socket: ours,
                pids,
                python: python.to_owned(),
                script: script.to_owned(),
                _stdout: stdout_r,
            }),
            _ => {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
                let _ = waitpid(Pid::from_raw(pid), None);
                let mut said = Vec::new();
                let _ = File::from(stderr_r).take(400).read_to_end(&mut said);
                Err(format!(
                    "it stopped before it was ready: {}",
                    String::from_utf8_lossy(&said).trim()
                ))
            }
        }
    }

    /// Its process id (the zygote spares it when it clears the sandbox after a move).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// Whether `request` is a run of this script by this interpreter.
    pub fn serves(&self, request: &Request) -> bool {
        request.program == self.python && request.args.first() == Some(&self.script)
    }

    /// Runs `request` (which it [serves](Self::serves)) in a forked child with `stdio`.
    pub fn run(&self, request: &Request, stdio: [OwnedFd; 3]) -> Served {
        let mut bytes = format!("{}\0{}", request.cpu_secs, request.program).into_bytes();
        for a in &request.args {
            bytes.push(0);
            bytes.extend_from_slice(a.as_bytes());
        }
        let fds = stdio.each_ref().map(AsRawFd::as_raw_fd);
        if wire::send(self.socket.as_raw_fd(), &bytes, &fds).is_err() {
            return Served::Refused(stdio);
        }
        // One wake-up per move: the answer once the child is done. The zygote keeps its copies
        // of the move's stdio until then (the worker reads to the end after the answer), in case
        // the warm Python is gone before it forked and the move must be started here.
        let mut buf = [0u8; 128];
        let answer = self.receive(&mut buf).and_then(|t| parse_exit(&t));
        let pid = self.forked();
        match (answer, pid) {
            (Some((status, cpu_us, maxrss_kb)), _) => Served::Exited {
                status,
                cpu_us,
                maxrss_kb,
            },
            (None, Some(pid)) => Served::Orphaned { pid },
            (None, None) => Served::Refused(stdio),
        }
    }

    /// The pid of the child it forked for this move, if it wrote one; the pipe is left empty.
    fn forked(&self) -> Option<i32> {
        let mut buf = [0u8; 256];
        let mut text = Vec::new();
        loop {
            match nix::unistd::read(self.pids.as_raw_fd(), &mut buf) {
                Ok(0) | Err(Errno::EAGAIN) => break,
                Ok(n) => text.extend_from_slice(&buf[..n]),
                Err(Errno::EINTR) => {}
                Err(_) => break,
            }
        }
        parse_pid(&String::from_utf8_lossy(&text))
    }

    fn receive(&self, buf: &mut [u8]) -> Option<String> {
        loop {
            match wire::recv(&self.socket, buf) {
                Ok(Some((n, _))) => return Some(String::from_utf8_lossy(&buf[..n]).into_owned()),
                Err(e) if e.raw_os_error() == Some(Errno::EINTR as i32) => {}
                Ok(None) | Err(_) => return None,
            }
        }
    }
}

/// The last pid of `<pid>\n` lines.
fn parse_pid(text: &str) -> Option<i32> {
    text.lines().last()?.parse().ok()
}

fn parse_exit(text: &str) -> Option<(i32, u64, i64)> {
    let mut words = text.strip_prefix("exit ")?.split(' ');
    let status = words.next()?.parse().ok()?;
    let cpu_us = words.next()?.parse().ok()?;
    let maxrss_kb = words.next()?.parse().ok()?;
    Some((status, cpu_us, maxrss_kb))
}

/// Kills and reaps every process of the sandbox but the zygote and `spare` (the warm Python),
/// until none is left; whether `spare` is still alive. Every process it kills ends as a child
/// of the zygote (orphans go to pid 1), except the warm Python's own child, which it reaped
/// before it answered. Should some process not go within two seconds (or `/proc` be
/// unreadable), everything but the zygote is killed, `spare` too.
pub(crate) fn clear_sparing(spare: i32) -> bool {
    let mut alive = true;
    for _ in 0..10_000 {
        let Some(others) = others_than(spare) else {
            break;
        };
        if others.is_empty() {
            return alive;
        }
        for pid in others {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        let mut reaped = false;
        loop {
            match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => break,
                Ok(status) => {
                    reaped = true;
                    if status.pid() == Some(Pid::from_raw(spare)) {
                        alive = false;
                    }
                }
                Err(Errno::EINTR) => {}
                Err(_) => break,
            }
        }
        if !reaped {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    super::serve::clear();
    false
}

/// The pids in the sandbox's `/proc` other than the zygote's (1) and `spare`; `None` if it
/// cannot be read.
fn others_than(spare: i32) -> Option<Vec<i32>> {
    let dir = std::fs::read_dir("/proc").ok()?;
    Some(
        dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter(|&pid| pid != 1 && pid != spare)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warm_pythons_answers_parse() {
        assert_eq!(parse_pid("12\n"), Some(12));
        assert_eq!(parse_pid("11\n12\n"), Some(12));
        assert_eq!(parse_pid(""), None);
        assert_eq!(parse_pid("exit 0 1 2"), None);
        assert_eq!(parse_exit("exit 256 1500 9000"), Some((256, 1500, 9000)));
        assert_eq!(parse_exit("exit 256 1500"), None);
    }
}

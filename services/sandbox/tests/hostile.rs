//! Hostile bots from issue 13: inherited descriptors and the system-call filter.

mod common;

use std::fs;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use common::*;
use croupier_sandbox::{CgroupLayout, EndState, KillReason, RunReport, Sandbox, Spec};
use nix::fcntl::{fcntl, FcntlArg, FdFlag};
use tokio::io::AsyncReadExt;

/// Lists its descriptors (from `/proc/self/fd`, without the one reading it) and writes through each
/// one above stderr: `fd <n> -> <target> write <ok|errno>`.
const FD_THIEF: &str = r#"#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void){
  DIR *d = opendir("/proc/self/fd"); struct dirent *e; int mine = dirfd(d);
  while((e = readdir(d))){
    if(e->d_name[0] == '.') continue;
    int fd = atoi(e->d_name); if(fd == mine) continue;
    char link[64], target[512] = {0}; snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    if(readlink(link, target, sizeof target - 1) < 0) strcpy(target, "?");
    if(fd <= 2){ printf("fd %d -> std\n", fd); continue; }
    ssize_t n = write(fd, "pwned\n", 6);
    printf("fd %d -> %s write %s\n", fd, target, n == 6 ? "ok" : strerror(errno));
  }
  fflush(stdout); return 0; }"#;

/// A root-owned 0600 host file, opened without `O_CLOEXEC` in the test process (as a worker's
/// stray descriptor would be) for the duration of the test.
fn stray_descriptor(dir: &std::path::Path) -> (std::path::PathBuf, OwnedFd) {
    let path = dir.join("secret");
    fs::write(&path, "secret\n").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    let file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    fcntl(file.as_raw_fd(), FcntlArg::F_SETFD(FdFlag::empty())).unwrap();
    let flags = fcntl(file.as_raw_fd(), FcntlArg::F_GETFD).unwrap();
    assert_eq!(
        flags & FdFlag::FD_CLOEXEC.bits(),
        0,
        "inheritable on purpose"
    );
    (path, file.into())
}

fn only_stdio(out: &str) {
    let fds: Vec<&str> = out.lines().collect();
    assert_eq!(
        fds,
        ["fd 0 -> std", "fd 1 -> std", "fd 2 -> std"],
        "the bot saw more than its stdio"
    );
}

/// `spec` run as a per-move bot both ways: in a sandbox of its own ([`Sandbox::run`]), and as the
/// first and second move of a seat's zygote ([`croupier_sandbox::MoveRunner`]).
async fn every_way(sb: &Sandbox, spec: Spec) -> Vec<(&'static str, RunReport)> {
    let alone = sb.run(spec.clone(), Vec::new()).await;
    let mut moves = sb.move_runner(spec);
    let first = moves.run(&[], Vec::new()).await;
    let second = moves.run(&[], Vec::new()).await;
    moves.close().await;
    vec![
        ("a sandbox of its own", alone),
        ("a seat's first move", first),
        ("a seat's next move", second),
    ]
}

#[tokio::test]
async fn a_per_move_bot_inherits_no_descriptor_but_its_stdio() {
    let (sb, _) = sandbox().await;
    let host = open_dir();
    let (secret, fd) = stray_descriptor(host.path());
    let bot = c_bot(FD_THIEF);

    let spec = spec("/bot/bot", bot.path(), Duration::from_secs(5));
    for (way, report) in every_way(&sb, spec).await {
        let out = String::from_utf8_lossy(&report.stdout);
        eprintln!(
            "descriptors seen by a per-move bot in {way} (stray fd {}):\n{out}",
            fd.as_raw_fd()
        );
        assert_eq!(report.end_state, EndState::Ok, "{way}");
        only_stdio(&out);
    }
    assert_eq!(fs::read_to_string(&secret).unwrap(), "secret\n");
}

#[tokio::test]
async fn a_long_lived_seat_inherits_no_descriptor_but_its_stdio() {
    let (sb, _) = sandbox().await;
    let host = open_dir();
    let (secret, _fd) = stray_descriptor(host.path());
    let bot = c_bot(FD_THIEF);

    let mut p = sb
        .spawn(spec("/bot/bot", bot.path(), Duration::from_secs(5)))
        .await
        .unwrap();
    let mut out = String::new();
    p.stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .await
        .unwrap();
    p.kill(KillReason::MatchEnded);
    let report = p.wait().await;

    eprintln!("descriptors seen by a long-lived seat:\n{out}");
    assert_eq!(report.end_state, EndState::Ok);
    only_stdio(&out);
    assert_eq!(fs::read_to_string(&secret).unwrap(), "secret\n");
}

/// Calls every denied system call with arguments that would succeed (or fail harmlessly) if it
/// were allowed, and prints `<name> <errno name>`.
const SYSCALLS: &str = r#"#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/sched.h>
static void show(const char *name, long r){
  const char *e = r >= 0 ? "allowed" : errno == EPERM ? "EPERM" : errno == ENOSYS ? "ENOSYS" : strerror(errno);
  printf("%s %s\n", name, e); }
int main(void){
  char params[120] = {0}; struct iovec { void *b; size_t l; } v = {0, 0};
  show("io_uring_setup", syscall(SYS_io_uring_setup, 1, params));
  show("io_uring_enter", syscall(SYS_io_uring_enter, -1, 0, 0, 0, 0, 0));
  show("io_uring_register", syscall(SYS_io_uring_register, -1, 0, 0, 0));
  show("bpf", syscall(SYS_bpf, 0, 0, 0));
  show("perf_event_open", syscall(SYS_perf_event_open, 0, 0, -1, -1, 0));
  show("keyctl", syscall(SYS_keyctl, 0, -3, 0));
  show("add_key", syscall(SYS_add_key, "user", "k", "v", 1, -3));
  show("request_key", syscall(SYS_request_key, "user", "k", 0, 0));
  show("userfaultfd", syscall(SYS_userfaultfd, 1));
  show("kexec_load", syscall(SYS_kexec_load, 0, 0, 0, 0));
  show("kexec_file_load", syscall(SYS_kexec_file_load, -1, -1, 0, 0, 0));
  show("mount", syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, 0));
  show("umount2", syscall(SYS_umount2, "/tmp", 0));
  show("pivot_root", syscall(SYS_pivot_root, "/tmp", "/tmp"));
  show("chroot", syscall(SYS_chroot, "/tmp"));
  show("unshare", syscall(SYS_unshare, CLONE_NEWUSER));
  show("setns", syscall(SYS_setns, -1, 0));
  show("ptrace", syscall(SYS_ptrace, 0 /* PTRACE_TRACEME */, 0, 0, 0));
  show("process_vm_readv", syscall(SYS_process_vm_readv, getpid(), &v, 1, &v, 1, 0));
  show("process_vm_writev", syscall(SYS_process_vm_writev, getpid(), &v, 1, &v, 1, 0));
  show("kcmp", syscall(SYS_kcmp, getpid(), getpid(), 0, 0, 0));
  show("pidfd_getfd", syscall(SYS_pidfd_getfd, -1, 0, 0));
  show("open_tree", syscall(SYS_open_tree, -100, "/tmp", 0));
  show("fsopen", syscall(SYS_fsopen, "tmpfs", 0));
  show("open_by_handle_at", syscall(SYS_open_by_handle_at, -1, 0, 0));
  show("init_module", syscall(SYS_init_module, 0, 0, ""));
  show("finit_module", syscall(SYS_finit_module, -1, "", 0));
  show("fanotify_init", syscall(SYS_fanotify_init, 0, 0));
  show("acct", syscall(SYS_acct, 0));
  show("swapoff", syscall(SYS_swapoff, "/tmp"));
  show("syslog", syscall(SYS_syslog, 10, 0, 0));
  show("clone_newnet", syscall(SYS_clone, CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0));
  show("clone3", syscall(SYS_clone3, 0, 0));
  show("x32_getpid", syscall(0x40000000 | SYS_getpid));
  fflush(stdout); return 0; }"#;

#[tokio::test]
async fn every_denied_system_call_fails_with_eperm() {
    let (sb, _) = sandbox().await;
    let bot = c_bot(SYSCALLS);

    let spec = spec("/bot/bot", bot.path(), Duration::from_secs(5));
    for (way, report) in every_way(&sb, spec).await {
        let out = String::from_utf8_lossy(&report.stdout);
        eprintln!("denied system calls in {way}:\n{out}");
        assert_eq!(report.end_state, EndState::Ok, "{way}: {report:?}");
        let results: Vec<(&str, &str)> = out.lines().filter_map(|l| l.split_once(' ')).collect();
        assert_eq!(results.len(), 34, "{way}: {out}");
        for (name, result) in results {
            let want = if name == "clone3" { "ENOSYS" } else { "EPERM" };
            assert_eq!(result, want, "{way}: {name}");
        }
    }
}

/// Forks four children that spin forever.
const FOUR_SPINNERS: &str = r#"#include <unistd.h>
int main(void){ for(int i = 0; i < 4; i++) if(fork() == 0){ volatile unsigned long x = 0; for(;;) x++; }
  for(;;) pause(); }"#;

/// `(key, value)` from the seat's cgroup `cpu.stat` (the cpu hierarchy on v1, the group on v2).
fn cpu_stat(uid: u32, key: &str) -> u64 {
    let dir = match CgroupLayout::detect().unwrap() {
        CgroupLayout::V1 { cpu, .. } => cpu.expect("a v1 cpu hierarchy"),
        CgroupLayout::V2 { root } => root,
    };
    let text = fs::read_to_string(dir.join(format!("slot-{uid}/cpu.stat"))).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn four_busy_children_get_only_the_seats_cpu_quota() {
    let (sb, _) = sandbox().await;
    let bot = c_bot(FOUR_SPINNERS);
    let mut spec = spec("/bot/bot", bot.path(), Duration::from_secs(20));
    spec.limits.cpu = Duration::from_secs(20);
    spec.limits.cpu_millicores = 200;
    let mut p = sb.spawn(spec).await.unwrap();
    let uid = p.uid().unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;

    let (cpu0, t0) = (p.cpu_time().unwrap(), Instant::now());
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (cpu1, wall) = (p.cpu_time().unwrap(), t0.elapsed());
    let throttled = cpu_stat(uid, "nr_throttled");
    p.kill(KillReason::MatchEnded);
    let report = p.wait().await;

    let share = (cpu1 - cpu0).as_secs_f64() / wall.as_secs_f64();
    eprintln!("four spinners under a 0.2-core quota: {share:.2} cores over {wall:?}, throttled {throttled} times");
    assert_eq!(report.end_state, EndState::Ok);
    assert!(throttled > 0, "the quota never throttled the seat");
    if let CgroupLayout::V1 { cpu: Some(cpu), .. } = CgroupLayout::detect().unwrap() {
        let shares = fs::read_to_string(cpu.join("cpu.shares")).unwrap();
        assert_eq!(
            shares.trim(),
            (1024 * SLOTS).to_string(),
            "the sandboxes weigh like {SLOTS} processes"
        );
    }
    assert!(
        share < 0.3,
        "a fifth of a core was the quota, got {share:.2}"
    );
}

//! The system-call filter every bot runs under, installed by the sandbox init in the bot's process
//! just before `exec` (bwrap and the init themselves need `mount`/`unshare`/`clone` with namespace
//! flags, the bot never does).
//!
//! Two classic-BPF programs, both built before the fork:
//!
//! * a hand-written guard: a foreign architecture is killed; x32 system calls (numbers with bit 30
//!   set) fail with `EPERM`, so the deny list cannot be bypassed through the x32 ABI; `clone3`
//!   fails with `ENOSYS` (its flags live in memory, where BPF cannot look), so glibc falls back to
//!   `clone`, whose flags the deny list checks;
//! * a deny list compiled with `seccompiler`: every call in [`DENIED`], and `clone` with any
//!   namespace flag, fail with `EPERM`; everything else is allowed.
//!
//! A denied call is an error the bot can handle, never a kill: the kernel would refuse most of them
//! anyway (no capabilities, no user namespaces), the filter only takes away the attack surface of
//! io_uring, bpf, perf events, keyrings, userfaultfd, ptrace-like access and the mount API.

use std::collections::BTreeMap;

use nix::libc;
use seccompiler::{
    sock_filter, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch,
};

/// System calls a bot may not make (each fails with `EPERM`).
pub const DENIED: &[(&str, libc::c_long)] = &[
    ("io_uring_setup", libc::SYS_io_uring_setup),
    ("io_uring_enter", libc::SYS_io_uring_enter),
    ("io_uring_register", libc::SYS_io_uring_register),
    ("bpf", libc::SYS_bpf),
    ("perf_event_open", libc::SYS_perf_event_open),
    ("keyctl", libc::SYS_keyctl),
    ("add_key", libc::SYS_add_key),
    ("request_key", libc::SYS_request_key),
    ("userfaultfd", libc::SYS_userfaultfd),
    ("kexec_load", libc::SYS_kexec_load),
    ("kexec_file_load", libc::SYS_kexec_file_load),
    ("reboot", libc::SYS_reboot),
    ("init_module", libc::SYS_init_module),
    ("finit_module", libc::SYS_finit_module),
    ("delete_module", libc::SYS_delete_module),
    ("mount", libc::SYS_mount),
    ("umount2", libc::SYS_umount2),
    ("pivot_root", libc::SYS_pivot_root),
    ("chroot", libc::SYS_chroot),
    ("unshare", libc::SYS_unshare),
    ("setns", libc::SYS_setns),
    ("open_tree", libc::SYS_open_tree),
    ("move_mount", libc::SYS_move_mount),
    ("fsopen", libc::SYS_fsopen),
    ("fsconfig", libc::SYS_fsconfig),
    ("fsmount", libc::SYS_fsmount),
    ("fspick", libc::SYS_fspick),
    ("mount_setattr", libc::SYS_mount_setattr),
    ("open_by_handle_at", libc::SYS_open_by_handle_at),
    ("name_to_handle_at", libc::SYS_name_to_handle_at),
    ("ptrace", libc::SYS_ptrace),
    ("process_vm_readv", libc::SYS_process_vm_readv),
    ("process_vm_writev", libc::SYS_process_vm_writev),
    ("kcmp", libc::SYS_kcmp),
    ("pidfd_getfd", libc::SYS_pidfd_getfd),
    ("fanotify_init", libc::SYS_fanotify_init),
    ("acct", libc::SYS_acct),
    ("swapon", libc::SYS_swapon),
    ("swapoff", libc::SYS_swapoff),
    ("quotactl", libc::SYS_quotactl),
    ("syslog", libc::SYS_syslog),
    ("vhangup", libc::SYS_vhangup),
    ("settimeofday", libc::SYS_settimeofday),
    ("clock_settime", libc::SYS_clock_settime),
    ("clock_adjtime", libc::SYS_clock_adjtime),
    ("adjtimex", libc::SYS_adjtimex),
    #[cfg(target_arch = "x86_64")]
    ("iopl", libc::SYS_iopl),
    #[cfg(target_arch = "x86_64")]
    ("ioperm", libc::SYS_ioperm),
];

/// `clone` flags that create namespaces.
const NAMESPACE_FLAGS: &[libc::c_int] = &[
    libc::CLONE_NEWNS,
    libc::CLONE_NEWCGROUP,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    0x80, // CLONE_NEWTIME
];

#[cfg(target_arch = "x86_64")]
const ARCH: (TargetArch, u32) = (TargetArch::x86_64, 62 | 0x8000_0000 | 0x4000_0000);
#[cfg(target_arch = "aarch64")]
const ARCH: (TargetArch, u32) = (TargetArch::aarch64, 183 | 0x8000_0000 | 0x4000_0000);

const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;

/// The guard and the deny list, in the order to install them.
pub fn programs() -> Result<[BpfProgram; 2], String> {
    Ok([guard(), deny_list()?])
}

/// Installs `programs` on the calling thread (sets `no_new_privs` first). For the bot's process,
/// after the fork and before `exec`.
pub fn install(programs: &[BpfProgram]) -> std::io::Result<()> {
    for p in programs {
        seccompiler::apply_filter(p).map_err(|e| std::io::Error::other(e.to_string()))?;
    }
    Ok(())
}

fn guard() -> BpfProgram {
    let op = |code: u16, jt: u8, jf: u8, k: u32| sock_filter { code, jt, jf, k };
    const LD_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const JGE: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const RET: u16 = 0x06; // BPF_RET | BPF_K
    vec![
        op(LD_ABS, 0, 0, 4), // seccomp_data.arch
        op(JEQ, 1, 0, ARCH.1),
        op(RET, 0, 0, RET_KILL_PROCESS),
        op(LD_ABS, 0, 0, 0), // seccomp_data.nr
        op(JGE, 0, 1, 0x4000_0000),
        op(RET, 0, 0, RET_ERRNO | libc::EPERM as u32),
        op(JEQ, 0, 1, libc::SYS_clone3 as u32),
        op(RET, 0, 0, RET_ERRNO | libc::ENOSYS as u32),
        op(RET, 0, 0, RET_ALLOW),
    ]
}

fn deny_list() -> Result<BpfProgram, String> {
    let err = |e: seccompiler::BackendError| e.to_string();
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        DENIED.iter().map(|&(_, nr)| (nr, Vec::new())).collect();
    let clone_rules = NAMESPACE_FLAGS
        .iter()
        .map(|&flag| {
            let flag = flag as u64;
            let cond = SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag),
                flag,
            )?;
            SeccompRule::new(vec![cond])
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    rules.insert(libc::SYS_clone, clone_rules);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        ARCH.0,
    )
    .map_err(err)?;
    filter.try_into().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_programs_build() {
        let [guard, deny] = programs().unwrap();
        assert_eq!(guard.len(), 9);
        assert!(deny.len() > DENIED.len());
    }
}

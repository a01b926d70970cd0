//! The sandboxes' `/dev`: a small tmpfs of device nodes, made once when the
//! [`Sandbox`](crate::Sandbox) starts and bound at `/dev` in every sandbox.
//!
//! bubblewrap's own `--dev` builds a fresh one per sandbox: a tmpfs, then a bind of each of the
//! host's `null`, `zero`, `full`, `random`, `urandom` and `tty` (it reads the mount table again
//! for every bind) and a `devpts`. That was about 0.9 ms of a 7.7 ms sandbox start (`bwrap …
//! true`, 200 starts each way, 2026-11-27). The prepared one holds the same six nodes (mode
//! 0666), the `fd`, `stdin`, `stdout` and `stderr` links into `/proc/self/fd`, and an empty
//! `shm` directory where each sandbox binds its own private `/dev/shm`. It has no `pts`: a bot
//! cannot open a pseudo-terminal (no original platform gave its bots one).
//!
//! Everything in it belongs to root and the directory is mode 0755, so a bot can use the nodes
//! but never create, remove or change anything there. The tmpfs is mounted without `nodev`
//! (device nodes need that) but with `nosuid` and `noexec`. It stays mounted across worker
//! restarts and is reused; several workers sharing a state directory share it too. Preparing it
//! holds an exclusive `flock` on `<dir>.lock`, so that workers starting at the same moment
//! neither stack a second, still empty tmpfs over the first nor hand a sandbox a `/dev` being
//! filled.

use std::fs;
use std::io;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::Path;

use nix::fcntl::{Flock, FlockArg};
use nix::mount::{mount, MsFlags};
use nix::sys::stat::{makedev, mknod, Mode, SFlag};

/// The device nodes: name, major, minor (as the host's `/dev` numbers them on every Linux).
const NODES: &[(&str, u64, u64)] = &[
    ("null", 1, 3),
    ("zero", 1, 5),
    ("full", 1, 7),
    ("random", 1, 8),
    ("urandom", 1, 9),
    ("tty", 5, 0),
];

/// The links, as bubblewrap's `--dev` makes them.
const LINKS: &[(&str, &str)] = &[
    ("fd", "/proc/self/fd"),
    ("stdin", "/proc/self/fd/0"),
    ("stdout", "/proc/self/fd/1"),
    ("stderr", "/proc/self/fd/2"),
];

/// Mounts the tmpfs at `dir` (unless one is there already) and fills it, one process at a time.
/// Needs root.
pub(crate) fn prepare(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let lock = fs::File::create(dir.with_extension("lock"))?;
    let _held = Flock::lock(lock, FlockArg::LockExclusive)
        .map_err(|(_, e)| io::Error::other(format!("locking {}.lock: {e}", dir.display())))?;
    if !is_mount_point(dir)? {
        mount(
            Some("croupier-dev"),
            dir,
            Some("tmpfs"),
            MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
            Some("size=64k,nr_inodes=64,mode=0755"),
        )
        .map_err(|e| io::Error::other(format!("mounting a tmpfs at {}: {e}", dir.display())))?;
    }
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))?;
    for &(name, major, minor) in NODES {
        let path = dir.join(name);
        let wanted = makedev(major, minor);
        match fs::symlink_metadata(&path) {
            Ok(m) if m.rdev() == wanted && m.mode() & 0o7777 == 0o666 => continue,
            Ok(_) => fs::remove_file(&path)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        let made = mknod(
            &path,
            SFlag::S_IFCHR,
            Mode::from_bits_truncate(0o666),
            wanted,
        );
        match made {
            Ok(()) | Err(nix::errno::Errno::EEXIST) => {}
            Err(e) => return Err(io::Error::other(format!("mknod {}: {e}", path.display()))),
        }
        // mknod's mode is filtered by the umask.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o666))?;
    }
    for &(name, target) in LINKS {
        let path = dir.join(name);
        if fs::read_link(&path).is_ok_and(|t| t == Path::new(target)) {
            continue;
        }
        let _ = fs::remove_file(&path);
        match symlink(target, &path) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
    }
    let shm = dir.join("shm");
    match fs::create_dir(&shm) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    fs::set_permissions(&shm, fs::Permissions::from_mode(0o755))
}

/// Whether something is mounted at `dir` (it sits on another device than its parent).
fn is_mount_point(dir: &Path) -> io::Result<bool> {
    let parent = dir.join("..");
    Ok(fs::metadata(dir)?.dev() != fs::metadata(parent)?.dev())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Barrier};

    /// How many mounts sit exactly at `dir` (`/proc/self/mountinfo`'s fifth field).
    fn mounts_at(dir: &Path) -> usize {
        let info = fs::read_to_string("/proc/self/mountinfo").unwrap();
        let dir = dir.to_str().unwrap();
        info.lines()
            .filter(|line| line.split(' ').nth(4) == Some(dir))
            .count()
    }

    #[test]
    fn workers_starting_together_share_one_filled_tmpfs() {
        if !nix::unistd::geteuid().is_root() {
            eprintln!("skipped: mounting a tmpfs needs root");
            return;
        }
        let state = tempfile::tempdir().unwrap();
        let dir = state.path().join("dev");
        let start = Arc::new(Barrier::new(8));
        let workers: Vec<_> = (0..8)
            .map(|_| {
                let (dir, start) = (dir.clone(), Arc::clone(&start));
                std::thread::spawn(move || {
                    start.wait();
                    prepare(&dir)
                })
            })
            .collect();
        for worker in workers {
            worker.join().unwrap().unwrap();
        }
        let stacked = mounts_at(&dir);
        let null = fs::metadata(dir.join("null")).map(|m| m.rdev());
        let shm = dir.join("shm").is_dir();
        while mounts_at(&dir) > 0 {
            nix::mount::umount(&dir).unwrap();
        }
        assert_eq!(stacked, 1, "one tmpfs at {}", dir.display());
        assert_eq!(null.unwrap(), makedev(1, 3));
        assert!(shm);
    }
}

//! Slot allocation: each running sandbox owns one uid (= gid) from the configured range.
//!
//! A slot is exclusive across every process on the machine: it is held through an exclusive,
//! non-blocking `flock` on `<lock_dir>/<uid>.lock`. The lock is released (by dropping the guard) only
//! after the slot's cgroup is empty, so the next holder never shares the uid with a leftover process.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};

/// An exclusively held slot uid.
#[derive(Debug)]
pub(crate) struct Slot {
    pub uid: u32,
    _lock: Flock<File>,
}

/// Hands out slots round-robin from `first..first + count`.
#[derive(Debug)]
pub(crate) struct SlotPool {
    first: u32,
    count: u32,
    next: AtomicU32,
    lock_dir: PathBuf,
}

impl SlotPool {
    pub fn new(first: u32, count: u32, lock_dir: &Path) -> io::Result<Self> {
        fs::create_dir_all(lock_dir)?;
        fs::set_permissions(lock_dir, fs::Permissions::from_mode(0o700))?;
        Ok(Self {
            first,
            count: count.max(1),
            next: AtomicU32::new(0),
            lock_dir: lock_dir.to_owned(),
        })
    }

    /// Tries every slot once.
    pub fn try_acquire(&self) -> io::Result<Option<Slot>> {
        for _ in 0..self.count {
            let uid = self.first + self.next.fetch_add(1, Ordering::Relaxed) % self.count;
            if let Some(slot) = self.try_lock(uid)? {
                return Ok(Some(slot));
            }
        }
        Ok(None)
    }

    /// The slot `uid` if it is in this pool's range and free.
    pub fn try_lock(&self, uid: u32) -> io::Result<Option<Slot>> {
        if !(self.first..self.first + self.count).contains(&uid) {
            return Ok(None);
        }
        let path = self.lock_dir.join(format!("{uid}.lock"));
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(lock) => Ok(Some(Slot { uid, _lock: lock })),
            Err((_, Errno::EWOULDBLOCK)) => Ok(None),
            Err((_, e)) => Err(io::Error::other(format!("{}: {e}", path.display()))),
        }
    }

    /// Waits (polling, since holders may be other processes) for a free slot, up to `patience`.
    pub async fn acquire(&self, patience: Duration) -> io::Result<Slot> {
        let t0 = Instant::now();
        loop {
            if let Some(slot) = self.try_acquire()? {
                return Ok(slot);
            }
            if t0.elapsed() > patience {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    "every sandbox slot is busy",
                ));
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

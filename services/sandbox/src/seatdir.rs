//! A seat's private, size-capped, writable directory, kept for a whole match.
//!
//! On the original platforms a bot runs from its own folder and may write there (logs, learned
//! tables, caches). [`Sandbox::seat_dir`](crate::Sandbox::seat_dir) gives a seat that: it leases
//! one slot uid for the seat's whole life, mounts a fresh **tmpfs** on the host at
//! `<state_dir>/seats/<uid>` (root-mounted, `size=`, `nr_inodes=`, `uid=`/`gid=` the slot,
//! `mode=0700`, `nosuid,nodev`) and copies the bot's files into it, owned by the slot uid. Every
//! process started with it ([`Spec::seat_dir`](crate::Spec::seat_dir)) runs as that uid and sees:
//!
//! * the copy, read-write, at `/bot` (or the mount point chosen at creation) — commands such as
//!   `/usr/bin/python3 /bot/bot.py` and `__file__`-relative writes just work;
//! * the same tmpfs's `tmp/` and `shm/` at `/tmp` and `/dev/shm`.
//!
//! So everything a seat can write shares one cap: the copied files plus [`Limits::disk_bytes`]
//! (`ENOSPC` beyond it, never host disk). Files persist between the processes of one seat (the
//! per-move games run one process per move) and are never shared between seats or matches; the
//! stored submission is never touched. Nothing is ever chowned or walked after the bot ran: when
//! the last handle is dropped the tmpfs is unmounted (lazily, `MNT_DETACH`), whatever the bot left
//! in it, however deep, and only then is the slot released. A worker that crashed leaves at most
//! one mount per slot uid: it is removed when that slot is next leased, and at startup
//! ([`sweep`]) for every slot no live process holds.
//!
//! In mode `none` the directory is a plain temporary directory with the same layout (no cap).

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use nix::mount::{mount, umount2, MntFlags, MsFlags};
use tokio::sync::{Mutex, OwnedMutexGuard};

use crate::slot::{Slot, SlotPool};
use crate::Limits;

/// A seat's private writable directory. Cheap to clone; unmounted when the last clone (including
/// those held by running processes) is dropped.
#[derive(Debug, Clone)]
pub struct SeatDir {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// The tmpfs root (or the temporary directory in mode `none`).
    root: PathBuf,
    /// Where the copy appears inside the sandbox.
    at: String,
    mounted: bool,
    /// One process at a time: held by each [`crate::Process`] until its cgroup is gone.
    busy: Arc<Mutex<()>>,
    /// Released after the unmount (fields drop after [`Drop::drop`]).
    slot: Option<Slot>,
}

impl SeatDir {
    /// The host path of the writable copy (the seat's `/bot`). The platform may put files there
    /// between processes ([`SeatDir::give`] them to the seat); read back what the bot wrote with
    /// `O_NOFOLLOW`.
    pub fn path(&self) -> PathBuf {
        self.inner.root.join("bot")
    }

    /// Where the copy appears inside the sandbox (`/bot` unless chosen otherwise).
    pub fn inside(&self) -> &str {
        &self.inner.at
    }

    /// The slot uid every process of this seat runs as (`None` in mode `none`).
    pub fn uid(&self) -> Option<u32> {
        self.inner.slot.as_ref().map(|s| s.uid)
    }

    /// Hands a file or directory the platform just created in the seat's directory to the seat's
    /// uid (never following a link), so the bot may change it.
    pub fn give(&self, path: &Path) -> io::Result<()> {
        match self.uid() {
            Some(uid) => std::os::unix::fs::lchown(path, Some(uid), Some(uid)),
            None => Ok(()),
        }
    }

    pub(crate) fn tmp(&self) -> PathBuf {
        self.inner.root.join("tmp")
    }

    pub(crate) fn shm(&self) -> PathBuf {
        self.inner.root.join("shm")
    }

    /// Waits until no other process of this seat is running, and reserves it.
    pub(crate) async fn reserve(&self) -> OwnedMutexGuard<()> {
        self.inner.busy.clone().lock_owned().await
    }

    /// Mounts and fills a seat directory for `slot` (isolated mode).
    pub(crate) fn create(
        state_dir: &Path,
        slot: Slot,
        source: &Path,
        at: &str,
        limits: &Limits,
    ) -> io::Result<Self> {
        let root = mount_point(state_dir, slot.uid);
        unmount_stale(&root)?;
        fs::DirBuilder::new().mode(0o700).create(&root)?;
        let (bytes, inodes) = measure(source)?;
        let disk = limits.disk_bytes;
        let options = format!(
            "size={},nr_inodes={},mode=0700,uid={uid},gid={uid}",
            bytes + disk,
            inodes + (disk / 4096).max(1024),
            uid = slot.uid
        );
        let flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
        if let Err(e) = mount(
            Some("croupier-seat"),
            &root,
            Some("tmpfs"),
            flags,
            Some(options.as_str()),
        ) {
            let _ = fs::remove_dir(&root);
            return Err(io::Error::other(format!(
                "mounting a tmpfs on {}: {e}",
                root.display()
            )));
        }
        let dir = SeatDir {
            inner: Arc::new(Inner {
                root,
                at: at.to_owned(),
                mounted: true,
                busy: Arc::new(Mutex::new(())),
                slot: Some(slot),
            }),
        };
        dir.fill(source)?; // on error, dropping `dir` unmounts
        Ok(dir)
    }

    /// A plain temporary directory with the same layout (mode `none`).
    pub(crate) fn create_unisolated(source: &Path, at: &str) -> io::Result<Self> {
        let root = tempdir()?;
        let dir = SeatDir {
            inner: Arc::new(Inner {
                root,
                at: at.to_owned(),
                mounted: false,
                busy: Arc::new(Mutex::new(())),
                slot: None,
            }),
        };
        dir.fill(source)?;
        Ok(dir)
    }

    fn fill(&self, source: &Path) -> io::Result<()> {
        let bot = self.path();
        fs::DirBuilder::new().mode(0o755).create(&bot)?;
        self.give(&bot)?;
        for scratch in [self.tmp(), self.shm()] {
            fs::create_dir(&scratch)?;
            fs::set_permissions(&scratch, fs::Permissions::from_mode(0o1777))?;
            self.give(&scratch)?;
        }
        self.copy(source, &bot)
    }

    /// Copies the platform-made tree `from` (bounded by the upload limits) into `to`, giving
    /// every entry to the seat's uid.
    fn copy(&self, from: &Path, to: &Path) -> io::Result<()> {
        for entry in fs::read_dir(from)? {
            let entry = entry?;
            let (src, dst) = (entry.path(), to.join(entry.file_name()));
            let kind = entry.file_type()?;
            if kind.is_dir() {
                fs::create_dir(&dst)?;
                fs::set_permissions(&dst, fs::metadata(&src)?.permissions())?;
                self.copy(&src, &dst)?;
            } else if kind.is_file() {
                let _writing = crate::forklock::writing();
                fs::copy(&src, &dst)?;
            } else if kind.is_symlink() {
                std::os::unix::fs::symlink(fs::read_link(&src)?, &dst)?;
            } else {
                continue;
            }
            self.give(&dst)?;
        }
        Ok(())
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        if self.mounted {
            if let Err(e) = umount2(&self.root, MntFlags::MNT_DETACH) {
                tracing::error!(dir = %self.root.display(), error = %e, "could not unmount a seat dir");
                return;
            }
            let _ = fs::remove_dir(&self.root);
        } else {
            let _ = fs::remove_dir_all(&self.root);
        }
    }
}

fn mount_point(state_dir: &Path, uid: u32) -> PathBuf {
    state_dir.join("seats").join(uid.to_string())
}

/// Creates `<state_dir>/seats` (reachable by the slot uids, which bwrap binds from as).
pub(crate) fn prepare(state_dir: &Path) -> io::Result<()> {
    let seats = state_dir.join("seats");
    fs::create_dir_all(&seats)?;
    fs::set_permissions(state_dir, fs::Permissions::from_mode(0o755))?;
    fs::set_permissions(&seats, fs::Permissions::from_mode(0o755))
}

/// Removes what a crashed worker left at `root` (a mount, or an empty directory).
fn unmount_stale(root: &Path) -> io::Result<()> {
    if !root.exists() {
        return Ok(());
    }
    tracing::warn!(dir = %root.display(), "removing a leftover seat dir");
    // EINVAL: not a mount point (an unmounted leftover directory).
    match umount2(root, MntFlags::MNT_DETACH) {
        Ok(()) | Err(nix::errno::Errno::EINVAL) => {}
        Err(e) => {
            return Err(io::Error::other(format!(
                "unmounting {}: {e}",
                root.display()
            )))
        }
    }
    fs::remove_dir(root)
}

/// Removes the seat dirs of every slot of `pool` that no live process holds (worker start-up).
pub(crate) fn sweep(state_dir: &Path, pool: &SlotPool) -> io::Result<()> {
    for entry in fs::read_dir(state_dir.join("seats"))? {
        let Some(uid) = entry?
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some(_slot) = pool.try_lock(uid)? {
            unmount_stale(&mount_point(state_dir, uid))?;
        }
    }
    Ok(())
}

/// Bytes (in whole pages) and entries of the tree at `dir`.
fn measure(dir: &Path) -> io::Result<(u64, u64)> {
    let (mut bytes, mut inodes) = (0, 1);
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let meta = entry.metadata()?;
        inodes += 1;
        if meta.is_dir() {
            let (b, i) = measure(&entry.path())?;
            bytes += b;
            inodes += i;
        } else {
            bytes += meta.len().div_ceil(4096) * 4096;
        }
    }
    Ok((bytes, inodes))
}

fn tempdir() -> io::Result<PathBuf> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("croupier-seat-{}-{n}", std::process::id()));
        match fs::DirBuilder::new().mode(0o700).create(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

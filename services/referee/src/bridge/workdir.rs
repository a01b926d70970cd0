//! A seat's private writable directory, mounted at `/work` for each of its calls (never shared
//! between seats, kept for the whole match so a bot may keep its own files there).
//!
//! Before each call the platform replaces `Board.txt` and `StepLog.txt` with new regular files
//! (whatever the bot left under those names — a file, a link, a directory — is removed first,
//! never followed). After the call it reads them back with `O_NOFOLLOW`, checks they are regular
//! files and reads at most [`MAX_FILE`] bytes (more is treated as a changed file); the open is
//! non-blocking, so a FIFO left under the name cannot stall the referee. The bot's
//! process tree is dead by then (the sandbox kills it at the end of each call), so nothing can
//! swap the files while they are read. The directory is removed with the seat.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use nix::libc::{O_CLOEXEC, O_NOFOLLOW, O_NONBLOCK};

/// The largest Board.txt or StepLog.txt read back (a full StepLog is about 1.5 KiB).
pub const MAX_FILE: u64 = 64 << 10;

pub const BOARD: &str = "Board.txt";
pub const STEPLOG: &str = "StepLog.txt";

/// A private directory, removed on drop.
#[derive(Debug)]
pub struct WorkDir {
    path: PathBuf,
}

impl WorkDir {
    /// A new empty directory (mode 0700) under the system temp dir.
    pub fn create(label: &str) -> io::Result<Self> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let name = format!("croupier-bridge-{}-{nanos}-{n}-{label}", std::process::id());
            let path = std::env::temp_dir().join(name);
            match fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(WorkDir { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces `name` with a new regular file holding `bytes`.
    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let path = self.path.join(name);
        remove_any(&path)?;
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(O_NOFOLLOW | O_CLOEXEC)
            .open(&path)?;
        file.write_all(bytes)?;
        file.flush()
    }

    /// The bytes of `name` if it is a regular file of at most [`MAX_FILE`] bytes.
    pub fn read(&self, name: &str) -> Option<Vec<u8>> {
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            .open(self.path.join(name))
            .ok()?;
        let meta = file.metadata().ok()?;
        if !meta.is_file() || meta.len() > MAX_FILE {
            return None;
        }
        let mut bytes = Vec::new();
        File::take(file, MAX_FILE + 1)
            .read_to_end(&mut bytes)
            .ok()?;
        (bytes.len() as u64 <= MAX_FILE).then_some(bytes)
    }
}

/// Removes whatever is at `path` (file, link or directory tree, never following links).
fn remove_any(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_replaced_and_read_back_without_following_links() {
        let dir = WorkDir::create("test").unwrap();
        dir.write(BOARD, b"Player1\n").unwrap();
        assert_eq!(dir.read(BOARD).as_deref(), Some(&b"Player1\n"[..]));
        fs::remove_file(dir.path().join(BOARD)).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join(BOARD)).unwrap();
        assert_eq!(dir.read(BOARD), None, "a link is never followed");
        dir.write(BOARD, b"again\n").unwrap();
        assert_eq!(dir.read(BOARD).as_deref(), Some(&b"again\n"[..]));
        assert!(fs::read_to_string("/etc/hostname").is_ok_and(|s| s != "again\n"));
        fs::remove_file(dir.path().join(STEPLOG)).ok();
        fs::create_dir(dir.path().join(STEPLOG)).unwrap();
        assert_eq!(dir.read(STEPLOG), None, "a directory is not a StepLog");
        dir.write(STEPLOG, b"Stage call\n").unwrap();
        fs::remove_file(dir.path().join(STEPLOG)).unwrap();
        let fifo = std::process::Command::new("mkfifo")
            .arg(dir.path().join(STEPLOG))
            .status();
        assert!(fifo.is_ok_and(|s| s.success()));
        assert_eq!(
            dir.read(STEPLOG),
            None,
            "a FIFO is neither waited on nor read"
        );
        dir.write(STEPLOG, b"Stage call\n").unwrap();
        assert_eq!(dir.read(STEPLOG).as_deref(), Some(&b"Stage call\n"[..]));
        fs::write(dir.path().join(BOARD), vec![b'x'; MAX_FILE as usize + 1]).unwrap();
        assert_eq!(dir.read(BOARD), None, "over the cap");
        let path = dir.path().to_owned();
        drop(dir);
        assert!(!path.exists());
    }
}

//! `Board.txt` and `StepLog.txt` in a seat's private writable directory (its [`SeatDir`]: the
//! bot's copy, its cwd `/bot`, kept for the whole match, never shared between seats).
//!
//! Before each call the platform replaces both files with new regular files given to the seat's
//! uid, so the bot may append to StepLog. Whatever the bot left under those names — a file, a
//! link, a directory tree of any depth — is first renamed aside (one `rename`, never followed,
//! never walked) to a hidden `.croupier-old-*` name, and removed when that is cheap. After the
//! call the files are read back with `O_NOFOLLOW`, checked to be regular files and read up to
//! [`MAX_FILE`] bytes (more is treated as a changed file); the open is non-blocking, so a FIFO
//! left under the name cannot stall the referee. The bot's process tree is dead by then (the
//! sandbox kills it at the end of each call), so nothing can swap the files while they are read.
//! The directory goes away with the seat (its tmpfs is unmounted).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use croupier_sandbox::SeatDir;
use nix::libc::{O_CLOEXEC, O_NOFOLLOW, O_NONBLOCK};

/// The largest Board.txt or StepLog.txt read back (a full StepLog is about 1.5 KiB).
pub const MAX_FILE: u64 = 64 << 10;

pub const BOARD: &str = "Board.txt";
pub const STEPLOG: &str = "StepLog.txt";

/// The Bridge files of one seat, in its seat dir.
#[derive(Debug)]
pub struct WorkDir {
    seat: SeatDir,
}

impl WorkDir {
    pub fn new(seat: SeatDir) -> Self {
        WorkDir { seat }
    }

    /// Replaces `name` with a new regular file holding `bytes`, owned by the seat.
    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let dir = self.seat.path();
        let path = dir.join(name);
        move_aside(&dir, &path)?;
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(O_NOFOLLOW | O_CLOEXEC)
            .open(&path)?;
        file.write_all(bytes)?;
        file.flush()?;
        self.seat.give(&path)
    }

    /// The bytes of `name` if it is a regular file of at most [`MAX_FILE`] bytes.
    pub fn read(&self, name: &str) -> Option<Vec<u8>> {
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            .open(self.seat.path().join(name))
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

/// Renames whatever is at `path` to a fresh hidden name in `dir` (never following a link), then
/// removes it if it is not a directory; a directory stays (its tmpfs is discarded with the seat).
fn move_aside(dir: &Path, path: &Path) -> io::Result<()> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let old = dir.join(format!(
        ".croupier-old-{}",
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    fs::rename(path, &old)?;
    if !meta.is_dir() {
        let _ = fs::remove_file(&old);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use croupier_sandbox::{Config, Limits, Mode, Sandbox};

    #[tokio::test]
    async fn files_are_replaced_and_read_back_without_following_links() {
        let sandbox = Sandbox::new(Config {
            mode: Mode::None,
            ..Config::default()
        })
        .await
        .unwrap();
        let bot = std::env::temp_dir().join(format!("croupier-workdir-{}", std::process::id()));
        fs::create_dir_all(&bot).unwrap();
        let seat = sandbox
            .seat_dir(&bot, "/bot", &Limits::default())
            .await
            .unwrap();
        let dir = WorkDir::new(seat.clone());
        let at = |name: &str| seat.path().join(name);
        dir.write(BOARD, b"Player1\n").unwrap();
        assert_eq!(dir.read(BOARD).as_deref(), Some(&b"Player1\n"[..]));
        fs::remove_file(at(BOARD)).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", at(BOARD)).unwrap();
        assert_eq!(dir.read(BOARD), None, "a link is never followed");
        dir.write(BOARD, b"again\n").unwrap();
        assert_eq!(dir.read(BOARD).as_deref(), Some(&b"again\n"[..]));
        assert!(fs::read_to_string("/etc/hostname").is_ok_and(|s| s != "again\n"));
        fs::remove_file(at(STEPLOG)).ok();
        let mut deep = at(STEPLOG);
        for _ in 0..30 {
            deep.push("d".repeat(100));
        }
        fs::create_dir_all(&deep).unwrap();
        assert_eq!(dir.read(STEPLOG), None, "a directory is not a StepLog");
        dir.write(STEPLOG, b"Stage call\n").unwrap();
        assert_eq!(dir.read(STEPLOG).as_deref(), Some(&b"Stage call\n"[..]));
        fs::remove_file(at(STEPLOG)).unwrap();
        let fifo = std::process::Command::new("mkfifo")
            .arg(at(STEPLOG))
            .status();
        assert!(fifo.is_ok_and(|s| s.success()));
        assert_eq!(
            dir.read(STEPLOG),
            None,
            "a FIFO is neither waited on nor read"
        );
        dir.write(STEPLOG, b"Stage call\n").unwrap();
        assert_eq!(dir.read(STEPLOG).as_deref(), Some(&b"Stage call\n"[..]));
        fs::write(at(BOARD), vec![b'x'; MAX_FILE as usize + 1]).unwrap();
        assert_eq!(dir.read(BOARD), None, "over the cap");
        assert!(!bot.join(BOARD).exists(), "the submission is untouched");
        let path = seat.path();
        drop((dir, seat));
        assert!(!path.exists());
        fs::remove_dir_all(&bot).unwrap();
    }
}

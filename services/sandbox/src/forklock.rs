//! Forks and executable files kept apart. A file this process is writing has an open
//! descriptor; a child forked by another thread at that moment holds a copy of it until the
//! child's own exec (close-on-exec), and executing the file meanwhile fails with `ETXTBSY`
//! ("Text file busy"): a platform fault that would otherwise look like a bot that cannot start.
//! Writers of files that will be executed (a seat directory's copy of the bot) hold
//! [`writing`]; the launcher holds [`forking`] around each spawn, which returns only once the
//! child has executed. As a second guard a spawn refused with `ETXTBSY` is tried again.

use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

static FORK_LOCK: RwLock<()> = RwLock::new(());

/// Held while a file that may be executed is open for writing (many writers at once).
pub fn writing() -> RwLockReadGuard<'static, ()> {
    FORK_LOCK.read().unwrap_or_else(PoisonError::into_inner)
}

/// Held around a spawn: no file is open for writing meanwhile.
pub(crate) fn forking() -> RwLockWriteGuard<'static, ()> {
    FORK_LOCK.write().unwrap_or_else(PoisonError::into_inner)
}

/// Whether a spawn failed because its program was open for writing somewhere.
pub(crate) fn text_file_busy(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(nix::errno::Errno::ETXTBSY as i32)
}

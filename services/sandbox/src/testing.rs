//! Slot uid ranges for tests (the platform itself never uses this). Tests that start real
//! sandboxes each need uids no other running test uses, so that "no process of the slot uids
//! is left" is exact: [`uid_range`] hands out ranges that are disjoint
//!
//! * within a test binary (cargo runs its tests in parallel threads): an atomic counter, and
//! * across test processes running at the same time (two `cargo test` runs on one machine):
//!   the first call locks a block of [`BLOCK`] uids with an exclusive `flock` on
//!   `/tmp/croupier-test-uids/<first uid>.lock`, held until the process exits.
//!
//! The blocks start at [`FIRST_UID`], well above the production default (60001 + 64 slots).

use std::fs::{self, File, OpenOptions};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};

/// The first uid handed to tests.
pub const FIRST_UID: u32 = 100_000;
/// The uids one test process may use.
pub const BLOCK: u32 = 2_000;
/// How many test processes may hold a block at once.
pub const BLOCKS: u32 = 64;

const LOCK_DIR: &str = "/tmp/croupier-test-uids";

/// The block this process holds, and how much of it is handed out.
struct Block {
    first: u32,
    used: AtomicU32,
    _lock: Flock<File>,
}

/// `count` uids, `first .. first + count`, that no other call of this process or of another
/// process running now gets. Panics when the process's block is used up or every block is held
/// (both mean a test setup is wrong, not the code under test).
pub fn uid_range(count: u32) -> u32 {
    let block = block();
    let offset = block.used.fetch_add(count, Ordering::Relaxed);
    assert!(
        offset.saturating_add(count) <= BLOCK,
        "this test process asked for more than {BLOCK} slot uids"
    );
    block.first + offset
}

fn block() -> &'static Block {
    static BLOCK_HELD: OnceLock<Block> = OnceLock::new();
    BLOCK_HELD.get_or_init(|| {
        let dir = Path::new(LOCK_DIR);
        fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{LOCK_DIR}: {e}"));
        (0..BLOCKS)
            .map(|i| FIRST_UID + i * BLOCK)
            .find_map(|first| lock(dir, first))
            .unwrap_or_else(|| panic!("all {BLOCKS} test uid blocks are held by other processes"))
    })
}

fn lock(dir: &Path, first: u32) -> Option<Block> {
    let path = dir.join(format!("{first}.lock"));
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
        Ok(lock) => Some(Block {
            first,
            used: AtomicU32::new(0),
            _lock: lock,
        }),
        Err((_, Errno::EWOULDBLOCK)) => None,
        Err((_, e)) => panic!("{}: {e}", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_of_one_process_are_disjoint_and_inside_its_block() {
        let a = uid_range(4);
        let b = uid_range(8);
        let c = uid_range(4);
        assert!(a + 4 <= b && b + 8 <= c, "{a} {b} {c}");
        let first = block().first;
        assert!((first..first + BLOCK).contains(&a));
        assert!((first..first + BLOCK).contains(&(c + 3)));
        assert_eq!((first - FIRST_UID) % BLOCK, 0);
    }

    #[test]
    fn a_block_held_by_this_process_is_not_handed_out_again() {
        let held = block().first;
        // A second lock on the same file from another open file description is refused, as it
        // would be for another process.
        assert!(lock(Path::new(LOCK_DIR), held).is_none());
    }
}

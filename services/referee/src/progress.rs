//! How far a running match has got, readable from another task while the referee plays it: the
//! game being played (from 0) and the entries recorded in it so far (moves, and the faults and
//! forced moves the referee recorded). The referee notes it after every entry; the worker
//! publishes it for the match's page.

use std::sync::atomic::{AtomicU64, Ordering};

/// A match's progress: one atomic word, written by the referee and read by anyone holding it.
#[derive(Debug, Default)]
pub struct MatchProgress(AtomicU64);

impl MatchProgress {
    /// Notes that game `game` (from 0) has `entries` entries.
    pub fn note(&self, game: usize, entries: usize) {
        let game = u64::try_from(game)
            .unwrap_or(u64::MAX)
            .min(u64::from(u32::MAX));
        let entries = u64::try_from(entries)
            .unwrap_or(u64::MAX)
            .min(u64::from(u32::MAX));
        self.0.store(game << 32 | entries, Ordering::Relaxed);
    }

    /// `(game, entries)` as last noted (`(0, 0)` before the first entry).
    pub fn read(&self) -> (u32, u32) {
        let word = self.0.load(Ordering::Relaxed);
        let game = u32::try_from(word >> 32).unwrap_or(u32::MAX);
        let entries = u32::try_from(word & u64::from(u32::MAX)).unwrap_or(u32::MAX);
        (game, entries)
    }
}

#[cfg(test)]
mod tests {
    use super::MatchProgress;

    #[test]
    fn the_game_and_its_entries_read_back_as_noted() {
        let p = MatchProgress::default();
        assert_eq!(p.read(), (0, 0));
        p.note(2, 117);
        assert_eq!(p.read(), (2, 117));
        p.note(usize::MAX, usize::MAX);
        assert_eq!(p.read(), (u32::MAX, u32::MAX));
    }
}

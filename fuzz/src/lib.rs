//! Shared pieces of the fuzz targets (`fuzz_targets/*.rs`, run by `scripts/bench/fuzz`).
//!
//! * [`snapshots`]: real engine states part-way through seeded games (a fixed pseudo-random
//!   legal play from several seeds, kept at growing move counts), so a parsed move meets the
//!   rules as the referee would apply it. A target picks one with the input's first byte.
//! * [`Chunked`]: an async reader that hands out its bytes in small pieces, as a socket does.
//! * [`bundle_limits`]: the upload limits used while fuzzing (the defaults, with a smaller
//!   unpacked cap so that one input stays fast).

use std::pin::Pin;
use std::task::{Context, Poll};

use croupier_bundle::{Limits, MIB};
use croupier_games::{Game, GameSettings, Seat, Turn};
use serde_json::Value;
use tokio::io::{AsyncRead, ReadBuf};

/// Move counts at which a game is kept.
const PLIES: [usize; 14] = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377];
/// Seeds played.
const SEEDS: u64 = 4;

/// States of `G` (default rule set with `overrides`) from [`SEEDS`] seeds at every count of
/// [`PLIES`] the game reaches, each with `extra` as `record` left it. `record(extra, before,
/// after, seat, action)` is called after every move.
pub fn snapshots<G: Game, T: Clone>(
    overrides: &Value,
    extra: T,
    mut record: impl FnMut(&mut T, &G, &G, Seat, &G::Action),
) -> Vec<(G, T)> {
    let rules = G::Settings::default_rules();
    let settings = G::Settings::parse(rules, overrides).expect("fuzz settings");
    let mut kept = Vec::new();
    for seed in 0..SEEDS {
        let mut game = G::new(settings.clone(), seed).expect("fuzz game");
        let mut extra = extra.clone();
        let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for plies in 0.. {
            if PLIES.contains(&plies) {
                kept.push((game.clone(), extra.clone()));
            }
            let Turn::Seat(seat) = game.turn() else { break };
            if plies >= PLIES[PLIES.len() - 1] {
                break;
            }
            let legal = game.legal_actions(seat);
            pick ^= pick << 13;
            pick ^= pick >> 7;
            pick ^= pick << 17;
            let action = legal[(pick % legal.len() as u64) as usize].clone();
            let before = game.clone();
            game.apply(seat, action.clone()).expect("a listed move");
            record(&mut extra, &before, &game, seat, &action);
        }
    }
    kept
}

/// The input's first byte picks one of `states`; the rest is the bot's output.
pub fn pick<'a, T>(states: &'a [T], data: &'a [u8]) -> Option<(&'a T, &'a [u8])> {
    let (&first, rest) = data.split_first()?;
    Some((&states[usize::from(first) % states.len()], rest))
}

/// An [`AsyncRead`] over `bytes` that returns at most `chunk` bytes per read.
pub struct Chunked<'a> {
    pub bytes: &'a [u8],
    pub chunk: usize,
}

impl AsyncRead for Chunked<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let n = self.chunk.max(1).min(self.bytes.len()).min(buf.remaining());
        let (now, later) = self.bytes.split_at(n);
        buf.put_slice(now);
        self.bytes = later;
        Poll::Ready(Ok(()))
    }
}

/// The default limits with 1 MiB unpacked and 64 files, so a bomb costs milliseconds.
pub fn bundle_limits() -> Limits {
    Limits {
        max_unpacked_bytes: MIB,
        max_files: 64,
        ..Limits::default()
    }
}

/// Extracts an upload into a fresh temporary directory (`extract` inspects it first); an
/// accepted upload must have written exactly its manifest's files, with their sizes.
pub fn extract_checked(filename: &str, bytes: &[u8]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let extracted = croupier_bundle::extract(filename, bytes, &bundle_limits(), dir.path());
    if let Ok(manifest) = extracted {
        for entry in &manifest.entries {
            let meta =
                std::fs::symlink_metadata(dir.path().join(&entry.path)).expect("an extracted file");
            assert!(meta.is_file(), "{} is not a regular file", entry.path);
            assert_eq!(meta.len(), entry.size, "{} has another size", entry.path);
        }
    }
}

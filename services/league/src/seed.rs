//! Seeds and the order of a schedule, derived from the competition's base seed with SplitMix64.
//!
//! SplitMix64 is a fixed, published function (Steele, Lea and Flood 2014), so a schedule
//! regenerates bit for bit on every machine and in every version of this crate. The test
//! `the_derived_seeds_are_pinned` fails if that ever changes.

/// SplitMix64's increment (the golden ratio in 64-bit fixed point).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Match seeds are kept below 2^63 so they fit a PostgreSQL `bigint` without changing sign.
const SEED_MASK: u64 = u64::MAX >> 1;

/// Separates the stream that orders pairings from the stream of deal seeds.
const ORDER_SALT: u64 = 0x6F72_6465_725F_7331; // "order_s1"

/// The SplitMix64 output function applied to `x + GOLDEN`: the first draw of a SplitMix64
/// generator whose state is `x`.
pub(crate) fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The deal seed of round `round` (0-based): `splitmix64(base + round)`, top bit cleared. Every
/// match of a round is played on it, so the whole field meets the same deals.
pub fn round_seed(base: u64, round: u32) -> u64 {
    splitmix64(base.wrapping_add(u64::from(round))) & SEED_MASK
}

/// A SplitMix64 generator, used only to shuffle the order of pairings within a round.
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    /// The order stream of round `round`, independent of the deal seeds.
    pub(crate) fn order(base: u64, round: u32) -> Self {
        SplitMix64(splitmix64(
            splitmix64(base ^ ORDER_SALT).wrapping_add(u64::from(round)),
        ))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let out = splitmix64(self.0);
        self.0 = self.0.wrapping_add(GOLDEN);
        out
    }

    /// A number in `0..n` by multiply-and-shift (bias below 2^-32 for any schedule size).
    fn below(&mut self, n: usize) -> usize {
        let wide = u128::from(self.next_u64()) * n as u128;
        usize::try_from(wide >> 64).unwrap_or(0)
    }

    /// Fisher–Yates from the back.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_outputs() {
        // The reference generator seeded with 0 yields these first three outputs.
        let mut rng = SplitMix64(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn the_derived_seeds_are_pinned() {
        assert_eq!(round_seed(0, 0), 0xE220_A839_7B1D_CDAF & SEED_MASK);
        assert_eq!(round_seed(42, 1), splitmix64(43) & SEED_MASK);
        assert!(round_seed(u64::MAX, 7) <= SEED_MASK);
    }

    #[test]
    fn a_shuffle_is_a_permutation_and_depends_on_the_round() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        SplitMix64::order(7, 0).shuffle(&mut a);
        SplitMix64::order(7, 1).shuffle(&mut b);
        assert_ne!(a, b);
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
    }
}

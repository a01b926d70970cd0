//! Where the sandboxes' CPU time went, process-wide: to the bots, or to the sandbox around them
//! (bwrap's namespaces and mounts, the init or zygote). `croupier bench hosted` reads it to
//! split a round-robin's CPU into bots, sandboxes and the platform.
//!
//! A sandbox's cgroup counts everything in it; the init (or zygote) reports what the bot's
//! process tree used (the rusage of what it reaped). The difference is the sandbox's cost. A
//! sandbox killed before its init could report (a long-lived seat at the end of its match) has
//! only the cgroup's total: its cost is estimated as the mean cost of the sandboxes measured so
//! far, and the rest counted as the bot's; [`CpuSplit::estimated`] says how many were.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

static BOTS_US: AtomicU64 = AtomicU64::new(0);
static SANDBOXES_US: AtomicU64 = AtomicU64::new(0);
static MEASURED: AtomicU64 = AtomicU64::new(0);
static MEASURED_COST_US: AtomicU64 = AtomicU64::new(0);
static ESTIMATED: AtomicU64 = AtomicU64::new(0);

/// CPU time of every sandbox finished by this process so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuSplit {
    /// Used by the bots' own processes.
    pub bots: Duration,
    /// Used by the sandboxes around them.
    pub sandboxes: Duration,
    /// Sandboxes whose split was measured.
    pub measured: u64,
    /// Sandboxes whose split was estimated (killed before their init reported).
    pub estimated: u64,
}

impl CpuSplit {
    /// What happened between `earlier` and `self`.
    #[must_use]
    pub fn since(&self, earlier: &CpuSplit) -> CpuSplit {
        CpuSplit {
            bots: self.bots.saturating_sub(earlier.bots),
            sandboxes: self.sandboxes.saturating_sub(earlier.sandboxes),
            measured: self.measured.saturating_sub(earlier.measured),
            estimated: self.estimated.saturating_sub(earlier.estimated),
        }
    }
}

/// The totals so far.
pub fn cpu_split() -> CpuSplit {
    let us = |a: &AtomicU64| Duration::from_micros(a.load(Ordering::Relaxed));
    CpuSplit {
        bots: us(&BOTS_US),
        sandboxes: us(&SANDBOXES_US),
        measured: MEASURED.load(Ordering::Relaxed),
        estimated: ESTIMATED.load(Ordering::Relaxed),
    }
}

/// Adds one finished sandbox: its cgroup's total, and what its init reported for the bot
/// (`None`: it was killed first).
pub(crate) fn add(group: Duration, bot: Option<Duration>) {
    let group = u64::try_from(group.as_micros()).unwrap_or(u64::MAX);
    let (bot, cost) = match bot {
        Some(bot) => {
            let bot = u64::try_from(bot.as_micros())
                .unwrap_or(u64::MAX)
                .min(group);
            MEASURED.fetch_add(1, Ordering::Relaxed);
            MEASURED_COST_US.fetch_add(group - bot, Ordering::Relaxed);
            (bot, group - bot)
        }
        None => {
            let n = MEASURED.load(Ordering::Relaxed);
            let mean = MEASURED_COST_US
                .load(Ordering::Relaxed)
                .checked_div(n)
                .unwrap_or(0);
            ESTIMATED.fetch_add(1, Ordering::Relaxed);
            let cost = mean.min(group);
            (group - cost, cost)
        }
    };
    BOTS_US.fetch_add(bot, Ordering::Relaxed);
    SANDBOXES_US.fetch_add(cost, Ordering::Relaxed);
}

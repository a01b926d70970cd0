//! The match pipeline end to end with the real programs: bots uploaded over HTTP are compiled
//! and validated by sandboxed workers, an admin schedules a round-robin, workers play every
//! match over the bots' original protocol, and the leaderboard ranks them — also when a worker
//! is killed in the middle of a match, when PostgreSQL restarts during the round-robin, and when
//! workers on separate hosts (network namespaces) are killed or cut off the network; a ladder
//! that runs by itself; tables with a person that never hold a worker loop.

pub mod api;
mod blob_store;
pub mod bots;
mod challenges;
mod client;
mod entries;
mod faults;
mod games;
mod hosts;
mod ladder;
mod moto;
pub mod procs;
mod round_robin;
mod supervision;
mod tables;
mod validation;

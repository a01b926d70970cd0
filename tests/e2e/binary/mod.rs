//! The real `croupier` program: `up` with its private PostgreSQL, a restart on the same data
//! dir, and the command line's errors and help.

mod cli;
pub mod process;
mod up;

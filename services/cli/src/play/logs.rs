//! What the bots said: every program seat's stderr and verdict, per match.
//!
//! With `--logs DIR`, each program seat of each match gets `DIR/match-0000-seat-1.log`: the bot,
//! the seat, how it ended (with the referee's reasons), then its stderr (the sandbox keeps the
//! last part of a long one). Without `--logs` nothing is written, but the seats that failed are
//! still listed under the table with their last lines of stderr, and `--json` lists every
//! program seat's end state and log file.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use croupier_referee::MatchResult;
use croupier_sandbox::EndState;
use serde::Serialize;

/// Lines of stderr shown under the table for a failing seat.
const LAST_LINES: usize = 5;

/// One program seat of one match.
#[derive(Debug, Clone, Serialize)]
pub struct SeatLog {
    #[serde(rename = "match")]
    pub match_index: u32,
    pub seat: usize,
    pub bot: String,
    pub end_state: String,
    /// The referee's reasons (faults and notes), one per line; empty when none.
    pub detail: String,
    /// The log file, with `--logs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log: Option<PathBuf>,
    #[serde(skip)]
    last_lines: Vec<String>,
    #[serde(skip)]
    ok: bool,
}

/// The seats' logs of a `croupier play` run.
#[derive(Debug, Default)]
pub struct Logs {
    dir: Option<PathBuf>,
    seats: Vec<SeatLog>,
}

impl Logs {
    /// Logs kept in memory, and written into `dir` (created) when given.
    pub fn new(dir: Option<PathBuf>) -> Result<Self> {
        if let Some(dir) = &dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the log dir {}", dir.display()))?;
        }
        Ok(Self {
            dir,
            seats: Vec::new(),
        })
    }

    /// Records match `index`; `bots[s]` is the `--bot` label of seat `s`, `None` for a
    /// built-in (built-ins have no process and no log).
    pub fn add(&mut self, index: u32, bots: &[Option<&str>], result: &MatchResult) -> Result<()> {
        for seat in &result.seats {
            let Some(bot) = bots.get(seat.seat.index()).copied().flatten() else {
                continue;
            };
            let mut entry = SeatLog {
                match_index: index,
                seat: seat.seat.index(),
                bot: bot.to_owned(),
                end_state: seat.end_state.to_string(),
                detail: seat.detail.clone(),
                log: None,
                last_lines: last_lines(&seat.stderr_tail, LAST_LINES),
                ok: seat.end_state == EndState::Ok,
            };
            if let Some(dir) = &self.dir {
                let path = dir.join(format!("match-{index:04}-seat-{}.log", entry.seat));
                write_log(&path, &entry, &seat.stderr_tail)?;
                entry.log = Some(path);
            }
            self.seats.push(entry);
        }
        Ok(())
    }

    /// Every program seat, in play order.
    pub fn seats(&self) -> &[SeatLog] {
        &self.seats
    }

    /// The lines printed under the table: each failing seat, why, and its last stderr lines.
    pub fn failures(&self) -> String {
        let mut out = String::new();
        for s in self.seats.iter().filter(|s| !s.ok) {
            let _ = writeln!(
                out,
                "match {}, seat {} ({}): {}",
                s.match_index, s.seat, s.bot, s.end_state
            );
            for line in s.detail.lines().take(3) {
                let _ = writeln!(out, "    {line}");
            }
            if !s.last_lines.is_empty() {
                let _ = writeln!(out, "    last lines of stderr:");
                for line in &s.last_lines {
                    let _ = writeln!(out, "    | {line}");
                }
            }
            if let Some(log) = &s.log {
                let _ = writeln!(out, "    log: {}", log.display());
            }
        }
        out
    }
}

fn last_lines(text: &str, n: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let from = lines.len().saturating_sub(n);
    lines[from..].iter().map(|l| (*l).to_owned()).collect()
}

fn write_log(path: &Path, s: &SeatLog, stderr: &str) -> Result<()> {
    let mut text = format!(
        "bot: {}\nmatch: {}\nseat: {}\nend state: {}\n",
        s.bot, s.match_index, s.seat, s.end_state
    );
    for line in s.detail.lines() {
        let _ = writeln!(text, "referee: {line}");
    }
    text.push_str("--- stderr ---\n");
    text.push_str(stderr);
    if !stderr.is_empty() && !stderr.ends_with('\n') {
        text.push('\n');
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_non_empty_lines_are_kept_in_order() {
        assert_eq!(last_lines("a\n\nb\nc\n", 2), ["b", "c"]);
        assert_eq!(last_lines("", 5), Vec::<String>::new());
    }

    #[test]
    fn a_crash_says_its_exit_code() {
        let crashed = EndState::Crashed {
            signal: None,
            code: Some(1),
        };
        assert_eq!(crashed.to_string(), "crashed (exit code 1)");
        assert_eq!(EndState::TimeLimit.to_string(), "time_limit");
    }
}

//! `croupier play --replay FILE`: re-runs a replay document (docs/replays.md, format 1), as the
//! API serves it or as `croupier play --replay-dir` writes it, and checks it. Each game is
//! rebuilt on a fresh engine from its game, rules, settings and seed ([`Replay::rebuild`]
//! applies every recorded move and fault and compares each move's events with the recorded
//! ones, or, in a document stored with the events left out, the outcome the moves end in); then the engine's outcome and the outcome under the platform's rules are compared
//! with the recorded ones. The first difference is the error.

use std::path::Path;

use anyhow::{bail, Context, Result};
use croupier_games::{Outcome, Replay, ReplayError};
use serde::Deserialize;

/// The replay format this build reads.
pub use croupier_games::document::FORMAT;

#[derive(Deserialize)]
struct Doc {
    games: Vec<GameDoc>,
}

#[derive(Deserialize)]
struct GameDoc {
    replay: Replay,
    outcome: Outcome,
}

/// What a check found: the number of games and of recorded entries, all identical.
#[derive(Debug, PartialEq, Eq)]
pub struct Identical {
    pub games: usize,
    pub entries: usize,
}

/// Checks the document at `path`; an error names the first difference.
pub fn run(path: &Path) -> Result<()> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let found = check(&bytes)?;
    println!(
        "identical: {} game(s), {} recorded entries re-run with the same events and outcomes",
        found.games, found.entries
    );
    Ok(())
}

/// Checks a replay document.
pub fn check(bytes: &[u8]) -> Result<Identical> {
    let format: serde_json::Value =
        serde_json::from_slice(bytes).context("the replay is not JSON")?;
    match format["format"].as_u64() {
        Some(FORMAT) => {}
        Some(other) => bail!("replay format {other} is not one this croupier reads ({FORMAT})"),
        None => bail!("not a replay document: no `format` field"),
    }
    let doc: Doc = serde_json::from_value(format).context("not a replay document of format 1")?;
    if doc.games.is_empty() {
        bail!("the replay holds no games");
    }
    let mut entries = 0;
    for (i, game) in doc.games.iter().enumerate() {
        let n = i + 1;
        let rebuilt = game.replay.rebuild().map_err(|e| match e {
            ReplayError::Refused { index, error } => anyhow::anyhow!(
                "differs: game {n}, entry {index} ({}): the recorded move is refused now: {error}",
                describe(&game.replay, index)
            ),
            ReplayError::Diverged { index } => anyhow::anyhow!(
                "differs: game {n}, entry {index} ({}): the move produces other events than recorded",
                describe(&game.replay, index)
            ),
            ReplayError::Settings(e) => {
                anyhow::anyhow!("differs: game {n}: its settings are refused: {e}")
            }
            ReplayError::OutcomeDiffers => anyhow::anyhow!(
                "differs: game {n}: its moves, played again, end otherwise than the recorded {}",
                outcome_text(game.replay.outcome.as_ref())
            ),
        })?;
        let engine = rebuilt.outcome();
        if engine != game.replay.outcome {
            bail!(
                "differs: game {n}: the engine's outcome is {} but {} is recorded",
                outcome_text(engine.as_ref()),
                outcome_text(game.replay.outcome.as_ref())
            );
        }
        let fair = game.replay.fair_outcome();
        if fair.as_ref() != Some(&game.outcome) {
            bail!(
                "differs: game {n}: the outcome under the platform's rules is {} but {} is recorded",
                outcome_text(fair.as_ref()),
                outcome_text(Some(&game.outcome))
            );
        }
        entries += game.replay.entries.len();
    }
    Ok(Identical {
        games: doc.games.len(),
        entries,
    })
}

/// The recorded entry `index`, short: `seat 1 move {"pick"}`.
fn describe(replay: &Replay, index: usize) -> String {
    match replay.entries.get(index) {
        Some(entry) => {
            let text = serde_json::to_string(entry).unwrap_or_default();
            let mut short: String = text.chars().take(160).collect();
            if short.len() < text.len() {
                short.push('…');
            }
            short
        }
        None => "missing".to_owned(),
    }
}

fn outcome_text(outcome: Option<&Outcome>) -> String {
    match outcome {
        Some(o) => o
            .seats
            .iter()
            .map(|s| format!("seat {}: score {} rank {}", s.seat.index(), s.score, s.rank))
            .collect::<Vec<_>>()
            .join(", "),
        None => "none (the game did not end)".to_owned(),
    }
}

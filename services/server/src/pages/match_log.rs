//! The protocol log of a finished match, read from its replay blob: every message the referee
//! sent a bot and every answer, in order, with the time since the match started. For Splendor
//! it is the judge-worded match log (`Round 3`, `Player alice's turn`, `Successfully got red,
//! green gems.`); for Bridge it shows the `Robot play …` lines of a takeover. Shown to everyone
//! once the match is over (nothing in it is hidden any more), cut to [`MAX_LINES`] lines of at
//! most [`MAX_LINE_CHARS`] characters and [`MAX_TOTAL_CHARS`] in all (the match page stays light).

use serde::Deserialize;

use crate::i18n;

pub const MAX_LINES: usize = 3000;
pub const MAX_LINE_CHARS: usize = 400;
pub const MAX_TOTAL_CHARS: usize = 24_000;

pub struct MatchLog {
    pub lines: Vec<LogLine>,
    /// Why the log is incomplete (the referee's cap, or ours), if it is.
    pub note: Option<String>,
}

pub struct LogLine {
    pub at_ms: u64,
    /// The player the message went to or came from, or empty for the referee's own lines.
    pub who: String,
    /// `to` (referee → bot) or `from` (bot → referee).
    pub direction: &'static str,
    pub text: String,
}

#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    players: Vec<String>,
    #[serde(default)]
    transcript: Vec<Line>,
    #[serde(default)]
    transcript_truncated: bool,
}

#[derive(Deserialize)]
struct Line {
    at_ms: u64,
    seat: Option<usize>,
    direction: String,
    text: String,
}

/// The log of the replay blob; `None` when the match has none (or the blob cannot be read).
pub fn read(blob: &[u8]) -> Option<MatchLog> {
    let doc: Doc = serde_json::from_slice(blob).ok()?;
    if doc.transcript.is_empty() {
        return None;
    }
    let total = doc.transcript.len();
    let mut budget = MAX_TOTAL_CHARS;
    let lines: Vec<LogLine> = doc
        .transcript
        .into_iter()
        .take(MAX_LINES)
        .take_while(|l| {
            // what the line costs on the page, near enough: its text and the time and name
            let cost = l.text.len().min(MAX_LINE_CHARS) + 24;
            let fits = cost <= budget;
            budget = budget.saturating_sub(cost);
            fits
        })
        .map(|l| LogLine {
            at_ms: l.at_ms,
            who: l
                .seat
                .map(|s| {
                    doc.players
                        .get(s)
                        .cloned()
                        .unwrap_or_else(|| i18n::t_with("match-log-seat", &[("n", &s)]))
                })
                .unwrap_or_default(),
            direction: if l.direction == "from_bot" {
                "from"
            } else {
                "to"
            },
            text: shorten(l.text.trim_end()),
        })
        .collect();
    let note = if total > lines.len() {
        let shown = lines.len();
        let counts: [(&str, &dyn std::fmt::Display); 2] = [("shown", &shown), ("total", &total)];
        Some(i18n::t_with("match-log-cut", &counts))
    } else if doc.transcript_truncated {
        Some(i18n::t("match-log-capped"))
    } else {
        None
    };
    Some(MatchLog { lines, note })
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(MAX_LINE_CHARS) {
        Some((at, _)) => format!(
            "{} … ({})",
            &text[..at],
            i18n::t_with("match-log-bytes", &[("n", &text.len())])
        ),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_carry_player_names_and_long_logs_are_cut_with_a_note() {
        let long = "x".repeat(MAX_LINE_CHARS + 10);
        let blob = serde_json::json!({
            "players": ["alice", "bob"],
            "transcript": [
                { "at_ms": 0, "conn": 1, "seat": null, "direction": "to_bot", "text": "Round 1" },
                { "at_ms": 5, "conn": 1, "seat": 1, "direction": "from_bot", "text": "{}\n" },
                { "at_ms": 6, "conn": 2, "seat": 0, "direction": "to_bot", "text": long },
            ],
            "transcript_truncated": true,
        });
        let log = read(blob.to_string().as_bytes()).expect("a log");
        assert_eq!(log.lines.len(), 3);
        assert_eq!(
            (log.lines[0].who.as_str(), log.lines[0].direction),
            ("", "to")
        );
        assert_eq!(
            (log.lines[1].who.as_str(), log.lines[1].direction),
            ("bob", "from")
        );
        assert_eq!(log.lines[1].text, "{}");
        assert!(log.lines[2]
            .text
            .ends_with(&format!("… ({} bytes)", MAX_LINE_CHARS + 10)));
        assert!(log.note.is_some_and(|n| n.contains("1 MiB")));
        assert!(read(br#"{"players": [], "games": []}"#).is_none());
        assert!(read(b"not json").is_none());
    }

    #[test]
    fn a_long_log_is_cut_to_the_pages_budget() {
        let line = serde_json::json!({ "at_ms": 1, "seat": 0, "direction": "to_bot", "text": "y".repeat(MAX_LINE_CHARS) });
        let blob = serde_json::json!({ "players": ["alice"], "transcript": vec![line; 1000] });

        let log = read(blob.to_string().as_bytes()).expect("a log");

        let shown: usize = log.lines.iter().map(|l| l.text.len()).sum();
        assert!(shown <= MAX_TOTAL_CHARS, "{shown} characters shown");
        assert!(log.lines.len() >= 40, "{} lines", log.lines.len());
        assert_eq!(
            log.note.as_deref(),
            Some(
                format!(
                    "Only the first {} of 1000 lines are shown.",
                    log.lines.len()
                )
                .as_str()
            )
        );
    }
}

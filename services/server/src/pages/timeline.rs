//! The replay blob read as a timeline, for any game: one row per recorded entry (a move with
//! the events it caused, a refused move, a fault), with each event's own text and the player
//! names put in for "seat N".
//!
//! The blob is the worker's replay document (format 1): `players` (the names in seat order)
//! and `games`, each with its `replay` (`croupier_games::Replay`).

use croupier_games::{Entry, Replay, Seat};
use serde::Deserialize;

use crate::i18n;

/// Rows shown at most, and characters of text in them; a longer replay is cut with a note (the
/// replay viewer steps through all of it, loading it on demand, so the match page stays light).
pub const MAX_ROWS: usize = 200;
pub const MAX_CHARS: usize = 32_000;

pub struct Timeline {
    pub games: Vec<GameLog>,
    /// Why the timeline is incomplete or missing, if it is.
    pub note: Option<String>,
}

pub struct GameLog {
    pub number: usize,
    pub rows: Vec<Row>,
}

pub struct Row {
    pub n: usize,
    pub who: String,
    /// `move`, `refused` or `fault`.
    pub kind: &'static str,
    pub text: String,
    /// Further events the move caused ("23 is turned up …").
    pub then: Vec<String>,
}

#[derive(Deserialize)]
struct ReplayDoc {
    #[serde(default)]
    players: Vec<String>,
    #[serde(default)]
    games: Vec<GameDoc>,
}

#[derive(Deserialize)]
struct GameDoc {
    replay: Replay,
}

/// Reads the blob of a match of `game`; an unreadable one gives an empty timeline with a
/// note. Where the game names its seats (Bridge: N, E, S, W), each player is shown with its
/// seat's name (`N (Owls v1)`), since partners are the same bot.
pub fn read(blob: &[u8], game: &str) -> Timeline {
    let doc: ReplayDoc = match serde_json::from_slice(blob) {
        Ok(doc) => doc,
        Err(e) => {
            tracing::warn!(error = %e, "a replay could not be read");
            return Timeline {
                games: Vec::new(),
                note: Some(i18n::t("timeline-unreadable")),
            };
        }
    };
    let players: Vec<String> = doc
        .players
        .iter()
        .enumerate()
        .map(
            |(i, p)| match super::labels::seat(game, &i32::try_from(i).unwrap_or(i32::MAX)) {
                name if name == i.to_string() => p.clone(),
                name => format!("{name} ({p})"),
            },
        )
        .collect();
    let players = &players;
    let name = |seat: Seat| {
        players.get(seat.index()).cloned().unwrap_or_else(|| {
            let index = i32::try_from(seat.index()).unwrap_or(i32::MAX);
            i18n::t_with(
                "timeline-seat",
                &[("seat", &super::labels::seat(game, &index))],
            )
        })
    };
    let mut shown = 0;
    let mut chars = 0;
    let mut note = None;
    let mut games = Vec::with_capacity(doc.games.len());
    'games: for (g, game) in doc.games.iter().enumerate() {
        let mut rows = Vec::new();
        for (n, entry) in game.replay.entries.iter().enumerate() {
            if shown == MAX_ROWS || chars > MAX_CHARS {
                note = Some(i18n::t_with("timeline-cut", &[("n", &shown)]));
                games.push(GameLog {
                    number: g + 1,
                    rows,
                });
                break 'games;
            }
            shown += 1;
            rows.push(match entry {
                Entry::Move {
                    seat,
                    action,
                    events,
                    ..
                } => {
                    let mut texts = events.iter().map(|e| with_names(&e.text, players));
                    Row {
                        n: n + 1,
                        who: name(*seat),
                        kind: "move",
                        text: texts.next().unwrap_or_else(|| {
                            let (who, action) = (name(*seat), action.to_string());
                            let names = [("who", who.as_str()), ("action", &action)];
                            super::labels::tk("timeline-plays", &[], &names)
                        }),
                        then: texts.collect(),
                    }
                }
                Entry::Refused {
                    seat,
                    action,
                    error,
                } => Row {
                    n: n + 1,
                    who: name(*seat),
                    kind: "refused",
                    text: {
                        let (who, action, error) =
                            (name(*seat), action.to_string(), error.to_string());
                        let names = [
                            ("who", who.as_str()),
                            ("action", &action),
                            ("error", &error),
                        ];
                        super::labels::tk("timeline-refused", &[], &names)
                    },
                    then: Vec::new(),
                },
                Entry::Fault { seat, reason } => Row {
                    n: n + 1,
                    who: name(*seat),
                    kind: "fault",
                    text: format!("{}: {}", name(*seat), with_names(reason, players)),
                    then: Vec::new(),
                },
            });
            chars += rows.last().map_or(0, |r| {
                r.text.len() + r.then.iter().map(String::len).sum::<usize>()
            });
        }
        games.push(GameLog {
            number: g + 1,
            rows,
        });
    }
    Timeline { games, note }
}

/// `seat 0 picks 23` → `alice picks 23`, for each `seat N` naming a known player.
pub fn with_names(text: &str, players: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("seat ") {
        let (before, after) = rest.split_at(at);
        out.push_str(before);
        let digits = after["seat ".len()..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let word_start = !out.chars().last().is_some_and(char::is_alphanumeric);
        let number = &after["seat ".len().."seat ".len() + digits];
        let player = number.parse::<usize>().ok().and_then(|i| players.get(i));
        match player {
            Some(p) if word_start => {
                out.push_str(p);
                rest = &after["seat ".len() + digits..];
            }
            _ => {
                out.push_str("seat ");
                rest = &after["seat ".len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_numbers_become_player_names() {
        let players = vec!["alice".to_owned(), "bob".to_owned()];
        assert_eq!(
            with_names("seat 0 picks 23 with 4 coins", &players),
            "alice picks 23 with 4 coins"
        );
        assert_eq!(
            with_names("seat 1 passes; seat 7 waits; points by seat: 3", &players),
            "bob passes; seat 7 waits; points by seat: 3"
        );
        assert_eq!(with_names("myseat 0", &players), "myseat 0");
    }

    #[test]
    fn an_unreadable_replay_gives_a_note_not_an_error() {
        let timeline = read(b"not json", "nothanks");
        assert!(timeline.games.is_empty());
        assert!(timeline.note.is_some());
    }
}

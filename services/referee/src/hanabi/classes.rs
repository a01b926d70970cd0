//! Which class of a Python file plays a class-based Hanabi bot, read from the source without
//! running it: the top-level `class Name(bases):` statements.
//!
//! The rule (the runner, `hanabi_runner.py`, applies the same one when it imports the file):
//! the class the entry names (`player.py:cautious(0.3)`); else the class named `player`; else
//! the only class deriving, directly or through other classes of the file, from `basePlayer`.
//! A file with several such classes and none named `player` is refused at upload
//! ([`check_entry`]) with the list, so the submitter can choose one.

use std::path::Path;

use super::runtime::class_based;

/// The top-level classes of `source`, in order, with the last dotted part of each base
/// (`class b(game.basePlayer, object):` → `("b", ["basePlayer", "object"])`).
fn top_level_classes(source: &str) -> Vec<(String, Vec<String>)> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("class")?;
            if !rest.starts_with([' ', '\t']) {
                return None;
            }
            let rest = rest.trim_start();
            let end = rest
                .find(|c: char| !(c == '_' || c.is_alphanumeric()))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            if name.is_empty() {
                return None;
            }
            let after = rest[end..].trim_start();
            let bases = match after.strip_prefix('(') {
                Some(list) => list
                    .split(')')
                    .next()
                    .unwrap_or("")
                    .split(',')
                    .filter(|b| !b.contains('='))
                    .filter_map(|b| b.trim().rsplit('.').next().map(str::to_owned))
                    .filter(|b| !b.is_empty())
                    .collect(),
                None => Vec::new(),
            };
            Some((name.to_owned(), bases))
        })
        .collect()
}

/// What a file offers a class-based bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Classes {
    /// It defines a top-level `class player`.
    pub has_player: bool,
    /// Its classes deriving from `basePlayer` (directly or through its own classes), in order.
    pub players: Vec<String>,
    /// It speaks the websocket itself (mentions `ws://`, `websocket` or `ws4py`): a client
    /// that drives its own player class, not a class for the runner.
    pub connects: bool,
}

impl Classes {
    pub(crate) fn scan(source: &str) -> Self {
        let all = top_level_classes(source);
        let mut players: Vec<String> = Vec::new();
        loop {
            let before = players.len();
            for (name, bases) in &all {
                let derives = bases
                    .iter()
                    .any(|b| b == "basePlayer" || players.contains(b));
                if derives && name != "basePlayer" && !players.contains(name) {
                    players.push(name.clone());
                }
            }
            if players.len() == before {
                break;
            }
        }
        let order = |n: &String| all.iter().position(|(m, _)| m == n);
        players.sort_by_key(order);
        Classes {
            has_player: all.iter().any(|(n, _)| n == "player"),
            players,
            connects: ["ws://", "websocket", "ws4py"]
                .iter()
                .any(|w| source.contains(w)),
        }
    }
}

/// Checked when a Hanabi bot is built: if `command` (the build's run command) starts a
/// class-based bot, there must be a class to play. `Err` is a message for the submitter.
pub fn check_entry(bot_dir: &Path, command: &[String]) -> Result<(), String> {
    let Some(bot) = class_based(bot_dir, command) else {
        return Ok(());
    };
    let file = bot.entry.file.as_str();
    let source = std::fs::read_to_string(bot_dir.join(file)).unwrap_or_default();
    let classes = Classes::scan(&source);
    let listed = || {
        if classes.players.is_empty() {
            "no basePlayer subclass".to_owned()
        } else {
            classes.players.join(", ")
        }
    };
    if let Some(call) = &bot.entry.class {
        let name = call.split('(').next().unwrap_or(call).trim();
        if !source.contains(name) {
            return Err(format!(
                "the entry names class {name}, but {file} has no {name} (its basePlayer classes: {})",
                listed()
            ));
        }
        return Ok(());
    }
    if classes.has_player || classes.players.len() == 1 {
        return Ok(());
    }
    let example = classes.players.first().map_or("MyPlayer", String::as_str);
    Err(format!(
        "cannot tell which class of {file} plays: it defines {} and none named player; \
         choose one with the entry (the upload's entry field, `croupier submit --entry`), \
         e.g. {file}:{example}",
        listed()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_player_classes_are_the_top_level_base_player_subclasses_and_theirs() {
        let source = "\
from basePlayer import basePlayer
import basePlayer as bp
class player(basePlayer):
    class inner(basePlayer): pass
class careful(player):
    pass
class cautious(careful): pass
class helper:
    pass
class Other(bp.basePlayer, metaclass=Meta):
    pass
classic = 1
";
        let c = Classes::scan(source);
        assert!(c.has_player);
        assert_eq!(c.players, ["player", "careful", "cautious", "Other"]);
        assert_eq!(
            Classes::scan("class SimplePlayer(basePlayer):\n").players,
            ["SimplePlayer"]
        );
        assert!(Classes::scan("class helper(object): pass\n")
            .players
            .is_empty());
    }

    #[test]
    fn a_file_with_several_player_classes_and_none_named_player_needs_an_entry() {
        let dir = tempfile::tempdir().unwrap();
        let bots = "from basePlayer import basePlayer\n\
                    class careful(basePlayer):\n    pass\n\
                    class cautious(careful):\n    def __init__(self, hintP): pass\n";
        std::fs::write(dir.path().join("bots.py"), bots).unwrap();
        std::fs::write(
            dir.path().join("player.py"),
            format!("{bots}class player(careful): pass\n"),
        )
        .unwrap();
        let check = |script: &str| {
            check_entry(
                dir.path(),
                &["/usr/bin/python3".to_owned(), format!("/bot/{script}")],
            )
        };
        let err = check("bots.py").unwrap_err();
        assert!(err.contains("careful, cautious"), "{err}");
        assert!(err.contains("bots.py:careful"), "{err}");
        assert_eq!(check("bots.py:cautious(0.3)"), Ok(()));
        let err = check("bots.py:bold").unwrap_err();
        assert!(
            err.contains("no bold") && err.contains("careful, cautious"),
            "{err}"
        );
        assert_eq!(check("player.py"), Ok(()), "a class named player plays");
        assert_eq!(
            check("missing.py"),
            Ok(()),
            "not a class bot: nothing to check"
        );
    }
}

//! `--bot SPEC`: a built-in bot (`builtin:NAME`) or a local command line, turned into the
//! referee's [`SeatSpec`] exactly as the hosted service runs an uploaded bot.
//!
//! A command's **bot file** is its program when that is a path (`./bot`), else its first
//! argument naming an existing file (`python3 kits/nothanks/python/bot.py`). The bot file's
//! directory is mounted read-only at `/bot` and every word naming a file inside it is rewritten
//! to `/bot/…`; a program name is looked up on the sandbox's `PATH` (`/usr/local/bin:/usr/bin:/bin`,
//! mounted read-only in the sandbox) as the hosted service does (`python3` → `/usr/bin/python3`,
//! never a pyenv shim; with `--sandbox=none` the host's `PATH` is the fallback). A command
//! without a bot file gets an empty `/bot`. With `--sandbox=none` the same command runs on the host (the
//! sandbox maps `/bot` back to the directory), and paths outside the bot's directory are passed
//! as absolute host paths instead of being refused.
//!
//! A Hanabi **class bot** may name the class that plays, with its arguments, as an upload's
//! entry does: `FILE.py:CLASS(ARGS)`, alone (`kits/hanabi/python/player.py:cautious(0.3)`, run
//! with `python3`) or after the interpreter (`python3 'bots.py:cautious(0.3)'`). The seat's
//! command is then `python3 /bot/FILE.py:CLASS(ARGS)`, the form the hosted build plan stores.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use croupier_games::GameId;
use croupier_referee::SeatSpec;

/// One `--bot`, ready to be seated.
#[derive(Debug, Clone)]
pub struct Bot {
    /// The spec as given, shown in the standings.
    pub label: String,
    pub seat: SeatSpec,
}

/// Parses `--bot SPEC` number `index` (0-based). `isolated`: the real sandbox will run it.
pub fn parse(spec: &str, index: usize, game: GameId, isolated: bool) -> Result<Bot> {
    let label = spec.trim().to_owned();
    if let Some(name) = label.strip_prefix("builtin:") {
        let names = croupier_games::bots::names(game);
        if !names.contains(&name) {
            bail!(
                "unknown built-in bot {name:?} for {game} in --bot {label:?}: expected one of {}",
                names
                    .iter()
                    .map(|n| format!("builtin:{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        return Ok(Bot {
            label: label.clone(),
            seat: SeatSpec::builtin(name),
        });
    }
    let (words, class) = class_words(&label)?;
    if let Some((_, class)) = &class {
        if !game.def().class_bots {
            bail!(
                "--bot {label:?} names a class ({class}): {} bots are programs \
                 (class bots are for games like Hanabi)",
                game.display_name()
            );
        }
    }
    let Some(program) = words.first() else {
        bail!("--bot is empty: give `builtin:NAME` or a command such as \"python3 bot.py\"");
    };
    let program_path = if program.contains('/') {
        let path = existing(program)
            .ok_or_else(|| anyhow!("bot command not found: {program} (no such file)"))?;
        let mode = std::fs::metadata(&path)?.permissions().mode();
        if !path.is_file() || mode & 0o111 == 0 {
            bail!("bot command {program} is not an executable file (chmod +x it, or name its interpreter: \"python3 {program}\")");
        }
        path
    } else {
        which(program, SANDBOX_PATH)
            .or_else(|| (!isolated).then(|| which(program, &host_path())).flatten())
            .ok_or_else(|| {
                let path = if isolated {
                    SANDBOX_PATH.to_owned()
                } else {
                    host_path()
                };
                anyhow!("bot command not found: {program} is not on PATH ({path})")
            })?
    };
    let bot_file = if program.contains('/') {
        Some(program_path.clone())
    } else if let Some((at, _)) = &class {
        existing(&words[*at])
    } else {
        words[1..]
            .iter()
            .find_map(|w| existing(w).filter(|p| p.is_file()))
    };
    if let (None, Some(first)) = (&bot_file, words.get(1)) {
        if !first.starts_with('-') && first.contains(['/', '.']) && existing(first).is_none() {
            bail!("bot file not found: {first} (in --bot {label:?})");
        }
    }
    let bot_dir = match &bot_file {
        Some(file) => file.parent().unwrap_or(Path::new("/")).to_owned(),
        None => empty_dir()?,
    };
    if isolated {
        readable_by_others(&bot_dir, bot_file.as_deref())?;
    }
    let mut command = vec![rewrite_program(program, &program_path, &bot_dir)];
    for (i, word) in words.iter().enumerate().skip(1) {
        if let Some((at, class)) = &class {
            if *at == i {
                let file = existing(word).unwrap_or_default();
                let rel = file.strip_prefix(&bot_dir).unwrap_or(&file);
                command.push(format!("/bot/{}:{class}", rel.display()));
                continue;
            }
        }
        command.push(match existing(word) {
            Some(path) => match path.strip_prefix(&bot_dir) {
                Ok(rel) => format!("/bot/{}", rel.display()).trim_end_matches('/').to_owned(),
                Err(_) if isolated => bail!(
                    "{word} in --bot {label:?} is outside the bot's directory {}, the only one the sandbox mounts (at /bot)",
                    bot_dir.display()
                ),
                Err(_) => path.display().to_string(),
            },
            None => word.clone(),
        });
    }
    let stem = bot_file
        .as_deref()
        .and_then(Path::file_stem)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| program.clone());
    let stem: String = stem
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(24)
        .collect();
    let name = format!(
        "{}-{}",
        if stem.is_empty() { "bot" } else { &stem },
        index + 1
    );
    Ok(Bot {
        label,
        seat: SeatSpec::program(name, bot_dir, command),
    })
}

/// Where a `--bot` names a Hanabi class: the word holding the file, and the class.
type ClassAt = Option<(usize, String)>;

/// The words of `label`, and where it names a class bot's file with a class: `FILE.py:CLASS`
/// alone becomes `python3 FILE.py`, else the first such word after the program is split. The
/// class's shape is checked as an upload's entry is.
fn class_words(label: &str) -> Result<(Vec<String>, ClassAt)> {
    let class_of = |word: &str| -> Result<Option<(String, String)>> {
        let Some((file, _)) = word.split_once(':') else {
            return Ok(None);
        };
        if !file.ends_with(".py") || existing(file).is_none() || existing(word).is_some() {
            return Ok(None);
        }
        let class =
            croupier_bundle::EntryPoint::parse(&format!("x.py:{}", &word[file.len() + 1..]))
                .map_err(|e| anyhow!("--bot {label:?}: {e}"))?
                .class
                .unwrap_or_default();
        Ok(Some((file.to_owned(), class)))
    };
    if let Some((file, class)) = class_of(label)? {
        return Ok((vec!["python3".to_owned(), file], Some((1, class))));
    }
    let mut words = split(label).with_context(|| format!("--bot {label:?}"))?;
    for i in 1..words.len() {
        if let Some((file, class)) = class_of(&words[i])? {
            words[i] = file;
            return Ok((words, Some((i, class))));
        }
    }
    Ok((words, None))
}

fn rewrite_program(program: &str, resolved: &Path, bot_dir: &Path) -> String {
    if !program.contains('/') {
        return resolved.display().to_string();
    }
    match resolved.strip_prefix(bot_dir) {
        Ok(rel) => format!("/bot/{}", rel.display()),
        Err(_) => resolved.display().to_string(),
    }
}

/// The canonical path of an existing file or directory named by `word`, relative to the cwd.
fn existing(word: &str) -> Option<PathBuf> {
    if word.is_empty() || word.starts_with('-') {
        return None;
    }
    std::fs::canonicalize(word).ok()
}

/// The sandbox's `PATH`, where the hosted service finds interpreters (`/usr/bin/python3`, not
/// a pyenv shim of the host's `PATH`).
const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

fn host_path() -> String {
    std::env::var("PATH").unwrap_or_default()
}

/// `name` looked up on `path`.
fn which(name: &str, path: &str) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|dir| dir.join(name))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The sandbox runs bots as an unprivileged uid: the directory, its parents and the bot file
/// must be readable by others.
fn readable_by_others(dir: &Path, file: Option<&Path>) -> Result<()> {
    let advice = "the sandbox runs bots as an unprivileged uid: `chmod o+rx` it, move the bot, or use --sandbox=none";
    for d in dir.ancestors() {
        let mode = std::fs::metadata(d)?.permissions().mode();
        if mode & 0o001 == 0 || (d == dir && mode & 0o004 == 0) {
            bail!(
                "{} is not readable by other users (mode {:o}): {advice}",
                d.display(),
                mode & 0o7777
            );
        }
    }
    if let Some(file) = file {
        let mode = std::fs::metadata(file)?.permissions().mode();
        if mode & 0o004 == 0 {
            bail!(
                "{} is not readable by other users (mode {:o}): {advice}",
                file.display(),
                mode & 0o7777
            );
        }
    }
    Ok(())
}

/// An empty, world-readable directory for a command without files (shared, kept empty: bots
/// only ever see it read-only).
fn empty_dir() -> Result<PathBuf> {
    let dir = std::env::temp_dir().join("croupier-play-empty");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
    Ok(dir)
}

/// Splits a command line into words: blanks separate, '…' and "…" quote, \ escapes.
pub fn split(line: &str) -> Result<Vec<String>> {
    let (mut words, mut word, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            (None, '\'' | '"') => (quote, any) = (Some(c), true),
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                word.push(
                    chars
                        .next()
                        .ok_or_else(|| anyhow!("a trailing backslash"))?,
                );
                any = true;
            }
            (_, c) => {
                word.push(c);
                any = true;
            }
        }
    }
    if quote.is_some() {
        bail!("an unclosed quote");
    }
    if any {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        let words = split(r#"python3  'my bot.py' "a b" c\ d"#).unwrap();
        assert_eq!(words, ["python3", "my bot.py", "a b", "c d"]);
        assert!(split("python3 'open").is_err());
    }

    #[test]
    fn a_python_bot_is_mounted_at_bot_with_the_interpreter_from_usr() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.py"), "pass\n").unwrap();
        let spec = format!("python3 {}/bot.py", dir.path().display());
        let bot = parse(&spec, 2, GameId::NO_THANKS, false).unwrap();
        let SeatSpec::Program {
            name,
            bot_dir,
            command,
        } = bot.seat
        else {
            panic!("not a program seat")
        };
        assert_eq!(name, "bot-3");
        assert_eq!(bot_dir, dir.path().canonicalize().unwrap());
        assert!(command[0].ends_with("/python3"), "{command:?}");
        assert_eq!(command[1], "/bot/bot.py");
    }

    #[test]
    fn a_hanabi_class_bot_names_its_class_and_arguments_after_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bots.py"), "class cautious: pass\n").unwrap();
        let file = dir.path().join("bots.py").display().to_string();
        for spec in [
            format!("{file}:cautious(0.3, name='a b')"),
            format!("python3 '{file}:cautious(0.3, name='\\''a b'\\'')'"),
        ] {
            let bot = parse(&spec, 0, GameId::HANABI, false).unwrap();
            let SeatSpec::Program {
                bot_dir, command, ..
            } = bot.seat
            else {
                panic!("not a program seat")
            };
            assert_eq!(bot_dir, dir.path().canonicalize().unwrap(), "{spec}");
            assert!(command[0].ends_with("/python3"), "{command:?}");
            assert_eq!(
                command[1], "/bot/bots.py:cautious(0.3, name='a b')",
                "{spec}"
            );
        }
        let err = parse(&format!("{file}:cautious"), 0, GameId::GUANDAN, false).unwrap_err();
        assert!(err.to_string().contains("Hanabi"), "{err}");
        let err = parse(&format!("{file}:os.system('x')"), 0, GameId::HANABI, false).unwrap_err();
        assert!(err.to_string().contains("Name(args)"), "{err}");
    }

    #[test]
    fn unknown_builtins_and_missing_commands_are_named() {
        let err = parse("builtin:nope", 0, GameId::NO_THANKS, false).unwrap_err();
        assert!(err.to_string().contains("builtin:heuristic"), "{err}");
        let err = parse("./no-such-bot", 0, GameId::NO_THANKS, false).unwrap_err();
        assert!(err.to_string().contains("not found"), "{err}");
        let err = parse("no-such-program-xyz", 0, GameId::NO_THANKS, false).unwrap_err();
        assert!(err.to_string().contains("not on PATH"), "{err}");
    }
}

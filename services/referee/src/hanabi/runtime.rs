//! Class-based bots: the seed's primary submission form, a Python class `player(basePlayer)`
//! in `player.py`, run unchanged.
//!
//! **Detection** happens here, in the referee, for Hanabi seats only (the worker's build plan
//! knows languages, not games): a seat whose command is `<python> /bot/…/player.py` where that
//! file defines a top-level `class player` is class-based. Whatever else the file does (a
//! `__main__` block playing a local game, say) is not run: the module is imported.
//!
//! **Runtime.** The runner (`hanabi_runner.py`) and Croupier's own `game`, `gameRainbow`,
//! `basePlayer` (and their shared `_hanabi_core`) are compiled into the referee from
//! `kits/hanabi/python/` and written, per seat, into a fresh world-readable directory that the
//! sandbox mounts as the seat's `/work`. The seat then runs
//! `<python> /work/hanabi_runner.py /bot/<dir of player.py> [--rainbow]` with cwd that
//! directory: `sys.path` is `/work` first (Croupier's modules win over copies of the
//! originals in the upload), then the bot's directory (its helper modules, numpy from `/usr`).
//! In sandbox mode `none` the sandbox maps `/work` and `/bot` in the arguments back to the
//! host directories, so the same command works. The directory is removed when the match ends.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use croupier_sandbox::Spec;

/// The runner and the compatibility modules, from the starter kit (the source of truth).
const FILES: [(&str, &str); 5] = [
    (
        "hanabi_runner.py",
        include_str!("../../../../kits/hanabi/python/hanabi_runner.py"),
    ),
    (
        "_hanabi_core.py",
        include_str!("../../../../kits/hanabi/python/_hanabi_core.py"),
    ),
    (
        "game.py",
        include_str!("../../../../kits/hanabi/python/game.py"),
    ),
    (
        "gameRainbow.py",
        include_str!("../../../../kits/hanabi/python/gameRainbow.py"),
    ),
    (
        "basePlayer.py",
        include_str!("../../../../kits/hanabi/python/basePlayer.py"),
    ),
];

/// A seat's runtime directory; removed when dropped.
#[derive(Debug)]
pub(crate) struct RuntimeDir(PathBuf);

impl Drop for RuntimeDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// If `command` runs a class-based `player.py` of `bot_dir`: the directory holding it, as
/// the sandbox sees it (`/bot` or `/bot/sub`), and the interpreter.
pub(crate) fn class_based(bot_dir: &Path, command: &[String]) -> Option<(String, String)> {
    let [python, script] = command else {
        return None;
    };
    let interpreter = python.rsplit('/').next()?;
    if !interpreter.starts_with("python") {
        return None;
    }
    let rel = script.strip_prefix("/bot/")?;
    let (dir, file) = rel.rsplit_once('/').unwrap_or(("", rel));
    if file != "player.py" || rel.split('/').any(|part| part == "..") {
        return None;
    }
    let source = fs::read_to_string(bot_dir.join(rel)).ok()?;
    if !defines_player_class(&source) {
        return None;
    }
    let inside = if dir.is_empty() {
        "/bot".to_owned()
    } else {
        format!("/bot/{dir}")
    };
    Some((inside, python.clone()))
}

/// Whether `source` has a top-level `class player` statement.
fn defines_player_class(source: &str) -> bool {
    source.lines().any(|line| {
        line.strip_prefix("class player")
            .and_then(|rest| rest.chars().next())
            .is_some_and(|c| matches!(c, '(' | ':' | ' ' | '\t'))
    })
}

/// The sandbox spec that runs the class-based bot in `module_dir` (see [`class_based`]) with
/// the runner, and the runtime directory it needs (keep it until the seat has ended).
pub(crate) fn runner_spec(
    python: &str,
    bot_dir: &Path,
    module_dir: &str,
    rainbow: bool,
) -> io::Result<(Spec, RuntimeDir)> {
    let dir = fresh_dir()?;
    for (name, text) in FILES {
        let path = dir.0.join(name);
        fs::write(&path, text)?;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644))?;
    }
    let mut spec = Spec::new(python, bot_dir);
    spec.args = vec!["/work/hanabi_runner.py".into(), module_dir.into()];
    if rainbow {
        spec.args.push("--rainbow".into());
    }
    spec.work_dir = Some(dir.0.clone());
    spec.cwd = module_dir.into();
    Ok((spec, dir))
}

fn fresh_dir() -> io::Result<RuntimeDir> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("croupier-hanabi-{}-{n}", std::process::id()));
        match fs::create_dir(&path) {
            Ok(()) => {
                fs::set_permissions(&path, fs::Permissions::from_mode(0o755))?;
                return Ok(RuntimeDir(path));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_player_py_defining_class_player_is_class_based_and_anything_else_is_not() {
        let dir =
            std::env::temp_dir().join(format!("croupier-hanabi-detect-{}", std::process::id()));
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(
            dir.join("player.py"),
            "from basePlayer import basePlayer\nclass player(basePlayer):\n    pass\n",
        )
        .unwrap();
        fs::write(dir.join("sub/player.py"), "class player:\n    pass\n").unwrap();
        fs::write(dir.join("bot.py"), "class player(object): pass\n").unwrap();
        let run = |cmd: &[&str]| class_based(&dir, &words(cmd));

        assert_eq!(
            run(&["/usr/bin/python3", "/bot/player.py"]),
            Some(("/bot".into(), "/usr/bin/python3".into()))
        );
        assert_eq!(
            run(&["/usr/bin/python3", "/bot/sub/player.py"]).map(|r| r.0),
            Some("/bot/sub".into())
        );
        assert_eq!(
            run(&["/usr/bin/python3", "/bot/bot.py"]),
            None,
            "bot.py has its own main"
        );
        assert_eq!(run(&["/bot/player.py"]), None, "not run by python");
        fs::write(dir.join("player.py"), "class players(object): pass\n").unwrap();
        assert_eq!(run(&["/usr/bin/python3", "/bot/player.py"]), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_runtime_holds_the_runner_and_the_seed_modules_and_goes_away_when_dropped() {
        let (spec, dir) = runner_spec("/usr/bin/python3", Path::new("/tmp"), "/bot", true).unwrap();
        let path = dir.0.clone();
        for (name, _) in FILES {
            assert!(path.join(name).is_file(), "{name}");
        }
        assert_eq!(spec.args, ["/work/hanabi_runner.py", "/bot", "--rainbow"]);
        assert_eq!(spec.work_dir.as_deref(), Some(path.as_path()));
        drop(dir);
        assert!(!path.exists());
    }
}

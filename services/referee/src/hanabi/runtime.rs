//! Class-based bots: the seed's primary submission form, a Python class deriving from
//! `basePlayer` (in the seed, `class player` in `player.py`), run unchanged.
//!
//! **Detection** happens here, in the referee, for Hanabi seats only (the worker's build plan
//! knows languages, not games): a seat whose command is `<python> /bot/<entry>` is class-based
//! when the entry names a class (`/bot/player.py:cautious(0.3)`, the build plan's form of the
//! submitter's entry), or its file is `player.py` defining a top-level `class player`, or the
//! file defines a `basePlayer` subclass and does not speak the websocket itself (a client
//! driving its own player class runs as it is; see [`super::classes`] for which class plays).
//! Whatever else the file does (a `__main__` block playing a local game, say) is not run: the
//! module is imported.
//!
//! **Runtime.** The runner (`hanabi_runner.py`) and Croupier's own `game`, `gameRainbow`,
//! `basePlayer` (and their shared `_hanabi_core`) are compiled into the referee from
//! `kits/hanabi/python/` and written, per seat, into a fresh world-readable directory that the
//! sandbox mounts as the seat's `/work`. The seat then runs
//! `<python> /work/hanabi_runner.py /bot/<dir of the file> --entry <file>[:<class>] [--rainbow]`
//! with cwd that directory: `sys.path` is `/work` first (Croupier's modules win over copies of
//! the originals in the upload), then the bot's directory (its helper modules, numpy from
//! `/usr`). In sandbox mode `none` the sandbox maps `/work` and `/bot` in the arguments back to
//! the host directories, so the same command works. The directory is removed when the match
//! ends.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use croupier_bundle::EntryPoint;
use croupier_sandbox::Spec;

use super::classes::Classes;

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

/// A class-based bot found in a seat's command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClassBot {
    /// The interpreter of the command.
    pub python: String,
    /// The file (relative to the bot directory) and the class chosen, if any.
    pub entry: EntryPoint,
}

impl ClassBot {
    /// The directory holding the file, as the sandbox sees it (`/bot` or `/bot/sub`).
    fn module_dir(&self) -> String {
        match self.entry.file.rsplit_once('/') {
            Some((dir, _)) => format!("/bot/{dir}"),
            None => "/bot".to_owned(),
        }
    }

    /// The runner's `--entry`: the file's name in [`Self::module_dir`], and the class.
    fn runner_entry(&self) -> String {
        let name = self.entry.file.rsplit('/').next().unwrap_or_default();
        EntryPoint {
            file: name.to_owned(),
            class: self.entry.class.clone(),
        }
        .to_string()
    }
}

/// If `command` runs a class-based bot of `bot_dir` (see the module docs), which.
pub(crate) fn class_based(bot_dir: &Path, command: &[String]) -> Option<ClassBot> {
    let [python, script] = command else {
        return None;
    };
    let interpreter = python.rsplit('/').next()?;
    if !interpreter.starts_with("python") {
        return None;
    }
    let entry = EntryPoint::parse(script.strip_prefix("/bot/")?).ok()?;
    if !entry.file.ends_with(".py") {
        return None;
    }
    let source = fs::read_to_string(bot_dir.join(&entry.file)).ok()?;
    let classes = Classes::scan(&source);
    let named_player = entry.file.rsplit('/').next() == Some("player.py") && classes.has_player;
    let subclass = !classes.players.is_empty() && !classes.connects;
    if entry.class.is_none() && !named_player && !subclass {
        return None;
    }
    Some(ClassBot {
        python: python.clone(),
        entry,
    })
}

/// The sandbox spec that runs `bot` (see [`class_based`]) with the runner, and the runtime
/// directory it needs (keep it until the seat has ended).
pub(crate) fn runner_spec(
    bot: &ClassBot,
    bot_dir: &Path,
    rainbow: bool,
) -> io::Result<(Spec, RuntimeDir)> {
    let dir = fresh_dir()?;
    for (name, text) in FILES {
        let path = dir.0.join(name);
        fs::write(&path, text)?;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644))?;
    }
    let module_dir = bot.module_dir();
    let mut spec = Spec::new(bot.python.clone(), bot_dir);
    spec.args = vec![
        "/work/hanabi_runner.py".into(),
        module_dir.clone(),
        "--entry".into(),
        bot.runner_entry(),
    ];
    if rainbow {
        spec.args.push("--rainbow".into());
    }
    spec.work_dir = Some(dir.0.clone());
    spec.cwd = module_dir;
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

    fn bot(python: &str, entry: &str) -> ClassBot {
        ClassBot {
            python: python.into(),
            entry: EntryPoint::parse(entry).unwrap(),
        }
    }

    #[test]
    fn a_named_class_a_class_player_in_player_py_or_a_base_player_subclass_is_class_based() {
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
        fs::write(
            dir.join("simple.py"),
            "class SimplePlayer(basePlayer):\n    pass\n",
        )
        .unwrap();
        fs::write(
            dir.join("client.py"),
            "import websocket\nclass Mine(basePlayer):\n    pass\n",
        )
        .unwrap();
        let run = |cmd: &[&str]| class_based(&dir, &words(cmd));

        assert_eq!(
            run(&["/usr/bin/python3", "/bot/player.py"]),
            Some(bot("/usr/bin/python3", "player.py"))
        );
        assert_eq!(
            run(&["/usr/bin/python3", "/bot/sub/player.py"]).map(|b| b.module_dir()),
            Some("/bot/sub".into())
        );
        assert_eq!(
            run(&["/usr/bin/python3", "/bot/simple.py"]).map(|b| b.runner_entry()),
            Some("simple.py".into()),
            "a basePlayer subclass, whatever its name"
        );
        assert_eq!(
            run(&["/usr/bin/python3", "/bot/bot.py:player"]).map(|b| b.runner_entry()),
            Some("bot.py:player".into()),
            "the entry names the class"
        );
        assert_eq!(
            run(&["/usr/bin/python3", "/bot/bot.py"]),
            None,
            "bot.py has its own main"
        );
        assert_eq!(
            run(&["/usr/bin/python3", "/bot/client.py"]),
            None,
            "a websocket client driving its own basePlayer subclass"
        );
        assert_eq!(run(&["/bot/player.py"]), None, "not run by python");
        fs::write(dir.join("player.py"), "class players(object): pass\n").unwrap();
        assert_eq!(run(&["/usr/bin/python3", "/bot/player.py"]), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_runtime_holds_the_runner_and_the_seed_modules_and_goes_away_when_dropped() {
        let class = bot("/usr/bin/python3", "sub/player.py:cautious(0.3)");
        let (spec, dir) = runner_spec(&class, Path::new("/tmp"), true).unwrap();
        let path = dir.0.clone();
        for (name, _) in FILES {
            assert!(path.join(name).is_file(), "{name}");
        }
        assert_eq!(
            spec.args,
            [
                "/work/hanabi_runner.py",
                "/bot/sub",
                "--entry",
                "player.py:cautious(0.3)",
                "--rainbow"
            ]
        );
        assert_eq!(spec.cwd, "/bot/sub");
        assert_eq!(spec.work_dir.as_deref(), Some(path.as_path()));
        drop(dir);
        assert!(!path.exists());
    }
}

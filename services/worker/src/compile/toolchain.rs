//! What to run to build an upload, per language, and how to start the result.
//!
//! Debian's g++ links with `--as-needed` by default (checked with `readelf -d`: a program that
//! uses no jsoncpp has no `NEEDED libjsoncpp`), so `-ljsoncpp` costs nothing to bots without it.

/// A build plan, chosen from the language and the upload's file list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The compiler run inside the sandbox (cwd `/work` = the build directory), if any.
    pub build: Option<(String, Vec<String>)>,
    /// A file (relative to the build directory) to make executable on the host.
    pub executable: Option<String>,
    /// How the built bot is started (`/bot` = the unpacked artifact).
    pub run_command: Vec<String>,
}

/// Entry points of a Python bot, in order of preference.
pub(crate) const PYTHON_ENTRY_POINTS: [&str; 4] = ["bot.py", "main.py", "player.py", "__main__.py"];
const CPP_EXTENSIONS: [&str; 5] = [".cpp", ".cc", ".cxx", ".c++", ".C"];

/// The plan for `language` over the upload's `files`; `Err` is a message for the team.
pub(crate) fn plan(language: &str, files: &[String]) -> Result<Plan, String> {
    let with = |exts: &[&str]| -> Vec<String> {
        files
            .iter()
            .filter(|f| exts.iter().any(|e| f.ends_with(e)))
            .cloned()
            .collect()
    };
    let strings = |xs: &[&str]| xs.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    match language {
        "python3" => {
            let py = with(&[".py"]);
            let entry = python_entry(&py)?;
            let mut args = strings(&["-m", "py_compile"]);
            args.extend(py);
            Ok(Plan {
                build: Some(("/usr/bin/python3".into(), args)),
                executable: None,
                run_command: vec!["/usr/bin/python3".into(), format!("/bot/{entry}")],
            })
        }
        "c" => {
            let sources = with(&[".c"]);
            if sources.is_empty() {
                return Err(format!(
                    "no .c file in the upload (it has: {})",
                    files.join(", ")
                ));
            }
            let mut args = strings(&["-O2", "-std=gnu11", "-o", "bot"]);
            args.extend(sources);
            args.push("-lm".into());
            Ok(compiled("/usr/bin/gcc", args))
        }
        "cpp" => {
            let sources = with(&CPP_EXTENSIONS);
            if sources.is_empty() {
                return Err(format!(
                    "no C++ source (.cpp, .cc, .cxx) in the upload (it has: {})",
                    files.join(", ")
                ));
            }
            let mut args = strings(&["-O2", "-std=c++17", "-I/usr/include/jsoncpp", "-o", "bot"]);
            args.extend(sources);
            args.extend(strings(&["-ljsoncpp", "-lm"]));
            Ok(compiled("/usr/bin/g++", args))
        }
        "binary" => {
            let file = match files {
                [only] => only.clone(),
                _ if files.iter().any(|f| f == "bot") => "bot".into(),
                _ => {
                    return Err(format!(
                        "a binary upload must be a single file or contain a file named `bot` (it has: {})",
                        files.join(", ")
                    ))
                }
            };
            Ok(Plan {
                build: None,
                run_command: vec![format!("/bot/{file}")],
                executable: Some(file),
            })
        }
        other => Err(format!("unknown language {other:?}")),
    }
}

fn compiled(compiler: &str, args: Vec<String>) -> Plan {
    Plan {
        build: Some((compiler.into(), args)),
        executable: None,
        run_command: vec!["/bot/bot".into()],
    }
}

/// The Python file that starts the bot: `bot.py`, `main.py`, `player.py` or `__main__.py` at the
/// top, else the only `.py` file, else one of those names in exactly one sub-folder.
pub(crate) fn python_entry(py: &[String]) -> Result<String, String> {
    if let Some(name) = PYTHON_ENTRY_POINTS
        .iter()
        .find(|n| py.iter().any(|p| p == *n))
    {
        return Ok((*name).to_owned());
    }
    if let [only] = py {
        return Ok(only.clone());
    }
    for name in PYTHON_ENTRY_POINTS {
        let found: Vec<&String> = py
            .iter()
            .filter(|p| p.rsplit('/').next() == Some(name))
            .collect();
        if let [only] = found[..] {
            return Ok(only.clone());
        }
    }
    if py.is_empty() {
        return Err("no .py file in the upload".into());
    }
    Err(format!(
        "cannot tell which file starts your bot: name it bot.py (or main.py, player.py, __main__.py); the upload has {}",
        py.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_python_bot_starts_from_bot_py_before_any_other_file() {
        assert_eq!(
            python_entry(&names(&["util.py", "main.py", "bot.py"])),
            Ok("bot.py".into())
        );
        assert_eq!(
            python_entry(&names(&["strategy.py"])),
            Ok("strategy.py".into())
        );
        assert_eq!(
            python_entry(&names(&["mybot/util.py", "mybot/player.py"])),
            Ok("mybot/player.py".into())
        );
    }

    #[test]
    fn a_python_bot_without_a_clear_entry_point_is_refused_with_its_file_list() {
        let err = python_entry(&names(&["a.py", "b.py"])).unwrap_err();
        assert!(err.contains("a.py, b.py"), "{err}");
    }

    #[test]
    fn c_and_cpp_bots_compile_every_source_into_bot() {
        let c = plan("c", &names(&["main.c", "lib/util.c", "lib/util.h"])).unwrap();
        let (cc, args) = c.build.unwrap();
        assert_eq!(cc, "/usr/bin/gcc");
        assert!(
            args.contains(&"lib/util.c".to_owned()) && !args.contains(&"lib/util.h".to_owned())
        );
        assert_eq!(c.run_command, ["/bot/bot"]);
        let cpp = plan("cpp", &names(&["bot.cpp"])).unwrap();
        assert!(cpp.build.unwrap().1.contains(&"-ljsoncpp".to_owned()));
    }

    #[test]
    fn a_binary_upload_is_its_only_file_or_the_one_named_bot() {
        assert_eq!(
            plan("binary", &names(&["runme"])).unwrap().run_command,
            ["/bot/runme"]
        );
        assert_eq!(
            plan("binary", &names(&["bot", "data.txt"]))
                .unwrap()
                .executable,
            Some("bot".into())
        );
        assert!(plan("binary", &names(&["a", "b"])).is_err());
    }
}

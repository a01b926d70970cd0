//! The entry point a submitter may choose for an upload: the file that starts the bot
//! (`client0.py`, `gd/client2.py`), and for a Hanabi class bot also the class that plays, with
//! its constructor arguments (`player.py:cautious(0.3)`).
//!
//! Syntax: `FILE[:CLASS]` where FILE is a relative path inside the upload (no `..`, no leading
//! `/`, no `:`) and CLASS is a Python name, optionally followed by a parenthesised argument
//! list. Only the shape of the arguments is checked here; the Hanabi runner reads them as
//! Python literals (`ast.literal_eval`), never as code.

use std::fmt;

/// Longest entry point accepted (the upload form's text fields are capped at 1 KiB).
pub const MAX_ENTRY_POINT: usize = 512;

/// A parsed entry point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoint {
    /// The file, relative to the upload's root.
    pub file: String,
    /// `Name` or `Name(args)`, if given.
    pub class: Option<String>,
}

impl EntryPoint {
    /// Parses `FILE[:CLASS]`; `Err` is a message for the submitter.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.len() > MAX_ENTRY_POINT {
            return Err(format!(
                "the entry is too long (at most {MAX_ENTRY_POINT} bytes)"
            ));
        }
        let (file, class) = match text.split_once(':') {
            Some((file, class)) => (file.trim(), Some(class.trim())),
            None => (text, None),
        };
        check_file(file)?;
        if let Some(class) = class {
            check_class(class)?;
        }
        Ok(EntryPoint {
            file: file.to_owned(),
            class: class.map(str::to_owned),
        })
    }

    /// The same entry point with its file found among the upload's `files`: the file itself,
    /// else the only one under a folder (`client0.py` finds `bot/client0.py`).
    pub fn locate(&self, files: &[String]) -> Result<Self, String> {
        let found = if files.contains(&self.file) {
            self.file.clone()
        } else {
            let suffix = format!("/{}", self.file);
            let matches: Vec<&String> = files.iter().filter(|f| f.ends_with(&suffix)).collect();
            match matches[..] {
                [one] => one.clone(),
                [] => {
                    return Err(format!(
                        "the entry file {} is not in the upload (it has: {})",
                        self.file,
                        files.join(", ")
                    ))
                }
                _ => {
                    let list: Vec<&str> = matches.iter().map(|s| s.as_str()).collect();
                    return Err(format!(
                        "the entry file {} matches several files ({}): give its whole path",
                        self.file,
                        list.join(", ")
                    ));
                }
            }
        };
        Ok(EntryPoint {
            file: found,
            class: self.class.clone(),
        })
    }
}

impl fmt::Display for EntryPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.class {
            Some(class) => write!(f, "{}:{class}", self.file),
            None => f.write_str(&self.file),
        }
    }
}

/// Entry points of a Python bot, in order of preference.
pub const PYTHON_ENTRY_POINTS: [&str; 4] = ["bot.py", "main.py", "player.py", "__main__.py"];

/// The Python file that starts the bot: `bot.py`, `main.py`, `player.py` or `__main__.py` at the
/// top, else the only `.py` file, else one of those names in exactly one sub-folder.
pub fn python_entry(py: &[String]) -> Result<String, String> {
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
        "cannot tell which file starts your bot: the upload has {}; choose one as the entry \
         (the upload's entry field, `croupier submit --entry FILE`) or name it bot.py \
         (or main.py, player.py, __main__.py)",
        py.join(", ")
    ))
}

fn check_file(file: &str) -> Result<(), String> {
    if file.is_empty() {
        return Err(
            "the entry names no file: write it as `file.py` or `file.py:Class(args)`".into(),
        );
    }
    if file.starts_with('/') || file.contains('\\') {
        return Err(format!(
            "the entry file {file:?} must be a path inside the upload, like `bot/client0.py`"
        ));
    }
    if file.chars().any(char::is_control) {
        return Err("the entry file contains a control character".into());
    }
    if file.split('/').any(|part| matches!(part, "" | "." | "..")) {
        return Err(format!(
            "the entry file {file:?} may not contain `..`, `.` or empty parts"
        ));
    }
    Ok(())
}

fn check_class(class: &str) -> Result<(), String> {
    let shape = || {
        format!("the class in the entry must be `Name` or `Name(args)` (Python literals), not {class:?}")
    };
    let (name, args) = match class.split_once('(') {
        Some((name, rest)) => (name.trim_end(), Some(rest)),
        None => (class, None),
    };
    let mut chars = name.chars();
    let starts = chars.next().is_some_and(|c| c == '_' || c.is_alphabetic());
    if !starts || !chars.all(|c| c == '_' || c.is_alphanumeric()) {
        return Err(shape());
    }
    if args.is_some_and(|a| !a.trim_end().ends_with(')')) {
        return Err(shape());
    }
    if class.chars().any(char::is_control) {
        return Err(shape());
    }
    Ok(())
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
        assert!(err.contains("entry"), "{err}");
    }

    #[test]
    fn an_entry_is_a_file_and_maybe_a_class_with_literal_arguments() {
        let e = EntryPoint::parse(" player.py:cautious(0.3) ").unwrap();
        assert_eq!(e.file, "player.py");
        assert_eq!(e.class.as_deref(), Some("cautious(0.3)"));
        assert_eq!(e.to_string(), "player.py:cautious(0.3)");
        let e = EntryPoint::parse("gd/client2.py").unwrap();
        assert_eq!((e.file.as_str(), e.class), ("gd/client2.py", None));
        let e = EntryPoint::parse("p.py:tuned(weights={'a': 1})").unwrap();
        assert_eq!(e.class.as_deref(), Some("tuned(weights={'a': 1})"));
        assert!(EntryPoint::parse("p.py:SimplePlayer").is_ok());
    }

    #[test]
    fn an_entry_outside_the_upload_or_with_a_bad_class_is_refused() {
        for bad in [
            "",
            "/etc/passwd",
            "../x.py",
            "a/../x.py",
            "a//x.py",
            "./x.py",
            "x.py:",
            "x.py:1abc",
            "x.py:a.b",
            "x.py:f(0.3",
            "x.py:os.system('x')",
        ] {
            assert!(EntryPoint::parse(bad).is_err(), "{bad:?}");
        }
        let long = format!("{}.py", "a".repeat(MAX_ENTRY_POINT));
        assert!(EntryPoint::parse(&long).is_err());
    }

    #[test]
    fn an_entry_file_is_found_by_its_path_or_as_the_only_file_of_that_name() {
        let files = names(&["bot/client0.py", "bot/client1.py", "x/util.py", "y/util.py"]);
        let found = |e: &str| EntryPoint::parse(e).unwrap().locate(&files);
        assert_eq!(found("bot/client0.py").unwrap().file, "bot/client0.py");
        assert_eq!(found("client1.py").unwrap().file, "bot/client1.py");
        let err = found("client9.py").unwrap_err();
        assert!(
            err.contains("not in the upload") && err.contains("bot/client0.py"),
            "{err}"
        );
        let err = found("util.py").unwrap_err();
        assert!(err.contains("x/util.py, y/util.py"), "{err}");
        assert!(
            found("ent0.py").is_err(),
            "a suffix counts only at a folder boundary"
        );
    }
}

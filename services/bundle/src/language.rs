//! The languages a bot may be written in: the one list that the upload form, the JSON API (and
//! its OpenAPI enum), the compile worker, the database column and the starter kits all read.
//!
//! A new language is one variant here; every `match` on [`Language`] is exhaustive, so the
//! compiler points at each place that must learn it (the worker's build plan, the upload check).
//! With the `serde` feature it is (de)serialized by its [`Language::as_str`] name; with the `sqlx`
//! feature it is stored as that name in a `text` column (its CHECK constraint lists the same
//! names).

use std::fmt;
use std::str::FromStr;

/// A bot's language, as chosen at upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(
    feature = "sqlx",
    derive(sqlx::Type),
    sqlx(type_name = "text", rename_all = "snake_case")
)]
pub enum Language {
    /// Python 3: every `.py` file is byte-compiled; the entry file is run with `python3`.
    Python3,
    /// C: the sources are compiled with `gcc -O2`.
    C,
    /// C++17: the sources are compiled with `g++ -O2`, with the system's jsoncpp or the copy the
    /// upload brings (`docs/languages.md#how-a-bot-is-built`).
    Cpp,
    /// A ready Linux x86-64 program, run as it is.
    Binary,
}

/// The file endings `g++` compiles as C++ (case matters: `.C` is C++, `.c` is C).
const CPP_SOURCES: &[&str] = &[".cpp", ".cc", ".cxx", ".c++", ".C"];

impl Language {
    /// Every language, in the order the upload form offers them.
    pub const ALL: [Language; 4] = [
        Language::Python3,
        Language::C,
        Language::Cpp,
        Language::Binary,
    ];

    /// The stable name: `python3`, `c`, `cpp`, `binary` (form value, API value, column value).
    pub const fn as_str(self) -> &'static str {
        match self {
            Language::Python3 => "python3",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Binary => "binary",
        }
    }

    /// The label the upload form shows.
    pub const fn label(self) -> &'static str {
        match self {
            Language::Python3 => "Python 3",
            Language::C => "C (gcc -O2)",
            Language::Cpp => "C++17 (g++ -O2)",
            Language::Binary => "Linux x86-64 binary",
        }
    }

    /// The file endings of its source files (case-sensitive, as the compilers read them);
    /// empty for a binary, which has none.
    pub const fn source_endings(self) -> &'static [&'static str] {
        match self {
            Language::Python3 => &[".py"],
            Language::C => &[".c"],
            Language::Cpp => CPP_SOURCES,
            Language::Binary => &[],
        }
    }

    /// Whether `path` is a source file of this language.
    pub fn is_source(self, path: &str) -> bool {
        self.source_endings().iter().any(|e| path.ends_with(e))
    }

    /// The folder of this language's starter kit under `kits/<game>/` (`python` for Python 3,
    /// the name of the language for the others).
    pub const fn kit_dir(self) -> &'static str {
        match self {
            Language::Python3 => "python",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Binary => "binary",
        }
    }

    /// The language whose starter kits live in the folder `dir`.
    pub fn from_kit_dir(dir: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.kit_dir() == dir)
    }

    /// `python3, c, cpp, binary`, for messages.
    pub fn names() -> String {
        Language::ALL.map(Language::as_str).join(", ")
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of [`Language::from_str`]: the text names no language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language {0:?}: expected one of {names}", names = Language::names())]
pub struct UnknownLanguage(pub String);

impl FromStr for Language {
    type Err = UnknownLanguage;

    /// Parses exactly what [`Language::as_str`] prints.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Language::ALL
            .into_iter()
            .find(|l| l.as_str() == s)
            .ok_or_else(|| UnknownLanguage(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn every_language_parses_from_its_name_and_nothing_else_does() {
        for l in Language::ALL {
            assert_eq!(l.as_str().parse::<Language>(), Ok(l));
            assert_eq!(l.to_string(), l.as_str());
        }
        let err = "python".parse::<Language>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown language \"python\": expected one of python3, c, cpp, binary"
        );
        assert!("C".parse::<Language>().is_err());
    }

    #[test]
    fn sources_are_told_apart_by_their_ending_with_its_case() {
        assert!(Language::Cpp.is_source("src/main.C"));
        assert!(!Language::C.is_source("src/main.C"));
        assert!(Language::C.is_source("main.c"));
        assert!(!Language::Python3.is_source("BOT.PY"));
        assert!(Language::ALL.iter().all(|l| !l.is_source("README")));
    }

    /// Every starter kit folder (`kits/<game>/<dir>/`) is the kit folder of a language, so the
    /// kits, the form and the compiler speak of the same languages.
    #[test]
    fn each_kit_folder_is_a_language() {
        let kits = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kits");
        let mut seen = 0;
        for game in std::fs::read_dir(&kits).unwrap() {
            let game = game.unwrap();
            if !game.file_type().unwrap().is_dir() {
                continue;
            }
            for dir in std::fs::read_dir(game.path()).unwrap() {
                let dir = dir.unwrap();
                if !dir.file_type().unwrap().is_dir() {
                    continue;
                }
                let name = dir.file_name().into_string().unwrap();
                assert!(
                    Language::from_kit_dir(&name).is_some(),
                    "{}: the folder {name:?} is no language's kit folder ({})",
                    game.path().display(),
                    Language::ALL.map(Language::kit_dir).join(", ")
                );
                seen += 1;
            }
        }
        assert!(
            seen >= 5,
            "only {seen} kit folders found under {}",
            kits.display()
        );
    }
}

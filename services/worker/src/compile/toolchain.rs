//! What to run to build an upload, per language, and how to start the result.
//!
//! The submitter may choose the entry point ([`EntryPoint`]): for python3 the file that starts
//! the bot (and for a Hanabi class bot the class, kept in the run command as
//! `/bot/player.py:cautious(0.3)` for the referee), for a binary upload the program, for C and
//! C++ the one source file to compile (a folder with one program per seat). Without one the
//! plan chooses by file names and refuses only when that is ambiguous, listing the candidates.
//!
//! Debian's g++ links with `--as-needed` by default (checked with `readelf -d`: a program that
//! uses no jsoncpp has no `NEEDED libjsoncpp`), so `-ljsoncpp` costs nothing to bots without it.
//!
//! A C++ upload that **bundles its own jsoncpp** ([`BundledJson`]: a `json/json.h` and the
//! library's sources) is built with its copy, as the original Splendor judge built contestants'
//! folders: the folder holding its `json/` is on the include path instead of the system's
//! `/usr/include/jsoncpp`, its sources are compiled in, and the system's library is not linked.
//! Mixing the two (the bot's code compiled against one version's headers, the library from
//! another) builds a program that misbehaves quietly, e.g. prints `"color" : ,`.

use croupier_bundle::{python_entry, EntryPoint, Language};

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

/// The plan for `language` over the upload's `files`, from the submitter's `entry` (empty: none
/// chosen); `Err` is a message for the team.
pub(crate) fn plan(language: Language, files: &[String], entry: &str) -> Result<Plan, String> {
    let entry = match entry.trim() {
        "" => None,
        text => Some(EntryPoint::parse(text)?.locate(files)?),
    };
    if let Some(EntryPoint {
        class: Some(class), ..
    }) = &entry
    {
        if language != Language::Python3 {
            return Err(format!(
                "the entry names a class ({class}): that is for Python class bots (Hanabi) only"
            ));
        }
    }
    let all_sources = || -> Vec<String> {
        files
            .iter()
            .filter(|f| language.is_source(f))
            .cloned()
            .collect()
    };
    let strings = |xs: &[&str]| xs.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    match language {
        Language::Python3 => {
            let py = all_sources();
            let entry = match entry {
                Some(e) if !language.is_source(&e.file) => {
                    return Err(format!("the entry file {} is not a .py file", e.file))
                }
                Some(e) => e.to_string(),
                None => python_entry(&py)?,
            };
            let mut args = strings(&["-m", "py_compile"]);
            args.extend(py);
            Ok(Plan {
                build: Some(("/usr/bin/python3".into(), args)),
                executable: None,
                run_command: vec!["/usr/bin/python3".into(), format!("/bot/{entry}")],
            })
        }
        Language::C => {
            let sources = match entry {
                Some(e) => vec![source_file(e, language)?],
                None => all_sources(),
            };
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
        Language::Cpp => {
            let bundled = BundledJson::find(files);
            let mut sources = match entry {
                Some(e) => vec![source_file(e, language)?],
                None => all_sources(),
            };
            if sources.is_empty() {
                return Err(format!(
                    "no C++ source (.cpp, .cc, .cxx) in the upload (it has: {})",
                    files.join(", ")
                ));
            }
            let mut args = strings(&["-O2", "-std=c++17"]);
            match &bundled {
                Some(json) => {
                    args.extend(json.include_dirs.iter().map(|d| format!("-I{d}")));
                    for source in &json.sources {
                        if !sources.contains(source) {
                            sources.push(source.clone());
                        }
                    }
                }
                None => args.push(format!("-I{SYSTEM_JSONCPP}")),
            }
            args.extend(strings(&["-o", "bot"]));
            args.extend(sources);
            if bundled.is_none() {
                args.push("-ljsoncpp".into());
            }
            args.push("-lm".into());
            Ok(compiled("/usr/bin/g++", args))
        }
        Language::Binary => {
            let file = match (entry, files) {
                (Some(e), _) => e.file,
                (None, [only]) => only.clone(),
                _ if files.iter().any(|f| f == "bot") => "bot".into(),
                _ => {
                    return Err(format!(
                        "a binary upload must be a single file, contain a file named `bot`, or name its program as the entry (it has: {})",
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
    }
}

/// Where Debian's `libjsoncpp-dev` puts the `json/` headers.
const SYSTEM_JSONCPP: &str = "/usr/include/jsoncpp";

/// jsoncpp's own sources: the amalgamation (`amalgamate.py`'s `jsoncpp.cpp`) or the library's
/// three files (`src/lib_json/`).
const JSONCPP_SOURCES: &[&str] = &[
    "jsoncpp.cpp",
    "json_reader.cpp",
    "json_value.cpp",
    "json_writer.cpp",
];

/// A copy of jsoncpp inside a C++ upload: a `json/json.h` (the amalgamation's `json/`, or the
/// library's `include/json/`) and at least one of [`JSONCPP_SOURCES`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct BundledJson {
    /// The folders holding a `json/json.h` (`.` for the top), shallowest first.
    include_dirs: Vec<String>,
    /// Its source files, as the upload names them.
    sources: Vec<String>,
}

impl BundledJson {
    /// The upload's own jsoncpp, if it has both its header and its sources.
    fn find(files: &[String]) -> Option<BundledJson> {
        let mut include_dirs: Vec<String> = files
            .iter()
            .filter_map(|f| match f.strip_suffix("json/json.h")? {
                "" => Some(".".to_owned()),
                dir => dir.strip_suffix('/').map(str::to_owned),
            })
            .collect();
        include_dirs.sort_by_key(|d| (d.matches('/').count(), d.clone()));
        let sources: Vec<String> = files
            .iter()
            .filter(|f| {
                let name = f.rsplit('/').next().unwrap_or(f);
                JSONCPP_SOURCES.contains(&name)
            })
            .cloned()
            .collect();
        (!include_dirs.is_empty() && !sources.is_empty()).then_some(BundledJson {
            include_dirs,
            sources,
        })
    }
}

/// The chosen C or C++ source: compiled alone (other sources reach it by `#include`).
fn source_file(entry: EntryPoint, language: Language) -> Result<String, String> {
    if language.is_source(&entry.file) {
        Ok(entry.file)
    } else {
        Err(format!(
            "the entry file {} is not a source file ({})",
            entry.file,
            language.source_endings().join(", ")
        ))
    }
}

fn compiled(compiler: &str, args: Vec<String>) -> Plan {
    Plan {
        build: Some((compiler.into(), args)),
        executable: None,
        run_command: vec!["/bot/bot".into()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_chosen_entry_starts_a_folder_of_one_client_per_seat() {
        let files = names(&[
            "gd/client0.py",
            "gd/client1.py",
            "gd/client2.py",
            "gd/client3.py",
            "gd/readme.txt",
        ]);
        let err = plan(Language::Python3, &files, "").unwrap_err();
        assert!(
            err.contains("gd/client0.py, gd/client1.py, gd/client2.py, gd/client3.py"),
            "{err}"
        );
        let chosen = plan(Language::Python3, &files, "client2.py").unwrap();
        assert_eq!(
            chosen.run_command,
            ["/usr/bin/python3", "/bot/gd/client2.py"]
        );
        let (_, args) = chosen.build.unwrap();
        assert!(
            args.contains(&"gd/client0.py".to_owned()),
            "every .py file is compiled"
        );
        let class = plan(
            Language::Python3,
            &names(&["player.py"]),
            "player.py:cautious(0.3)",
        )
        .unwrap();
        assert_eq!(class.run_command[1], "/bot/player.py:cautious(0.3)");
        for (bad, why) in [
            ("client9.py", "not in the upload"),
            ("gd/readme.txt", "not a .py file"),
            ("../gd/client0.py", ".."),
        ] {
            let err = plan(Language::Python3, &files, bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn an_entry_picks_the_program_of_a_binary_and_the_source_of_a_c_bot() {
        let bin = plan(Language::Binary, &names(&["a", "b"]), "b").unwrap();
        assert_eq!(
            (bin.executable.as_deref(), bin.run_command),
            (Some("b"), vec!["/bot/b".to_owned()])
        );
        let c = plan(
            Language::C,
            &names(&["seat0.c", "seat1.c", "common.h"]),
            "seat1.c",
        )
        .unwrap();
        let (_, args) = c.build.unwrap();
        assert!(args.contains(&"seat1.c".to_owned()) && !args.contains(&"seat0.c".to_owned()));
        assert!(plan(Language::C, &names(&["seat0.c", "common.h"]), "common.h").is_err());
        let err = plan(Language::C, &names(&["seat0.c"]), "seat0.c:Player").unwrap_err();
        assert!(err.contains("class"), "{err}");
    }

    #[test]
    fn c_and_cpp_bots_compile_every_source_into_bot() {
        let c = plan(
            Language::C,
            &names(&["main.c", "lib/util.c", "lib/util.h"]),
            "",
        )
        .unwrap();
        let (cc, args) = c.build.unwrap();
        assert_eq!(cc, "/usr/bin/gcc");
        assert!(
            args.contains(&"lib/util.c".to_owned()) && !args.contains(&"lib/util.h".to_owned())
        );
        assert_eq!(c.run_command, ["/bot/bot"]);
        let cpp = plan(Language::Cpp, &names(&["bot.cpp"]), "").unwrap();
        assert_eq!(
            cpp.build.unwrap().1.join(" "),
            "-O2 -std=c++17 -I/usr/include/jsoncpp -o bot bot.cpp -ljsoncpp -lm"
        );
    }

    fn cpp_command(files: &[&str], entry: &str) -> String {
        let (cc, args) = plan(Language::Cpp, &names(files), entry)
            .unwrap()
            .build
            .unwrap();
        assert_eq!(cc, "/usr/bin/g++");
        args.join(" ")
    }

    #[test]
    fn a_bundled_jsoncpp_is_built_from_its_own_copy_not_the_systems() {
        // The amalgamation beside the bot.
        assert_eq!(
            cpp_command(
                &[
                    "main.cpp",
                    "jsoncpp.cpp",
                    "json/json.h",
                    "json/json-forwards.h"
                ],
                ""
            ),
            "-O2 -std=c++17 -I. -o bot main.cpp jsoncpp.cpp -lm"
        );
        // The library's own sources and headers, in a folder of their own.
        let files = [
            "bot/main.cpp",
            "jsoncpp/include/json/json.h",
            "jsoncpp/include/json/value.h",
            "jsoncpp/src/lib_json/json_reader.cpp",
            "jsoncpp/src/lib_json/json_value.cpp",
            "jsoncpp/src/lib_json/json_valueiterator.inl",
            "jsoncpp/src/lib_json/json_writer.cpp",
        ];
        assert_eq!(
            cpp_command(&files, ""),
            "-O2 -std=c++17 -Ijsoncpp/include -o bot bot/main.cpp \
             jsoncpp/src/lib_json/json_reader.cpp jsoncpp/src/lib_json/json_value.cpp \
             jsoncpp/src/lib_json/json_writer.cpp -lm"
        );
        // A chosen entry is compiled with the bundled library's sources.
        assert_eq!(
            cpp_command(
                &[
                    "seat0.cpp",
                    "seat1.cpp",
                    "dist/jsoncpp.cpp",
                    "dist/json/json.h"
                ],
                "seat1.cpp"
            ),
            "-O2 -std=c++17 -Idist -o bot seat1.cpp dist/jsoncpp.cpp -lm"
        );
        // A header without the library's sources (or the reverse) is no copy of it: the
        // system's jsoncpp is used.
        for files in [
            &["main.cpp", "json/json.h"][..],
            &["main.cpp", "jsoncpp.cpp"][..],
            &["main.cpp", "myjson/json.h", "jsoncpp.cpp"][..],
        ] {
            assert!(
                cpp_command(files, "").contains("-I/usr/include/jsoncpp"),
                "{files:?}"
            );
        }
    }

    #[test]
    fn a_binary_upload_is_its_only_file_or_the_one_named_bot() {
        assert_eq!(
            plan(Language::Binary, &names(&["runme"]), "")
                .unwrap()
                .run_command,
            ["/bot/runme"]
        );
        assert_eq!(
            plan(Language::Binary, &names(&["bot", "data.txt"]), "")
                .unwrap()
                .executable,
            Some("bot".into())
        );
        assert!(plan(Language::Binary, &names(&["a", "b"]), "").is_err());
    }
}

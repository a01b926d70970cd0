//! Embeds the starter kits (`kits/<game>/<language>/…` at the repository's top) in the server,
//! so a game's page serves each as a zip wherever the binary runs. A file directly under
//! `kits/<game>/` (a README shared by its languages) goes into every kit of that game.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, under: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, under, out);
        } else if let Ok(rel) = path.strip_prefix(under) {
            out.push((rel.to_string_lossy().into_owned(), path.clone()));
        }
    }
}

fn main() {
    let kits = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kits");
    println!("cargo:rerun-if-changed={}", kits.display());
    let mut code = String::from(
        "/// Every kit file: (game, language, path inside the kit, bytes).\n\
         pub static KIT_FILES: &[(&str, &str, &str, &[u8])] = &[\n",
    );
    let mut games: Vec<PathBuf> = fs::read_dir(&kits)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    games.sort();
    for game in games {
        let name = game
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let mut shared = Vec::new();
        let mut languages = Vec::new();
        for entry in fs::read_dir(&game).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                languages.push(path);
            } else {
                shared.push(path);
            }
        }
        languages.sort();
        shared.sort();
        for language in languages {
            let lang = language
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let mut listed = Vec::new();
            files(&language, &language, &mut listed);
            for path in &shared {
                let file = path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                if !listed.iter().any(|(rel, _)| *rel == file) {
                    listed.push((file, path.clone()));
                }
            }
            for (rel, path) in listed {
                let _ = writeln!(
                    code,
                    "    ({name:?}, {lang:?}, {rel:?}, include_bytes!({:?})),",
                    path.canonicalize().unwrap_or(path.clone())
                );
            }
        }
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("kits.rs");
    fs::write(out, code).expect("write kits.rs");
}

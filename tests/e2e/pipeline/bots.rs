//! The bots the pipeline tests upload: the starter kits, and variants with known strategies.

use std::path::PathBuf;

fn kit(path: &str) -> Vec<u8> {
    game_kit("nothanks", path)
}

/// A file of another game's starter kit, `kits/<game>/<path>`.
pub fn game_kit(game: &str, path: &str) -> Vec<u8> {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../kits")
        .join(game)
        .join(path);
    std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The Python starter kit: keeps coins for cards that extend its runs.
pub fn python_kit() -> Vec<u8> {
    kit("python/bot.py")
}

/// The C starter kit.
pub fn c_kit() -> Vec<u8> {
    kit("c/bot.c")
}

/// The Python kit, changed to pass whenever it may: it pays a coin for every card it sees
/// and, once broke, must take whatever comes — clearly the weakest strategy.
pub fn python_always_passes() -> Vec<u8> {
    let source = String::from_utf8(python_kit()).expect("utf-8");
    let patched = source.replacen(
        "def wants_card(status, me):",
        "def wants_card(status, me):\n    return status[\"playerinfo\"][me][\"coins\"] == 0\n\n\ndef _kit_wants_card(status, me):",
        1,
    );
    assert_ne!(
        patched, source,
        "the kit still defines wants_card(status, me)"
    );
    patched.into_bytes()
}

/// The Python kit, thinking for `secs` before every answer (so a match lasts a while).
pub fn python_slow(secs: f64) -> Vec<u8> {
    let source = String::from_utf8(python_kit()).expect("utf-8");
    let patched = source.replacen(
        "def wants_card(status, me):",
        &format!("def wants_card(status, me):\n    import time\n    time.sleep({secs})\n    return _kit_wants_card(status, me)\n\n\ndef _kit_wants_card(status, me):"),
        1,
    );
    assert_ne!(
        patched, source,
        "the kit still defines wants_card(status, me)"
    );
    patched.into_bytes()
}

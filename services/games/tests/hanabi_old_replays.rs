//! Hanabi replays stored before Croupier followed the original's rules (a drawn card at the end
//! of the hand, no hint to oneself, …) still play back identically: their headers lack the
//! settings that changed, and the game built from them keeps the old rules.
//!
//! The two files were recorded by Croupier's engine as it was before the change (commit
//! 818124b): four convention bots, seed 7, with a hint to oneself tried (and refused) on the
//! third turn.

use croupier_games::{Replay, Viewer};
use serde_json::Value;

fn stored(rules: &str) -> Replay {
    let text = match rules {
        "standard" => include_str!("data/hanabi_replay_before_origin_rules_standard.json"),
        _ => include_str!("data/hanabi_replay_before_origin_rules_rainbow.json"),
    };
    serde_json::from_str(text).expect("a stored replay")
}

#[test]
fn a_replay_stored_before_the_origin_rules_rebuilds_with_every_event_as_recorded() {
    for rules in ["standard", "rainbow"] {
        let replay = stored(rules);
        assert!(replay.settings.get("draw_into").is_none(), "an old header");
        let game = replay.rebuild().unwrap_or_else(|e| panic!("{rules}: {e}"));
        assert_eq!(game.outcome(), replay.outcome, "{rules}");
        let frames = replay.frames(Viewer::Omniscient).expect("frames");
        assert_eq!(frames.len(), replay.entries.len() + 1, "{rules}");
    }
}

#[test]
fn the_same_moves_under_todays_rules_do_not_replay_so_the_old_rules_are_what_made_it_work() {
    for rules in ["standard", "rainbow"] {
        let mut replay = stored(rules);
        let Value::Object(settings) = &mut replay.settings else {
            panic!("settings are an object");
        };
        settings.insert("draw_into".into(), "played_slot".into());
        settings.insert("self_hints".into(), true.into());
        settings.insert("final_round".into(), "unchecked".into());
        assert!(
            replay.rebuild().is_err(),
            "{rules}: replayed under new rules"
        );
    }
}

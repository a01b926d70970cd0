//! The league's planned matches as store rows: one conversion for every scheduler (a
//! round-robin at creation, a ladder's tick).

use croupier_games::GameId;
use croupier_league::PlannedMatch;
use croupier_store::matches::{NewMatch, SeatRef};
use uuid::Uuid;

/// `planned` as rows to insert: the game and rule set on each, an empty settings object for
/// none, submissions in every seat, the group as the duplicate set.
pub fn new_matches(game: GameId, rules: &str, planned: Vec<PlannedMatch<Uuid>>) -> Vec<NewMatch> {
    planned
        .into_iter()
        .map(|m| NewMatch {
            ordinal: i32::try_from(m.ordinal).unwrap_or(i32::MAX),
            game: game.as_str().to_owned(),
            rules: rules.to_owned(),
            seed: m.seed,
            settings: if m.settings.is_null() {
                serde_json::json!({})
            } else {
                m.settings
            },
            seats: m.seats.into_iter().map(SeatRef::Submission).collect(),
            duplicate_set: Some(i32::try_from(m.group).unwrap_or(i32::MAX)),
        })
        .collect()
}

//! The replay viewer's data: `GET /matches/{match_id}/frames.json?view=omniscient|seat:N`.
//!
//! The stored replay is rebuilt with the engine ([`Replay::frames`]) and every step is sent with
//! the observation of the chosen viewer — for `seat:N` exactly what that seat's bot was sent —
//! the entry just played (its events' texts with the players' names) and, at the end of each
//! game, its outcome; `outcome` at the top is the match's (the result table's scores). Only
//! once the match has finished and no match dealt the same cards is still to play (409 before:
//! the hidden information of a running match never reaches a browser), and a private match's
//! only for its team and admins (404: `crate::privacy`). `web/static/viewer/viewer.js` draws it.
//!
//! For `seat:N` asked by a member of the team that sat there (or an admin), `moves` adds the
//! seat's move records — each move's time, memory peak and stderr — which the viewer shows at
//! the step each one became; nobody else ever gets them (the seat-log rule of
//! `crate::match_files`).

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use croupier_games::{Frame, MoveRecord, Replay, Seat, Viewer};
use croupier_store::matches;
use croupier_store::users::User;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

// A word of the viewer (`labels::script_word`), named `t` as every key is.
use super::labels::script_word as t;
use super::labels::tk;
use super::timeline::{action_text, event_text, with_names};
use crate::auth::MaybeUser;
use crate::error::{Error, Result};
use crate::extract::{PagePath, PageQuery};
use crate::{match_files, privacy, AppState};

pub fn router() -> Router<AppState> {
    Router::new().route("/matches/{match_id}/frames.json", get(frames))
}

/// The words of the replay viewer's scripts (`web/static/viewer/*.js`, each key with its
/// arguments), which the match and play pages give them in the page's language.
pub const VIEWER_WORDS: &[(&str, &[&str])] = &[
    t("viewer-bridge-north", &[]),
    t("viewer-bridge-east", &[]),
    t("viewer-bridge-south", &[]),
    t("viewer-bridge-west", &[]),
    t("viewer-bridge-pass", &[]),
    t("viewer-face-down", &[]),
    t("viewer-bridge-contract-by", &["bid", "seat"]),
    t("viewer-bridge-no-contract", &[]),
    t("viewer-bridge-board", &["board"]),
    t("viewer-bridge-dealer", &["seat"]),
    t("viewer-bridge-vulnerable", &["who"]),
    t("viewer-bridge-vulnerable-none", &[]),
    t("viewer-bridge-vulnerable-ns", &[]),
    t("viewer-bridge-vulnerable-ew", &[]),
    t("viewer-bridge-vulnerable-all", &[]),
    t("viewer-bridge-contract", &["contract"]),
    t("viewer-bridge-trick", &["n", "seat"]),
    t("viewer-bridge-bidding", &[]),
    t("viewer-bridge-no-trick", &[]),
    t("viewer-bridge-auction", &[]),
    t("viewer-to-play", &[]),
    t("viewer-bridge-dummy-cards", &["seat"]),
    t("viewer-bridge-tricks", &["n"]),
    t("viewer-bridge-robot", &[]),
    t("viewer-bridge-result", &["n", "score"]),
    t("viewer-guandan-small-joker", &[]),
    t("viewer-guandan-big-joker", &[]),
    t("viewer-guandan-pass", &[]),
    t("viewer-guandan-single", &[]),
    t("viewer-guandan-pair", &[]),
    t("viewer-guandan-trips", &[]),
    t("viewer-guandan-three-pair", &[]),
    t("viewer-guandan-three-with-two", &[]),
    t("viewer-guandan-two-trips", &[]),
    t("viewer-guandan-straight", &[]),
    t("viewer-guandan-straight-flush", &[]),
    t("viewer-guandan-bomb", &[]),
    t("viewer-guandan-tribute", &[]),
    t("viewer-guandan-back", &[]),
    t("viewer-guandan-passed", &[]),
    t("viewer-guandan-cards-left", &["n"]),
    t("viewer-guandan-stage-play", &[]),
    t("viewer-guandan-stage-tribute", &[]),
    t("viewer-guandan-stage-back", &[]),
    t("viewer-guandan-stage-over", &[]),
    t("viewer-guandan-deal", &["deal"]),
    t("viewer-guandan-level", &["level"]),
    t("viewer-guandan-stage", &["stage"]),
    t("viewer-guandan-out", &["seats"]),
    t("viewer-guandan-to-beat", &[]),
    t("viewer-guandan-by", &["who"]),
    t("viewer-guandan-free-lead", &[]),
    t("viewer-guandan-team-02", &[]),
    t("viewer-guandan-team-13", &[]),
    t("viewer-guandan-out-place", &["place"]),
    t("viewer-guandan-this-round", &[]),
    t("viewer-guandan-hand-hidden", &[]),
    t("viewer-hanabi-red", &[]),
    t("viewer-hanabi-letter-red", &[]),
    t("viewer-hanabi-letter-yellow", &[]),
    t("viewer-hanabi-letter-blue", &[]),
    t("viewer-hanabi-letter-green", &[]),
    t("viewer-hanabi-letter-white", &[]),
    t("viewer-hanabi-letter-rainbow", &[]),
    t("viewer-hanabi-yellow", &[]),
    t("viewer-hanabi-blue", &[]),
    t("viewer-hanabi-green", &[]),
    t("viewer-hanabi-white", &[]),
    t("viewer-hanabi-rainbow", &[]),
    t("viewer-hanabi-not-visible", &[]),
    t("viewer-hanabi-card", &["color", "number"]),
    t("viewer-hanabi-hinted", &[]),
    t("viewer-hanabi-may-be", &["colors", "numbers"]),
    t("viewer-hanabi-end-strikeout", &[]),
    t("viewer-hanabi-end-deck-out", &[]),
    t("viewer-hanabi-end-complete", &[]),
    t("viewer-hanabi-end-fault", &[]),
    t("viewer-hanabi-end", &[]),
    t("viewer-hanabi-fireworks", &[]),
    t("viewer-hanabi-firework-at", &["color", "height"]),
    t("viewer-hanabi-clues", &["n"]),
    t("viewer-hanabi-fuses", &["n"]),
    t("viewer-hanabi-deck", &["n"]),
    t("viewer-hanabi-turns-left", &["turns"]),
    t("viewer-score", &[]),
    t("viewer-hanabi-discarded", &[]),
    t("viewer-nothing", &[]),
    t("viewer-hanabi-game-over", &["reason", "score"]),
    t("viewer-no-cards", &[]),
    t("viewer-nothanks-chips-on-it", &["n"]),
    t("viewer-nothanks-over", &[]),
    t("viewer-nothanks-no-offer", &[]),
    t("viewer-nothanks-face-down", &["n"]),
    t("viewer-nothanks-hidden-next", &[]),
    t("viewer-none", &[]),
    t("viewer-nothanks-set-aside", &[]),
    t("viewer-nothanks-counts", &["card"]),
    t("viewer-nothanks-coins", &["n"]),
    t("viewer-cards", &["n"]),
    t("viewer-splendor-white", &[]),
    t("viewer-splendor-blue", &[]),
    t("viewer-splendor-green", &[]),
    t("viewer-splendor-red", &[]),
    t("viewer-splendor-black", &[]),
    t("viewer-splendor-gold", &[]),
    t("viewer-splendor-level", &["level"]),
    t("viewer-splendor-card", &["level", "color", "n"]),
    t("viewer-splendor-cost", &[]),
    t("viewer-splendor-noble", &["n"]),
    t("viewer-splendor-pts", &["points"]),
    t("viewer-splendor-requires", &[]),
    t("viewer-splendor-bank", &[]),
    t("viewer-splendor-bank-label", &[]),
    t("viewer-splendor-nobles", &[]),
    t("viewer-splendor-none-left", &[]),
    t("viewer-splendor-deck", &["level"]),
    t("viewer-splendor-left", &["count"]),
    t("viewer-splendor-next", &[]),
    t("viewer-splendor-points", &[]),
    t("viewer-splendor-gems", &[]),
    t("viewer-splendor-gems-label", &[]),
    t("viewer-splendor-bonuses", &[]),
    t("viewer-splendor-bonuses-label", &[]),
    t("viewer-splendor-owned", &["cards", "nobles"]),
    t("viewer-splendor-reserved", &[]),
    t("viewer-step", &["step", "last"]),
    t("viewer-observation-summary", &[]),
    t("viewer-observation", &[]),
    t("viewer-seat", &["seat"]),
    t("viewer-this-view", &[]),
    t("viewer-back-title", &[]),
    t("viewer-back", &[]),
    t("viewer-play-title", &[]),
    t("viewer-play", &[]),
    t("viewer-next-title", &[]),
    t("viewer-next", &[]),
    t("viewer-speed", &[]),
    t("viewer-step-label", &[]),
    t("viewer-perspective", &[]),
    t("viewer-omniscient", &[]),
    t("viewer-loading", &[]),
    t("viewer-seen-by", &[]),
    t("viewer-not-finished", &[]),
    t("viewer-load-failed-status", &["status"]),
    t("viewer-no-steps", &[]),
    t("viewer-load-failed", &[]),
    t("viewer-view-seat", &["seat", "name"]),
    t("viewer-game-of", &["game", "games"]),
    t("viewer-own-hint", &[]),
    t("viewer-own-move", &["ms"]),
    t("viewer-own-peak", &["mib"]),
    t("viewer-own-forced", &[]),
    t("viewer-own-stderr", &[]),
    t("viewer-own-no-stderr", &[]),
    t("viewer-game-start", &["game"]),
    t("viewer-plays", &["who", "action"]),
    t("viewer-forced", &["who"]),
    t("viewer-refused", &["who", "action", "note"]),
    t("viewer-fault", &["who", "note"]),
    t("viewer-no-reason", &[]),
    t("viewer-game-over", &[]),
    t("viewer-pause", &[]),
];

/// The viewer's words in `lang`, as the script element the page includes.
pub fn words_script(lang: &crate::i18n::Lang) -> String {
    crate::i18n::script_words(*lang, VIEWER_WORDS)
}

#[derive(Deserialize)]
struct Query {
    view: Option<String>,
}

/// The worker's replay document (format 1), the parts the viewer needs.
#[derive(Deserialize)]
struct ReplayDoc {
    #[serde(default)]
    players: Vec<String>,
    games: Vec<GameDoc>,
    #[serde(default)]
    outcome: Option<Value>,
}

#[derive(Deserialize)]
struct GameDoc {
    replay: Replay,
}

#[derive(Serialize)]
struct Frames {
    game: String,
    /// `omniscient` or `seat:N`, as asked.
    view: String,
    /// Names in seat order.
    players: Vec<String>,
    /// The number of games in the match.
    games: usize,
    /// Every step of every game, in order: each game's start, then one per entry.
    frames: Vec<MatchFrame>,
    /// The match's outcome (scores summed over its games), as stored.
    outcome: Option<Value>,
    /// The viewing seat's move records, for its team only.
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveRecord>>,
}

#[derive(Serialize)]
struct MatchFrame {
    /// 0-based game of the match.
    game: usize,
    #[serde(flatten)]
    frame: Frame,
}

/// `omniscient` or `seat:N` with `N` below `seats`.
fn parse_view(view: Option<&str>, seats: usize) -> Result<Viewer> {
    let bad = || {
        Error::BadRequest(format!(
            "view must be omniscient or seat:N with N from 0 to {}",
            seats.saturating_sub(1)
        ))
    };
    match view.unwrap_or("omniscient") {
        "omniscient" => Ok(Viewer::Omniscient),
        other => {
            let n: usize = other
                .strip_prefix("seat:")
                .and_then(|n| n.parse().ok())
                .ok_or_else(bad)?;
            if n < seats {
                Ok(Viewer::Seat(Seat(n)))
            } else {
                Err(bad())
            }
        }
    }
}

async fn frames(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    PagePath(match_id): PagePath<Uuid>,
    PageQuery(query): PageQuery<Query>,
) -> Result<Response> {
    let m = privacy::match_for(&state, user.as_ref(), match_id).await?;
    privacy::dealt(&m, |status| {
        tk("match-replay-not-yet", &[], &[("status", status)])
    })?;
    let Some(blob) = matches::replay(&state.pool, match_id).await? else {
        return Err(crate::match_files::no_replay(&state, match_id).await);
    };
    let doc: ReplayDoc = serde_json::from_slice(&blob).map_err(Error::internal)?;
    let seats = doc.players.len();
    let viewer = parse_view(query.view.as_deref(), seats)?;
    let mut frames = Vec::new();
    for (game, g) in doc.games.iter().enumerate() {
        let stepped = g.replay.frames_with_events(viewer);
        for (mut frame, events) in stepped.map_err(Error::internal)? {
            if let Some(entry) = &mut frame.entry {
                // The events' lines in the page's language, from their machine form.
                if events.len() == entry.events.len() {
                    entry.events = events.iter().map(|e| event_text(&m.game, e)).collect();
                }
                // A move without events is said by its action, in words, not as JSON.
                let action = entry.action.as_ref().filter(|_| entry.events.is_empty());
                if let Some(words) = action.and_then(|a| action_text(&m.game, a)) {
                    let seat = entry.seat.index();
                    let names = [("action", words.as_str())];
                    entry.events = vec![tk("viewer-entry-move", &[("seat", &seat)], &names)];
                }
                for text in entry.events.iter_mut().chain(entry.note.iter_mut()) {
                    *text = with_names(text, &doc.players);
                }
            }
            frames.push(MatchFrame { game, frame });
        }
    }
    let moves = match viewer {
        Viewer::Seat(seat) => own_moves(&state, user.as_ref(), match_id, seat).await?,
        Viewer::Spectator | Viewer::Omniscient => None,
    };
    Ok(Json(Frames {
        game: m.game,
        view: match viewer {
            Viewer::Seat(seat) => format!("seat:{seat}"),
            Viewer::Spectator | Viewer::Omniscient => "omniscient".to_owned(),
        },
        players: doc.players,
        games: doc.games.len(),
        frames,
        outcome: doc.outcome,
        moves,
    })
    .into_response())
}

/// The seat's move records when `user` may read its log; `None` when not (a 404 of the
/// seat-log rule: another team's seat, a built-in, nobody signed in).
async fn own_moves(
    state: &AppState,
    user: Option<&User>,
    match_id: Uuid,
    seat: Seat,
) -> Result<Option<Vec<MoveRecord>>> {
    let seat = i32::try_from(seat.index()).map_err(Error::internal)?;
    match match_files::seat_moves(state, user, match_id, seat).await {
        Ok(moves) => Ok(Some(moves)),
        Err(Error::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The keys a script names: the first argument of its `t("…"` calls.
    fn named(script: &str) -> BTreeSet<&str> {
        script
            .match_indices("t(\"")
            .filter(|(at, _)| {
                !script[..*at]
                    .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            })
            .filter_map(|(at, call)| script[at + call.len()..].split('"').next())
            .collect()
    }

    fn listed<'a>(words: &[(&'a str, &[&str])]) -> BTreeSet<&'a str> {
        words.iter().map(|(key, _)| *key).collect()
    }

    #[test]
    fn each_script_is_given_exactly_the_words_it_names() {
        let viewer = [
            include_str!("../../../../web/static/viewer/viewer.js"),
            include_str!("../../../../web/static/viewer/bridge.js"),
            include_str!("../../../../web/static/viewer/guandan.js"),
            include_str!("../../../../web/static/viewer/hanabi.js"),
            include_str!("../../../../web/static/viewer/nothanks.js"),
            include_str!("../../../../web/static/viewer/splendor.js"),
        ];
        let in_viewer: BTreeSet<&str> = viewer.iter().flat_map(|s| named(s)).collect();
        assert_eq!(in_viewer, listed(VIEWER_WORDS));
        let play = [
            include_str!("../../../../web/static/play.js"),
            include_str!("../../../../web/static/play/pick.js"),
            include_str!("../../../../web/static/play/bridge.js"),
            include_str!("../../../../web/static/play/guandan.js"),
            include_str!("../../../../web/static/play/hanabi.js"),
            include_str!("../../../../web/static/play/nothanks.js"),
            include_str!("../../../../web/static/play/splendor.js"),
        ];
        let in_play: BTreeSet<&str> = play.iter().flat_map(|s| named(s)).collect();
        assert_eq!(in_play, listed(super::super::play::PLAY_WORDS));
        let live = include_str!("../../../../web/static/live.js");
        assert_eq!(named(live), listed(crate::live::LIVE_WORDS));
    }

    #[test]
    fn the_words_fill_in_arguments_and_plurals_and_cannot_end_the_script() {
        let words = |lang| {
            let element = crate::i18n::script_words(lang, VIEWER_WORDS);
            let json = element
                .strip_prefix(r#"<script type="application/json" class="croupier-words">"#)
                .and_then(|e| e.strip_suffix("</script>"))
                .expect("one element")
                .to_owned();
            assert!(!json.contains(['<', '>', '&']), "{json}");
            serde_json::from_str::<serde_json::Value>(&json).unwrap()
        };
        let en = words(crate::i18n::Lang::En);
        assert_eq!(en["viewer-step"], "Step {step} of {last}");
        assert_eq!(en["viewer-cards"], "{n} cards");
        assert_eq!(en["viewer-cards#one"], "1 card");
        assert_eq!(en["viewer-back"], "\u{25c0} Back");
        let zh = words(crate::i18n::Lang::Zh);
        assert_eq!(zh["viewer-cards"], "{n} 张牌");
        assert_eq!(zh["viewer-guandan-tribute"], "进贡");
    }

    #[test]
    fn a_view_is_omniscient_or_a_seat_of_the_match() {
        assert_eq!(parse_view(None, 3).unwrap(), Viewer::Omniscient);
        assert_eq!(
            parse_view(Some("omniscient"), 3).unwrap(),
            Viewer::Omniscient
        );
        assert_eq!(
            parse_view(Some("seat:2"), 3).unwrap(),
            Viewer::Seat(Seat(2))
        );
        for bad in ["seat:3", "seat:", "seat:-1", "spectator", "2"] {
            assert!(
                matches!(parse_view(Some(bad), 3), Err(Error::BadRequest(_))),
                "{bad}"
            );
        }
    }
}

//! The replay viewer's frames: a finished match's replay rebuilt step by step for one viewer;
//! nothing before the end.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use croupier_games::{GameId, Recorder, Seat};
use serde_json::{json, Value};
use uuid::Uuid;

use super::{attach_blob, finish, one_game_doc, play_out, FirstMatch, League, Result3};
use crate::helpers::TestApp;

/// A real No Thanks game between built-in bots, with a refused move and a fault on the way,
/// as the worker's replay document (format 1); and the seat results it gives.
fn played_replay(players: &[String]) -> (Value, Vec<Result3>) {
    let mut recorder = Recorder::new(GameId::NO_THANKS, "boardcoder", &Value::Null, 11).unwrap();
    assert!(recorder.apply(Seat(1), json!("jump")).is_err());
    recorder.fault(Seat(2), "answered off turn");
    let (replay, results) = play_out(recorder, 11);
    (one_game_doc(players, &replay), results)
}

/// A visitor, a finished No Thanks match with a real replay, and that replay document.
async fn finished_match(pool: &sqlx::PgPool) -> (TestApp, Uuid, Value) {
    let mut league = League::with_teams(pool, 3).await;
    let FirstMatch {
        match_id, players, ..
    } = league.lone_match(pool).await;
    let (doc, results) = played_replay(&players);
    finish(pool, match_id, &results, Some(&doc)).await;
    (TestApp::new(pool.clone()), match_id, doc)
}

async fn frames(app: &mut TestApp, match_id: Uuid, view: &str) -> (StatusCode, Value) {
    let page = app
        .get(&format!("/matches/{match_id}/frames.json?view={view}"))
        .await;
    let json = serde_json::from_slice(&page.bytes).unwrap_or(Value::Null);
    (page.status, json)
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_finished_matchs_frames_step_through_every_entry_to_the_stored_outcome(
    pool: sqlx::PgPool,
) {
    // Arrange
    let (mut visitor, match_id, doc) = finished_match(&pool).await;
    let entries = doc["games"][0]["replay"]["entries"].as_array().unwrap();

    // Act
    let (status, got) = frames(&mut visitor, match_id, "omniscient").await;

    // Assert
    assert_eq!(status, StatusCode::OK);
    assert_eq!(got["game"], "nothanks");
    assert_eq!(got["view"], "omniscient");
    assert_eq!(got["players"], doc["players"]);
    let frames = got["frames"].as_array().unwrap();
    assert_eq!(frames.len(), entries.len() + 1);
    assert!(frames[0]["entry"].is_null());
    assert_eq!(frames[0]["observation"]["turnnum"], 0);
    assert_eq!(frames[1]["entry"]["kind"], "refused");
    assert_eq!(frames[2]["entry"]["kind"], "fault");
    assert_eq!(
        frames[2]["entry"]["note"], "answered off turn",
        "a fault's reason is shown"
    );
    let first_move = frames[3]["entry"]["events"][0].as_str().unwrap();
    let player0 = doc["players"][0].as_str().unwrap();
    assert!(
        first_move.starts_with(player0),
        "events name the players: {first_move}"
    );
    let last = frames.last().unwrap();
    assert_eq!(last["observation"]["end"], true);
    assert_eq!(last["outcome"], doc["games"][0]["outcome"]);
    assert_eq!(got["outcome"], doc["outcome"]);
    assert!(frames[..frames.len() - 1]
        .iter()
        .all(|f| f["outcome"].is_null() && f["game"] == 0));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_seats_frames_are_what_its_bot_was_sent_and_hide_what_the_engine_hides(
    pool: sqlx::PgPool,
) {
    // Arrange
    let (mut visitor, match_id, _) = finished_match(&pool).await;

    // Act
    let (_, omniscient) = frames(&mut visitor, match_id, "omniscient").await;
    let (status, seat) = frames(&mut visitor, match_id, "seat:1").await;

    // Assert: the deck order is in the omniscient view only
    assert_eq!(status, StatusCode::OK);
    assert_eq!(seat["view"], "seat:1");
    assert!(omniscient["frames"][0]["observation"]["hidden"]["deck"].is_array());
    let seat_frames = seat["frames"].as_array().unwrap();
    assert_eq!(
        seat_frames.len(),
        omniscient["frames"].as_array().unwrap().len()
    );
    for frame in seat_frames {
        assert_eq!(frame["observation"]["viewer"], json!({ "seat": 1 }));
        assert!(frame["observation"].get("hidden").is_none());
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_unfinished_match_has_no_frames_yet(pool: sqlx::PgPool) {
    // Arrange: a scheduled match, not played
    let mut league = League::with_teams(&pool, 3).await;
    let match_id = league.lone_match(&pool).await.match_id;
    let mut visitor = TestApp::new(pool.clone());

    // Act
    let (status, body) = frames(&mut visitor, match_id, "omniscient").await;

    // Assert
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(body.get("frames").is_none());
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_unknown_match_or_a_seat_outside_the_match_is_refused(pool: sqlx::PgPool) {
    // Arrange
    let (mut visitor, match_id, _) = finished_match(&pool).await;

    // Act
    let (unknown, _) = frames(&mut visitor, Uuid::new_v4(), "omniscient").await;
    let (outside, _) = frames(&mut visitor, match_id, "seat:3").await;
    let (garbled, _) = frames(&mut visitor, match_id, "everything").await;

    // Assert
    assert_eq!(unknown, StatusCode::NOT_FOUND);
    assert_eq!(outside, StatusCode::BAD_REQUEST);
    assert_eq!(garbled, StatusCode::BAD_REQUEST);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_match_page_holds_the_viewer_and_loads_frames_on_demand(pool: sqlx::PgPool) {
    // Arrange
    let (mut visitor, match_id, _) = finished_match(&pool).await;

    // Act
    let page = visitor.get(&format!("/matches/{match_id}")).await;
    let script = visitor.get("/static/viewer/viewer.js").await;
    let board = visitor.get("/static/viewer/nothanks.js").await;

    // Assert
    page.assert_status(StatusCode::OK);
    assert!(page.body.contains(&format!(
        r#"<div id="replay" data-frames-url="/matches/{match_id}/frames.json" data-game="nothanks">"#
    )));
    assert!(page
        .body
        .contains(r#"<script src="/static/viewer/viewer.js" defer></script>"#));
    // (The viewer's words hold the word "observation", never a frame's `"observation":`.)
    assert!(
        !page.body.contains("\"observation\":"),
        "frames are not in the page"
    );
    script.assert_status(StatusCode::OK);
    assert!(script.body.contains("data-seat-score"));
    board.assert_status(StatusCode::OK);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_text_timeline_says_fault_in_words_not_only_in_red(pool: sqlx::PgPool) {
    // Arrange: a match whose third entry is a fault
    let (mut visitor, match_id, _) = finished_match(&pool).await;

    // Act
    let page = visitor.get(&format!("/matches/{match_id}")).await;
    let script = visitor.get("/static/viewer/viewer.js").await;

    // Assert: the timeline's fault row and the viewer's fault entry both carry the word
    page.assert_status(StatusCode::OK);
    let row = page
        .body
        .split("<li class=\"fault\"")
        .nth(1)
        .and_then(|r| r.split("</li>").next())
        .unwrap_or_else(|| panic!("no fault row:\n{}", page.body));
    assert!(
        row.contains("<strong>Fault:</strong>") && row.contains("answered off turn"),
        "{row}"
    );
    assert!(script.body.contains(r#""Fault, {who}: {note}""#));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_page_of_a_huge_match_stays_under_150_kb(pool: sqlx::PgPool) {
    // Arrange: 5000 long entries and 3000 long log lines, more than any real match
    let mut league = League::with_teams(&pool, 3).await;
    let match_id = league.lone_match(&pool).await.match_id;
    let long = "{\"cards\": [\"H2\", \"S3\"], \"type\": \"Pair\"} ".repeat(12);
    let entries: Vec<Value> = (0..5000)
        .map(|i| json!({ "entry": "fault", "seat": i % 3, "reason": long }))
        .collect();
    let transcript: Vec<Value> = (0..3000)
        .map(|i| json!({ "at_ms": i, "seat": 0, "direction": "to_bot", "text": long }))
        .collect();
    let doc = json!({
        "format": 1,
        "players": ["a", "b", "c"],
        "games": [{ "replay": { "game": "nothanks", "rules": "boardcoder", "settings": {},
                                "seed": 1, "entries": entries, "outcome": null },
                    "outcome": null }],
        "transcript": transcript,
        "transcript_truncated": false,
        "wall_ms": 1
    });
    let results: Vec<Result3> = (1..=3).map(|r| (r, f64::from(r), "ok")).collect();
    finish(&pool, match_id, &results, Some(&doc)).await;
    let mut visitor = TestApp::new(pool.clone());

    // Act
    let page = visitor.get(&format!("/matches/{match_id}")).await;

    // Assert
    page.assert_status(StatusCode::OK);
    assert!(
        page.bytes.len() < 150_000,
        "the page is {} bytes",
        page.bytes.len()
    );
    page.assert_shows("entries are listed here; the board above steps through all of them");
    page.assert_shows("of 3000 lines are shown");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_seats_own_moves_reach_its_team_with_its_view_and_nobody_else(pool: sqlx::PgPool) {
    // Arrange: a finished match whose Owls seat has move records
    let mut league = League::with_teams(&pool, 3).await;
    let FirstMatch {
        match_id,
        seats,
        players,
        ..
    } = league.lone_match(&pool).await;
    let (doc, results) = played_replay(&players);
    finish(&pool, match_id, &results, Some(&doc)).await;
    let owls = league.entrants[0].submission_id;
    let seat = seats.iter().position(|s| *s == owls).expect("Owls sit");
    let moves = json!([
        { "game": 0, "entry": 4, "ms": 12, "peak_kib": 9412, "stderr": "owls: I take it\n" },
        { "game": 0, "entry": 7, "ms": 3, "peak_kib": 9500 }
    ]);
    let bytes = serde_json::to_vec(&moves).unwrap();
    attach_blob(&pool, match_id, seat, "move_log_sha256", &bytes).await;
    let view = format!("seat:{seat}");
    let mut visitor = TestApp::new(pool.clone());

    // Act
    let (_, owner) = frames(&mut league.entrants[0].app, match_id, &view).await;
    let (_, owner_omniscient) = frames(&mut league.entrants[0].app, match_id, "omniscient").await;
    let (_, admin) = frames(&mut league.admin, match_id, &view).await;
    let (_, other) = frames(&mut league.entrants[1].app, match_id, &view).await;
    let (_, anonymous) = frames(&mut visitor, match_id, &view).await;
    let log_path = format!("/matches/{match_id}/seats/{seat}/log.txt");
    let log = league.entrants[0].app.get(&log_path).await;

    // Assert: the records for the team (and admins) with the seat's view only
    assert_eq!(owner["moves"], moves);
    assert_eq!(admin["moves"], moves);
    for (who, got) in [
        ("the omniscient view", &owner_omniscient),
        ("another team", &other),
        ("a visitor", &anonymous),
    ] {
        assert!(got["frames"].is_array(), "{who} sees the frames");
        assert!(got.get("moves").is_none(), "{who} gets no move records");
    }
    log.assert_status(StatusCode::OK);
    assert!(
        log.body
            .contains("# game 1 entry 4: 12 ms, 9412 KiB\n    owls: I take it\n"),
        "{}",
        log.body
    );
    assert!(log.body.contains("# game 1 entry 7: 3 ms, 9500 KiB\n"));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn frames_are_gzipped_for_a_browser_that_accepts_it(pool: sqlx::PgPool) {
    // Arrange
    let (mut visitor, match_id, _) = finished_match(&pool).await;
    let path = format!("/matches/{match_id}/frames.json?view=omniscient");

    // Act
    let plain = visitor.get(&path).await;
    let gzip = Request::get(&path).header(header::ACCEPT_ENCODING, "gzip");
    let gzipped = visitor.send(gzip.body(Body::empty()).unwrap()).await;

    // Assert
    assert!(plain.headers.get(header::CONTENT_ENCODING).is_none());
    assert_eq!(gzipped.headers[header::CONTENT_ENCODING], "gzip");
    assert!(
        gzipped.bytes.len() * 4 < plain.bytes.len(),
        "{} gzipped bytes for {} plain ones",
        gzipped.bytes.len(),
        plain.bytes.len()
    );
}

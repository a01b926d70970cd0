//! A measurement, not a check (`scripts/bench/match-page`): the match page and the viewer's
//! `frames.json` of the largest match there is — two long Guandan games of the built-in
//! heuristic bots (the two longest of eight seeds: about 5,000 replay entries, 1 MB of replay) — timed in the server's handler
//! (in-process requests, no network), 15 requests each, median and extremes printed.

use std::time::Instant;

use axum::body::Body;
use axum::http::{header, Request};
use croupier_games::{GameId, Recorder, Replay};
use serde_json::{json, Value};

use super::{finish, play_out, League, Result3};
use crate::helpers::TestApp;

/// A whole Guandan game from `seed`, every seat played by the first built-in bot (heuristic).
fn long_game(seed: u64) -> Replay {
    let recorder = Recorder::new(GameId::GUANDAN, "platform", &Value::Null, seed).unwrap();
    play_out(recorder, seed).0
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
#[ignore = "a measurement, not a check: scripts/bench/match-page"]
async fn the_largest_match_page_and_its_frames_timed(pool: sqlx::PgPool) {
    let mut league = League::with_teams(&pool, 3).await;
    let match_id = league.lone_match(&pool).await.match_id;
    let mut games: Vec<Replay> = (1..=8).map(long_game).collect();
    games.sort_by_key(|r| std::cmp::Reverse(r.entries.len()));
    games.truncate(2);
    let entries: usize = games.iter().map(|r| r.entries.len()).sum();
    let docs: Vec<Value> = games
        .iter()
        .map(|r| json!({ "replay": r, "outcome": r.fair_outcome() }))
        .collect();
    let doc = json!({
        "format": 1,
        "players": ["a", "b", "c", "d"],
        "games": docs,
        "outcome": games[0].fair_outcome(),
        "transcript": [],
        "transcript_truncated": false,
        "wall_ms": 1
    });
    let replay_bytes = serde_json::to_vec(&doc).unwrap().len();
    let results: Vec<Result3> = (1..=3).map(|r| (r, f64::from(r), "ok")).collect();
    finish(&pool, match_id, &results, Some(&doc)).await;
    let mut app = TestApp::new(pool.clone());
    println!("match-page: {entries} entries, {replay_bytes} bytes of replay");
    for (name, path, gzip) in [
        ("match page", format!("/matches/{match_id}"), false),
        (
            "frames.json omniscient",
            format!("/matches/{match_id}/frames.json?view=omniscient"),
            false,
        ),
        (
            "frames.json omniscient, gzip",
            format!("/matches/{match_id}/frames.json?view=omniscient"),
            true,
        ),
        (
            "frames.json seat:0, gzip",
            format!("/matches/{match_id}/frames.json?view=seat:0"),
            true,
        ),
    ] {
        let mut ms = Vec::new();
        let mut last = None;
        for _ in 0..15 {
            let mut request = Request::get(&path);
            if gzip {
                request = request.header(header::ACCEPT_ENCODING, "gzip");
            }
            let t0 = Instant::now();
            let page = app.send(request.body(Body::empty()).unwrap()).await;
            ms.push(t0.elapsed().as_secs_f64() * 1000.0);
            last = Some(page);
        }
        let page = last.unwrap();
        page.assert_status(axum::http::StatusCode::OK);
        ms.sort_by(f64::total_cmp);
        println!(
            "match-page: {name}: {} bytes, median {:.1} ms (min {:.1}, max {:.1})",
            page.bytes.len(),
            ms[ms.len() / 2],
            ms[0],
            ms[ms.len() - 1]
        );
    }
}

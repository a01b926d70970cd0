//! The match page: public result and timeline; stderr and timings for the seat's team only.

use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;
use uuid::Uuid;

use super::{attach_blob, finish, one_game_doc, play_out, FirstMatch, League, Result3};
use crate::helpers::TestApp;

/// A replay document as the worker stores it (format 1), for a short No Thanks game.
fn replay(players: &[String]) -> Value {
    let event = |text: &str| json!({ "json": {}, "text": text });
    json!({
        "format": 1,
        "players": players,
        "games": [{
            "replay": {
                "game": "nothanks", "rules": "boardcoder", "settings": {}, "seed": 11,
                "entries": [
                    { "entry": "move", "seat": 0, "action": "pass",
                      "events": [event("seat 0 passes on 23 (0 coins on it)")] },
                    { "entry": "refused", "seat": 1, "action": "jump",
                      "error": { "kind": "unreadable", "reason": "expected pass or pick" } },
                    { "entry": "move", "seat": 1, "action": "pick",
                      "events": [event("seat 1 picks 23 with 1 coin"), event("7 is turned up (20 cards left in the deck)")] },
                    { "entry": "fault", "seat": 2, "reason": "answered off turn" }
                ],
                "outcome": null
            },
            "outcome": null
        }],
        "transcript": [],
        "transcript_truncated": false,
        "wall_ms": 42
    })
}

/// A finished match with a replay, and Owls' seat's stderr; the match id and Owls' seat.
async fn played_match(pool: &PgPool, league: &mut League) -> (Uuid, usize) {
    let FirstMatch {
        match_id,
        seats,
        players,
        ..
    } = league.lone_match(pool).await;
    let results: Vec<Result3> = (1..=3).map(|r| (r, f64::from(10 * r), "ok")).collect();
    finish(pool, match_id, &results, Some(&replay(&players))).await;
    let owls_seat = seats
        .iter()
        .position(|s| league.team_of(*s) == "Owls")
        .unwrap();
    let stderr = b"owls thinking: card 23 looks cheap".as_slice();
    attach_blob(pool, match_id, owls_seat, "stderr_sha256", stderr).await;
    (match_id, owls_seat)
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn anyone_can_read_a_finished_match_with_its_result_and_replay_timeline(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let (match_id, _) = played_match(&pool, &mut league).await;
    let mut visitor = TestApp::new(pool.clone());

    // Act
    let page = visitor.get(&format!("/matches/{match_id}")).await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows("Spring cup");
    page.assert_shows("1st");
    page.assert_shows("played to the end");
    let seats: Vec<Uuid> = sqlx::query_scalar(
        "select submission_id from match_seat where match_id = $1 order by seat",
    )
    .bind(match_id)
    .fetch_all(&pool)
    .await
    .unwrap();
    let name = |seat: usize| format!("{}-v1", league.team_of(seats[seat]));
    page.assert_shows(&format!("{} passes on 23 (0 coins on it)", name(0)));
    page.assert_shows(&format!(
        "{} tried \"jump\": refused, unreadable action: expected pass or pick",
        name(1)
    ));
    page.assert_shows(&format!("{} picks 23 with 1 coin", name(1)));
    page.assert_shows("7 is turned up (20 cards left in the deck)");
    page.assert_shows(&format!("{}: answered off turn", name(2)));
    assert!(
        !page.body.contains("owls thinking"),
        "stderr leaked to a visitor"
    );
    assert!(!page.body.contains("Your bot's logs"));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_seats_stderr_and_move_times_are_shown_to_its_team_and_admins_only(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let (match_id, owls_seat) = played_match(&pool, &mut league).await;
    let path = format!("/matches/{match_id}");

    // Act
    let owls = league.entrants[0].app.get(&path).await;
    let bats = league.entrants[1].app.get(&path).await;
    let admin = league.admin.get(&path).await;

    // Assert: Owls see their own seat only
    owls.assert_status(StatusCode::OK);
    owls.assert_shows("owls thinking: card 23 looks cheap");
    owls.assert_shows(&format!("Seat {owls_seat} · Owls v1"));
    owls.assert_shows("min 5 ms · median 7 ms · max 9 ms");
    owls.assert_shows("5, 9, 7");
    assert!(!owls.body.contains("Bats v1</h3>") && !owls.body.contains("Cats v1</h3>"));

    // Assert: Bats see the public page, but never Owls' stderr
    bats.assert_status(StatusCode::OK);
    bats.assert_shows("Bats v1</h3>");
    assert!(
        !bats.body.contains("owls thinking"),
        "another team's stderr leaked"
    );
    assert!(!bats.body.contains("Owls v1</h3>"));

    // Assert: the admin sees every seat
    admin.assert_shows("owls thinking: card 23 looks cheap");
    for team in ["Owls", "Bats", "Cats"] {
        admin.assert_shows(&format!("{team} v1</h3>"));
    }
}

/// The same short game with the events' machine form, as the engine records them.
fn replay_with_events(players: &[String]) -> Value {
    let mut doc = replay(players);
    let entries = &mut doc["games"][0]["replay"]["entries"];
    entries[0]["events"][0]["json"] =
        json!({ "event": "passed", "seat": 0, "card": 23, "coins_on_card": 0 });
    entries[2]["events"][0]["json"] =
        json!({ "event": "picked", "seat": 1, "card": 23, "coins": 1 });
    entries[2]["events"][1]["json"] = json!({ "event": "revealed", "card": 7, "deck_left": 20 });
    doc
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_finished_match_reads_in_chinese_with_the_games_own_words(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let FirstMatch {
        match_id, players, ..
    } = league.lone_match(&pool).await;
    let results: Vec<Result3> = (1..=3).map(|r| (r, f64::from(10 * r), "ok")).collect();
    finish(
        &pool,
        match_id,
        &results,
        Some(&replay_with_events(&players)),
    )
    .await;
    let mut visitor = TestApp::new(pool.clone());
    visitor
        .get(&format!("/lang/zh-CN?next=/matches/{match_id}"))
        .await;

    // Act
    let page = visitor.get(&format!("/matches/{match_id}")).await;

    // Assert: the page is in Chinese, its labels too
    page.assert_status(StatusCode::OK);
    assert!(page.body.contains(r#"<html lang="zh-CN""#), "{}", page.body);
    page.assert_shows("结果");
    page.assert_shows("第 1 名");
    page.assert_shows("正常打完");
    page.assert_shows("已结束");
    page.assert_shows("文字时间线");
    page.assert_lacks("Text timeline");
    // Assert: the timeline says the game's moves with No Thanks' words, the players named
    page.assert_shows(&format!("{} 不要 23（牌上现有 0 个筹码）", players[0]));
    page.assert_shows(&format!("{} 拿走 23 和 1 个筹码", players[1]));
    page.assert_shows("翻开 7（牌堆还剩 20 张）");
    // Assert: the replay viewer's script gets its words in Chinese, escaped for a script
    assert!(page
        .body
        .contains(r#"<script type="application/json" class="croupier-words">"#));
    assert!(
        page.body.contains("\"viewer-back\":\"◀ 后退\""),
        "{}",
        page.body
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_unknown_match_is_404(pool: PgPool) {
    let mut visitor = TestApp::new(pool);
    visitor
        .get(&format!("/matches/{}", Uuid::new_v4()))
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_count_of_one_reads_in_the_singular_on_the_match_page(pool: PgPool) {
    // Arrange: a real No Thanks game whose first card is passed once, then taken with its 1 coin
    use croupier_games::{GameId, Recorder, Turn};
    let mut league = League::with_teams(&pool, 3).await;
    let FirstMatch {
        competition_id,
        match_id,
        players,
        ..
    } = league.lone_match(&pool).await;
    let game = GameId::NO_THANKS;
    let mut recorder = Recorder::new(game, "boardcoder", &Value::Null, 11).unwrap();
    for action in ["pass", "pick"] {
        let Turn::Seat(seat) = recorder.game().turn() else {
            panic!("the game ended at once")
        };
        recorder.apply(seat, json!(action)).unwrap();
    }
    let (replay, results) = play_out(recorder, 11);
    let doc = one_game_doc(&players, &replay);
    finish(&pool, match_id, &results, Some(&doc)).await;

    // Act
    let page = TestApp::new(pool.clone())
        .get(&format!("/matches/{match_id}"))
        .await;
    let progress = league
        .admin
        .get(&format!("/competitions/{competition_id}"))
        .await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows("(1 coin on it)");
    page.assert_shows(" with 1 coin");
    page.assert_lacks(" 1 coins");
    page.assert_lacks("(1 coins");
    progress.assert_shows("3 entries · 1 round ·");
    progress.assert_lacks("round(s)");
}

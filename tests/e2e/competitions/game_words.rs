//! Pages that speak each game's language, read from the game registry: a cooperative game's
//! leaderboard (Hanabi: no second mean-score column, no always-zero wins), places in games of
//! two partnerships (Guandan: the losers are 2nd, not 3rd), Bridge's seats (N, E, S, W) and
//! boards, and a single Bridge table that decides nothing by itself.

use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::{finish, schedule, League, Result3};
use crate::helpers::Page;

/// The `<thead>` of the first table on the page whose class is `class`.
fn head_of<'a>(page: &'a Page, class: &str) -> &'a str {
    let table = page
        .body
        .find(&format!(r#"<table class="{class}">"#))
        .unwrap_or_else(|| panic!("no table {class}:\n{}", page.body));
    let rest = &page.body[table..];
    let end = rest.find("</thead>").expect("a thead");
    &rest[..end]
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_hanabi_leaderboard_shows_what_a_cooperative_score_means_once(pool: PgPool) {
    // Arrange: two self-play entrants, one match each (every seat shares the score)
    let mut league = League::of_game(&pool, "hanabi", 2).await;
    let competition_id = league.create_of("hanabi").await;
    for (match_id, seats) in schedule(&pool, competition_id).await {
        let score = if league.team_of(seats[0]) == "Owls" {
            25.0
        } else {
            17.0
        };
        let results: Vec<Result3> = seats.iter().map(|_| (1, score, "ok")).collect();
        finish(&pool, match_id, &results, None).await;
    }

    // Act
    let page = league
        .admin
        .get(&format!("/competitions/{competition_id}/leaderboard"))
        .await;

    // Assert: mean score once (the metric, with its interval), games, best score; no wins, no
    // rating (the scheme has none)
    page.assert_status(StatusCode::OK);
    let head = head_of(&page, "board").to_lowercase();
    assert_eq!(head.matches(">mean score<").count(), 1, "{head}");
    assert!(head.contains(">games<"), "{head}");
    assert!(head.contains("95% ci"), "{head}");
    assert!(head.contains("best score"), "{head}");
    assert!(!head.contains(">wins<"), "{head}");
    assert!(!head.contains(">rating<"), "{head}");
    page.assert_shows(r#"<td class="num wide-only">25</td>"#);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_no_thanks_leaderboard_keeps_its_mean_score_wins_and_rating(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("1").await;
    let (first, _) = schedule(&pool, competition_id).await.remove(0);
    let ranks: Vec<Result3> = (1..=3).map(|r| (r, f64::from(r), "ok")).collect();
    finish(&pool, first, &ranks, None).await;

    // Act
    let page = league
        .admin
        .get(&format!("/competitions/{competition_id}/leaderboard"))
        .await;

    // Assert
    let head = head_of(&page, "board").to_lowercase();
    for column in ["rank points", "mean score", ">wins<", ">rating<"] {
        assert!(head.contains(column), "{column}: {head}");
    }
    assert!(!head.contains("best score"), "{head}");
}

/// A one-round pair competition of `game` between Owls and Bats: its two matches (Owls in
/// seats 0 and 2 in the first).
async fn pair_matches(pool: &PgPool, game: &str) -> (League, Uuid, Vec<(Uuid, Vec<Uuid>)>) {
    let mut league = League::of_game(pool, game, 2).await;
    let competition_id = league.create_of(game).await;
    let matches = schedule(pool, competition_id).await;
    assert_eq!(matches.len(), 2);
    (league, competition_id, matches)
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn in_guandan_the_losing_pair_is_second_and_a_draw_is_shared_first(pool: PgPool) {
    // Arrange: match 1 won by the pair in seats 0+2 (the engine ranks the losers 3rd, after
    // the two winners), match 2 drawn
    let (mut league, competition_id, matches) = pair_matches(&pool, "guandan").await;
    let won: Vec<Result3> = vec![
        (1, 1.0, "ok"),
        (3, 0.0, "ok"),
        (1, 1.0, "ok"),
        (3, 0.0, "ok"),
    ];
    finish(&pool, matches[0].0, &won, None).await;
    let drawn: Vec<Result3> = vec![(1, 0.5, "ok"); 4];
    finish(&pool, matches[1].0, &drawn, None).await;
    let loser = matches[0].1[1];

    // Act
    let match_page = league
        .admin
        .get(&format!("/matches/{}", matches[0].0))
        .await;
    let drawn_page = league
        .admin
        .get(&format!("/matches/{}", matches[1].0))
        .await;
    let progress = league
        .admin
        .get(&format!("/competitions/{competition_id}"))
        .await;
    let mine = league.admin.get(&format!("/submissions/{loser}")).await;

    // Assert
    match_page.assert_status(StatusCode::OK);
    assert_eq!(
        match_page
            .body
            .matches(r#"<td class="num">1st</td>"#)
            .count(),
        2
    );
    assert_eq!(
        match_page
            .body
            .matches(r#"<td class="num">2nd</td>"#)
            .count(),
        2
    );
    assert_eq!(
        drawn_page
            .body
            .matches(r#"<td class="num">1st</td>"#)
            .count(),
        4
    );
    progress.assert_shows("· 2nd · 0");
    mine.assert_status(StatusCode::OK);
    mine.assert_shows(r#"<td class="num">2nd</td>"#);
    for page in [&match_page, &drawn_page, &progress, &mine] {
        page.assert_lacks("3rd");
    }
}

/// A Bridge replay document of two boards (format 1), with the events' own texts.
fn bridge_replay(players: &[String]) -> serde_json::Value {
    let event = |text: &str| json!({ "json": {}, "text": text });
    let board = |n: u64| {
        json!({
            "replay": {
                "game": "bridge", "rules": "duplicate", "settings": {}, "seed": n,
                "entries": [
                    { "entry": "move", "seat": 2, "action": "pass",
                      "events": [event("seat 2 passes"), event("declarer took 1 trick; N-S score 0")] }
                ],
                "outcome": null
            },
            "outcome": null
        })
    };
    json!({
        "format": 1,
        "players": players,
        "games": [board(1), board(2)],
        "transcript": [],
        "transcript_truncated": false,
        "wall_ms": 42
    })
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn bridge_pages_name_seats_n_e_s_w_and_boards_and_a_table_alone_shows_no_place(pool: PgPool) {
    // Arrange: both tables of the duplicate set made 340 for North-South: 0 IMPs
    let (mut league, competition_id, matches) = pair_matches(&pool, "bridge").await;
    for (match_id, seats) in &matches {
        let players: Vec<String> = seats
            .iter()
            .map(|s| format!("{}-v1", league.team_of(*s)))
            .collect();
        let table: Vec<Result3> = vec![
            (1, 340.0, "ok"),
            (2, -340.0, "ok"),
            (1, 340.0, "ok"),
            (2, -340.0, "ok"),
        ];
        finish(&pool, *match_id, &table, Some(&bridge_replay(&players))).await;
        sqlx::query(
            "update seat_result set game_scores = case when seat % 2 = 0 then '{340}'::bigint[] else '{-340}'::bigint[] end where match_id = $1",
        )
        .bind(match_id)
        .execute(&pool)
        .await
        .unwrap();
    }
    let owls = league.entrants[0].submission_id;

    // Act
    let match_page = league
        .admin
        .get(&format!("/matches/{}", matches[0].0))
        .await;
    let progress = league
        .admin
        .get(&format!("/competitions/{competition_id}"))
        .await;
    let mine = league.admin.get(&format!("/submissions/{owls}")).await;

    // Assert: seats N, E, S, W; boards, not games; no "1st · 340" for a table worth 0 IMPs
    match_page.assert_status(StatusCode::OK);
    for seat in ["N", "E", "S", "W"] {
        match_page.assert_shows(&format!(">{seat}</td>"));
    }
    match_page.assert_shows("<h3>Board 1</h3>");
    match_page.assert_shows("<h3>Board 2</h3>");
    match_page.assert_lacks("Game 1");
    match_page.assert_shows("S (");
    match_page.assert_shows("declarer took 1 trick;");
    let (north, east) = (
        league.team_of(matches[0].1[0]),
        league.team_of(matches[0].1[1]),
    );
    match_page.assert_shows(&format!(
        "With match #2 this table makes a duplicate set: {north} v1 0 IMPs, {east} v1 0 IMPs."
    ));
    match_page.assert_lacks("1st");
    progress.assert_shows(r#"<span class="seat-name" title="seat">N</span>"#);
    progress.assert_shows("· 340 points");
    progress.assert_lacks("1st");
    mine.assert_status(StatusCode::OK);
    assert!(
        mine.body.contains(r#"<td class="num">N</td>"#)
            || mine.body.contains(r#"<td class="num">E</td>"#),
        "{}",
        mine.body
    );
    mine.assert_lacks("1st");
}

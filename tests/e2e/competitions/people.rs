//! A person's seat through the HTML forms alone (no JavaScript): "Play against bots" starts an
//! unrated one-match challenge with the person in the chosen seat; the seat's page shows the
//! turn the worker asked (written here as the worker's desk writes it) with the legal moves as
//! a form; a chosen move is taken once, for its turn only, before the deadline and only from
//! the list; nobody else — admins included — sees the seat. The API refuses tables that
//! cannot be (two people, several games, an absurd clock).

use axum::http::{Method, StatusCode};
use croupier_store::humans::{self, Ask};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::League;
use crate::helpers::{csrf_in, user_id, Page, TestApp, PASSWORD};

/// The match the form created, from the seat page it redirected to.
fn match_of(location: &str) -> Uuid {
    let id = location
        .strip_prefix("/matches/")
        .and_then(|rest| rest.strip_suffix("/play"))
        .unwrap_or_else(|| panic!("redirected to the seat's page, not {location}"));
    id.parse().expect("a match id")
}

/// Sits the member at seat 0 of a one-match table in competition `c` against two built-ins,
/// through the "Play against bots" form; returns the match.
async fn sit_down(app: &mut TestApp, c: Uuid, team: Uuid) -> Uuid {
    let form = app.get(&format!("/competitions/{c}/play")).await;
    let csrf = csrf_in(&form.text());
    let team = team.to_string();
    let fields = [
        ("csrf", csrf.as_str()),
        ("team_id", &team),
        ("move_secs", "60"),
        ("seat_0", "you"),
        ("seat_1", "builtin:random"),
        ("seat_2", "builtin:random"),
    ];
    let started = app
        .post_form(&format!("/competitions/{c}/play"), &fields)
        .await;
    match_of(started.location().expect("a redirect"))
}

/// The worker's desk asking turn `turn` with two legal moves.
async fn ask(pool: &PgPool, match_id: Uuid, turn: i32, secs: f64) {
    let observation = json!({"coins": 11, "card": 27});
    let legal = json!([{"action_type": "pick"}, {"action_type": "pass"}]);
    let recent = json!([{"n": 1, "seat": 1, "kind": "move", "action": {"action_type": "pass"},
                         "events": ["seat 1 passes"], "forced": false}]);
    let turn = Ask {
        match_id,
        seat: 0,
        turn,
        game: 0,
        observation: &observation,
        legal: &legal,
        recent: &recent,
        secs,
    };
    humans::ask(pool, &turn).await.expect("the turn is written");
}

/// Sends the seat's move form: `move` index `index` for turn `turn`.
async fn send_move(app: &mut TestApp, match_id: Uuid, csrf: &str, turn: &str, index: &str) -> Page {
    let fields = [("csrf", csrf), ("turn", turn), ("move", index)];
    app.post_form(&format!("/matches/{match_id}/play"), &fields)
        .await
}

/// The answer the worker reads for turn `turn` of seat 0.
async fn answer(pool: &PgPool, match_id: Uuid, turn: i32) -> Option<i32> {
    humans::answer_of(pool, match_id, 0, turn)
        .await
        .expect("read")
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_person_takes_a_seat_and_plays_through_forms(pool: PgPool) {
    // Arrange: a competition; alice (Owls) opens "Play against bots"
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let alice = &mut league.entrants[0];
    let form = alice.app.get(&format!("/competitions/{c}/play")).await;
    form.assert_status(StatusCode::OK);
    form.assert_shows("Seat 0");
    let csrf = csrf_in(&form.text());
    let team = alice.team_id.to_string();
    let kit = format!("submission:{}", alice.submission_id);

    // A table without "You" is refused, the choices kept
    let refused = alice
        .app
        .post_form(
            &format!("/competitions/{c}/play"),
            &[
                ("csrf", &csrf),
                ("team_id", &team),
                ("move_secs", "60"),
                ("seat_0", &kit),
                ("seat_1", "builtin:random"),
                ("seat_2", "builtin:random"),
            ],
        )
        .await;
    refused.assert_status(StatusCode::BAD_REQUEST);
    refused.assert_shows("for one seat: this form seats you");

    // Act: alice sits in seat 0 with her bot and a built-in
    let started = alice
        .app
        .post_form(
            &format!("/competitions/{c}/play"),
            &[
                ("csrf", &csrf),
                ("team_id", &team),
                ("move_secs", "60"),
                ("seat_0", "you"),
                ("seat_1", &kit),
                ("seat_2", "builtin:random"),
            ],
        )
        .await;
    let match_id = match_of(started.location().expect("a redirect"));
    let waiting = alice.app.get(&format!("/matches/{match_id}/play")).await;

    // Assert: an unrated one-match challenge with alice at seat 0, waiting for a worker
    waiting.assert_status(StatusCode::OK);
    waiting.assert_shows("the match waits for a worker");
    let (user, secs, competition, challenge): (
        Option<Uuid>,
        Option<i32>,
        Option<Uuid>,
        Option<Uuid>,
    ) = sqlx::query_as(
        "select ms.user_id, ms.human_move_secs, m.competition_id, m.challenge_id
             from match_seat ms join match m using (match_id) where match_id = $1 and seat = 0",
    )
    .bind(match_id)
    .fetch_one(&pool)
    .await
    .expect("the seat");
    assert_eq!(user, Some(user_id(&pool, "alice").await));
    assert_eq!(secs, Some(60));
    assert!(competition.is_none() && challenge.is_some(), "unrated");
    let limits_of = croupier_store::challenges::settings_competition(&pool, match_id).await;
    assert_eq!(
        limits_of.unwrap(),
        Some(c),
        "played with its competition's limits"
    );

    // Act: the worker asks turn 1; alice sees it and picks "pass" through the form
    ask(&pool, match_id, 1, 60.0).await;
    let page = alice.app.get(&format!("/matches/{match_id}/play")).await;
    page.assert_shows("Your turn");
    page.assert_shows("Owls v1 passes");
    page.assert_shows("value=\"1\" data-move=\"1\">pass</button>");
    let csrf = csrf_in(&page.text());
    let sent = send_move(&mut alice.app, match_id, &csrf, "1", "1").await;

    // Assert: taken for turn 1 (the worker reads 1), the page waits for the others
    sent.assert_redirect(&format!("/matches/{match_id}/play"));
    assert_eq!(answer(&pool, match_id, 1).await, Some(1));
    alice
        .app
        .get(&format!("/matches/{match_id}/play"))
        .await
        .assert_shows("your move is in");

    // A second answer (a double click), a stale turn and a forged index change nothing
    let again = send_move(&mut alice.app, match_id, &csrf, "1", "0").await;
    again.assert_redirect(&format!("/matches/{match_id}/play"));
    assert_eq!(answer(&pool, match_id, 1).await, Some(1));
    ask(&pool, match_id, 2, 60.0).await;
    for (turn, index) in [("1", "0"), ("2", "7"), ("2", "-1")] {
        send_move(&mut alice.app, match_id, &csrf, turn, index).await;
        assert_eq!(answer(&pool, match_id, 2).await, None, "{turn}/{index}");
    }
    // Past the deadline nothing is taken either
    ask(&pool, match_id, 3, 0.0).await;
    send_move(&mut alice.app, match_id, &csrf, "3", "0").await;
    assert_eq!(answer(&pool, match_id, 3).await, None);

    // Nobody else sees the seat: another team's member, the admin, a visitor
    let bob = &mut league.entrants[1];
    bob.app
        .get(&format!("/matches/{match_id}/play"))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    bob.app
        .get(&format!("/matches/{match_id}/play.json"))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    league
        .admin
        .get(&format!("/matches/{match_id}/play"))
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_api_seats_the_caller_once_in_one_match_with_a_sane_clock(pool: PgPool) {
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let alice = &mut league.entrants[0];
    let team = alice.team_id;
    let login = json!({"username": "alice", "password": PASSWORD});
    let token = alice
        .app
        .api(Method::POST, "/api/v1/tokens", None, Some(login))
        .await;
    let token = token.json["token"].as_str().expect("a token").to_owned();
    let me = json!({"human": true});
    let bot = json!({"builtin": "random"});
    let path = format!("/api/v1/competitions/{c}/challenges");
    for (body, why) in [
        (
            json!({"team_id": team, "seats": [me, me, bot]}),
            "one seat may be yours",
        ),
        (
            json!({"team_id": team, "games": 2, "seats": [me, bot, bot]}),
            "games must be 1",
        ),
        (
            json!({"team_id": team, "human_move_secs": 1, "seats": [me, bot, bot]}),
            "human_move_secs must be 5 to 3600",
        ),
    ] {
        let reply = alice
            .app
            .api(Method::POST, &path, Some(&token), Some(body))
            .await;
        reply.assert_error(StatusCode::BAD_REQUEST, why);
    }
    let body = json!({"team_id": team, "human_move_secs": 30, "seats": [bot, me, bot]});
    let reply = alice
        .app
        .api(Method::POST, &path, Some(&token), Some(body))
        .await;
    reply.assert_status(StatusCode::CREATED);
    let matches = reply.json["match_list"].clone();
    assert_eq!(
        matches.as_array().map(Vec::len),
        Some(1),
        "one match: {matches}"
    );
    assert_eq!(matches[0]["people"], json!(["alice"]));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_seat_page_speaks_chinese_with_no_thanks_own_words(pool: PgPool) {
    // Arrange: alice, who reads Chinese, sits down at a No Thanks table and is asked a turn
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let alice = &mut league.entrants[0];
    alice.app.choose_chinese().await;
    let form = alice.app.get(&format!("/competitions/{c}/play")).await;
    form.assert_status(StatusCode::OK);
    form.assert_shows("与机器人对战");
    form.assert_shows("座位 0");
    let match_id = sit_down(&mut alice.app, c, alice.team_id).await;
    let waiting = alice.app.get(&format!("/matches/{match_id}/play")).await;
    waiting.assert_shows("对局正在等待评测机");
    let observation = json!({"coins": 11, "card": 27});
    let legal = json!(["pick", "pass"]);
    let turn = Ask {
        match_id,
        seat: 0,
        turn: 1,
        game: 0,
        observation: &observation,
        legal: &legal,
        recent: &json!([]),
        secs: 60.0,
    };
    humans::ask(&pool, &turn)
        .await
        .expect("the turn is written");

    // Act
    let page = alice.app.get(&format!("/matches/{match_id}/play")).await;

    // Assert: the page, its moves and the script's words are Chinese
    page.assert_status(StatusCode::OK);
    assert!(page.body.contains(r#"<html lang="zh-CN""#), "{}", page.body);
    page.assert_shows("你的座位");
    page.assert_shows("轮到你了");
    page.assert_shows("共 2 种合法走法，请选择一种：");
    page.assert_shows("拿牌");
    page.assert_shows("不要（放一个筹码）");
    assert!(
        page.body.contains(r#""play-seconds-left":"还剩 {n} 秒""#),
        "{}",
        page.body
    );
}

/// What the page's script reads (`play.json`): the seat's state and its turn part, taken in
/// one request, so the part shown, the status reported and the board drawn agree.
async fn read_state(app: &mut TestApp, match_id: Uuid) -> serde_json::Value {
    let page = app.get(&format!("/matches/{match_id}/play.json")).await;
    page.assert_status(StatusCode::OK);
    let state: serde_json::Value = serde_json::from_str(&page.text()).expect("json");
    let key = state["key"].as_str().expect("a key").to_owned();
    let html = state["html"].as_str().expect("the turn part");
    assert!(
        html.contains(&format!(r#"<div id="play-turn" data-key="{key}">"#)),
        "the part is of the state's moment ({key}): {html}"
    );
    state
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_scripts_state_read_carries_the_turn_part_and_status_of_the_same_moment(pool: PgPool) {
    // Arrange: alice at a table, asked turn 1
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let alice = &mut league.entrants[0];
    let match_id = sit_down(&mut alice.app, c, alice.team_id).await;
    ask(&pool, match_id, 1, 60.0).await;

    // Act + Assert: the turn, with its moves
    let asked = read_state(&mut alice.app, match_id).await;
    assert_eq!(asked["key"], "queued/1/false");
    let html = asked["html"].as_str().unwrap_or("");
    assert!(html.contains(">pass</button>"), "{html}");
    assert_eq!(asked["turn"]["observation"]["card"], 27);

    // A move refused through the form leaves a message for the page; a read in between keeps it
    let page = alice.app.get(&format!("/matches/{match_id}/play")).await;
    let csrf = csrf_in(&page.text());
    send_move(&mut alice.app, match_id, &csrf, "1", "9").await;
    read_state(&mut alice.app, match_id).await;
    let page = alice.app.get(&format!("/matches/{match_id}/play")).await;
    page.assert_shows("That is not one of the moves you may make");

    // Answered: the part says the move is in
    send_move(&mut alice.app, match_id, &csrf, "1", "0").await;
    let answered = read_state(&mut alice.app, match_id).await;
    assert_eq!(answered["key"], "queued/1/true");
    assert!(answered["html"]
        .as_str()
        .unwrap_or("")
        .contains("your move is in"));

    // The match ends: the status, its words and the part that says so come together
    sqlx::query("update match set status = 'finished', finished_at = now() where match_id = $1")
        .bind(match_id)
        .execute(&pool)
        .await
        .expect("finish");
    let ended = read_state(&mut alice.app, match_id).await;
    assert_eq!(ended["status"], "finished");
    assert_eq!(ended["status_label"], "finished");
    assert_eq!(ended["key"], "finished/1/true");
    let html = ended["html"].as_str().unwrap_or("");
    assert!(html.contains(&format!("/matches/{match_id}")), "{html}");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_person_who_resigns_has_the_first_legal_move_played_at_once_from_then_on(pool: PgPool) {
    // Arrange: alice at a running table, asked turn 1
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let alice = &mut league.entrants[0];
    let match_id = sit_down(&mut alice.app, c, alice.team_id).await;
    sqlx::query("update match set status = 'running', started_at = now() where match_id = $1")
        .bind(match_id)
        .execute(&pool)
        .await
        .expect("running");
    ask(&pool, match_id, 1, 60.0).await;
    let page = alice.app.get(&format!("/matches/{match_id}/play")).await;
    page.assert_shows("Resign");
    let csrf = csrf_in(&page.text());
    let resign = format!("/matches/{match_id}/resign");

    // Act + Assert: without ticking "yes, I resign" nothing happens
    alice
        .app
        .post_form(&resign, &[("csrf", csrf.as_str())])
        .await;
    assert_eq!(answer(&pool, match_id, 1).await, None);
    let page = alice.app.get(&format!("/matches/{match_id}/play")).await;
    page.assert_shows("tick the box first");

    // Resigned: this turn is answered with the first legal move, and so is the next one as
    // soon as it is asked, and the page says so
    let sent = alice
        .app
        .post_form(&resign, &[("csrf", csrf.as_str()), ("sure", "1")])
        .await;
    sent.assert_redirect(&format!("/matches/{match_id}/play"));
    assert_eq!(answer(&pool, match_id, 1).await, Some(0));
    ask(&pool, match_id, 2, 60.0).await;
    assert_eq!(answer(&pool, match_id, 2).await, Some(0));
    let page = alice.app.get(&format!("/matches/{match_id}/play")).await;
    page.assert_shows("You resigned");

    // Nobody else can resign the seat
    let bob = &mut league.entrants[1];
    let other = bob.app.get(&format!("/competitions/{c}/play")).await;
    let bob_csrf = csrf_in(&other.text());
    bob.app
        .post_form(&resign, &[("csrf", bob_csrf.as_str()), ("sure", "1")])
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

//! The competition pages in 简体中文: the list, a leaderboard in the game's own terms, the
//! new-competition form and an organiser's message, for a browser that prefers Chinese; and the
//! leaderboard kept for signed-out visitors stays English for an English browser.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::json;
use sqlx::PgPool;

use super::{finish, schedule, League, Result3};
use crate::helpers::{urlencode, Page, TestApp, PASSWORD};

/// `path` as a browser that prefers Chinese asks for it.
async fn get_zh(app: &mut TestApp, path: &str) -> Page {
    let request = Request::get(path)
        .header(header::ACCEPT_LANGUAGE, "zh-CN,zh;q=0.9,en;q=0.8")
        .body(Body::empty())
        .expect("request");
    app.send(request).await
}

/// Two Hanabi entrants, one finished match each; the competition's id.
async fn hanabi_played(league: &mut League, pool: &PgPool) -> uuid::Uuid {
    let competition_id = league.create_of("hanabi").await;
    for (match_id, seats) in schedule(pool, competition_id).await {
        let score = if league.team_of(seats[0]) == "Owls" {
            25.0
        } else {
            17.0
        };
        let results: Vec<Result3> = seats.iter().map(|_| (1, score, "ok")).collect();
        finish(pool, match_id, &results, None).await;
    }
    competition_id
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_chinese_browser_gets_the_list_and_the_leaderboard_in_chinese(pool: PgPool) {
    // Arrange: a finished Hanabi competition, a signed-out visitor
    let mut league = League::of_game(&pool, "hanabi", 2).await;
    let competition_id = hanabi_played(&mut league, &pool).await;
    let mut visitor = league.admin.new_visitor();

    // Act
    let list = get_zh(&mut visitor, "/competitions").await;
    let board = get_zh(
        &mut visitor,
        &format!("/competitions/{competition_id}/leaderboard"),
    )
    .await;
    let english = visitor
        .get(&format!("/competitions/{competition_id}/leaderboard"))
        .await;

    // Assert: the list in Chinese
    list.assert_status(StatusCode::OK);
    list.assert_shows(r#"<html lang="zh-CN">"#);
    list.assert_shows("<h1>排行榜</h1>");
    list.assert_shows("已结束");
    // the leaderboard's columns in Hanabi's words (平均分 is the metric), its small print too
    board.assert_status(StatusCode::OK);
    board.assert_shows(r#"<html lang="zh-CN">"#);
    board.assert_shows(">平均分<");
    board.assert_shows(">最高分<");
    board.assert_shows(">局数<");
    board.assert_shows("按平均分排名");
    board.assert_shows(r#"<td class="num wide-only">25</td>"#);
    assert!(!board.body.contains("Mean score"), "{}", board.body);
    // and an English browser still reads English (the page kept for visitors is English)
    english.assert_status(StatusCode::OK);
    english.assert_shows(r#"<html lang="en">"#);
    english.assert_shows(">mean score<");
    assert!(!english.body.contains("平均分"), "{}", english.body);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_competition_page_and_its_live_board_follow_the_language(pool: PgPool) {
    // Arrange: a finished Hanabi competition
    let mut league = League::of_game(&pool, "hanabi", 2).await;
    let competition_id = hanabi_played(&mut league, &pool).await;
    let path = format!("/competitions/{competition_id}");

    // Act
    let page = get_zh(&mut league.admin, &path).await;
    let fragment = get_zh(&mut league.admin, &format!("{path}?fragment=board")).await;
    let matches = get_zh(&mut league.admin, &format!("{path}?fragment=matches")).await;

    // Assert: the facts, the organiser's buttons, the board and the match list in Chinese
    page.assert_status(StatusCode::OK);
    page.assert_shows(r#"<html lang="zh-CN">"#);
    page.assert_shows("<dt>赛程</dt>");
    page.assert_shows("重命名、归档或删除");
    page.assert_shows("<h2>排行榜</h2>");
    page.assert_shows(">座位（名次 · 得分）<");
    fragment.assert_shows(">平均分<");
    matches.assert_shows(">已结束<");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_new_competition_form_and_an_organisers_message_are_in_chinese(pool: PgPool) {
    // Arrange: an admin and three No Thanks teams, a competition made in English
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("1").await;

    // Act: the form, and a rename, as a browser that prefers Chinese
    let form = get_zh(&mut league.admin, "/admin/competitions/new?game=nothanks").await;
    let csrf = form.csrf();
    let request = Request::post(format!("/admin/competitions/{competition_id}/rename"))
        .header(header::ACCEPT_LANGUAGE, "zh-CN")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(format!("csrf={}&name=Autumn", urlencode(&csrf))))
        .expect("request");
    let renamed = league.admin.send(request).await;
    let path = format!("/competitions/{competition_id}");
    let page = get_zh(&mut league.admin, &path).await;
    // and a refusal (resuming a round-robin that is not paused), in Chinese, then in English
    let resume = format!("/admin/competitions/{competition_id}/resume");
    let request = Request::post(&resume)
        .header(header::ACCEPT_LANGUAGE, "zh-CN")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(format!("csrf={}", urlencode(&csrf))))
        .expect("request");
    league.admin.send(request).await;
    let refused = get_zh(&mut league.admin, &path).await;
    league
        .admin
        .post_form(&resume, &[("csrf", csrf.as_str())])
        .await;
    let refused_en = league.admin.get(&path).await;

    // Assert: the form's labels in Chinese
    form.assert_status(StatusCode::OK);
    form.assert_shows(r#"<html lang="zh-CN">"#);
    form.assert_shows("<h1>新建比赛</h1>");
    form.assert_shows("规则集");
    form.assert_shows("轮数");
    form.assert_shows("参赛：可用的 No Thanks! 机器人");
    form.assert_shows(">创建并安排对局</button>");
    // the rename's message in Chinese on the page it returns to
    renamed.assert_status(StatusCode::SEE_OTHER);
    page.assert_shows("已重命名为 Autumn。");
    // the store's refusal in our words, and in English as the store says it
    refused.assert_shows("未做任何更改：比赛没有暂停。");
    refused_en.assert_shows("Nothing changed: the competition is not paused.");
}

/// A competition of `game` between `n` entrants, nothing played yet: its leaderboard, as a
/// browser that prefers Chinese sees it, names the metric `metric` (the game's own word).
async fn metric_is_named(pool: PgPool, game: &str, n: usize, metric: &str) {
    // Arrange
    let mut league = League::of_game(&pool, game, n).await;
    let competition_id = league.create_of(game).await;

    // Act
    let path = format!("/competitions/{competition_id}/leaderboard");
    let board = get_zh(&mut league.admin, &path).await;

    // Assert: the metric's column in the game's words beside the rating; the entries listed
    board.assert_status(StatusCode::OK);
    board.assert_shows(&format!(">{metric}<"));
    board.assert_shows(">评分<");
    board.assert_shows(">机器人<");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_guandan_leaderboard_counts_games_won_in_chinese(pool: PgPool) {
    metric_is_named(pool, "guandan", 2, "胜局（过A）").await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_bridge_leaderboard_counts_imps_in_chinese(pool: PgPool) {
    metric_is_named(pool, "bridge", 2, "IMP").await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_splendor_leaderboard_counts_rank_points_in_chinese(pool: PgPool) {
    metric_is_named(pool, "splendor", 3, "积分").await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_refused_form_says_why_in_chinese(pool: PgPool) {
    // Arrange: an admin and three No Thanks teams, the form as a Chinese browser sees it
    let mut league = League::with_teams(&pool, 3).await;
    let form = get_zh(&mut league.admin, "/admin/competitions/new?game=nothanks").await;
    let body = format!(
        "csrf={}&game=nothanks&shown_game=nothanks&name=Cup&rules=boardcoder&rounds=0",
        urlencode(&form.csrf())
    );

    // Act: no rounds
    let request = Request::post("/admin/competitions/new")
        .header(header::ACCEPT_LANGUAGE, "zh-CN")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .expect("request");
    let refused = league.admin.send(request).await;

    // Assert: the form again, with the reason in Chinese
    refused.assert_status(StatusCode::BAD_REQUEST);
    refused.assert_shows(r#"<html lang="zh-CN">"#);
    refused.assert_shows("轮数必须在 1 到 1000 之间，而不是 0");
    refused.assert_shows(">创建并安排对局</button>");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_challenge_page_is_in_chinese_and_its_title_is_only_its_name(pool: PgPool) {
    // Arrange: alice's team challenges two built-in bots over the API (nothing played yet)
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let alice = &mut league.entrants[0];
    let login = json!({"username": "alice", "password": PASSWORD});
    let token = alice
        .app
        .api(Method::POST, "/api/v1/tokens", None, Some(login))
        .await;
    let token = token.json["token"].as_str().expect("a token").to_owned();
    let bot = json!({"builtin": "random"});
    let me = json!({"submission_id": alice.submission_id});
    let body = json!({"team_id": alice.team_id, "games": 1, "seats": [me, bot, bot]});
    let path = format!("/api/v1/competitions/{c}/challenges");
    let reply = alice
        .app
        .api(Method::POST, &path, Some(&token), Some(body))
        .await;
    reply.assert_status(StatusCode::CREATED);
    let id = reply.json["challenge"]["challenge_id"]
        .as_str()
        .expect("an id")
        .to_owned();

    // Act
    let zh = get_zh(&mut alice.app, &format!("/challenges/{id}")).await;
    let en = alice.app.get(&format!("/challenges/{id}")).await;

    // Assert: the page in Chinese; the English title is the page's name alone
    zh.assert_status(StatusCode::OK);
    zh.assert_shows(r#"<html lang="zh-CN">"#);
    zh.assert_shows("<title>挑战 · Croupier</title>");
    zh.assert_shows(">结果</h2>");
    zh.assert_shows(">第 1 场</a>");
    zh.assert_shows("还没有已结束的对局。");
    en.assert_shows("<title>Challenge · Croupier</title>");
    en.assert_shows(">Match 1</a>");
    en.assert_shows("No finished match yet.");
}

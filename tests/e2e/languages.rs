//! The site's two languages: English and 简体中文, from the browser's `Accept-Language` on a
//! first visit, switched (and remembered) with the footer's links, never for the JSON API.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use sqlx::PgPool;

use crate::helpers::TestApp;

fn get_with_language(path: &str, accept_language: &str) -> Request<Body> {
    Request::get(path)
        .header(header::ACCEPT_LANGUAGE, accept_language)
        .body(Body::empty())
        .expect("request")
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_first_visit_gets_the_browsers_language_and_the_footer_switches_and_remembers_it(
    pool: PgPool,
) {
    let mut visitor = TestApp::new(pool);

    // A browser that prefers Chinese gets Chinese, one that prefers anything else English.
    let zh = visitor
        .send(get_with_language("/", "zh-CN,zh;q=0.9,en;q=0.8"))
        .await;
    zh.assert_status(StatusCode::OK);
    zh.assert_shows("<html lang=\"zh-CN\">");
    zh.assert_shows("排行榜");
    assert_eq!(zh.headers[header::CONTENT_LANGUAGE], "zh-CN");
    let en = visitor.send(get_with_language("/", "fr-FR,en;q=0.5")).await;
    en.assert_shows("<html lang=\"en\">");
    en.assert_shows(">Leaderboards</a>");
    en.assert_lacks("排行榜");

    // Every page's footer links the other language back to the same page.
    en.assert_shows("href=\"/lang/zh-CN?next=/\"");
    let games = visitor.get("/games?x=1").await;
    games.assert_shows("href=\"/lang/zh-CN?next=/games%3Fx%3D1\"");

    // The link sets a cookie for a year and goes back; the cookie beats the browser's wish.
    let switched = visitor.get("/lang/zh-CN?next=/games").await;
    switched.assert_redirect("/games");
    let cookie = switched.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(cookie.starts_with("lang=zh-CN;") && cookie.contains("Max-Age=31536000"));
    let page = visitor.send(get_with_language("/games", "en-US")).await;
    page.assert_shows("<html lang=\"zh-CN\">");
    page.assert_shows("<strong aria-current=\"true\" lang=\"zh-CN\">简体中文</strong>");
    visitor.get("/lang/en?next=/").await.assert_redirect("/");
    visitor.get("/").await.assert_shows("<html lang=\"en\">");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_switch_goes_back_only_to_this_site_and_refuses_unknown_languages(pool: PgPool) {
    let mut visitor = TestApp::new(pool);
    for next in [
        "//evil.example/",
        "https://evil.example/",
        "\\\\evil.example",
        "games",
    ] {
        let path = format!("/lang/zh?next={}", crate::helpers::urlencode(next));
        visitor.get(&path).await.assert_redirect("/");
    }
    visitor.get("/lang/zh").await.assert_redirect("/");
    // An unknown language is the (HTML) error page, in the language already chosen.
    let unknown = visitor.get("/lang/klingon?next=/").await;
    unknown.assert_status(StatusCode::NOT_FOUND);
    unknown.assert_shows("<html lang=\"zh-CN\">");
    unknown.assert_shows("klingon");
    unknown.assert_shows("找不到页面");
    assert!(unknown.headers.get(header::SET_COOKIE).is_none());
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn error_pages_speak_the_visitors_language_and_the_api_always_english(pool: PgPool) {
    let mut visitor = TestApp::new(pool);
    let page = visitor
        .send(get_with_language("/no/such/page", "zh-CN"))
        .await;
    page.assert_status(StatusCode::NOT_FOUND);
    page.assert_shows("<html lang=\"zh-CN\">");
    page.assert_shows("404 · 找不到页面");
    page.assert_shows("返回上一页");
    page.assert_shows("<p class=\"error\">找不到该页面或内容</p>");
    page.assert_shows("<a href=\"/\">首页</a>。");

    let api = visitor
        .send(get_with_language("/api/v1/no/such/thing", "zh-CN"))
        .await;
    api.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(api.headers[header::CONTENT_LANGUAGE], "en");
    assert!(api.body.starts_with('{'), "the API answered {}", api.body);
    assert!(!api
        .body
        .chars()
        .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
}

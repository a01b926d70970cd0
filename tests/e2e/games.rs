//! The games' pages: rules, protocol, limits and kits on the web, for a bot author who has not
//! read the repository.

use std::io::Read as _;

use axum::http::StatusCode;
use sqlx::PgPool;

use crate::helpers::TestApp;

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_game_has_a_page_with_its_rules_protocol_limits_and_kits_and_the_kits_unzip(
    pool: PgPool,
) {
    let mut visitor = TestApp::new(pool);
    let index = visitor.get("/games").await;
    index.assert_status(StatusCode::OK);
    for (id, rule, message) in [
        ("nothanks", "coins", "request_action"),
        ("splendor", "noble", "playerName"),
        ("hanabi", "hint", "onStart"),
        ("guandan", "接风", "act"),
        ("bridge", "IMP", "StepLog.txt"),
    ] {
        index.assert_shows(&format!("href=\"/games/{id}\""));
        let page = visitor.get(&format!("/games/{id}")).await;
        page.assert_status(StatusCode::OK);
        page.assert_shows(&format!("croupier play {id} --bot \"python3 {id}-python/"));
        for needle in [
            "Quick start",
            "On this platform",
            "Time per move",
            "<h2>Rules</h2>",
            "<h2>Protocol</h2>",
            rule,
            message,
        ] {
            page.assert_shows(needle);
        }
        // Every kit listed downloads as a zip whose files sit in one folder and are not empty.
        let kits: Vec<String> = page
            .body
            .match_indices(&format!("/games/{id}/kits/"))
            .map(|(at, _)| {
                let rest = &page.body[at..];
                rest[..rest.find('"').unwrap_or(rest.len())].to_owned()
            })
            .collect();
        assert!(!kits.is_empty(), "{id} lists no kit");
        for kit in kits {
            let zip = visitor.get(&kit).await;
            zip.assert_status(StatusCode::OK);
            assert_eq!(zip.headers["content-type"], "application/zip", "{kit}");
            let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip.bytes.clone()))
                .unwrap_or_else(|e| panic!("{kit} is not a zip: {e}"));
            let folder = kit
                .rsplit('/')
                .next()
                .and_then(|f| f.strip_suffix(".zip"))
                .map(|lang| format!("{id}-{lang}/"))
                .unwrap();
            assert!(archive.len() >= 2, "{kit} has {} files", archive.len());
            for i in 0..archive.len() {
                let mut file = archive.by_index(i).unwrap();
                assert!(file.name().starts_with(&folder), "{kit}: {}", file.name());
                let mut text = Vec::new();
                file.read_to_end(&mut text).unwrap();
                assert!(!text.is_empty(), "{kit}: {} is empty", file.name());
            }
        }
    }
    visitor
        .get("/games/chess")
        .await
        .assert_status(StatusCode::NOT_FOUND);
    visitor
        .get("/games/nothanks/kits/cobol.zip")
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_games_pages_speak_chinese_when_asked_and_english_stays_as_it_was(pool: PgPool) {
    let mut english = TestApp::new(pool);
    let mut chinese = english.new_visitor();
    chinese.choose_chinese().await;

    let index = english.get("/games").await;
    index.assert_shows("<h1>Games</h1>");
    index.assert_shows(
        "<p>Each game comes from a bot platform of its own; bots written for it run here \
         unchanged. A\ngame's page has its rules as played here, its protocol with example \
         messages, the limits, how\nits leaderboard ranks, and starter kits to download.</p>",
    );
    index.assert_shows(">Guandan 掼蛋</a>");
    index.assert_shows("4 seats · websocket on 127.0.0.1:23456/game/…");
    let index = chinese.get("/games").await;
    index.assert_shows("<html lang=\"zh-CN\"");
    index.assert_shows("<h1>游戏</h1>");
    index.assert_shows(">花火（Hanabi）</a>");
    index.assert_shows("4 个座位 · websocket");

    let page = english.get("/games/hanabi").await;
    page.assert_shows("<html lang=\"en\"");
    page.assert_shows("<h1>Hanabi</h1>");
    page.assert_shows(
        "<li>Play it on your machine against the built-in bots with the <code>croupier</code> \
         command\n      (one file, no Rust needed: <a class=\"in-text\" href=\"/download\">download the \
         runner</a>):\n      <pre tabindex=\"0\">croupier play hanabi",
    );
    page.assert_shows(
        "<li>Make it better, then upload it from your team's page (or with <code>croupier \
         submit</code>).\n      It is checked in a short game against built-in bots before it \
         enters competitions.</li>",
    );
    page.assert_shows("<td>Time per move</td><td>10 s wall clock, start-up included");
    page.assert_shows("python · 9 files</span>");
    page.assert_lacks("规则");

    // The rules and the protocol come from docs/zh-CN: a heading and a game term of the
    // translation, the protocol's messages as in English.
    for (id, name, heading, rule, protocol) in [
        (
            "nothanks",
            "不，谢谢！（No Thanks!）",
            "不，谢谢！的设置",
            "筹码",
            "request_action",
        ),
        (
            "splendor",
            "璀璨宝石（Splendor）",
            "璀璨宝石的设置",
            "贵族卡",
            "playerName",
        ),
        (
            "hanabi",
            "花火（Hanabi）",
            "花火的设置",
            "提示指示物",
            "onStart",
        ),
        ("guandan", "掼蛋", "掼蛋的设置", "进贡", "actIndex"),
        ("bridge", "桥牌", "桥牌的设置", "庄家", "StepLog.txt"),
    ] {
        let page = chinese.get(&format!("/games/{id}")).await;
        page.assert_status(StatusCode::OK);
        for needle in [
            "<html lang=\"zh-CN\"",
            &format!("<h1>{name}</h1>"),
            "<h2>快速上手</h2>",
            "<h2>在本平台上</h2>",
            "<td>每步时限</td>",
            "<h2>规则</h2>",
            "<h2>协议</h2>",
            // The docs' headings follow the section's h2 one level down, never skipping one.
            &format!("<h3>{heading}</h3>"),
            rule,
            protocol,
        ] {
            page.assert_shows(needle);
        }
        page.assert_lacks("Quick start");
        page.assert_lacks("&lt;a id=");
    }
}

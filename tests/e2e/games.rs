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

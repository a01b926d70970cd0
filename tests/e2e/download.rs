//! `/download`: the runner for bot authors. With the directory `scripts/build-runner` fills,
//! the page lists the binary and the wheel with their sizes and SHA-256 and serves exactly
//! those files (and their `.sha256`), byte for byte; without one it says how to build them,
//! in both languages; and every game page's quick start links to it.

use axum::http::{header, StatusCode};
use croupier_server::ServerConfig;
use sqlx::PgPool;

use crate::helpers::TestApp;

const WHEEL: &str = "croupier-0.1.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl";

fn runner_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let files: [(&str, &[u8]); 5] = [
        ("croupier-linux-x86_64", b"\x7fELF pretend binary"),
        (
            "croupier-linux-x86_64.sha256",
            b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa  croupier-linux-x86_64\n",
        ),
        (WHEEL, b"PK pretend wheel"),
        (
            "croupier-0.1.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.sha256",
            b"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb  x.whl\n",
        ),
        ("secret.txt", b"not for visitors"),
    ];
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    dir
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_download_page_lists_and_serves_the_runner_and_its_checksums_and_nothing_else(
    pool: PgPool,
) {
    // Arrange
    let dir = runner_dir();
    let config = ServerConfig {
        downloads_dir: Some(dir.path().to_owned()),
        ..ServerConfig::default()
    };
    let mut visitor = TestApp::with_config(pool, config);

    // Act
    let page = visitor.get("/download").await;

    // Assert: the files with their hashes, how to install them, the kits of every game.
    page.assert_status(StatusCode::OK);
    page.assert_shows("<h1>Download the runner</h1>");
    page.assert_shows(
        "href=\"/download/croupier-linux-x86_64\" download>croupier-linux-x86_64</a>",
    );
    page.assert_shows("<code class=\"hash\">aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</code>");
    page.assert_shows(&format!("href=\"/download/{WHEEL}\" download>{WHEEL}</a>"));
    page.assert_shows("<code class=\"hash\">bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb</code>");
    page.assert_shows(&format!("pip install {WHEEL}"));
    page.assert_shows("--sandbox none");
    for game in ["nothanks", "splendor", "hanabi", "guandan", "bridge"] {
        page.assert_shows(&format!("href=\"/games/{game}/kits/python.zip\""));
    }
    page.assert_lacks("secret.txt");
    page.assert_lacks("id=\"not-built\"");

    // The files, byte for byte, offered as downloads; the checksum as text.
    let binary = visitor.get("/download/croupier-linux-x86_64").await;
    binary.assert_status(StatusCode::OK);
    assert_eq!(binary.bytes, b"\x7fELF pretend binary");
    assert_eq!(
        binary.headers[header::CONTENT_DISPOSITION],
        "attachment; filename=\"croupier-linux-x86_64\""
    );
    let sum = visitor.get("/download/croupier-linux-x86_64.sha256").await;
    sum.assert_status(StatusCode::OK);
    sum.assert_shows("  croupier-linux-x86_64");
    assert!(sum.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    let wheel = visitor.get(&format!("/download/{WHEEL}")).await;
    assert_eq!(wheel.bytes, b"PK pretend wheel");

    // Nothing else in the directory, and nothing outside it.
    for path in [
        "/download/secret.txt",
        "/download/..%2Fsecret.txt",
        "/download/croupier-9.9.9-py3-none-any.whl",
    ] {
        visitor.get(path).await.assert_status(StatusCode::NOT_FOUND);
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn without_a_built_runner_the_download_page_says_how_to_build_it_in_both_languages(
    pool: PgPool,
) {
    // Arrange: one platform with no directory configured, one with an empty directory.
    let mut unset = TestApp::new(pool.clone());
    let mut chinese = unset.new_visitor();
    chinese.choose_chinese().await;
    let empty = tempfile::tempdir().expect("temp dir");
    let mut unbuilt = TestApp::with_config(
        pool,
        ServerConfig {
            downloads_dir: Some(empty.path().to_owned()),
            ..ServerConfig::default()
        },
    );

    // Act
    let page = unset.get("/download").await;
    let zh = chinese.get("/download").await;
    let built_nowhere = unbuilt.get("/download").await;
    let file = unset.get("/download/croupier-linux-x86_64").await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows("CROUPIER_DOWNLOADS_DIR (or --downloads-dir)");
    page.assert_shows("scripts/build-runner dist");
    page.assert_shows("cargo install --path services/cli");
    zh.assert_shows("<h1>下载本地运行器</h1>");
    zh.assert_shows("CROUPIER_DOWNLOADS_DIR（或 --downloads-dir）");
    built_nowhere.assert_shows("The runner has not been built on this platform yet");
    built_nowhere.assert_shows("scripts/build-runner dist");
    file.assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_game_page_links_its_quick_start_to_the_runner_in_both_languages(pool: PgPool) {
    let mut english = TestApp::new(pool);
    let mut chinese = english.new_visitor();
    chinese.choose_chinese().await;
    for game in ["nothanks", "splendor", "hanabi", "guandan", "bridge"] {
        let page = english.get(&format!("/games/{game}")).await;
        page.assert_shows("<a class=\"in-text\" href=\"/download\">download the runner</a>");
        page.assert_lacks("cargo install");
        let page = chinese.get(&format!("/games/{game}")).await;
        page.assert_shows("<a class=\"in-text\" href=\"/download\">下载本地运行器</a>");
    }
}

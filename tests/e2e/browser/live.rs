//! Live updates in Chromium: a competition page open in the browser shows a result that lands
//! after it loaded (the leaderboard, the counts, the match's line) without reloading, and reads
//! the change out in its polite live region; a running match's page reloads itself when the
//! match finishes. The server is `croupier_server::serve` on the test's database; results are
//! written as the worker writes them.

use std::time::Duration;

use serde_json::json;
use sqlx::PgPool;

use super::browser_or_skip;
use super::driver::{Browser, DESKTOP};
use crate::competitions::{finish, schedule, set_status, won_by, League};
use crate::helpers::served::Served;

const WAIT: Duration = Duration::from_secs(30);

/// Waits until the page's event stream is open.
async fn stream_open(browser: &Browser) {
    assert!(
        browser
            .wait_for(
                "return document.getElementById('live').dataset.open === '1';",
                WAIT
            )
            .await,
        "the page's event stream opened"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_result_shows_on_the_open_competition_page_without_a_reload(pool: PgPool) {
    if !browser_or_skip("live updates") {
        return;
    }
    // Arrange: a two-round competition, its page open with a marker on `window`
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("2").await;
    let matches = schedule(&pool, c).await;
    let served = Served::start(&pool).await;
    let browser = Browser::start().await;
    browser.viewport(DESKTOP).await;
    browser
        .open(&format!("{}/competitions/{c}", served.base))
        .await;
    stream_open(&browser).await;
    browser
        .run("window.liveMarker = 'before';", json!([]))
        .await;

    // Act: the first match finishes
    let (first, seats) = &matches[0];
    finish(&pool, *first, &won_by(seats.len(), 0), None).await;
    let updated = browser
        .wait_for(
            "return document.querySelector('[data-live=board]').textContent.includes('From 1 finished match')
                 && document.querySelector('[data-count=finished]').textContent === '1';",
            WAIT,
        )
        .await;

    // Assert: updated in place (the marker survived), the line and the live region too
    assert!(updated, "the board and the counts show the result");
    let page = browser
        .run(
            "return [window.liveMarker || null,
                     document.querySelector('tr[data-match=\"' + arguments[0] + '\"] [data-live=match-status]').textContent,
                     document.getElementById('live').textContent];",
            json!([first.to_string()]),
        )
        .await;
    assert_eq!(page[0], "before", "the page was not reloaded");
    assert_eq!(page[1], "finished");
    assert!(
        page[2]
            .as_str()
            .unwrap_or("")
            .starts_with("1 of 6 matches played"),
        "the live region reads the change out: {page}"
    );
    assert_eq!(browser.console_errors().await, Vec::<String>::new());

    // Arrange: the second match's page while it runs
    let (second, seats) = &matches[1];
    set_status(&pool, *second, "running", "running").await;
    browser
        .open(&format!("{}/matches/{second}", served.base))
        .await;
    stream_open(&browser).await;
    browser
        .run("window.liveMarker = 'before';", json!([]))
        .await;

    // Act: it finishes
    finish(&pool, *second, &won_by(seats.len(), 0), None).await;
    let reloaded = browser
        .wait_for(
            "return !window.liveMarker && document.querySelector('.title-row > .status.big').textContent === 'finished'
                 && !document.getElementById('live');",
            WAIT,
        )
        .await;

    // Assert: the page reloaded and shows the finished match
    assert!(reloaded, "the match page reloads when the match finishes");
    drop(browser);
    served.stop().await;
}

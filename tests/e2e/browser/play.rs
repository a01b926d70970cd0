//! A person at the table, in Chromium: on the real `croupier up`, a signed-in team member opens
//! a competition, follows "Play against bots", sits in seat 0 with their team's Python kit in
//! the other seats, and plays a whole match in the browser by clicking legal moves — for one
//! game of each protocol family: No Thanks (TCP lobby), Hanabi (websocket, a class bot through
//! its runner), Splendor (one process per move). The board is drawn by the replay viewer's
//! game board; the finished match's page shows the person's seat with a result.

use std::time::{Duration, Instant};

use serde_json::json;

use super::driver::{screenshots, Browser, DESKTOP, PHONE};
use super::{browser_or_skip, log_in};
use crate::helpers::PASSWORD;
use crate::pipeline::api::Api;
use crate::pipeline::bots::game_kit;
use crate::pipeline::procs::{scratch, Proc};

/// (game, kit, uploaded file name)
const TABLES: [(&str, &str, &str); 3] = [
    ("nothanks", "python/bot.py", "bot.py"),
    ("hanabi", "python/player.py", "player.py"),
    ("splendor", "python/bot.py", "bot.py"),
];

/// At the person's first turn: screenshots at 1280 and 390 px (`<target>/browser-screenshots/`),
/// and at 390 px nothing wider than the screen (the moves wrap, the board fits).
async fn look_at_the_seat(browser: &Browser, game: &str) {
    let shots = screenshots();
    browser
        .screenshot(&shots.join(format!("play-{game}-1280.png")))
        .await;
    browser.viewport(PHONE).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let widths = browser
        .run(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            json!([]),
        )
        .await;
    browser
        .screenshot(&shots.join(format!("play-{game}-390.png")))
        .await;
    browser.viewport(DESKTOP).await;
    let (scroll, inner) = (
        widths[0].as_u64().unwrap_or(0),
        widths[1].as_u64().unwrap_or(0),
    );
    assert!(
        scroll <= inner.max(390),
        "{game}: the seat's page is {scroll} px wide on a 390 px phone"
    );
}

/// Plays the open seat page to the end by clicking the first legal move at every turn;
/// returns how many moves were clicked.
async fn play_to_the_end(browser: &Browser, up: &Proc, game: &str) -> usize {
    let t0 = Instant::now();
    let mut clicked = 0;
    loop {
        // Generous: with the seat's 15 s clock even a page that showed no turn at all would see
        // the match end (each turn lapsing) well within it.
        if t0.elapsed() > Duration::from_secs(600) {
            panic!(
                "{game}: the match did not end in time ({clicked} moves clicked)\n{}",
                what_the_page_and_server_show(browser, up).await
            );
        }
        let state = browser
            .run(
                "const play = document.getElementById('play');
                 const turn = document.getElementById('play-turn');
                 const first = document.querySelector('#play-moves button:not([disabled])');
                 return [play.dataset.status, turn ? turn.dataset.key : '', !!first];",
                json!([]),
            )
            .await;
        if state[0] == "finished" {
            break;
        }
        assert!(
            state[0] != "failed" && state[0] != "cancelled",
            "{game}: the match ended {}",
            state[0]
        );
        if state[2] == true {
            let key = state[1].as_str().unwrap_or("").to_owned();
            let drawn = browser
                .wait_for(
                    &format!(
                        "const b = document.getElementById('play-board');
                         return b.childElementCount > 0 && b.dataset.key === {};",
                        json!(key)
                    ),
                    Duration::from_secs(10),
                )
                .await;
            assert!(
                drawn,
                "{game}: the board does not show the turn the page offers (turn {key}, move {})",
                clicked + 1
            );
            if clicked == 0 {
                look_at_the_seat(browser, game).await;
            }
            // Found and clicked in one script: the page may swap its turn part in between
            // two WebDriver calls (a poll bringing the same turn), which would leave a stale
            // element to click.
            let pressed = browser
                .run(
                    "const b = document.querySelector('#play-moves button:not([disabled])');
                     if (b) { b.click(); } return !!b;",
                    json!([]),
                )
                .await;
            if pressed != true {
                continue;
            }
            clicked += 1;
            // The page moves on by itself: the next turn's part replaces this one.
            let moved = browser
                .wait_for(
                    &format!(
                        "const t = document.getElementById('play-turn');
                         return !t || t.dataset.key !== {};",
                        json!(key)
                    ),
                    Duration::from_secs(30),
                )
                .await;
            assert!(
                moved,
                "{game}: the page did not move on after move {clicked} (from {key})"
            );
        } else {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    clicked
}

/// For a failure: the page's seat part, what its state URL answers now (read synchronously
/// in the page), whether the page counts as visible, and the end of the server's log.
async fn what_the_page_and_server_show(browser: &Browser, up: &Proc) -> String {
    let page = browser
        .run(
            "const play = document.getElementById('play');
             const x = new XMLHttpRequest();
             x.open('GET', play.dataset.stateUrl, false);
             x.setRequestHeader('Accept', 'application/json');
             x.send();
             return [document.visibilityState, play.outerHTML.slice(0, 4000),
                     x.status + ' ' + x.responseText.slice(0, 4000)];",
            json!([]),
        )
        .await;
    let log = up.log_text();
    let lines: Vec<&str> = log.lines().collect();
    let tail = lines
        .get(lines.len().saturating_sub(80)..)
        .unwrap_or_default();
    format!(
        "visibility: {}\npage: {}\nstate now: {}\nthe end of up.log:\n{}",
        page[0],
        page[1],
        page[2],
        tail.join("\n")
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_person_plays_a_whole_match_in_the_browser_for_each_protocol_family() {
    if !browser_or_skip("a person at the table") {
        return;
    }
    // Arrange: the platform, one team with each game's Python kit, a paused ladder per game
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let pia = Api::user(&base, "pia", PASSWORD, true).await;
    let team = pia.team("Pia's").await;
    let mut tables = Vec::new();
    for (game, kit, file) in TABLES {
        let kit = pia
            .upload(&team, game, "python3", file, game_kit(game, kit))
            .await;
        pia.wait_ready(&kit).await;
        let competition = admin.small_ladder(&format!("{game} open"), game).await;
        admin
            .post(
                &format!("/api/v1/admin/competitions/{competition}/ladder"),
                json!({ "action": "pause" }),
            )
            .await;
        tables.push((game, competition, kit));
    }
    let browser = Browser::start().await;
    browser.viewport(DESKTOP).await;
    log_in(&browser, &base, "pia").await;

    for (game, competition, kit) in &tables {
        // Act: from the competition page to a seat, through the form
        browser
            .open(&format!("{base}/competitions/{competition}"))
            .await;
        browser.click("a[href$='/play']").await;
        assert!(
            browser
                .wait_for(
                    "return !!document.getElementById('play-new');",
                    Duration::from_secs(10)
                )
                .await,
            "{game}: the play form"
        );
        browser
            .run(
                "document.querySelectorAll('#play-new select[name^=seat_]').forEach((s, i) => {
                     s.value = i === 0 ? 'you' : 'submission:' + arguments[0];
                 });
                 document.querySelector('#play-new input[name=move_secs]').value = '15';",
                json!([kit]),
            )
            .await;
        browser.click("#play-new button[type=submit]").await;
        assert!(
            browser
                .wait_for(
                    "return location.pathname.endsWith('/play') && !!document.getElementById('play');",
                    Duration::from_secs(10),
                )
                .await,
            "{game}: the form leads to the seat's page"
        );
        let clicked = play_to_the_end(&browser, &up, game).await;

        // Assert: a whole match with the person's moves, the end shown without a reload (the
        // status badge too), no console error, and the match page shows the person's seat
        // with a place and no fault
        assert!(clicked >= 3, "{game}: only {clicked} moves");
        let badge = browser
            .run(
                "const b = document.getElementById('play-status');
                 return [b.textContent.trim(), b.classList.contains('finished')];",
                json!([]),
            )
            .await;
        assert_eq!(badge, json!(["finished", true]), "{game}: the status badge");
        assert_eq!(
            browser.console_errors().await,
            Vec::<String>::new(),
            "{game}"
        );
        browser.click("#play-turn a[href^='/matches/']").await;
        let row = browser
            .wait_for(
                "return [...document.querySelectorAll('td')].some(td => td.textContent.includes('pia (a person)'));",
                Duration::from_secs(10),
            )
            .await;
        assert!(row, "{game}: the match page lists the person's seat");
        let match_id = browser
            .run("return location.pathname.split('/')[2];", json!([]))
            .await;
        let m = pia
            .get(&format!(
                "/api/v1/matches/{}",
                match_id.as_str().unwrap_or("")
            ))
            .await;
        let seats = m["match"]["seats"].as_array().cloned().unwrap_or_default();
        let me = &seats[0];
        assert_eq!(me["end_state"], "ok", "{game}: {m:#}");
        assert!(
            me["rank"].is_number(),
            "{game}: the person has a place: {m:#}"
        );
        assert_eq!(me["person"], "pia", "{game}: {m:#}");
        for bot in &seats[1..] {
            assert_eq!(bot["end_state"], "ok", "{game}: the kits played on: {m:#}");
        }
        eprintln!("{game}: a person played {clicked} moves against the kit");
    }
    drop(browser);
}

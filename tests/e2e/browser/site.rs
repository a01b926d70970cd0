//! The team's side of the site in a real browser: a submission's page follows its build to
//! "ready" without a reload; a challenge and an A/B test started from the competition's form,
//! whose pages follow them to their end without a reload and name the versions (A and B); the
//! team's challenge list; and these pages, the upload form, the games' pages and `/admin`
//! checked at 1280 and 390 px, in English and 简体中文, with axe ([`super::look_at`]).

use std::time::Duration;

use serde_json::json;

use super::axe::axe_or_skip;
use super::driver::{screenshot_dir, Browser, DESKTOP, PHONE};
use super::{browser_or_skip, in_chinese, log_in, log_in_with, look_at, switch_language};
use crate::helpers::PASSWORD;
use crate::pipeline::api::Api;
use crate::pipeline::bots;
use crate::pipeline::procs::{scratch, Proc};

/// Sets the form control `css` to `value`, as choosing it does.
async fn choose(browser: &Browser, css: &str, value: &str) {
    let set = browser
        .run(
            "const s = document.querySelector(arguments[0]); if (!s) return false; \
             s.value = arguments[1]; s.dispatchEvent(new Event('change', { bubbles: true })); \
             return s.value === arguments[1];",
            json!([css, value]),
        )
        .await;
    assert_eq!(set, json!(true), "{css} has no choice {value}");
}

/// Marks the page on screen: a reload (or any navigation) loses the mark.
async fn mark(browser: &Browser) {
    browser.run("window.__same_page = true;", json!([])).await;
}

async fn still_marked(browser: &Browser) -> bool {
    browser
        .run("return window.__same_page === true;", json!([]))
        .await
        == json!(true)
}

/// Waits until the challenge page on screen says its challenge is done; panics with the page's
/// text otherwise. Returns how often the page fetched its live part.
async fn followed_to_its_end(browser: &Browser, what: &str) -> u64 {
    let done = browser
        .wait_for(
            "const s = document.querySelector('#challenge-live [data-status]'); \
             return !document.querySelector('[data-poll]') && !!s && s.classList.contains('finished');",
            Duration::from_secs(240),
        )
        .await;
    let text = browser
        .run(
            "return document.querySelector('main').innerText;",
            json!([]),
        )
        .await;
    assert!(done, "{what} did not show its end: {text}");
    browser
        .run(
            "return Number(document.documentElement.dataset.polled || 0);",
            json!([]),
        )
        .await
        .as_u64()
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_team_follows_its_build_challenges_and_ab_test_live_in_chromium() {
    if !browser_or_skip("team pages") {
        return;
    }
    // Arrange: the platform, a ladder, Ants with two ready versions (the kit, and a bot that
    // passes whenever it may)
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let ladder = admin.small_ladder("Open ladder", "nothanks").await;
    let ann = Api::user(&base, "ann", PASSWORD, true).await;
    let team = ann.team("Ants").await;
    let v1 = ann
        .upload(&team, "nothanks", "python3", "bot.py", bots::python_kit())
        .await;
    ann.wait_ready(&v1).await;
    let v2 = ann
        .upload(
            &team,
            "nothanks",
            "python3",
            "bot.py",
            bots::python_always_passes(),
        )
        .await;
    ann.wait_ready(&v2).await;
    let shots = screenshot_dir();
    let axe = axe_or_skip("team pages");
    let browser = Browser::start().await;
    browser.viewport(DESKTOP).await;
    let mut problems = Vec::new();

    // The organiser's page, in both languages and widths, then out.
    log_in_with(&browser, &base, "admin", &up.admin_password()).await;
    for (lang, kind) in [("en", "admin"), ("zh-CN", "zh-CN admin")] {
        if lang != "en" {
            switch_language(&browser, &base, lang).await;
        }
        for viewport in [DESKTOP, PHONE] {
            browser.viewport(viewport).await;
            let page = (kind, "all", "/admin");
            problems.extend(look_at(&browser, &base, page, viewport, &shots, axe.as_ref()).await);
        }
        browser.viewport(DESKTOP).await;
    }
    switch_language(&browser, &base, "en").await;
    browser.click("header form button").await;
    browser
        .wait_for(
            "return !!document.querySelector('header a[href=\"/login\"]');",
            Duration::from_secs(10),
        )
        .await;
    log_in(&browser, &base, "ann").await;

    // Act 1: a new version uploaded, its page opened at once
    let v3 = ann
        .upload(&team, "nothanks", "python3", "bot.py", bots::python_kit())
        .await;
    browser.open(&format!("{base}/submissions/{v3}")).await;
    let first = browser
        .run(
            "return document.querySelector('.title-row .status').className;",
            json!([]),
        )
        .await;
    mark(&browser).await;
    let ready = browser
        .wait_for(
            "const s = document.querySelector('.title-row .status'); \
             return !!s && s.classList.contains('ready');",
            Duration::from_secs(180),
        )
        .await;

    // Assert 1: it was being built, and the page said "ready" by itself (it reloads once, to
    // show the log and the matches)
    let first = first.as_str().unwrap_or_default().to_owned();
    assert!(
        ["pending", "compiling", "validating"]
            .iter()
            .any(|s| first.contains(s)),
        "the page opened before the build ended: {first}"
    );
    assert!(ready, "the submission page never said ready by itself");

    // Act 2: a challenge of v1 against two built-ins, from the competition's form
    browser
        .open(&format!("{base}/competitions/{ladder}/challenges"))
        .await;
    choose(
        &browser,
        "#challenge-form #seat_0",
        &format!("submission:{v1}"),
    )
    .await;
    browser
        .run(
            "document.querySelector('#challenge-form input[name=games]').value = '1';",
            json!([]),
        )
        .await;
    browser.click("#challenge-form button[type=submit]").await;
    let opened = browser
        .wait_for(
            "return location.pathname.startsWith('/challenges/');",
            Duration::from_secs(10),
        )
        .await;
    assert!(opened, "the challenge form did not lead to its page");
    let challenge_page = browser
        .run("return location.pathname;", json!([]))
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned();
    mark(&browser).await;
    let polled = followed_to_its_end(&browser, "the challenge").await;

    // Assert 2: its page followed it to its end without a reload
    assert!(polled > 0, "the challenge page never fetched its progress");
    assert!(
        still_marked(&browser).await,
        "the challenge page reloaded itself"
    );

    // Act 3: an A/B test of v1 (A) against v2 (B), at most 3 groups
    browser
        .open(&format!("{base}/competitions/{ladder}/challenges"))
        .await;
    choose(&browser, "#ab-a", &v1).await;
    choose(&browser, "#ab-b", &v2).await;
    browser
        .run(
            "document.querySelector('#ab-form input[name=max_games]').value = '3';",
            json!([]),
        )
        .await;
    browser.click("#ab-form button[type=submit]").await;
    let opened = browser
        .wait_for(
            "return location.pathname.startsWith('/challenges/');",
            Duration::from_secs(10),
        )
        .await;
    assert!(opened, "the A/B form did not lead to its page");
    let ab_page = browser
        .run("return location.pathname;", json!([]))
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned();
    mark(&browser).await;
    let polled = followed_to_its_end(&browser, "the A/B test").await;
    let named = browser
        .run(
            "return [document.querySelector('[data-ab=a]').textContent, \
                     document.querySelector('[data-ab=b]').textContent, \
                     [...document.querySelectorAll('.ab-role')].map(e => e.textContent).sort().join(''), \
                     document.querySelector('main').innerText];",
            json!([]),
        )
        .await;

    // Assert 3: followed live, A and B named by version, no "submission 1a2b3c4d"
    assert!(polled > 0, "the A/B page never fetched its progress");
    assert!(still_marked(&browser).await, "the A/B page reloaded itself");
    let (a, b) = (
        named[0].as_str().unwrap_or(""),
        named[1].as_str().unwrap_or(""),
    );
    assert!(a.starts_with("Ants v1"), "A is v1: {named}");
    assert!(b.starts_with("Ants v2"), "B is v2: {named}");
    assert_eq!(named[2], json!("AB"), "both rows say A or B: {named}");
    assert!(
        !named[3]
            .as_str()
            .unwrap_or_default()
            .contains("submission "),
        "{named}"
    );

    // Assert 4: the team page and its list show both
    browser
        .open(&format!("{base}/teams/{team}/challenges"))
        .await;
    let rows = browser
        .run(
            "return document.querySelectorAll('table.challenges tbody tr').length;",
            json!([]),
        )
        .await;
    assert_eq!(rows, json!(2), "both are listed");

    // And every page of the team's side, at both widths, in both languages.
    let pages = [
        ("team", format!("/teams/{team}")),
        ("team challenges", format!("/teams/{team}/challenges")),
        (
            "challenge form",
            format!("/competitions/{ladder}/challenges"),
        ),
        ("challenge", challenge_page),
        ("ab test", ab_page),
        ("submission", format!("/submissions/{v3}")),
        ("upload", format!("/teams/{team}/upload")),
        ("home", "/".to_owned()),
        ("games", "/games".to_owned()),
        ("game", "/games/guandan".to_owned()),
    ];
    for (lang, prefix) in [("en", ""), ("zh-CN", "zh-CN ")] {
        browser.viewport(DESKTOP).await;
        if lang != "en" {
            switch_language(&browser, &base, lang).await;
        }
        for viewport in [DESKTOP, PHONE] {
            browser.viewport(viewport).await;
            for (kind, path) in &pages {
                let kind = format!("{prefix}{kind}");
                let page = (kind.as_str(), "nothanks", path.as_str());
                problems
                    .extend(look_at(&browser, &base, page, viewport, &shots, axe.as_ref()).await);
                if lang == "zh-CN" {
                    problems.extend(in_chinese(&browser, &format!("{kind} {path}")).await);
                }
            }
        }
    }
    browser.viewport(DESKTOP).await;
    switch_language(&browser, &base, "en").await;
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
    up.stop().await;
}

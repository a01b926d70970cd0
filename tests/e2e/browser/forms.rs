//! Forms in a real browser: the new-competition form shows the rule sets and entries of the
//! game picked in its select as soon as it is picked, so that it never shows one game's entries
//! under another game's name (issue #18's "builds the wrong game"); the form and the admin page
//! pass the accessibility check ([`super::axe`]).

use std::time::Duration;

use serde_json::json;

use super::axe::axe_or_skip;
use super::driver::{screenshot_dir, Browser, DESKTOP};
use super::{browser_or_skip, log_in_with};
use crate::pipeline::procs::{scratch, Proc};

#[tokio::test(flavor = "multi_thread")]
async fn changing_the_game_of_the_new_competition_form_shows_that_games_form() {
    if !browser_or_skip("new-competition form") {
        return;
    }
    // Arrange: the platform, its administrator in the browser, the form open on No Thanks
    let dir = scratch();
    let up = Proc::up_with(dir.path(), "0", &[]).await;
    let base = up.url();
    let axe = axe_or_skip("new-competition form");
    let browser = Browser::start().await;
    browser.viewport(DESKTOP).await;
    log_in_with(&browser, &base, "admin", &up.admin_password()).await;
    browser
        .open(&format!("{base}/admin/competitions/new?game=nothanks"))
        .await;
    browser.type_into("input[name=name]", "Spring gems").await;

    // Act: Splendor picked in the select, nothing else pressed
    browser
        .run(
            "const s = document.querySelector('select[name=game]'); s.value = arguments[0]; \
             s.dispatchEvent(new Event('change', { bubbles: true }));",
            json!(["splendor"]),
        )
        .await;
    let shown = browser
        .wait_for(
            "const g = document.querySelector('input[name=shown_game]'); \
             return !!g && g.value === 'splendor';",
            Duration::from_secs(10),
        )
        .await;

    // Assert: the page is Splendor's form, with the name typed kept, and no script error
    assert!(
        shown,
        "the form still shows the old game's rule sets and entries"
    );
    let state = browser
        .run(
            "return [document.querySelector('select[name=game]').value, \
                     document.querySelector('input[name=name]').value, \
                     document.querySelector('legend').textContent];",
            json!([]),
        )
        .await;
    assert_eq!(state[0], "splendor", "{state}");
    assert_eq!(state[1], "Spring gems", "{state}");
    assert!(
        state[2].as_str().is_some_and(|l| l.contains("Splendor")),
        "{state}"
    );
    let errors = browser.console_errors().await;
    assert!(errors.is_empty(), "{errors:?}");
    browser
        .screenshot(&screenshot_dir().join("admin-new-competition-1280.png"))
        .await;
    let mut inaccessible = Vec::new();
    if let Some(axe) = &axe {
        inaccessible.extend(axe.check(&browser, "the new-competition form").await);
    }

    // Enter in a field creates, as in any form (here refused: no bot is ready), rather than
    // re-showing the form as "Choose game" does.
    browser.type_into("input[name=name]", "\u{E007}").await;
    let refused = browser
        .wait_for(
            "const e = document.querySelector('.error');              return !!e && e.textContent.trim().length > 0;",
            Duration::from_secs(10),
        )
        .await;
    let page = browser
        .run("return document.body.innerText;", json!([]))
        .await;
    assert!(
        refused,
        "Enter did not try to create the competition: {page}"
    );
    if let Some(axe) = &axe {
        inaccessible.extend(
            axe.check(&browser, "the refused new-competition form")
                .await,
        );
        browser.open(&format!("{base}/admin")).await;
        inaccessible.extend(axe.check(&browser, "the admin page").await);
    }
    assert!(
        inaccessible.is_empty(),
        "{} accessibility problem(s):\n{}",
        inaccessible.len(),
        inaccessible.join("\n")
    );
}

//! Keyboard focus is visible: tabbing through the log-in page (the header's links, the fields,
//! the button, the footer's link) lands on elements that draw a focus outline.

use serde_json::{json, Value};

use super::browser_or_skip;
use super::driver::{Browser, DESKTOP};
use crate::pipeline::procs::{scratch, Proc};

/// The element with keyboard focus: `[tag, text or name, outline style, outline width in px]`.
async fn focused(browser: &Browser) -> Value {
    browser
        .run(
            "const e = document.activeElement;
             const s = getComputedStyle(e);
             return [e.tagName.toLowerCase(), (e.name || e.textContent || '').trim(),
                     s.outlineStyle, parseFloat(s.outlineWidth) || 0];",
            json!([]),
        )
        .await
}

#[tokio::test(flavor = "multi_thread")]
async fn tabbing_through_the_login_page_shows_where_the_focus_is() {
    if !browser_or_skip("focus outline") {
        return;
    }
    // Arrange: the platform and its log-in page
    let dir = scratch();
    let up = Proc::up_with(dir.path(), "0", &[]).await;
    let browser = Browser::start().await;
    browser.viewport(DESKTOP).await;
    browser.open(&format!("{}/login", up.url())).await;

    // Act: Tab through every control on the page, noting each focused element
    let mut seen = Vec::new();
    for _ in 0..12 {
        browser.press_tab().await;
        let now = focused(&browser).await;
        if now[0] == "body" || seen.contains(&now) {
            break;
        }
        seen.push(now);
    }

    // Assert: links, fields and the button were reached, each with a solid 2 px+ outline
    let tags: Vec<&str> = seen.iter().filter_map(|v| v[0].as_str()).collect();
    for tag in ["a", "input", "button"] {
        assert!(tags.contains(&tag), "Tab never reached a {tag}: {seen:?}");
    }
    let unmarked: Vec<&Value> = seen
        .iter()
        .filter(|v| v[2] == "none" || v[3].as_f64().unwrap_or(0.0) < 2.0)
        .collect();
    assert!(
        unmarked.is_empty(),
        "focused without a visible outline: {unmarked:?}"
    );
}

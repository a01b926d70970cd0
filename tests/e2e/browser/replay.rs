//! The replay viewer in a real browser, against its DOM contract: root `#replay`, which sets
//! `data-ready="1"` once loaded, `data-moves` (the last step) and `data-step`; controls
//! `#replay-next`, `#replay-prev`, `#replay-play`, `#replay-scrub` and `#replay-view` (a select of
//! perspectives); the scores drawn at `[data-seat-score="<seat>"]`, compared with the match
//! page's result table (its Seat cell names the seat, `N` at Bridge, and carries its number in
//! `data-seat`).

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use super::axe::Axe;
use super::driver::Browser;

/// The games whose replay viewer is checked: all five. For these a match page without
/// `#replay`, or a viewer that fails the checks, is an error; a game not listed (a new one,
/// before its viewer is) is skipped with a message.
const VIEWER_GAMES: &[&str] = &["nothanks", "splendor", "hanabi", "guandan", "bridge"];

/// The viewer's state: `[ready, step, moves]`.
async fn state(browser: &Browser) -> (bool, i64, i64) {
    let v = browser
        .run(
            "const r = document.querySelector('#replay');
             return [r.dataset.ready === '1', Number(r.dataset.step), Number(r.dataset.moves)];",
            json!([]),
        )
        .await;
    (
        v[0] == Value::Bool(true),
        v[1].as_i64().unwrap_or(-1),
        v[2].as_i64().unwrap_or(-1),
    )
}

/// Waits (at most `secs` seconds) for the viewer to have loaded its steps (`data-ready="1"`).
async fn loaded(browser: &Browser, secs: u64) -> bool {
    browser
        .wait_for(
            "return document.querySelector('#replay').dataset.ready === '1';",
            Duration::from_secs(secs),
        )
        .await
}

/// Clicks `button` and waits (at most 5 s) for `data-step` to become `want`.
async fn press(browser: &Browser, button: &str, want: i64) -> Result<(), String> {
    browser.click(button).await;
    let moved = browser
        .wait_for(
            &format!("return Number(document.querySelector('#replay').dataset.step) === {want};"),
            Duration::from_secs(5),
        )
        .await;
    if moved {
        Ok(())
    } else {
        let (_, step, _) = state(browser).await;
        Err(format!("{button} left data-step at {step}, not {want}"))
    }
}

/// Chooses the perspective at `index` in `#replay-view`, as picking it in the list does, and
/// waits (at most 10 s) until the viewer has loaded it; `Err` says what went wrong.
async fn choose_view(browser: &Browser, index: usize) -> Result<(), String> {
    let value = browser
        .run(
            "const s = document.querySelector('#replay-view');
             s.selectedIndex = arguments[0];
             s.dispatchEvent(new Event('input', { bubbles: true }));
             s.dispatchEvent(new Event('change', { bubbles: true }));
             return s.value;",
            json!([index]),
        )
        .await;
    let loaded = browser
        .wait_for(
            &format!(
                "return document.querySelector('#replay').dataset.ready === '1'
                    && document.querySelector('#replay-view').value === {value};"
            ),
            Duration::from_secs(10),
        )
        .await;
    if loaded {
        Ok(())
    } else {
        Err(format!("the perspective {value} did not load within 10 s"))
    }
}

/// The result table's score per seat, and the viewer's drawn score per seat.
async fn scores(browser: &Browser) -> (Value, Value) {
    let v = browser
        .run(
            "const table = [...document.querySelectorAll('table')].find(t => {
               const heads = [...t.querySelectorAll('th')].map(h => h.textContent.trim());
               return heads.includes('Seat') && heads.includes('Score');
             });
             const result = {};
             if (table) {
               const heads = [...table.querySelectorAll('th')].map(h => h.textContent.trim());
               const seat = heads.indexOf('Seat'), score = heads.indexOf('Score');
               for (const row of table.querySelectorAll('tbody tr')) {
                 const cells = row.querySelectorAll('td');
                 // The seat's number (its cell may name it: Bridge's `N`).
                 const n = cells[seat].dataset.seat || cells[seat].textContent.trim();
                 result[n] = cells[score].textContent.trim();
               }
             }
             const drawn = {};
             for (const e of document.querySelectorAll('[data-seat-score]')) {
               drawn[e.dataset.seatScore] = e.textContent.trim();
             }
             return [result, drawn];",
            json!([]),
        )
        .await;
    (v[0].clone(), v[1].clone())
}

/// The first number in `text` (`"12"`, `"12 points"`, `"−3"`).
fn number(text: &str) -> Option<f64> {
    let text = text.replace('\u{2212}', "-");
    let start = text.find(|c: char| c.is_ascii_digit() || c == '-')?;
    let tail = &text[start..];
    let end = tail
        .char_indices()
        .skip(1)
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.'))
        .map_or(tail.len(), |(i, _)| i);
    tail[..end].parse().ok()
}

/// Steps through one match's replay; returns the problems found.
async fn check_match(browser: &Browser, game: &str, id: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let at = format!("replay of {game} match {id}");
    if !loaded(browser, 30).await {
        return vec![format!("{at}: #replay never set data-ready=\"1\"")];
    }
    let (_, mut step, moves) = state(browser).await;
    if moves < 1 || step < 0 {
        return vec![format!("{at}: data-moves {moves}, data-step {step}")];
    }
    if step == moves {
        // Opened at the end: go back one move so that stepping forward is tested too.
        if let Err(e) = press(browser, "#replay-prev", moves - 1).await {
            return vec![format!("{at}: {e}")];
        }
        step = moves - 1;
    }
    while step < moves {
        if let Err(e) = press(browser, "#replay-next", step + 1).await {
            return vec![format!("{at}: {e}")];
        }
        step += 1;
    }
    for error in browser.console_errors().await {
        problems.push(format!("{at}: console error while stepping: {error}"));
    }
    let views = browser
        .run(
            "return document.querySelectorAll('#replay-view option').length;",
            json!([]),
        )
        .await
        .as_u64()
        .unwrap_or(0);
    if views < 2 {
        problems.push(format!(
            "{at}: #replay-view offers {views} perspective(s), not a seat's"
        ));
    } else {
        for index in [1, 0] {
            if let Err(e) = choose_view(browser, index).await {
                problems.push(format!("{at}: {e}"));
            }
            let (_, now, _) = state(browser).await;
            if now != moves {
                problems.push(format!(
                    "{at}: switching perspective moved data-step from {moves} to {now}"
                ));
            }
        }
        // Switching again before the first answer arrives: only the last choice is drawn,
        // whichever answer comes first (a seat's view marks its seat `.rv-me`).
        browser
            .run(
                "const s = document.querySelector('#replay-view');
                 for (const i of [1, 0]) {
                   s.selectedIndex = i;
                   s.dispatchEvent(new Event('change', { bubbles: true }));
                 }",
                json!([]),
            )
            .await;
        let settled = loaded(browser, 10).await;
        // Give a slower, stale answer time to arrive (it must be ignored).
        tokio::time::sleep(Duration::from_millis(500)).await;
        let seat_drawn = browser
            .run(
                "return document.querySelectorAll('#replay .rv-me').length;",
                json!([]),
            )
            .await
            .as_u64()
            .unwrap_or(0);
        if !settled || seat_drawn > 0 {
            problems.push(format!(
                "{at}: after choosing a seat and then everything quickly, the board shows a seat's \
                 view (ready: {settled})"
            ));
        }
        for error in browser.console_errors().await {
            problems.push(format!(
                "{at}: console error switching perspective: {error}"
            ));
        }
    }
    let (table, drawn) = scores(browser).await;
    let table = table.as_object().cloned().unwrap_or_default();
    if table.is_empty() {
        problems.push(format!("{at}: no result table with Seat and Score"));
    }
    for (seat, score) in &table {
        let want = number(score.as_str().unwrap_or_default());
        let got = drawn[seat.as_str()].as_str().and_then(number);
        match (want, got) {
            (Some(w), Some(g)) if (w - g).abs() < 0.01 => {}
            _ => problems.push(format!(
                "{at}: seat {seat} scored {score} in the result table, the viewer draws {}",
                drawn[seat.as_str()]
            )),
        }
    }
    problems
}

/// A move record of the signed-in team's seat in match `id` (found through `frames.json`, as the
/// viewer gets it): `(seat, step, ms, stderr)`; `None` when the team has no seat there.
async fn own_move(browser: &Browser, id: &str) -> Result<Option<(u64, u64, u64, String)>, String> {
    if !loaded(browser, 30).await {
        return Err("#replay never set data-ready=\"1\"".into());
    }
    browser
        .run(
            "window.__own = undefined;
             const id = arguments[0];
             const seats = document.querySelectorAll('#replay-view option').length - 1;
             (async () => {
               for (let s = 0; s < seats; s++) {
                 const doc = await (await fetch(`/matches/${id}/frames.json?view=seat:${s}`)).json();
                 if (!Array.isArray(doc.moves) || doc.moves.length === 0) continue;
                 const rec = doc.moves.find(m => m.stderr) || doc.moves[0];
                 const step = doc.frames.findIndex(f =>
                   (f.game || 0) === rec.game && f.entry && f.entry.n === rec.entry);
                 return [s, step, rec.ms, rec.stderr || ''];
               }
               return null;
             })().then(r => { window.__own = r; }, e => { window.__own = String(e); });",
            json!([id]),
        )
        .await;
    let done = browser
        .wait_for(
            "return window.__own !== undefined;",
            Duration::from_secs(20),
        )
        .await;
    if !done {
        return Err("the seats' frames.json did not load within 20 s".into());
    }
    let got = browser.run("return window.__own;", json!([])).await;
    match &got {
        Value::Null => Ok(None),
        Value::Array(v) => {
            let n = |i: usize| v.get(i).and_then(Value::as_u64);
            match (n(0), n(1), n(2)) {
                (Some(seat), Some(step), Some(ms)) => {
                    let stderr = v.get(3).and_then(Value::as_str).unwrap_or_default();
                    Ok(Some((seat, step, ms, stderr.to_owned())))
                }
                _ => Err(format!("a move record that matches no step: {got}")),
            }
        }
        other => Err(format!("fetching the frames failed: {other}")),
    }
}

/// The signed-in team's own move, deep-linked as the match page links it
/// (`#move=K&view=seat:N`): the panel shows that move's time and stderr; the omniscient view
/// shows no panel; with `axe`, the seat's view with its panel passes the accessibility check.
/// `Ok(false)` when the team has no seat in this match.
async fn check_own_move(
    browser: &Browser,
    base: &str,
    id: &str,
    shot: &Path,
    axe: Option<&Axe>,
) -> Result<bool, String> {
    let Some((seat, step, ms, stderr)) = own_move(browser, id).await? else {
        return Ok(false);
    };
    browser
        .open(&format!("{base}/matches/{id}#move={step}&view=seat:{seat}"))
        .await;
    let shown = browser
        .wait_for(
            &format!(
                "const r = document.querySelector('#replay');
                 const own = document.querySelector('#replay-own');
                 return r.dataset.ready === '1' && r.dataset.step === '{step}'
                     && document.querySelector('#replay-view').value === 'seat:{seat}'
                     && own !== null && !own.hidden && own.dataset.ms === '{ms}';"
            ),
            Duration::from_secs(15),
        )
        .await;
    let text = browser
        .run(
            "const own = document.querySelector('#replay-own');
             return own ? own.textContent : '';",
            json!([]),
        )
        .await;
    let text = text.as_str().unwrap_or_default();
    let line = stderr.lines().next().unwrap_or_default().trim();
    if !shown || !text.contains(&format!("{ms} ms")) || !text.contains(line) {
        return Err(format!(
            "seat {seat}'s move at step {step} ({ms} ms, stderr {stderr:?}): the panel shows {text:?}"
        ));
    }
    browser
        .run(
            "document.querySelector('#replay').scrollIntoView();",
            json!([]),
        )
        .await;
    browser.screenshot(shot).await;
    if let Some(axe) = axe {
        let problems = axe
            .check(browser, &format!("seat {seat}'s view with its own move"))
            .await;
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
    }
    choose_view(browser, 0).await?;
    let hidden = browser
        .run(
            "return document.querySelector('#replay-own').hidden;",
            json!([]),
        )
        .await;
    if hidden != Value::Bool(true) {
        return Err("the omniscient view still shows a seat's own moves".into());
    }
    Ok(true)
}

/// Opens each match page, steps its replay to the end, switches perspective and compares the
/// drawn scores with the result table; then shows the signed-in team's own move records in the
/// first match it played (checked by `axe` too, when given). Panics listing every problem.
pub async fn step_through_every_match(
    browser: &Browser,
    base: &str,
    game: &str,
    matches: &[String],
    shots: &Path,
    axe: Option<&Axe>,
) {
    let mut problems = Vec::new();
    for (n, id) in matches.iter().enumerate() {
        browser.open(&format!("{base}/matches/{id}")).await;
        browser.console_errors().await;
        let has_viewer = browser
            .run(
                "return document.querySelector('#replay') !== null;",
                json!([]),
            )
            .await
            == Value::Bool(true);
        if !VIEWER_GAMES.contains(&game) {
            eprintln!(
                "SKIPPED replay viewer test for {game}: its viewer is not merged yet (the match \
                 page {} #replay); add {game:?} to VIEWER_GAMES in tests/e2e/browser/replay.rs \
                 once it is",
                if has_viewer { "has" } else { "has no" }
            );
            return;
        }
        assert!(
            has_viewer,
            "the {game} match page /matches/{id} has no #replay, but its viewer is merged"
        );
        problems.extend(check_match(browser, game, id).await);
        browser
            .run(
                "document.querySelector('#replay').scrollIntoView();",
                json!([]),
            )
            .await;
        browser
            .screenshot(&shots.join(format!("{game}-replay-{n}.png")))
            .await;
    }
    let mut own_checked = false;
    for id in matches {
        browser.open(&format!("{base}/matches/{id}")).await;
        let shot = shots.join(format!("{game}-replay-own-move.png"));
        match check_own_move(browser, base, id, &shot, axe).await {
            Ok(false) => continue,
            Ok(true) => {}
            Err(e) => problems.push(format!("{game} match {id}, own moves: {e}")),
        }
        own_checked = true;
        break;
    }
    if !own_checked {
        problems.push(format!(
            "{game}: the signed-in team got move records in none of its matches"
        ));
    }
    for error in browser.console_errors().await {
        problems.push(format!("{game}: console error showing own moves: {error}"));
    }
    assert!(
        problems.is_empty(),
        "{} replay problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn numbers_are_read_from_score_cells() {
    assert_eq!(number("12"), Some(12.0));
    assert_eq!(number("−3 IMPs"), Some(-3.0));
    assert_eq!(number("score 7.50"), Some(7.5));
    assert_eq!(number("–"), None);
}

//! Playing by clicking the board, in Chromium: on the real `croupier up`, a signed-in person
//! sits down at a table of each game against the built-in bots (the play form's defaults) and
//! plays the whole match by clicking the board's cards, gems, bids and the board's own buttons
//! (never the list of legal moves), each game at one width and language so that together they
//! cover 1280 and 390 px in English and 简体中文, with axe clean at the first turn and at the
//! end, where the page shows the result and the person's place. And a No Thanks match played
//! the same way while two CPU burners run, where the page must never stop offering the
//! person's turn while the server asks it.

use std::process::{Child, Command};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::axe::{axe_or_skip, Axe};
use super::driver::{screenshots, Browser, Viewport, DESKTOP, PHONE};
use super::{browser_or_skip, log_in, switch_language};
use crate::helpers::PASSWORD;
use crate::pipeline::api::Api;
use crate::pipeline::procs::{scratch, Proc};

/// Each game's table: the game, the width, the language, the competition's settings that keep
/// the match short (Bridge: one board).
const TABLES: [(&str, Viewport, &str, &str); 4] = [
    ("splendor", DESKTOP, "en", "{}"),
    ("bridge", PHONE, "en", r#"{"games_per_match": 1}"#),
    ("hanabi", PHONE, "zh-CN", "{}"),
    ("guandan", DESKTOP, "zh-CN", "{}"),
];

/// What the test does at the board, one click per run: a move selected is sent; a choice
/// offered is answered (Splendor: buying first); otherwise the game's own clicks (`GAME`).
/// Returns `wait` (the board is not ready for this turn), `sent`, `clicked` or `stuck`.
const STEP: &str = r#"
const board = document.getElementById('play-board');
const turn = document.getElementById('play-turn');
if (!board || board.dataset.controls !== '1' || !turn || board.dataset.key !== turn.dataset.key) return 'wait';
const game = document.getElementById('play').dataset.game;
const me = document.getElementById('play').dataset.seat;
const free = (css) => [...document.querySelectorAll(css)].filter(b => b.getAttribute('aria-disabled') !== 'true' && !b.disabled);
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
const selected = document.getElementById('play-selected');
const send = document.getElementById('play-send');
if (send && selected && !selected.hidden) {
  if (send.disabled) return 'wait';
  send.click();
  return 'sent';
}
const options = [...document.querySelectorAll('#play-choice:not([hidden]) .pl-option')];
if (options.length) {
  const buy = options.find(o => (o.dataset.action || '').includes('"buy'));
  (buy || pick(options)).click();
  return 'clicked';
}
const enabled = (id) => { const b = document.getElementById(id); return b && b.getAttribute('aria-disabled') !== 'true' ? b : null; };
if (game === 'nothanks') {
  const b = free('#play-controls .pl-button');
  if (!b.length) return 'stuck';
  pick(b).click();
  return 'clicked';
}
if (game === 'splendor') {
  const cards = free('#play-board button.pl-pick').filter(b => b.querySelector('.sp-card'));
  const gems = free('#play-board [data-gems=bank] button.pl-pick').filter(b => b.getAttribute('aria-pressed') !== 'true');
  const take = enabled('play-sp-take');
  if (cards.length && Math.random() < 0.6) { pick(cards).click(); return 'clicked'; }
  if (take && (Math.random() < 0.4 || !gems.length)) { take.click(); return 'clicked'; }
  if (gems.length) { pick(gems).click(); return 'clicked'; }
  if (cards.length) { pick(cards).click(); return 'clicked'; }
  const pass = enabled('play-sp-pass');
  if (pass) { pass.click(); return 'clicked'; }
  return 'stuck';
}
if (game === 'guandan') {
  // Short deals: mostly pass, and lead single cards (the game runs until a side reaches A).
  const play = document.getElementById('play-gd-play');
  const ready = play && play.getAttribute('aria-disabled') === 'false';
  const passing = enabled('play-gd-pass');
  if (passing && !document.querySelector('#play-board .gd-hand [aria-pressed=true]') && Math.random() < 0.8) { passing.click(); return 'clicked'; }
  if (ready) { play.click(); return 'clicked'; }
  const cards = free('#play-board .gd-hand button.pl-pick').filter(b => b.getAttribute('aria-pressed') !== 'true');
  if (cards.length) { pick(cards).click(); return 'clicked'; }
  if (ready) { play.click(); return 'clicked'; }
  const pass = enabled('play-gd-pass');
  if (pass) { pass.click(); return 'clicked'; }
  const clear = document.getElementById('play-gd-clear');
  if (clear) { clear.click(); return 'clicked'; }
  return 'stuck';
}
if (game === 'bridge') {
  const bids = free('#play-controls .pl-bids button.pl-pick');
  const pass = enabled('play-br-pass');
  if (bids.length && !window.__bid) { window.__bid = 1; bids[0].click(); return 'clicked'; }
  if (pass) { pass.click(); return 'clicked'; }
  const cards = free('#play-board .br-hand button.pl-pick');
  if (cards.length) { pick(cards).click(); return 'clicked'; }
  return 'stuck';
}
if (game === 'hanabi') {
  const slots = free('#play-board button.pl-pick').filter(b => b.querySelector('.hb-slot'));
  const own = slots.filter(b => b.querySelector('.hb-slot').dataset.seat === me);
  const others = slots.filter(b => b.querySelector('.hb-slot').dataset.seat !== me);
  if (others.length && (Math.random() < 0.4 || !own.length)) { pick(others).click(); return 'clicked'; }
  if (own.length) { pick(own).click(); return 'clicked'; }
  return 'stuck';
}
return 'stuck';
"#;

/// Whether the server asks the person's seat a turn now (read synchronously in the page).
const SERVER_ASKS: &str = r#"
const play = document.getElementById('play');
const x = new XMLHttpRequest();
x.open('GET', play.dataset.stateUrl, false);
x.setRequestHeader('Accept', 'application/json');
x.send();
if (x.status !== 200) return false;
const s = JSON.parse(x.responseText);
return s.status === 'running' && !!s.turn && !s.turn.answered && s.turn.seconds_left > 2;
"#;

/// Two busy loops (`sh -c 'while :; do :; done'`), killed when dropped.
struct Burners(Vec<Child>);

impl Burners {
    fn start() -> Burners {
        Burners(
            (0..2)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .spawn()
                        .expect("a CPU burner")
                })
                .collect(),
        )
    }
}

impl Drop for Burners {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A ladder of `game` with `settings`, paused (its tables are the only matches); its id.
async fn paused_ladder(admin: &Api, game: &str, settings: &str) -> String {
    let mut body: Value = serde_json::from_str(settings).expect("settings");
    body["name"] = json!(format!("{game} tables"));
    body["game"] = json!(game);
    body["kind"] = json!("ladder");
    body["ladder"] = json!({ "matches_per_hour": 1, "max_pending": 1 });
    let created = admin.post("/api/v1/admin/competitions", body).await;
    let id = created["competition"]["competition_id"]
        .as_str()
        .unwrap_or_else(|| panic!("{game}: a ladder: {created}"))
        .to_owned();
    admin
        .post(
            &format!("/api/v1/admin/competitions/{id}/ladder"),
            json!({ "action": "pause" }),
        )
        .await;
    id
}

/// From the competition page to a seat against the built-in bots (the form's defaults).
async fn sit_down(browser: &Browser, base: &str, game: &str, competition: &str) {
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
            "document.querySelector('#play-new input[name=move_secs]').value = '120';",
            json!([]),
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
}

/// For a failure: the page's seat part and board, what the state URL answers now, and the end
/// of the server's log.
async fn diagnose(browser: &Browser, up: &Proc) -> String {
    let page = browser
        .run(
            "const play = document.getElementById('play');
             const x = new XMLHttpRequest();
             x.open('GET', play.dataset.stateUrl, false);
             x.setRequestHeader('Accept', 'application/json');
             x.send();
             const board = document.getElementById('play-board');
             return [play.outerHTML.slice(0, 3000), board.outerHTML.slice(0, 3000),
                     x.status + ' ' + x.responseText.slice(0, 3000)];",
            json!([]),
        )
        .await;
    let log = up.log_text();
    let lines: Vec<&str> = log.lines().collect();
    let tail = lines
        .get(lines.len().saturating_sub(60)..)
        .unwrap_or_default();
    format!(
        "page: {}\nboard: {}\nstate now: {}\nthe end of up.log:\n{}",
        page[0],
        page[1],
        page[2],
        tail.join("\n")
    )
}

/// What the first turn must show: the controls beside the person's own seat (on a phone not far
/// below the top of the seats), the page no wider than the screen, the words in the page's
/// language, axe clean; a screenshot.
async fn look_at_the_first_turn(browser: &Browser, axe: Option<&Axe>, game: &str, lang: &str) {
    let shots = screenshots();
    browser
        .screenshot(&shots.join(format!("play-board-{game}-{lang}.png")))
        .await;
    let seen = browser
        .run(
            "const panel = document.getElementById('play-controls');
             const mine = panel && panel.closest('.rv-me');
             const seats = document.querySelector('#play-board .rv-players');
             return [!!mine, panel && seats ? panel.getBoundingClientRect().top - seats.getBoundingClientRect().top : -1,
                     document.documentElement.scrollWidth, window.innerWidth,
                     document.getElementById('play-controls-h').textContent,
                     !!document.querySelector('#play-list:not([open])')];",
            json!([]),
        )
        .await;
    assert_eq!(
        seen[0], true,
        "{game}: the controls are in the person's own seat"
    );
    let below = seen[1].as_f64().unwrap_or(-1.0);
    assert!(
        (0.0..900.0).contains(&below),
        "{game}: the controls are {below} px below the top of the seats"
    );
    let (scroll, inner) = (seen[2].as_u64().unwrap_or(0), seen[3].as_u64().unwrap_or(0));
    assert!(
        scroll <= inner.max(390),
        "{game}: the page is {scroll} px wide on a {inner} px screen"
    );
    let title = if lang == "en" {
        "Your move"
    } else {
        "你的走法"
    };
    assert_eq!(seen[4], title, "{game}: the controls' words in {lang}");
    assert_eq!(seen[5], true, "{game}: the list of moves is folded away");
    if let Some(axe) = axe {
        let problems = axe.check(browser, &format!("play {game} ({lang})")).await;
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

/// Plays the open seat page to the end by clicking the board ([`STEP`]); fails should the page
/// not offer a turn the server asks for 10 s. Returns the moves sent.
async fn play_to_the_end(
    browser: &Browser,
    up: &Proc,
    axe: Option<&Axe>,
    game: &str,
    lang: &str,
) -> usize {
    let t0 = Instant::now();
    let mut sent = 0;
    let mut stuck = 0;
    let mut looked = false;
    let mut asked_since: Option<Instant> = None;
    let mut last_check = Instant::now();
    loop {
        assert!(
            t0.elapsed() < Duration::from_secs(900),
            "{game}: the match did not end in time ({sent} moves sent)\n{}",
            diagnose(browser, up).await
        );
        let status = browser
            .run(
                "return document.getElementById('play').dataset.status;",
                json!([]),
            )
            .await;
        if status == "finished" {
            return sent;
        }
        assert!(
            status != "failed" && status != "cancelled",
            "{game}: the match ended {status}\n{}",
            diagnose(browser, up).await
        );
        let key = browser
            .run(
                "return document.getElementById('play-turn').dataset.key;",
                json!([]),
            )
            .await;
        if !looked {
            let ready = browser
                .run(
                    "const b = document.getElementById('play-board');
                     const t = document.getElementById('play-turn');
                     return b.dataset.controls === '1' && !!t && b.dataset.key === t.dataset.key;",
                    json!([]),
                )
                .await;
            if ready == true {
                look_at_the_first_turn(browser, axe, game, lang).await;
                looked = true;
            }
        }
        let did = browser.run(STEP, json!([])).await;
        match did.as_str().unwrap_or("") {
            "sent" => {
                sent += 1;
                stuck = 0;
                asked_since = None;
                let moved = browser
                    .wait_for(
                        &format!(
                            "const t = document.getElementById('play-turn');
                             return !t || t.dataset.key !== {key};"
                        ),
                        Duration::from_secs(30),
                    )
                    .await;
                assert!(
                    moved,
                    "{game}: the page did not move on after move {sent}\n{}",
                    diagnose(browser, up).await
                );
            }
            "clicked" => stuck = 0,
            "stuck" => {
                stuck += 1;
                assert!(
                    stuck < 40,
                    "{game}: nothing on the board can be clicked\n{}",
                    diagnose(browser, up).await
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            _ => {
                // The board is not offering a turn: the server must not be asking one either
                // (for long: the page reads the state every 0.7 s).
                if last_check.elapsed() > Duration::from_millis(1000) {
                    last_check = Instant::now();
                    if browser.run(SERVER_ASKS, json!([])).await == true {
                        let since = *asked_since.get_or_insert_with(Instant::now);
                        assert!(
                            since.elapsed() < Duration::from_secs(10),
                            "{game}: the server asks the person's turn but the page has not offered it for {:?} (after {sent} moves)\n{}",
                            since.elapsed(),
                            diagnose(browser, up).await
                        );
                    } else {
                        asked_since = None;
                    }
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// At the end: the result and the person's place instead of the last position, nobody shown
/// "to play", no console error, axe clean.
async fn look_at_the_end(browser: &Browser, axe: Option<&Axe>, game: &str, lang: &str) {
    let end = browser
        .run(
            "const result = document.getElementById('play-result');
             return [result ? result.textContent : '',
                     document.querySelectorAll('#play-board .rv-turn').length,
                     document.querySelectorAll('#play-result tbody tr').length,
                     !!document.querySelector('#play-board [data-controls]') || !!document.getElementById('play-controls')];",
            json!([]),
        )
        .await;
    let text = end[0].as_str().unwrap_or("");
    let placed = if lang == "en" {
        "You placed"
    } else {
        "你获得"
    };
    let scored = if lang == "en" {
        "Your score"
    } else {
        "你的得分"
    };
    assert!(
        text.contains(placed) || text.contains(scored),
        "{game}: the end shows the person's result: {text}"
    );
    assert_eq!(end[1], 0, "{game}: nobody is shown to play at the end");
    assert!(
        end[2].as_u64().unwrap_or(0) >= 2,
        "{game}: every seat's result"
    );
    assert_eq!(end[3], false, "{game}: no controls once the match is over");
    browser
        .screenshot(&screenshots().join(format!("play-board-{game}-{lang}-end.png")))
        .await;
    if let Some(axe) = axe {
        let problems = axe
            .check(browser, &format!("play {game} end ({lang})"))
            .await;
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
    assert_eq!(
        browser.console_errors().await,
        Vec::<String>::new(),
        "{game}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_person_plays_each_game_by_clicking_the_board() {
    if !browser_or_skip("playing by clicking the board") {
        return;
    }
    let axe = axe_or_skip("playing by clicking the board");
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let pia = Api::user(&base, "pia", PASSWORD, true).await;
    pia.team("Pia's").await;
    let browser = Browser::start().await;
    browser.viewport(DESKTOP).await;
    log_in(&browser, &base, "pia").await;
    let mut lang_now = "en";
    for (game, viewport, lang, settings) in TABLES {
        let competition = paused_ladder(&admin, game, settings).await;
        if lang != lang_now {
            switch_language(&browser, &base, lang).await;
            lang_now = lang;
        }
        browser.viewport(viewport).await;
        let t0 = Instant::now();
        sit_down(&browser, &base, game, &competition).await;
        let sent = play_to_the_end(&browser, &up, axe.as_ref(), game, lang).await;
        look_at_the_end(&browser, axe.as_ref(), game, lang).await;
        // At least two: Bridge's dummy (North bids first, then passes) plays no card.
        assert!(sent >= 2, "{game}: only {sent} moves");
        eprintln!(
            "{game} ({lang}, {} px): a person played {sent} moves by clicking the board in {:?}",
            viewport.width,
            t0.elapsed()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn no_thanks_played_by_clicking_never_stalls_with_the_cpu_busy() {
    if !browser_or_skip("a No Thanks table under load") {
        return;
    }
    let axe = axe_or_skip("a No Thanks table under load");
    let dir = scratch();
    let up = Proc::up(dir.path()).await;
    let base = up.url();
    let admin = Api::user(&base, "admin", &up.admin_password(), false).await;
    let pia = Api::user(&base, "pia", PASSWORD, true).await;
    pia.team("Pia's").await;
    let competition = paused_ladder(&admin, "nothanks", "{}").await;
    let browser = Browser::start().await;
    browser.viewport(DESKTOP).await;
    log_in(&browser, &base, "pia").await;
    let burners = Burners::start();
    let t0 = Instant::now();
    sit_down(&browser, &base, "nothanks", &competition).await;
    let sent = play_to_the_end(&browser, &up, axe.as_ref(), "nothanks", "en").await;
    drop(burners);
    look_at_the_end(&browser, axe.as_ref(), "nothanks", "en").await;
    assert!(sent >= 5, "nothanks: only {sent} moves");
    eprintln!(
        "nothanks under two CPU burners: {sent} moves by clicking, no stall, in {:?}",
        t0.elapsed()
    );
}

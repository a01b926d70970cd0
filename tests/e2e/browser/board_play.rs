//! Playing by clicking the board, in Chromium: on the real `croupier up`, a signed-in person
//! sits down at a table of each game against the built-in bots (the play form's defaults) and
//! plays the whole match on the board's cards, gems, bids and the board's own buttons (never
//! the list of legal moves). Each match is seen at 1280 and 390 px in English and 简体中文: its
//! first turns are played one in each (the page reopened in the next width and language), with
//! the layout checked and axe clean each time, and at the end, where the page shows the result
//! and the person's place. No Thanks and Hanabi are played with the keyboard alone (Tab to the
//! control, Enter), with the focus ring visible on every control reached. And a No Thanks match
//! played by clicking while two CPU burners run, where the page must never stop offering the
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

/// The widths and languages every table is seen in, in this order from its first.
const VIEWS: [(Viewport, &str); 4] = [
    (DESKTOP, "en"),
    (PHONE, "zh-CN"),
    (PHONE, "en"),
    (DESKTOP, "zh-CN"),
];

/// Each game's table: the game, its first view (in [`VIEWS`]), whether it is played with the
/// keyboard alone, and the competition's settings that keep the match short (Bridge: one
/// board).
const TABLES: [(&str, usize, bool, &str); 5] = [
    ("splendor", 0, false, "{}"),
    ("nothanks", 1, true, "{}"),
    ("bridge", 2, false, r#"{"games_per_match": 1}"#),
    ("hanabi", 3, true, "{}"),
    ("guandan", 1, false, "{}"),
];

/// What the test does at the board, one click per run: a move selected is sent; a choice
/// offered is answered (Splendor: buying first); otherwise the game's own clicks. With the
/// keyboard (`arguments[0]`) the control is marked instead, for [`press_with_keyboard`].
/// Returns `wait` (the board is not ready for this turn), `sent`, `clicked` or `stuck`.
const STEP: &str = r#"
window.__kb = arguments[0];
const board = document.getElementById('play-board');
const turn = document.getElementById('play-turn');
if (!board || board.dataset.controls !== '1' || !turn || board.dataset.key !== turn.dataset.key) return 'wait';
const game = document.getElementById('play').dataset.game;
const me = document.getElementById('play').dataset.seat;
const free = (css) => [...document.querySelectorAll(css)].filter(b => b.getAttribute('aria-disabled') !== 'true' && !b.disabled);
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
// With the keyboard (`window.__kb`), the control is only marked: the test reaches it with Tab
// and presses Enter.
const act = (el) => {
  if (!window.__kb) { el.click(); return; }
  document.querySelectorAll('[data-kb]').forEach(e => e.removeAttribute('data-kb'));
  el.setAttribute('data-kb', '1');
};
const selected = document.getElementById('play-selected');
const send = document.getElementById('play-send');
if (send && selected && !selected.hidden) {
  if (send.disabled) return 'wait';
  act(send);
  return 'sent';
}
const options = [...document.querySelectorAll('#play-choice:not([hidden]) .pl-option')];
if (options.length) {
  const buy = options.find(o => (o.dataset.action || '').includes('"buy'));
  act(buy || pick(options));
  return 'clicked';
}
const enabled = (id) => { const b = document.getElementById(id); return b && b.getAttribute('aria-disabled') !== 'true' ? b : null; };
if (game === 'nothanks') {
  const b = free('#play-controls .pl-button');
  if (!b.length) return 'stuck';
  act(pick(b));
  return 'clicked';
}
if (game === 'splendor') {
  const cards = free('#play-board button.pl-pick').filter(b => b.querySelector('.sp-card'));
  const gems = free('#play-board [data-gems=bank] button.pl-pick').filter(b => b.getAttribute('aria-pressed') !== 'true');
  const take = enabled('play-sp-take');
  if (cards.length && Math.random() < 0.6) { act(pick(cards)); return 'clicked'; }
  if (take && (Math.random() < 0.4 || !gems.length)) { act(take); return 'clicked'; }
  if (gems.length) { act(pick(gems)); return 'clicked'; }
  if (cards.length) { act(pick(cards)); return 'clicked'; }
  const pass = enabled('play-sp-pass');
  if (pass) { act(pass); return 'clicked'; }
  return 'stuck';
}
if (game === 'guandan') {
  // Short deals: mostly pass, and lead single cards (the game runs until a side reaches A).
  const play = document.getElementById('play-gd-play');
  const ready = play && play.getAttribute('aria-disabled') === 'false';
  const passing = enabled('play-gd-pass');
  if (passing && !document.querySelector('#play-board .gd-hand [aria-pressed=true]') && Math.random() < 0.8) { act(passing); return 'clicked'; }
  if (ready) { act(play); return 'clicked'; }
  const cards = free('#play-board .gd-hand button.pl-pick').filter(b => b.getAttribute('aria-pressed') !== 'true');
  if (cards.length) { act(pick(cards)); return 'clicked'; }
  if (ready) { act(play); return 'clicked'; }
  const pass = enabled('play-gd-pass');
  if (pass) { act(pass); return 'clicked'; }
  const clear = document.getElementById('play-gd-clear');
  if (clear) { act(clear); return 'clicked'; }
  return 'stuck';
}
if (game === 'bridge') {
  const bids = free('#play-controls .pl-bids button.pl-pick');
  const pass = enabled('play-br-pass');
  if (bids.length && !window.__bid) { window.__bid = 1; act(bids[0]); return 'clicked'; }
  if (pass) { act(pass); return 'clicked'; }
  const cards = free('#play-board .br-hand button.pl-pick');
  if (cards.length) { act(pick(cards)); return 'clicked'; }
  return 'stuck';
}
if (game === 'hanabi') {
  const slots = free('#play-board button.pl-pick').filter(b => b.querySelector('.hb-slot'));
  const own = slots.filter(b => b.querySelector('.hb-slot').dataset.seat === me);
  const others = slots.filter(b => b.querySelector('.hb-slot').dataset.seat !== me);
  if (others.length && (Math.random() < 0.4 || !own.length)) { act(pick(others)); return 'clicked'; }
  if (own.length) { act(pick(own)); return 'clicked'; }
  return 'stuck';
}
return 'stuck';
"#;

/// The key of the turn the board offers now (`null`: none, or the board is not drawn for it).
const READY_KEY: &str = r#"
const b = document.getElementById('play-board');
const t = document.getElementById('play-turn');
return b && b.dataset.controls === '1' && t && b.dataset.key === t.dataset.key ? t.dataset.key : null;
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

/// From the competition page to a seat against the built-in bots (the form's defaults); returns
/// the seat page's address.
async fn sit_down(browser: &Browser, base: &str, game: &str, competition: &str) -> String {
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
    let url = browser.run("return location.href;", json!([])).await;
    url.as_str().expect("the seat page's address").to_owned()
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

/// What a turn must show in `view`: the controls beside the person's own seat (on a phone not
/// far below the top of the seats), the page no wider than the screen, the words in the view's
/// language, axe clean; a screenshot.
async fn look_at_the_turn(
    browser: &Browser,
    axe: Option<&Axe>,
    game: &str,
    view: (Viewport, &str),
) {
    let (viewport, lang) = view;
    let shots = screenshots();
    browser
        .screenshot(&shots.join(format!("play-board-{game}-{lang}-{}.png", viewport.width)))
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
        let at = format!("play {game} ({lang}, {} px)", viewport.width);
        let problems = axe.check(browser, &at).await;
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

/// A person's seat page and how the test plays it.
struct Seat<'a> {
    browser: &'a Browser,
    up: &'a Proc,
    axe: Option<&'a Axe>,
    base: &'a str,
    /// The seat page's address.
    url: String,
    game: &'a str,
    /// The first view (in [`VIEWS`]), the one the page is open in.
    first: usize,
    keyboard: bool,
}

impl Seat<'_> {
    /// The view the page is in once `seen` views have been shown.
    fn view(&self, seen: usize) -> (Viewport, &'static str) {
        VIEWS[(self.first + seen.max(1) - 1) % VIEWS.len()]
    }

    /// Reopens the seat page in `view`: the language chosen in the footer, the width set.
    async fn reopen_in(&self, view: (Viewport, &str), was: &str) {
        let (viewport, lang) = view;
        if lang != was {
            switch_language(self.browser, self.base, lang).await;
        }
        self.browser.viewport(viewport).await;
        self.browser.open(&self.url).await;
    }

    /// Waits up to `limit` for `script` to return true; fails with `what` and the diagnosis.
    async fn expect(&self, script: &str, limit: Duration, what: &str) {
        if !self.browser.wait_for(script, limit).await {
            let seen = diagnose(self.browser, self.up).await;
            panic!("{}: {what}: not within {limit:?}\n{seen}", self.game);
        }
    }

    /// Plays the match to the end ([`STEP`]), its first turns each in the next of the
    /// [`VIEWS`] (looked at with [`look_at_the_turn`]); fails should the page not offer a turn
    /// the server asks for 10 s. Returns the moves sent and the view the page ends in.
    async fn play_to_the_end(&self) -> (usize, (Viewport, &'static str)) {
        let (browser, game) = (self.browser, self.game);
        let t0 = Instant::now();
        let mut sent = 0;
        let mut stuck = 0;
        let mut seen = 0;
        let mut looked_at: Option<Value> = None;
        let mut asked_since: Option<Instant> = None;
        let mut last_check = Instant::now();
        loop {
            assert!(
                t0.elapsed() < Duration::from_secs(900),
                "{game}: the match did not end in time ({sent} moves sent)\n{}",
                diagnose(browser, self.up).await
            );
            let status = browser
                .run(
                    "return document.getElementById('play').dataset.status;",
                    json!([]),
                )
                .await;
            if status == "finished" {
                return (sent, self.view(seen));
            }
            assert!(
                status != "failed" && status != "cancelled",
                "{game}: the match ended {status}\n{}",
                diagnose(browser, self.up).await
            );
            let key = browser.run(READY_KEY, json!([])).await;
            // A new turn: while some view is still unseen, the page is reopened in the next.
            if !key.is_null() && looked_at.as_ref() != Some(&key) && seen < VIEWS.len() {
                if seen > 0 {
                    self.reopen_in(self.view(seen + 1), self.view(seen).1).await;
                    let ready = format!("return (() => {{ {READY_KEY} }})() !== null;");
                    self.expect(
                        &ready,
                        Duration::from_secs(20),
                        "the reopened page offers the turn",
                    )
                    .await;
                    asked_since = None;
                }
                seen += 1;
                look_at_the_turn(browser, self.axe, game, self.view(seen)).await;
                looked_at = Some(key.clone());
            }
            let did = browser.run(STEP, json!([self.keyboard])).await;
            let did = match did.as_str().unwrap_or("") {
                done @ ("sent" | "clicked") if self.keyboard => {
                    match press_with_keyboard(browser, game).await {
                        true => done.to_owned(),
                        false => "wait".to_owned(),
                    }
                }
                other => other.to_owned(),
            };
            match did.as_str() {
                "sent" => {
                    sent += 1;
                    stuck = 0;
                    asked_since = None;
                    let moved = format!(
                        "const t = document.getElementById('play-turn');
                         return !t || t.dataset.key !== {key};"
                    );
                    let what = format!("the page moves on after move {sent}");
                    self.expect(&moved, Duration::from_secs(30), &what).await;
                }
                "clicked" => stuck = 0,
                "stuck" => {
                    stuck += 1;
                    assert!(
                        stuck < 40,
                        "{game}: nothing on the board can be clicked\n{}",
                        diagnose(browser, self.up).await
                    );
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                _ => {
                    // The board is not offering a turn: the server must not be asking one
                    // either (for long: the page reads the state every 0.7 s).
                    if last_check.elapsed() > Duration::from_millis(1000) {
                        last_check = Instant::now();
                        if browser.run(SERVER_ASKS, json!([])).await == true {
                            let since = *asked_since.get_or_insert_with(Instant::now);
                            assert!(
                                since.elapsed() < Duration::from_secs(10),
                                "{game}: the server asks the person's turn but the page has not offered it for {:?} (after {sent} moves)\n{}",
                                since.elapsed(),
                                diagnose(browser, self.up).await
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
}

/// Reaches the control [`STEP`] marked (`data-kb`) with Tab alone and presses Enter on it, as a
/// keyboard user does, checking that the control shows its focus ring; `false` when the mark
/// went away first (the board was drawn afresh: the step is taken again).
async fn press_with_keyboard(browser: &Browser, game: &str) -> bool {
    for _ in 0..400 {
        let at = browser
            .run(
                "const el = document.querySelector('[data-kb]');
                 if (!el) return 'gone';
                 if (document.activeElement !== el) return 'elsewhere';
                 return el.matches(':focus-visible') ? getComputedStyle(el).outlineStyle : 'no ring';",
                json!([]),
            )
            .await;
        match at.as_str().unwrap_or("gone") {
            "gone" => return false,
            "elsewhere" => browser.press_tab().await,
            ring => {
                assert!(
                    ring != "none" && ring != "no ring",
                    "{game}: the control reached with Tab shows no focus ring ({ring})"
                );
                browser.press_enter().await;
                return true;
            }
        }
    }
    panic!("{game}: 400 presses of Tab never reached the control")
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
    for (game, first, keyboard, settings) in TABLES {
        let competition = paused_ladder(&admin, game, settings).await;
        let (viewport, lang) = VIEWS[first];
        if lang != lang_now {
            switch_language(&browser, &base, lang).await;
        }
        browser.viewport(viewport).await;
        let t0 = Instant::now();
        let url = sit_down(&browser, &base, game, &competition).await;
        let seat = Seat {
            browser: &browser,
            up: &up,
            axe: axe.as_ref(),
            base: &base,
            url,
            game,
            first,
            keyboard,
        };
        let (sent, (viewport, lang)) = seat.play_to_the_end().await;
        lang_now = lang;
        look_at_the_end(&browser, axe.as_ref(), game, lang).await;
        // At least two: Bridge's dummy (North bids first, then passes) plays no card.
        assert!(sent >= 2, "{game}: only {sent} moves");
        eprintln!(
            "{game}: a person played {sent} moves {} in {:?}, ending at {} px in {lang}",
            if keyboard {
                "with the keyboard"
            } else {
                "by clicking the board"
            },
            t0.elapsed(),
            viewport.width,
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
    let url = sit_down(&browser, &base, "nothanks", &competition).await;
    let seat = Seat {
        browser: &browser,
        up: &up,
        axe: axe.as_ref(),
        base: &base,
        url,
        game: "nothanks",
        first: 0,
        keyboard: false,
    };
    let (sent, (_, lang)) = seat.play_to_the_end().await;
    drop(burners);
    look_at_the_end(&browser, axe.as_ref(), "nothanks", lang).await;
    assert!(sent >= 5, "nothanks: only {sent} moves");
    eprintln!(
        "nothanks under two CPU burners: {sent} moves by clicking, no stall, in {:?}",
        t0.elapsed()
    );
}

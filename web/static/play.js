// The play page (a person's seat, services/server/src/pages/play.rs): draws what the seat sees
// with the replay viewer's board for the game, lets the person play by clicking the board
// (web/static/play/*.js), counts the clock down and announces it, sends a chosen move without
// leaving the page, and reads …/play.json for what comes next.
//
// One loop: each read brings the seat's state and its turn part together (one request), so
// the part shown, the match's status, the board and the clickable moves are always of one
// moment. A read that takes too long is abandoned and tried again; a watchdog restarts the
// loop should it ever stop; after a move is sent (taken or not) the board and its controls are
// drawn again from the next read, so the page never stays without the person's turn. Without
// JavaScript the page works as served: the moves are a form, and a link refreshes it.
//
// The DOM contract the browser tests rely on: #play has data-status (the match's); #play-turn
// has data-key (the state the page shows); #play-moves holds one button per legal move (the
// list); #play-board's data-key names the state its drawing shows, and data-controls="1" once
// its controls (see play/pick.js) are ready for that state.
(function () {
  "use strict";
  var root = document.getElementById("play");
  if (!root || !window.fetch) return;
  var stateUrl = root.getAttribute("data-state-url");
  var game = root.getAttribute("data-game");
  var seat = parseInt(root.getAttribute("data-seat"), 10);
  var board = document.getElementById("play-board");
  var observation = document.querySelector("#play-observation pre");
  var badge = document.getElementById("play-status");
  var live = document.getElementById("play-live");

  // How often the state is read while the match runs, after a failed read, how long one read
  // (or one sent move) may take before it is abandoned, and how long the loop may be silent
  // before the watchdog starts it again.
  var EVERY = 700, SOON = 250, SOON_FOR = 4000, AFTER_ERROR = 1500, GIVE_UP = 8000, SEND_GIVE_UP = 10000, SILENT = 15000;
  var STATUSES = /\b(queued|running|finished|failed|cancelled)\b/g;

  var t = window.croupierWords.t;
  var clock = null;
  var timer = null;
  var reading = false;
  var readAgain = false;
  var lastRead = Date.now();
  var drawnKey = null;
  var redraw = false;
  var current = null;
  var ended = false;
  // Until when the state is read more often (the others' moves after one's own come quickly).
  var soonUntil = 0;
  // A move was sent from the board: once it is drawn again, focus goes to its controls.
  var refocus = false;

  function shownKey() {
    var turn = document.getElementById("play-turn");
    return turn ? turn.getAttribute("data-key") : "";
  }

  function over(status) {
    return status === "finished" || status === "failed" || status === "cancelled";
  }

  function asking(state) {
    var turn = state.turn;
    return !over(state.status) && turn && !turn.answered && turn.seconds_left > 0;
  }

  function announce(words) {
    if (!live) return;
    live.textContent = "";
    // A fresh text node, a moment later, so screen readers read it again.
    setTimeout(function () { live.textContent = words; }, 50);
  }

  // Draws the board (and, on the person's turn, its controls) of the state once per state.
  function draw(state) {
    if (!window.CroupierViewer || !state.turn) return;
    if (state.key === drawnKey && !redraw) return;
    drawnKey = state.key;
    redraw = false;
    var obs = state.turn.observation;
    if (observation) observation.textContent = JSON.stringify(obs, null, 2);
    if (!asking(state)) {
      // Not the person's turn: nobody is shown "to play" on a finished match's last position.
      obs = Object.assign({}, obs);
      if (over(state.status)) obs.to_act = null;
    }
    var frame = { observation: obs, entry: null, outcome: null };
    board.removeAttribute("data-controls");
    var key = state.key;
    window.CroupierViewer.drawFrame(board, game, frame, state.players, seat).then(function () {
      if (drawnKey !== key) return;
      board.setAttribute("data-key", key);
      if (asking(state) && window.CroupierPlay) {
        var drawn = window.CroupierPlay.controls({
          game: game, board: board, obs: state.turn.observation, seat: seat,
          moves: state.turn.moves, players: state.players, send: send
        });
        if (!drawn) return;
        board.setAttribute("data-controls", "1");
        // Focus lost with the old board (the person's move was sent): to the controls.
        var heading = document.getElementById("play-controls-h");
        if (heading && refocus && (!document.activeElement || document.activeElement === document.body)) {
          heading.setAttribute("tabindex", "-1");
          heading.focus({ preventScroll: true });
          refocus = false;
        }
      }
    });
  }

  // Counts the seconds left down on #play-clock; tells screen readers at the turn's start and
  // at a minute, 30 and 10 seconds left (not every second).
  function tick(state) {
    clearInterval(clock);
    var el = document.getElementById("play-clock");
    if (!el || !asking(state)) return;
    var left = state.turn.seconds_left;
    announce(t("play-turn-announce", "Your turn: {n} s left.", { n: left }));
    clock = setInterval(function () {
      left = Math.max(0, left - 1);
      el.textContent = t("play-seconds-left", "{n} s left", { n: left });
      el.classList.toggle("pl-hurry", left <= 10);
      if (left === 60 || left === 30 || left === 10) announce(t("play-seconds-left", "{n} s left", { n: left }));
      if (left === 0) clearInterval(clock);
    }, 1000);
  }

  // Sends the chosen move; whatever the answer, the next read draws the page again.
  function send(move) {
    var form = document.getElementById("play-moves");
    if (!form || !current || !current.turn) return;
    var data = new URLSearchParams(new FormData(form));
    data.set("move", String(move.index));
    data.set("turn", String(current.turn.turn));
    var abort = window.AbortController ? new AbortController() : null;
    var giveUp = abort && setTimeout(function () { abort.abort(); }, SEND_GIVE_UP);
    fetch(form.action, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      signal: abort ? abort.signal : undefined
    }).then(function (r) {
      if (r.status === 204) return null;
      return r.json().then(function (body) { return body && body.error; }, function () { return null; })
        .then(function (error) { return error || t("play-not-taken", "The move was not taken."); });
    }, function () {
      return t("play-not-sent", "The move could not be sent; choose again.");
    }).then(function (problem) {
      clearTimeout(giveUp);
      var note = document.getElementById("play-problem");
      if (note) {
        note.textContent = problem || "";
        note.hidden = !problem;
      }
      redraw = true;
      refocus = true;
      soonUntil = Date.now() + SOON_FOR;
      read();
    });
  }

  // The list's buttons (the no-script fallback, folded away) send through send() too.
  function bindList() {
    var form = document.getElementById("play-moves");
    if (!form) return;
    var list = document.getElementById("play-list");
    if (list && board.getAttribute("data-game-controls") === "1") list.open = false;
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var button = e.submitter;
      if (!button || !button.value || !current || !current.turn) return;
      Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = true; });
      send({ index: parseInt(button.value, 10) });
    });
  }

  // Puts the state's turn part and status in place of the shown ones.
  function swap(state) {
    var old = document.getElementById("play-turn");
    var box = document.createElement("div");
    box.innerHTML = state.html;
    var fresh = box.querySelector("#play-turn");
    if (!old || !fresh) return;
    old.parentNode.replaceChild(fresh, old);
    root.setAttribute("data-status", state.status);
    if (badge) {
      badge.className = badge.className.replace(STATUSES, "").trim() + " " + state.status;
      badge.textContent = state.status_label;
    }
    bindList();
    tick(state);
    if (over(state.status) && !ended) {
      ended = true;
      var result = fresh.querySelector("#play-result");
      announce(result ? result.textContent.replace(/\s+/g, " ").trim() : state.status_label);
    }
  }

  function apply(state) {
    current = state;
    if (state.key !== shownKey() || redraw) swap(state);
    draw(state);
    redraw = false;
  }

  // Reads the state once (never two reads at a time: a read asked for meanwhile runs right
  // after) and schedules the next read until the match is over.
  function read() {
    clearTimeout(timer);
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    readAgain = false;
    var abort = window.AbortController ? new AbortController() : null;
    var giveUp = abort && setTimeout(function () { abort.abort(); }, GIVE_UP);
    fetch(stateUrl, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json" },
      signal: abort ? abort.signal : undefined
    })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (state) {
        apply(state);
        if (over(state.status)) return null;
        return Date.now() < soonUntil ? SOON : EVERY;
      })
      .catch(function () { return AFTER_ERROR; })
      .then(function (next) {
        clearTimeout(giveUp);
        reading = false;
        lastRead = Date.now();
        if (next === null) return;
        timer = setTimeout(read, readAgain ? 0 : next);
      });
  }

  // Should the loop ever fall silent (a read that neither ends nor is abandoned), start it
  // again.
  setInterval(function () {
    if (over(root.getAttribute("data-status"))) return;
    if (Date.now() - lastRead > SILENT) {
      reading = false;
      lastRead = Date.now();
      read();
    }
  }, 5000);

  function start() {
    board.setAttribute("data-game-controls", "1");
    bindList();
    read();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

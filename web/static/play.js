// The play page (a person's seat, services/server/src/pages/play.rs): draws what the seat sees
// with the replay viewer's board for the game, counts the clock down, sends a chosen move
// without leaving the page, and watches …/play.json for the next turn. One request brings the
// seat's state and its turn part together, so the part shown, the match's status and the board
// are always of one moment. Without JavaScript the page works as served: the moves are a form,
// and a link refreshes it.
//
// The DOM contract the browser tests rely on: #play has data-status (the match's); #play-turn
// has data-key (the state the page shows); #play-moves holds one button per legal move;
// #play-board's data-key names the state its drawing shows.
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

  // How often the state is read while the match runs, after a move, after a failed read, and
  // how long one read may take before it is abandoned and tried again.
  var EVERY = 700, AFTER_MOVE = 0, AFTER_ERROR = 2000, GIVE_UP = 10000;
  var STATUSES = /\b(queued|running|finished|failed|cancelled)\b/g;

  var clock = null;
  var timer = null;
  var reading = false;
  var readAgain = false;
  var drawnKey = null;

  // The page's words in its language (web/static/words.js).
  var t = window.croupierWords.t;

  function shownKey() {
    var turn = document.getElementById("play-turn");
    return turn ? turn.getAttribute("data-key") : "";
  }

  function over(status) {
    return status === "finished" || status === "failed" || status === "cancelled";
  }

  // Draws the board and the observation of the state the page shows, once per state.
  function draw(state) {
    if (state.key !== shownKey() || state.key === drawnKey || !window.CroupierViewer) return;
    drawnKey = state.key;
    if (!state.turn) return;
    if (observation) observation.textContent = JSON.stringify(state.turn.observation, null, 2);
    var frame = { observation: state.turn.observation, entry: null, outcome: null };
    window.CroupierViewer.drawFrame(board, game, frame, state.players, seat);
    board.setAttribute("data-key", state.key);
  }

  // Counts the seconds left down on #play-clock.
  function tick() {
    clearInterval(clock);
    var el = document.getElementById("play-clock");
    if (!el) return;
    var left = parseInt(el.getAttribute("data-seconds"), 10) || 0;
    clock = setInterval(function () {
      left = Math.max(0, left - 1);
      el.textContent = t("play-seconds-left", "{n} s left", { n: left });
      if (left === 0) clearInterval(clock);
    }, 1000);
  }

  // Sends the clicked move with fetch; the next read of the state shows what comes next.
  function bind() {
    tick();
    var form = document.getElementById("play-moves");
    if (!form) return;
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var button = e.submitter;
      if (!button || !button.value) return;
      var data = new URLSearchParams(new FormData(form));
      data.set("move", button.value);
      Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = true; });
      button.setAttribute("aria-busy", "true");
      fetch(form.action, {
        method: "POST",
        body: data,
        credentials: "same-origin",
        headers: { Accept: "application/json" }
      }).then(function (r) {
        if (r.status === 204) return null;
        return r.json().then(function (body) { return body && body.error || t("play-not-taken", "The move was not taken."); });
      }).then(function (problem) {
        if (problem) {
          var note = document.createElement("p");
          note.className = "error";
          note.setAttribute("role", "alert");
          note.textContent = problem;
          form.parentNode.insertBefore(note, form);
        }
        read();
      }).catch(read);
    });
  }

  // Puts the state's turn part and status in place of the shown ones.
  function swap(state) {
    var old = document.getElementById("play-turn");
    var box = document.createElement("div");
    box.innerHTML = state.html;
    var fresh = box.querySelector("#play-turn");
    if (!old || !fresh) return;
    var focused = old.contains(document.activeElement);
    old.parentNode.replaceChild(fresh, old);
    root.setAttribute("data-status", state.status);
    if (badge) {
      badge.className = badge.className.replace(STATUSES, "").trim() + " " + state.status;
      badge.textContent = state.status_label;
    }
    bind();
    var first = fresh.querySelector("#play-moves button");
    if (focused && first) first.focus();
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
        if (state.key !== shownKey()) swap(state);
        draw(state);
        return over(state.status) ? null : EVERY;
      })
      .catch(function () { return AFTER_ERROR; })
      .then(function (next) {
        clearTimeout(giveUp);
        reading = false;
        if (next === null) return;
        timer = setTimeout(read, readAgain ? AFTER_MOVE : next);
      });
  }

  // One read draws the board; a match already over is read once, a running one until it ends.
  function start() {
    bind();
    read();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

// The play page (a person's seat, services/server/src/pages/play.rs): draws what the seat sees
// with the replay viewer's board for the game, counts the clock down, sends a chosen move
// without leaving the page, and watches …/play.json for the next turn, swapping in the turn
// part (…/play?fragment=turn) when it changes. Without JavaScript the page works as served:
// the moves are a form, and a link refreshes it.
//
// The DOM contract the browser tests rely on: #play has data-status (the match's) and
// data-key (the state the page shows); #play-moves holds one button per legal move;
// #play-board's data-key names the state its drawing shows.
(function () {
  "use strict";
  var root = document.getElementById("play");
  if (!root || !window.fetch) return;
  var stateUrl = root.getAttribute("data-state-url");
  var fragmentUrl = root.getAttribute("data-fragment-url");
  var game = root.getAttribute("data-game");
  var seat = parseInt(root.getAttribute("data-seat"), 10);
  var board = document.getElementById("play-board");
  var clock = null;
  var timer = null;
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

  // Draws the board from a state only when it is the state the turn part shows: a fragment
  // fetched after the state may already hold a newer turn, whose board the next poll brings.
  function show(state) {
    if (state.key !== shownKey() || state.key === drawnKey || !window.CroupierViewer) return;
    drawnKey = state.key;
    if (!state.turn) return;
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

  // Sends the clicked move with fetch; the state poll then shows what comes next.
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
        poll(true);
      }).catch(function () { poll(true); });
    });
  }

  function swap(state) {
    return fetch(fragmentUrl, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var old = document.getElementById("play-turn");
        var focused = old && old.contains(document.activeElement);
        var box = document.createElement("div");
        box.innerHTML = html;
        var fresh = box.querySelector("#play-turn");
        if (!old || !fresh) return;
        old.parentNode.replaceChild(fresh, old);
        root.setAttribute("data-status", state.status);
        bind();
        var first = fresh.querySelector("#play-moves button");
        if (focused && first) first.focus();
      });
  }

  function poll(now) {
    clearTimeout(timer);
    fetch(stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (state) {
        var next = state.key !== shownKey() ? swap(state) : Promise.resolve();
        return next.then(function () {
          show(state);
          if (!over(state.status)) timer = setTimeout(poll, now ? 300 : 700);
        });
      })
      .catch(function () { timer = setTimeout(poll, 2000); });
  }

  function start() {
    fetch(stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(show)
      .catch(function () {});
    bind();
    if (!over(root.getAttribute("data-status"))) poll(false);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

// Croupier's replay viewer: no build step, no library.
//
// The match page holds <div id="replay" data-frames-url="…/frames.json" data-game="nothanks">.
// This script fetches the frames of one perspective (GET frames.json?view=omniscient|seat:N:
// every step of the match with that viewer's observation, the entry just played and, at the
// end, the outcome), draws the current step with the game's board and the controls: step
// back/forward, play/pause with a speed, a scrubber, the keys ←/→/space, the perspective, and
// the deep link #move=N (read on load, kept up to date while stepping).
//
// A game's board is web/static/viewer/<game>.js calling
//   CroupierViewer.register("<game>", { draw: function (box, frame, ctx) { … } })
// plus its name in BOARDS below; other games get the plain board (events and observation).
// A board draws each seat's box with ctx.player(seat, {onTurn, tags, score}, body), so every
// board marks the viewer's seat, the seat on turn and the score the same way.
//
// The DOM contract the browser tests rely on: #replay gets data-ready="1" once frames are
// drawn, data-moves (the last step) and data-step (the current one); the controls are
// #replay-prev, #replay-next, #replay-play, #replay-scrub and #replay-view (a select); every
// board draws each seat's score at the current step as [data-seat-score="<seat>"] (through
// ctx.scoreCell), which at the last step is the match's outcome.
(function () {
  "use strict";

  // The games with a board of their own, in web/static/viewer/<game>.js.
  var BOARDS = ["nothanks", "splendor", "hanabi", "guandan", "bridge"];
  var SPEEDS = [0.5, 1, 2, 4, 8];
  var base = (document.currentScript && document.currentScript.src || "/static/viewer/viewer.js")
    .replace(/[^/]*$/, "");
  var boards = {};

  // `view=seat:N` (or `omniscient`) in the fragment picks the perspective: deep links to a
  // seat's move, as the match page's "step through its moves" link makes.
  var VIEW_IN_HASH = /(?:^|[#&])view=(omniscient|seat:\d+)/;

  // count(1, "coin") is "1 coin", count(3, "coin") "3 coins" (the boards' nouns take an s).
  function count(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }

  // The page's words in its language (web/static/words.js).
  var t = window.croupierWords.t;

  // el("div", {class: "x", "data-seat": 1}, [child, "text"]): a new element.
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) return;
      if (name === "text") node.textContent = String(value);
      else node.setAttribute(name, value === true ? "" : String(value));
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
    });
    return node;
  }

  window.CroupierViewer = {
    register: function (game, board) { boards[game] = board; },
    el: el,
    t: t,
    // One frame as `seat` sees it, outside a replay (the play page): draws once the game's
    // board has loaded; scores are the observation's own.
    // The promise resolves once it is drawn.
    drawFrame: function (box, game, frame, players, seat) {
      return loadBoard(game).then(function () {
        var ctx = boardCtx(players, seat, false, function (s, observed) {
          return typeof observed === "number" ? observed : null;
        });
        drawBoard(box, game, frame, ctx);
      });
    }
  };

  // One load per game, however many draws wait on it, so draws finish in the order asked.
  var loading = {};
  function loadBoard(game) {
    if (!loading[game]) {
      loading[game] = new Promise(function (resolve) {
        if (BOARDS.indexOf(game) < 0 || boards[game]) { resolve(); return; }
        var script = el("script", { src: base + game + ".js" });
        script.onload = function () { resolve(); };
        script.onerror = function () { resolve(); };
        document.head.appendChild(script);
      });
    }
    return loading[game];
  }

  // A seat's result in an outcome ({seats: [{seat, score, rank}]}), or null.
  function resultOf(outcome, seat) {
    var seats = outcome && outcome.seats || [];
    for (var i = 0; i < seats.length; i++) if (seats[i].seat === seat) return seats[i];
    return null;
  }

  // The plain board: who is on turn and the observation as sent, scores at the end.
  function plainBoard(box, frame, ctx) {
    var obs = frame.observation || {};
    box.appendChild(el("ul", { class: "rv-seats" }, ctx.players.map(function (name, seat) {
      return el("li", { class: ctx.isViewer(seat) ? "rv-me" : null }, [
        el("strong", { text: name }), " ", ctx.scoreCell(seat, null)
      ]);
    })));
    box.appendChild(el("details", {}, [
      el("summary", { text: t("viewer-observation-summary", "The observation at this step") }),
      el("pre", { class: "log", tabindex: "0", role: "region", "aria-label": t("viewer-observation", "observation"), text: JSON.stringify(obs, null, 1) })
    ]));
  }

  // What a board draws with: the players, the viewing seat (or null), whether this is the
  // last step, and `score(seat, observed)`.
  function boardCtx(players, viewerSeat, last, score) {
    var ctx = {
      players: players,
      name: function (seat) { return players[seat] !== undefined ? players[seat] : t("viewer-seat", "seat {seat}", { seat: seat }); },
      view: viewerSeat === null ? "omniscient" : "seat:" + viewerSeat,
      viewerSeat: viewerSeat,
      isViewer: function (seat) { return viewerSeat !== null && viewerSeat === seat; },
      last: last,
      score: score,
      // One seat's box, the same on every board: its name (or `opts.title`), a "this view"
      // tag, `opts.tags`, a "to play" tag when `opts.onTurn` (text `opts.turnText`), the score
      // cell (`opts.score`, a node, or the plain score cell) on the right, then `body`.
      player: function (seat, opts, body) {
        opts = opts || {};
        var tags = (opts.tags || []).map(function (t) { return el("span", { class: "rv-tag", text: t }); });
        return el("div", {
          class: "rv-player" + (opts.onTurn ? " rv-turn" : "") + (ctx.isViewer(seat) ? " rv-me" : "")
        }, [
          el("div", { class: "rv-player-head" }, [
            el("strong", { text: opts.title || ctx.name(seat) }),
            ctx.isViewer(seat) ? el("span", { class: "rv-tag", text: t("viewer-this-view", "this view") }) : null
          ].concat(tags).concat([
            opts.onTurn ? el("span", { class: "rv-tag", text: opts.turnText || t("viewer-to-play", "\u25b6 to play") }) : null,
            el("span", { class: "rv-right" }, opts.score || [t("viewer-score", "score") + " ", ctx.scoreCell(seat, null)])
          ]))
        ].concat(body || []));
      },
      scoreCell: function (seat, observed) {
        var s = ctx.score(seat, observed);
        return el("span", { class: "rv-score", "data-seat-score": seat, text: s === null ? "\u2013" : s });
      },
      el: el,
      count: count,
      t: t
    };
    return ctx;
  }

  // Draws `frame` with the game's board into `box` (the plain board if it has none or fails).
  function drawBoard(box, game, frame, ctx) {
    box.textContent = "";
    var board = boards[game];
    try {
      (board && board.draw ? board.draw : plainBoard)(box, frame, ctx);
    } catch (err) {
      box.textContent = "";
      plainBoard(box, frame, ctx);
    }
  }

  function Viewer(root) {
    this.root = root;
    this.game = root.getAttribute("data-game") || "";
    this.url = root.getAttribute("data-frames-url");
    this.view = "omniscient";
    this.doc = null;
    this.step = 0;
    this.timer = null;
    this.build();
    var wanted = /(?:^|[#&])move=(\d+)/.exec(location.hash);
    if (wanted) this.step = parseInt(wanted[1], 10);
    var view = VIEW_IN_HASH.exec(location.hash);
    if (view) this.view = view[1];
    var self = this;
    loadBoard(this.game).then(function () { self.load(self.view); });
  }

  Viewer.prototype.build = function () {
    var self = this;
    this.root.textContent = "";
    this.root.setAttribute("data-ready", "0");
    this.prev = el("button", { id: "replay-prev", type: "button", title: t("viewer-back-title", "Back one step (\u2190)"), text: t("viewer-back", "\u25c0 Back") });
    this.play = el("button", { id: "replay-play", type: "button", title: t("viewer-play-title", "Play or pause (space)"), text: t("viewer-play", "\u25b6 Play") });
    this.next = el("button", { id: "replay-next", type: "button", title: t("viewer-next-title", "Forward one step (\u2192)"), text: t("viewer-next", "Next \u25b6") });
    this.speed = el("select", { id: "replay-speed", "aria-label": t("viewer-speed", "Speed") }, SPEEDS.map(function (s) {
      return el("option", { value: s, selected: s === 1, text: s + "\u00d7" });
    }));
    this.scrub = el("input", { id: "replay-scrub", type: "range", min: 0, max: 0, value: 0, "aria-label": t("viewer-step-label", "Step") });
    this.viewSelect = el("select", { id: "replay-view", "aria-label": t("viewer-perspective", "Perspective") }, [
      el("option", { value: "omniscient", text: t("viewer-omniscient", "Everything (omniscient)") })
    ]);
    this.counter = el("span", { class: "rv-counter", "aria-live": "polite" });
    this.status = el("p", { class: "muted rv-status", text: t("viewer-loading", "Loading the replay\u2026") });
    this.caption = el("div", { class: "rv-caption" });
    // The viewing seat's own move (time, memory, stderr): only its team gets `moves`.
    this.own = el("div", { id: "replay-own", class: "rv-own", hidden: true });
    this.board = el("div", { class: "rv-board" });
    this.root.appendChild(el("div", { class: "rv-controls" }, [
      this.prev, this.play, this.next, this.speed, this.counter
    ]));
    this.root.appendChild(el("div", { class: "rv-controls" }, [this.scrub]));
    this.root.appendChild(el("label", { class: "rv-view" }, [t("viewer-seen-by", "Seen by") + " ", this.viewSelect]));
    this.root.appendChild(this.status);
    this.root.appendChild(this.caption);
    this.root.appendChild(this.own);
    this.root.appendChild(this.board);

    this.prev.addEventListener("click", function () { self.stop(); self.go(self.step - 1); });
    this.next.addEventListener("click", function () { self.stop(); self.go(self.step + 1); });
    this.play.addEventListener("click", function () { self.toggle(); });
    this.speed.addEventListener("change", function () { if (self.timer) { self.stop(); self.start(); } });
    this.scrub.addEventListener("input", function () { self.stop(); self.go(parseInt(self.scrub.value, 10)); });
    this.viewSelect.addEventListener("change", function () { self.stop(); self.load(self.viewSelect.value); });
    document.addEventListener("keydown", function (e) { self.key(e); });
    window.addEventListener("hashchange", function () {
      var m = /(?:^|[#&])move=(\d+)/.exec(location.hash);
      var v = VIEW_IN_HASH.exec(location.hash);
      if (m) self.step = parseInt(m[1], 10);
      if (v && v[1] !== self.view) {
        self.stop();
        self.load(v[1]);
        if (self.root.scrollIntoView) self.root.scrollIntoView();
        return;
      }
      if (m && self.doc) self.go(self.step);
    });
  };

  Viewer.prototype.key = function (e) {
    if (!this.doc || e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || (e.target && e.target.isContentEditable)) return;
    if (e.key === "ArrowLeft") { this.stop(); this.go(this.step - 1); e.preventDefault(); }
    else if (e.key === "ArrowRight") { this.stop(); this.go(this.step + 1); e.preventDefault(); }
    else if (e.key === " " && tag !== "BUTTON") { this.toggle(); e.preventDefault(); }
  };

  // Only the latest request is drawn: switching perspective again before the first one has
  // arrived must not let the slower answer win.
  Viewer.prototype.load = function (view) {
    var self = this;
    var request = (this.requests = (this.requests || 0) + 1);
    var current = function () { return request === self.requests; };
    this.root.setAttribute("data-ready", "0");
    this.status.textContent = t("viewer-loading", "Loading the replay\u2026");
    this.status.hidden = false;
    var sep = this.url.indexOf("?") < 0 ? "?" : "&";
    fetch(this.url + sep + "view=" + encodeURIComponent(view), { headers: { Accept: "application/json" } })
      .then(function (r) {
        if (!r.ok) throw new Error(r.status === 409 ? t("viewer-not-finished", "The replay can be watched once the match has finished.") : t("viewer-load-failed-status", "The replay could not be loaded ({status}).", { status: r.status }));
        return r.json();
      })
      .then(function (doc) {
        if (!current()) return;
        if (!doc || !Array.isArray(doc.frames) || doc.frames.length === 0) throw new Error(t("viewer-no-steps", "This replay has no steps."));
        self.doc = doc;
        self.view = view;
        self.prepare();
        self.status.hidden = true;
        self.go(self.step);
        self.root.setAttribute("data-ready", "1");
      })
      .catch(function (err) {
        if (!current()) return;
        self.status.textContent = err && err.message ? err.message : t("viewer-load-failed", "The replay could not be loaded.");
        self.status.hidden = false;
        self.viewSelect.value = self.view;
      });
  };

  // Per loaded document: the perspectives, the scrubber's range, the scores carried over from
  // the match's earlier games.
  Viewer.prototype.prepare = function () {
    var doc = this.doc, self = this;
    this.players = Array.isArray(doc.players) ? doc.players : [];
    if (this.viewSelect.options.length === 1) {
      this.players.forEach(function (name, seat) {
        self.viewSelect.appendChild(el("option", { value: "seat:" + seat, text: t("viewer-view-seat", "Seat {seat}: {name}", { seat: seat, name: name }) }));
      });
    }
    this.viewSelect.value = this.view;
    this.moves = {};
    (Array.isArray(doc.moves) ? doc.moves : []).forEach(function (m) {
      self.moves[m.game + ":" + m.entry] = m;
    });
    var last = doc.frames.length - 1;
    this.root.setAttribute("data-moves", String(last));
    this.scrub.max = String(last);
    this.carried = [];
    var running = this.players.map(function () { return 0; });
    doc.frames.forEach(function (frame, i) {
      self.carried[i] = running.slice();
      (frame.outcome && frame.outcome.seats || []).forEach(function (r) {
        if (typeof r.score === "number" && r.seat < running.length) running[r.seat] += r.score;
      });
    });
  };

  Viewer.prototype.go = function (step) {
    if (!this.doc) return;
    var last = this.doc.frames.length - 1;
    if (!(step >= 0)) step = 0;
    this.step = Math.min(step, last);
    this.root.setAttribute("data-step", String(this.step));
    this.scrub.value = String(this.step);
    this.prev.disabled = this.step === 0;
    this.next.disabled = this.step === last;
    var gameNo = this.doc.frames[this.step].game || 0;
    this.counter.textContent = t("viewer-step", "Step {step} of {last}", { step: this.step, last: last }) +
      (this.doc.games > 1 ? " \u00b7 " + t("viewer-game-of", "game {game} of {games}", { game: gameNo + 1, games: this.doc.games }) : "");
    this.remember();
    this.draw();
    if (this.step === last) this.stop();
  };

  // The deep link #move=N, written once stepping pauses (browsers throttle rapid rewrites).
  // A link followed in the meantime (a new hash whose hashchange has not run yet) wins: the
  // pending rewrite is dropped rather than putting the old step back over it.
  Viewer.prototype.remember = function () {
    var self = this;
    if (!history.replaceState) return;
    clearTimeout(this.hashTimer);
    var before = location.hash;
    this.hashTimer = setTimeout(function () {
      if (location.hash !== before) return;
      var view = self.view === "omniscient" ? "" : "&view=" + self.view;
      history.replaceState(null, "", "#move=" + self.step + view);
    }, 250);
  };

  Viewer.prototype.draw = function () {
    var frame = this.doc.frames[this.step], self = this;
    var last = this.step === this.doc.frames.length - 1;
    var viewSeat = /^seat:(\d+)$/.exec(this.view);
    // The score of `seat` at this step: `observed` (this game's, from the observation) plus
    // earlier games'; at the last step the match's outcome.
    var score = function (seat, observed) {
      if (last && self.doc.outcome) {
        var r = resultOf(self.doc.outcome, seat);
        if (r) return r.score;
      }
      var own = resultOf(frame.outcome, seat);
      if (own) observed = own.score;
      if (typeof observed !== "number") return null;
      return observed + ((self.carried[self.step] || [])[seat] || 0);
    };
    var ctx = boardCtx(this.players, viewSeat ? parseInt(viewSeat[1], 10) : null, last, score);
    this.caption.textContent = "";
    this.caption.appendChild(this.describe(frame, ctx));
    this.drawOwn(frame);
    drawBoard(this.board, this.game, frame, ctx);
  };

  // For the seat's own team: at each of its moves, the time the answer took, the memory peak
  // and the stderr it wrote for that move (docs/replays.md#move-by-move).
  Viewer.prototype.drawOwn = function (frame) {
    var box = this.own;
    box.textContent = "";
    box.removeAttribute("data-ms");
    if (!Array.isArray(this.doc.moves)) { box.hidden = true; return; }
    box.hidden = false;
    var m = frame.entry ? this.moves[(frame.game || 0) + ":" + frame.entry.n] : null;
    if (!m) {
      box.appendChild(el("p", { class: "muted", text: t("viewer-own-hint", "Your bot's moves show their time, memory and stderr here.") }));
      return;
    }
    box.setAttribute("data-ms", String(m.ms));
    var facts = t("viewer-own-move", "Your bot's move: {ms} ms", { ms: m.ms });
    if (typeof m.peak_kib === "number") facts += " \u00b7 " + t("viewer-own-peak", "memory peak {mib} MiB", { mib: (m.peak_kib / 1024).toFixed(1) });
    if (m.forced) facts += " \u00b7 " + t("viewer-own-forced", "lost: the referee played for it");
    box.appendChild(el("p", { class: "rv-own-facts", text: facts }));
    if (m.stderr) box.appendChild(el("pre", { class: "rv-own-stderr", tabindex: "0", role: "region", "aria-label": t("viewer-own-stderr", "stderr of this move"), text: m.stderr }));
    else box.appendChild(el("p", { class: "muted", text: t("viewer-own-no-stderr", "Nothing on stderr during this move.") }));
  };

  // The entry just played, in words.
  Viewer.prototype.describe = function (frame, ctx) {
    var entry = frame.entry;
    if (!entry) return el("p", { class: "rv-entry", text: t("viewer-game-start", "The start of game {game}.", { game: (frame.game || 0) + 1 }) });
    var who = ctx.name(entry.seat);
    var lines = [];
    if (entry.kind === "move") {
      lines = (entry.events || []).slice();
      if (lines.length === 0) lines.push(t("viewer-plays", "{who} plays {action}", { who: who, action: JSON.stringify(entry.action) }));
      if (entry.forced) lines.push(t("viewer-forced", "(played for {who} by the referee after a fault)", { who: who }));
    } else if (entry.kind === "refused") {
      lines.push(t("viewer-refused", "{who} tried {action}: refused, {note}", { who: who, action: JSON.stringify(entry.action), note: entry.note || "" }));
    } else {
      // The word, not only the red colour, says it is a fault.
      lines.push(t("viewer-fault", "Fault, {who}: {note}", { who: who, note: entry.note || t("viewer-no-reason", "no reason given") }));
    }
    var box = el("div", { class: "rv-entry rv-" + entry.kind }, [
      el("span", { class: "rv-n", text: "#" + entry.n + " " })
    ]);
    lines.forEach(function (line, i) {
      if (i > 0) box.appendChild(el("br"));
      box.appendChild(document.createTextNode(line));
    });
    if (ctx.last && frame.outcome) {
      box.appendChild(el("br"));
      box.appendChild(el("strong", { text: t("viewer-game-over", "Game over.") }));
    }
    return box;
  };

  Viewer.prototype.toggle = function () { if (this.timer) this.stop(); else this.start(); };

  Viewer.prototype.start = function () {
    if (!this.doc) return;
    var self = this;
    if (this.step >= this.doc.frames.length - 1) this.go(0);
    var speed = parseFloat(this.speed.value) || 1;
    this.timer = setInterval(function () { self.go(self.step + 1); }, 800 / speed);
    this.play.textContent = t("viewer-pause", "\u275a\u275a Pause");
    this.play.setAttribute("aria-pressed", "true");
  };

  Viewer.prototype.stop = function () {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.play.textContent = t("viewer-play", "\u25b6 Play");
    this.play.setAttribute("aria-pressed", "false");
  };

  function init() {
    var root = document.getElementById("replay");
    if (root && root.getAttribute("data-frames-url") && window.fetch) new Viewer(root);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();

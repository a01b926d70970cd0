// Live updates of a competition's pages and of a running match's page, from the server's
// event stream (`#live[data-events]`, see services/server/src/live/). The pages are complete
// without this script; it only keeps them current:
// * `progress`: the counts, the progress bar and the competition's status;
// * `match`: a match's status in the match list;
// * `board`: results changed: the leaderboard table and the match list are fetched again
//   (`?fragment=board`, `?fragment=matches`) and swapped in;
// * `status` (a match page): the status; when the match has ended the page reloads, and shows
//   the result and the replay.
// What changed is read out politely by the `#live` region (aria-live="polite").
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !live.dataset.events || !window.EventSource) {
    return;
  }
  var ENDED = ["finished", "failed", "cancelled"];

  // The page's words in its language (web/static/words.js).
  var t = window.croupierWords.t;

  // A status in the page's language (the status itself in English).
  function word(status) {
    var words = {
      queued: t("label-status-queued", "queued"),
      running: t("label-status-running", "running"),
      finished: t("label-status-finished", "finished"),
      failed: t("label-status-failed", "failed"),
      cancelled: t("label-status-cancelled", "cancelled"),
      scheduled: t("label-status-scheduled", "scheduled"),
      paused: t("label-status-paused", "paused")
    };
    return Object.prototype.hasOwnProperty.call(words, status) ? words[status] : status;
  }
  // The page's status badge, beside its title.
  var BADGE = ".title-row > .status.big";

  function announce(text) {
    live.textContent = text;
  }

  function setStatus(el, status) {
    if (!el) {
      return;
    }
    el.className = el.className.replace(/\b(queued|running|finished|failed|cancelled|scheduled)\b/g, "").trim();
    el.classList.add(status);
    el.textContent = word(status);
  }

  function json(e) {
    try {
      return JSON.parse(e.data);
    } catch (err) {
      return null;
    }
  }

  var source = new EventSource(live.dataset.events);
  source.addEventListener("open", function () {
    live.dataset.open = "1";
  });

  // A match page.
  if (!live.dataset.fragments) {
    source.addEventListener("status", function (e) {
      var d = json(e);
      if (!d) {
        return;
      }
      var badge = document.querySelector(BADGE);
      var changed = !badge || badge.textContent.trim() !== word(d.status);
      setStatus(badge, d.status);
      if (ENDED.indexOf(d.status) >= 0) {
        source.close();
        announce(d.status === "finished"
          ? t("live-match-finished", "The match has finished; loading its result.")
          : t("live-match-ended", "The match has ended: {status}; loading its result.", { status: word(d.status) }));
        window.location.reload();
      } else if (changed) {
        announce(t("live-match-is", "The match is {status}.", { status: word(d.status) }));
      }
    });
    return;
  }

  // A competition's progress page or its leaderboard page.
  var base = live.dataset.fragments;
  var page = new URLSearchParams(window.location.search).get("page") || "1";

  function focusables(el) {
    return Array.prototype.slice.call(el.querySelectorAll('a[href], button, [tabindex="0"]'));
  }

  function swap(selector, url) {
    var target = document.querySelector(selector);
    if (!target) {
      return Promise.resolve();
    }
    return fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        return r.ok ? r.text() : Promise.reject(new Error("HTTP " + r.status));
      })
      .then(function (html) {
        // Focus inside the part stays on the same control of its new copy.
        var before = focusables(target).indexOf(document.activeElement);
        target.innerHTML = html;
        var now = focusables(target);
        if (before >= 0 && now.length > 0) {
          now[Math.min(before, now.length - 1)].focus({ preventScroll: true });
        }
      });
  }

  var fetching = null;
  var again = false;
  // Fetches the board and the match list; a `board` event during a fetch makes one more after it.
  function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = Promise.all([
      swap('[data-live="board"]', base + "?fragment=board"),
      swap('[data-live="matches"]', base + "?fragment=matches&page=" + encodeURIComponent(page))
    ]).then(function () {
      document.documentElement.dataset.liveBoards = String(Number(document.documentElement.dataset.liveBoards || 0) + 1);
    }, function () {
      // The next event tries again; the page still shows what it had.
    }).then(function () {
      fetching = null;
      if (again) {
        again = false;
        refresh();
      }
    });
  }

  var shown = null;
  source.addEventListener("progress", function (e) {
    var d = json(e);
    if (!d) {
      return;
    }
    ["queued", "running", "finished", "failed", "cancelled", "label"].forEach(function (key) {
      document.querySelectorAll('[data-count="' + key + '"]').forEach(function (el) {
        el.textContent = d[key];
      });
    });
    var bar = document.querySelector('[data-live="bar"]');
    if (bar) {
      bar.setAttribute("aria-label", d.label);
      bar.textContent = "";
      ["finished", "failed", "cancelled", "running", "queued"].forEach(function (key) {
        if (d[key] > 0) {
          var span = document.createElement("span");
          span.className = key;
          span.style.flexGrow = d[key];
          bar.appendChild(span);
        }
      });
    }
    setStatus(document.querySelector(BADGE), d.status);
    if (shown !== null && shown !== d.label) {
      announce(d.label);
    }
    shown = d.label;
  });

  source.addEventListener("match", function (e) {
    var d = json(e);
    if (!d) {
      return;
    }
    var row = document.querySelector('tr[data-match="' + d.match_id + '"]');
    if (row) {
      setStatus(row.querySelector('[data-live="match-status"]'), d.status);
    }
  });

  source.addEventListener("board", refresh);

  // After a lost connection (the server restarted), what changed meanwhile is fetched again.
  var opened = false;
  source.addEventListener("open", function () {
    if (opened) {
      refresh();
    }
    opened = true;
  });
})();

// Keeps one part of a page current by fetching it again: the element with `data-poll` names
// the address of its fresh copy (the same HTML, alone) and `data-every` how often, in
// milliseconds. The fresh copy replaces it; once the copy has no `data-poll` (what it shows is
// final) the polling stops. A fresh copy with `data-reload` reloads the whole page instead
// (what changed is more than the part). The copy's `data-say`, when it changed, is read out by
// the page's `#poll-live` region (aria-live="polite"). The pages are complete without this
// script: they refresh themselves (a <noscript> meta refresh) and offer a reload link.
(function () {
  "use strict";
  var part = document.querySelector("[data-poll]");
  if (!part || !window.fetch) {
    return;
  }
  var live = document.getElementById("poll-live");
  var failures = 0;

  function schedule() {
    // Slower after failures (the server restarting, the network gone), up to a minute.
    var every = Number(part.dataset.every) || 3000;
    setTimeout(tick, Math.min(every * Math.pow(2, failures), 60000));
  }

  function tick() {
    fetch(part.dataset.poll, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        return r.ok ? r.text() : Promise.reject(new Error("HTTP " + r.status));
      })
      .then(function (html) {
        failures = 0;
        var box = document.createElement("div");
        box.innerHTML = html;
        var fresh = box.firstElementChild;
        if (!fresh) {
          schedule();
          return;
        }
        if (fresh.hasAttribute("data-reload")) {
          window.location.reload();
          return;
        }
        var said = part.dataset.say;
        part.replaceWith(fresh);
        part = fresh;
        if (live && part.dataset.say && part.dataset.say !== said) {
          live.textContent = part.dataset.say;
        }
        document.documentElement.dataset.polled = String(Number(document.documentElement.dataset.polled || 0) + 1);
        if (part.hasAttribute("data-poll")) {
          schedule();
        }
      }, function () {
        failures = Math.min(failures + 1, 5);
        schedule();
      });
  }

  schedule();
})();

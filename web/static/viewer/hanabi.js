// The Hanabi board for the replay viewer (see viewer.js): the fireworks, clue and fuse tokens,
// the deck and the discard pile, and every hand with what its holder knows from the hints
// (the possible colours and numbers under each card, touched cards marked). A hand the viewer
// cannot see (the seat's own, in its perspective) shows "?" with the knowledge only. Every
// colour also has its letter, so colour is never the only signal.
(function () {
  "use strict";
  var el = window.CroupierViewer.el;
  var t = window.CroupierViewer.t;
  // Colour index → [name, letter, css class], in the engine's order.
  // The letters are the colours' initials in the page's language (红 黄 蓝 绿 白 彩 in Chinese).
  var COLORS = [
    [t("viewer-hanabi-red", "red"), t("viewer-hanabi-letter-red", "R"), "hb-red"],
    [t("viewer-hanabi-yellow", "yellow"), t("viewer-hanabi-letter-yellow", "Y"), "hb-yellow"],
    [t("viewer-hanabi-blue", "blue"), t("viewer-hanabi-letter-blue", "B"), "hb-blue"],
    [t("viewer-hanabi-green", "green"), t("viewer-hanabi-letter-green", "G"), "hb-green"],
    [t("viewer-hanabi-white", "white"), t("viewer-hanabi-letter-white", "W"), "hb-white"],
    [t("viewer-hanabi-rainbow", "rainbow"), t("viewer-hanabi-letter-rainbow", "M"), "hb-rainbow"]
  ];

  function colorsOf(obs) { return COLORS.slice(0, obs.rainbow ? 6 : 5); }

  function card(color, number, extra) {
    if (color < 0 || number < 0) {
      return el("span", { class: "hb-card hb-unknown " + (extra || ""), title: t("viewer-hanabi-not-visible", "not visible to this viewer"), text: "?" });
    }
    var c = COLORS[color] || ["?", "?", ""];
    return el("span", { class: "hb-card " + c[2] + " " + (extra || ""), title: t("viewer-hanabi-card", "{color} {number}", { color: c[0], number: number }), text: c[1] + number });
  }

  // The possible colours and numbers of a card from its knowledge bitmasks.
  function knowledge(k, obs) {
    if (!k) return null;
    var colors = colorsOf(obs).filter(function (c, i) { return k.colors & (1 << i); })
      .map(function (c) { return c[1]; }).join("");
    var numbers = [1, 2, 3, 4, 5].filter(function (n) { return k.numbers & (1 << n); }).join("");
    return el("span", {
      class: "hb-know" + (k.touched ? " hb-touched" : ""),
      title: (k.touched ? t("viewer-hanabi-hinted", "hinted;") + " " : "") + t("viewer-hanabi-may-be", "may be {colors} / {numbers}", { colors: colors, numbers: numbers })
    }, [(k.touched ? "\u2022 " : "") + colors, el("br"), numbers]);
  }

  // Why the game ended, in the page's language (the engine's word in English).
  function endReason(kind) {
    var names = {
      strikeout: t("viewer-hanabi-end-strikeout", "strikeout"),
      deck_out: t("viewer-hanabi-end-deck-out", "deck_out"),
      complete: t("viewer-hanabi-end-complete", "complete"),
      fault: t("viewer-hanabi-end-fault", "fault")
    };
    if (!kind) return t("viewer-hanabi-end", "end");
    return Object.prototype.hasOwnProperty.call(names, kind) ? names[kind] : kind;
  }

  function draw(box, frame, ctx) {
    var obs = frame.observation || {};
    var top = el("div", { class: "hb-top" });
    var works = el("div", { class: "hb-fireworks", "aria-label": t("viewer-hanabi-fireworks", "fireworks") });
    colorsOf(obs).forEach(function (c, i) {
      var height = (obs.stacks || [])[i] || 0;
      works.appendChild(el("span", { class: "hb-card hb-stack " + c[2], title: t("viewer-hanabi-firework-at", "{color} firework at {height}", { color: c[0], height: height }), text: c[1] + height }));
    });
    top.appendChild(works);
    top.appendChild(el("p", { class: "hb-tokens" }, [
      el("span", { text: "\u2139 " + t("viewer-hanabi-clues", "clues {n}/8", { n: obs.hint_tokens || 0 }) }), " \u00b7 ",
      el("span", { class: (obs.error_tokens || 0) >= 2 ? "hb-danger" : null, text: "\u26a1 " + t("viewer-hanabi-fuses", "fuses {n}/3", { n: obs.error_tokens || 0 }) }), " \u00b7 ",
      el("span", { text: t("viewer-hanabi-deck", ctx.count(obs.deck_count || 0, "card") + " in the deck", { n: obs.deck_count || 0 }) }),
      obs.turns_left !== null && obs.turns_left !== undefined ? " \u00b7 " + t("viewer-hanabi-turns-left", "{turns} turns left", { turns: obs.turns_left }) : null,
      " \u00b7 " + t("viewer-score", "score") + " ", el("strong", { text: obs.score || 0 })
    ]));
    var discards = el("div", { class: "hb-discards" }, [el("span", { class: "muted", text: t("viewer-hanabi-discarded", "Discarded:") + " " })]);
    var pile = (obs.discards || []).slice().sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    if (pile.length === 0) discards.appendChild(el("span", { class: "muted", text: t("viewer-nothing", "nothing") }));
    pile.forEach(function (d) { discards.appendChild(card(d[0], d[1], "hb-small")); });
    top.appendChild(discards);
    if (obs.end) {
      top.appendChild(el("p", { class: "hb-end", text: t("viewer-hanabi-game-over", "Game over ({reason}): score {score}", { reason: endReason((obs.end.reason || {}).kind), score: obs.end.score }) }));
    }
    box.appendChild(top);

    var list = el("div", { class: "rv-players" });
    var count = Math.max((obs.hand_color || []).length, ctx.players.length);
    for (var seat = 0; seat < count; seat++) {
      var colors = (obs.hand_color || [])[seat] || [];
      var numbers = (obs.hand_number || [])[seat] || [];
      var known = (obs.knowledge || [])[seat] || [];
      var hand = el("div", { class: "hb-hand" });
      colors.forEach(function (c, slot) {
        hand.appendChild(el("span", { class: "hb-slot", "data-seat": seat, "data-slot": slot, "data-color": c, "data-number": numbers[slot] }, [card(c, numbers[slot]), knowledge(known[slot], obs)]));
      });
      if (colors.length === 0) hand.appendChild(el("span", { class: "muted", text: t("viewer-no-cards", "no cards") }));
      var onTurn = obs.to_act === seat;
      list.appendChild(ctx.player(seat, { onTurn: onTurn, score: [t("viewer-score", "score") + " ", ctx.scoreCell(seat, obs.score)] }, [hand]));
    }
    box.appendChild(list);
  }

  window.CroupierViewer.register("hanabi", { draw: draw });
})();

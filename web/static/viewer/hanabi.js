// The Hanabi board for the replay viewer (see viewer.js): the fireworks, clue and fuse tokens,
// the deck and the discard pile, and every hand with what its holder knows from the hints
// (the possible colours and numbers under each card, touched cards marked). A hand the viewer
// cannot see (the seat's own, in its perspective) shows "?" with the knowledge only. Every
// colour also has its letter, so colour is never the only signal.
(function () {
  "use strict";
  var el = window.CroupierViewer.el;
  // Colour index → [name, letter, css class], in the engine's order.
  var COLORS = [
    ["red", "R", "hb-red"], ["yellow", "Y", "hb-yellow"], ["blue", "B", "hb-blue"],
    ["green", "G", "hb-green"], ["white", "W", "hb-white"], ["rainbow", "M", "hb-rainbow"]
  ];

  function colorsOf(obs) { return COLORS.slice(0, obs.rainbow ? 6 : 5); }

  function card(color, number, extra) {
    if (color < 0 || number < 0) {
      return el("span", { class: "hb-card hb-unknown " + (extra || ""), title: "not visible to this viewer", text: "?" });
    }
    var c = COLORS[color] || ["?", "?", ""];
    return el("span", { class: "hb-card " + c[2] + " " + (extra || ""), title: c[0] + " " + number, text: c[1] + number });
  }

  // The possible colours and numbers of a card from its knowledge bitmasks.
  function knowledge(k, obs) {
    if (!k) return null;
    var colors = colorsOf(obs).filter(function (c, i) { return k.colors & (1 << i); })
      .map(function (c) { return c[1]; }).join("");
    var numbers = [1, 2, 3, 4, 5].filter(function (n) { return k.numbers & (1 << n); }).join("");
    return el("span", {
      class: "hb-know" + (k.touched ? " hb-touched" : ""),
      title: (k.touched ? "hinted; " : "") + "may be " + colors + " / " + numbers
    }, [(k.touched ? "\u2022 " : "") + colors, el("br"), numbers]);
  }

  function draw(box, frame, ctx) {
    var obs = frame.observation || {};
    var top = el("div", { class: "hb-top" });
    var works = el("div", { class: "hb-fireworks", "aria-label": "fireworks" });
    colorsOf(obs).forEach(function (c, i) {
      var height = (obs.stacks || [])[i] || 0;
      works.appendChild(el("span", { class: "hb-card hb-stack " + c[2], title: c[0] + " firework at " + height, text: c[1] + height }));
    });
    top.appendChild(works);
    top.appendChild(el("p", { class: "hb-tokens" }, [
      el("span", { text: "\u2139 clues " + (obs.hint_tokens || 0) + "/8" }), " \u00b7 ",
      el("span", { class: (obs.error_tokens || 0) >= 2 ? "hb-danger" : null, text: "\u26a1 fuses " + (obs.error_tokens || 0) + "/3" }), " \u00b7 ",
      el("span", { text: ctx.count(obs.deck_count || 0, "card") + " in the deck" }),
      obs.turns_left !== null && obs.turns_left !== undefined ? " \u00b7 " + obs.turns_left + " turns left" : null,
      " \u00b7 score ", el("strong", { text: obs.score || 0 })
    ]));
    var discards = el("div", { class: "hb-discards" }, [el("span", { class: "muted", text: "Discarded: " })]);
    var pile = (obs.discards || []).slice().sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    if (pile.length === 0) discards.appendChild(el("span", { class: "muted", text: "nothing" }));
    pile.forEach(function (d) { discards.appendChild(card(d[0], d[1], "hb-small")); });
    top.appendChild(discards);
    if (obs.end) {
      top.appendChild(el("p", { class: "hb-end", text: "Game over (" + ((obs.end.reason || {}).kind || "end") + "): score " + obs.end.score }));
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
        hand.appendChild(el("span", { class: "hb-slot" }, [card(c, numbers[slot]), knowledge(known[slot], obs)]));
      });
      if (colors.length === 0) hand.appendChild(el("span", { class: "muted", text: "no cards" }));
      var onTurn = obs.to_act === seat;
      list.appendChild(ctx.player(seat, { onTurn: onTurn, score: ["score ", ctx.scoreCell(seat, obs.score)] }, [hand]));
    }
    box.appendChild(list);
  }

  window.CroupierViewer.register("hanabi", { draw: draw });
})();
